package screen

import (
	"fmt"
	"image"
	"time"

	"github.com/mark1-perceptron/mark1/museum/health"
)

// StaffPart is a control of the staff screen.
type StaffPart int

// The staff screen's controls.
const (
	StaffNone StaffPart = iota
	StaffMute
	StaffQuieter
	StaffLouder
	StaffClose
)

// Staff is the staff screen: the exhibit's status, the curator's file's problems, the last
// errors, and the sound's controls. It is drawn about once a second while open (it allocates
// then: it is not the visitors' screen).
type Staff struct {
	img                          *image.RGBA
	mute, quieter, louder, close image.Rectangle
}

// StaffSize is the staff screen's size.
var StaffSize = image.Pt(1040, 820)

// NewStaff returns a staff screen.
func NewStaff() *Staff {
	s := &Staff{img: image.NewRGBA(image.Rectangle{Max: StaffSize})}
	y := StaffSize.Y - 84
	s.mute = image.Rect(24, y, 224, y+60)
	s.quieter = image.Rect(240, y, 380, y+60)
	s.louder = image.Rect(396, y, 536, y+60)
	s.close = image.Rect(StaffSize.X-224, y, StaffSize.X-24, y+60)
	return s
}

// Image returns the staff screen's picture.
func (s *Staff) Image() *image.RGBA { return s.img }

// HitTest returns the control at q (the staff screen's coordinates).
func (s *Staff) HitTest(q image.Point) StaffPart {
	switch {
	case q.In(s.mute):
		return StaffMute
	case q.In(s.quieter):
		return StaffQuieter
	case q.In(s.louder):
		return StaffLouder
	case q.In(s.close):
		return StaffClose
	}
	return StaffNone
}

// Draw draws st; muted and volume are the sound's controls' state.
func (s *Staff) Draw(st health.Status, muted bool, volume float64) {
	dst := s.img
	fill(dst, dst.Rect, colBack)
	fill(dst, dst.Rect.Inset(4), colPanel)
	frame(dst, dst.Rect.Inset(4), 2, colAmber)
	title := "STAFF: MARK I PERCEPTRON"
	if st.Institution != "" {
		title += ", " + st.Institution
	}
	text(dst, face(1, 26), 24, 44, title, colAmber)
	text(dst, face(0, 16), 24, 70, "Ctrl+Shift+S or CLOSE returns to the visitors' screen. The same figures: the status endpoint and file (docs/kiosk.md).", colDim)
	f := face(0, 19)
	y := 110
	line := func(label, value string, c any) {
		text(dst, face(1, 19), 24, y, label, colHeading)
		col := colText
		if cc, ok := c.(bool); ok && !cc {
			col = colRed
		}
		text(dst, f, 270, y, value, col)
		y += 28
	}
	up := time.Duration(st.UptimeSeconds * float64(time.Second)).Round(time.Second)
	line("Running for", fmt.Sprintf("%v, since %s", up, st.Started.Format("2006-01-02 15:04")), true)
	line("Frames", fmt.Sprintf("%.1f a second; the longest gap in the last 10 s %.0f ms", st.FrameRate, st.FrameMaxMS), st.FrameMaxMS < 200 || st.FrameRate == 0)
	line("Presentations", fmt.Sprintf("%d since the start; %d in this machine's life", st.Presentations, st.MachinePresentations), true)
	line("Machine", fmt.Sprintf("%s, %s, epoch %d%s", st.Experiment, st.Mode, st.Epoch, map[bool]string{true: " (attract mode)"}[st.Attracting]), true)
	saved := "never (no state folder, or nothing learned yet)"
	if !st.LastSave.IsZero() {
		saved = fmt.Sprintf("%s (%v ago)", st.LastSave.Format("2006-01-02 15:04:05"), st.Now.Sub(st.LastSave).Round(time.Second))
	}
	line("Last save", saved, true)
	cam := st.Camera
	if st.CameraDevice != "" {
		cam += " (" + st.CameraDevice + ")"
	}
	if st.Camera == "live" {
		cam += fmt.Sprintf(", %.0f pictures a second", st.CameraFPS)
	}
	line("Camera", cam, st.Camera == "live" || st.Camera == "off")
	line("Sound", fmt.Sprintf("%s, volume %.0f%%", st.Sound, 100*volume), true)
	if r := st.Rig; r != nil {
		state := r.State
		if r.FaultyChip != "" {
			state += " (" + r.FaultyChip + ")"
		}
		if r.Emulated {
			state += ", learning on the emulated racks"
		}
		line("Rig", fmt.Sprintf("%s at %s: %s; generation %d", r.Mode, r.Bridge, state, r.Generation),
			r.Connected && !r.Emulated && r.Faults == 0 && r.State != "halted" && r.State != "held")
		line("Rig's knobs", fmt.Sprintf("%d, %d turning, read-back off by %.2f at most; sent %d, bus %d frames, %d bytes",
			r.Knobs, r.Moving, r.ReadbackError, r.Sent, r.BusFrames, r.BusBytes), true)
	}
	line("Memory", fmt.Sprintf("%.1f MB of Go heap", st.HeapMB), true)
	line("Errors", fmt.Sprintf("%d since the start", st.Errors), st.Errors == 0)
	y += 8
	if st.CuratorFile != "" || len(st.CuratorProblems) > 0 {
		text(dst, face(1, 19), 24, y, "Curator's file "+st.CuratorFile, colHeading)
		y += 26
		if len(st.CuratorProblems) == 0 {
			text(dst, f, 40, y, "read without a mistake", colGreen)
			y += 26
		}
		for i, p := range st.CuratorProblems {
			if i == 6 {
				text(dst, f, 40, y, fmt.Sprintf("and %d more (the log has them all)", len(st.CuratorProblems)-i), colRed)
				y += 26
				break
			}
			y = wrap(dst, face(0, 17), 40, y, StaffSize.X-80, 22, 2, p, colRed) + 4
		}
		y += 8
	}
	if len(st.LastErrors) > 0 {
		text(dst, face(1, 19), 24, y, "Last errors", colHeading)
		y += 26
		for i := len(st.LastErrors) - 1; i >= 0 && y < StaffSize.Y-110; i-- {
			y = wrap(dst, face(0, 16), 40, y, StaffSize.X-80, 21, 2, st.LastErrors[i], colText) + 2
		}
	}
	label := "MUTE"
	if muted {
		label = "UNMUTE"
	}
	button(dst, s.mute, label, muted, false, 20)
	button(dst, s.quieter, "VOL −", false, false, 20)
	button(dst, s.louder, "VOL +", false, false, 20)
	button(dst, s.close, "CLOSE", false, false, 20)
}
