package museum

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"runtime"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	ebaudio "github.com/hajimehoshi/ebiten/v2/audio"

	"github.com/mark1-perceptron/mark1/museum/audio"
	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/health"
	"github.com/mark1-perceptron/mark1/museum/screen"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// colorBack is the screen around the layout's pieces.
var colorBack = color.RGBA{14, 16, 21, 255}

// What the window adds around view's picture: the layout (landscape or portrait, the camera
// panel, the title band, the turn), the sound, the staff screen and the health figures.
type extras struct {
	layout    *screen.Layout
	layoutKey screen.Options
	viewImg   *ebiten.Image
	dimImg    *ebiten.Image // one dark pixel, stretched over the machine under an overlay
	panel     *screen.Panel
	panelImg  *ebiten.Image
	panelSt   screen.PanelState
	bandImg   *ebiten.Image
	staff     *screen.Staff
	staffImg  *ebiten.Image
	staffOpen bool
	staffAt   time.Time
	op        ebiten.DrawImageOptions
	pressed   screen.PanelPart

	synth     *audio.Synth
	motors    audio.Motors
	player    *ebaudio.Player
	soundErr  string
	soundSeq  uint64
	motorsAt  time.Time
	lastCount uint64
	lastExp   string

	presented uint64
	healthAt  time.Time
	problem   string
	rigState  session.RigState // the rig's state as last seen, for the errors counted
	mem       runtime.MemStats
	memAt     time.Time
}

// portrait decides the layout's shape for a window of w x h.
func (g *Game) portrait(w, h int) bool {
	switch g.opts.Orientation {
	case "portrait":
		return true
	case "landscape":
		return false
	}
	if g.opts.Rotate == 90 || g.opts.Rotate == 270 {
		w, h = h, w
	}
	return h > w
}

// relayout makes the layout for a window of w x h, when it changed.
func (g *Game) relayout(w, h int) *screen.Layout {
	o := screen.Options{Portrait: g.portrait(w, h), Camera: g.con.HasCamera(), Title: g.opts.Institution, Rotate: g.opts.Rotate}
	if g.x.layout != nil && o == g.x.layoutKey {
		return g.x.layout
	}
	l := screen.New(o)
	g.x.layout, g.x.layoutKey, g.dirty = l, o, true
	if !l.Panel.Empty() && (g.x.panel == nil || g.x.panel.Image().Rect.Size() != l.Panel.Size()) {
		g.x.panel = screen.NewPanel(l.Panel.Dx(), l.Panel.Dy())
		g.x.panelImg = ebiten.NewImage(l.Panel.Dx(), l.Panel.Dy())
	}
	if !l.Band.Empty() {
		band := image.NewRGBA(image.Rectangle{Max: l.Band.Size()})
		screen.DrawBand(band, band.Rect, g.opts.Institution)
		g.x.bandImg = ebiten.NewImage(l.Band.Dx(), l.Band.Dy())
		g.x.bandImg.WritePixels(band.Pix)
	}
	return l
}

// place maps a point of the screen to the console: the machine's points in view's
// coordinates; the camera panel's and the staff screen's controls act on Up.
func (g *Game) place(p image.Point) (screen.Where, image.Point) {
	if g.x.layout == nil {
		return screen.OnMachine, p
	}
	return g.x.layout.At(p)
}

// staffRect is where the staff screen is, in the layout's coordinates.
func (g *Game) staffRect() image.Rectangle {
	l := g.x.layout
	r := image.Rectangle{Max: screen.StaffSize}
	return r.Add(image.Pt((l.W-r.Dx())/2, (l.H-r.Dy())/2))
}

// staffPart returns the staff screen's control at the screen's point p.
func (g *Game) staffPart(p image.Point) screen.StaffPart {
	if g.x.layout == nil || g.x.staff == nil {
		return screen.StaffNone
	}
	r := g.staffRect()
	return g.x.staff.HitTest(g.x.layout.Unturn(p).Sub(r.Min))
}

// staffAct carries out a tap on the staff screen.
func (g *Game) staffAct(part screen.StaffPart) {
	switch part {
	case screen.StaffClose:
		g.toggleStaff()
	case screen.StaffMute:
		if g.x.synth != nil {
			g.x.synth.SetMuted(!g.x.synth.Muted())
		}
	case screen.StaffQuieter, screen.StaffLouder:
		if g.x.synth != nil {
			d := 0.1
			if part == screen.StaffQuieter {
				d = -0.1
			}
			g.x.synth.SetVolume(math.Round((g.x.synth.Volume()+d)*10) / 10)
		}
	}
	g.x.staffAt = time.Time{} // draw it again now
}

func (g *Game) toggleStaff() {
	g.x.staffOpen = !g.x.staffOpen
	g.x.staffAt, g.dirty = time.Time{}, true
	if g.x.staff == nil {
		g.x.staff = screen.NewStaff()
		g.x.staffImg = ebiten.NewImage(screen.StaffSize.X, screen.StaffSize.Y)
	}
}

// panelTap is a press or release on the camera panel.
func (g *Game) panelTap(q image.Point, down bool) {
	if g.x.panel == nil {
		return
	}
	part := g.x.panel.HitTest(q)
	if down {
		g.x.pressed = part
		g.con.MouseMoved()
		return
	}
	if part == g.x.pressed {
		switch part {
		case screen.PanelShow:
			g.con.ShowIt()
		case screen.PanelLive, screen.PanelPicture:
			g.con.SetCameraLive(!g.con.CameraLive())
		}
	}
	g.x.pressed = screen.PanelNone
}

// sound follows the frame: a click for each R-unit corrected, the whir of the motors turning.
func (g *Game) sound(now time.Time) {
	s := g.x.synth
	if s == nil {
		return
	}
	if g.x.player == nil && g.x.soundErr == "" && (!g.opts.SoundAfterTouch || g.touchedOnce) {
		g.startSound()
	}
	f := &g.frame
	if f.Seq != g.x.soundSeq {
		g.x.soundSeq = f.Seq
		if (f.Kind == session.TrainCard || f.Kind == session.Taught) && f.Machine.Learning {
			s.Click(len(f.Machine.Moves))
		}
	}
	dt := now.Sub(g.x.motorsAt).Seconds()
	jump := g.x.motorsAt.IsZero() || f.Experiment != g.x.lastExp
	g.x.motorsAt, g.x.lastExp = now, f.Experiment
	n := g.x.motors.Update(f.Machine.Pots, float64(f.Speed), dt, jump)
	if r := &f.Rig; r.Attached && r.State.Connected() && !r.Emulated {
		n = audio.RigMotors(r.Moving, r.AllKnobs) // the real knobs' motors, not the screen's
	}
	s.SetMotors(n)
}

// startSound starts ebiten's audio: only when this computer has a sound device (its failure
// to open one would end the window).
func (g *Game) startSound() {
	if !audio.HaveDevice() {
		// Said on the staff screen and in the status (a kiosk without speakers is no error).
		g.x.soundErr = "no sound device"
		return
	}
	ctx := ebaudio.CurrentContext()
	if ctx == nil {
		ctx = ebaudio.NewContext(audio.SampleRate)
	}
	p, err := ctx.NewPlayerF32(g.x.synth)
	if err != nil {
		g.x.soundErr = err.Error()
		g.warn(fmt.Sprintf("sound: %v", err))
		return
	}
	p.SetBufferSize(60 * time.Millisecond)
	p.Play()
	g.x.player = p
}

func (g *Game) soundState() string {
	switch {
	case g.x.synth == nil:
		return "off"
	case g.x.soundErr != "":
		return g.x.soundErr
	case g.x.player == nil:
		return "waiting for the first touch"
	case g.x.synth.Muted():
		return "muted"
	}
	return "on"
}

// healthTick counts presentations every frame and tells the monitor once a second.
func (g *Game) healthTick(now time.Time) {
	f := &g.frame
	if f.Machine.Count > g.x.lastCount && f.Experiment == g.x.lastExp {
		g.x.presented += f.Machine.Count - g.x.lastCount
	}
	g.x.lastCount = f.Machine.Count
	m := g.opts.Monitor
	if m != nil && f.Problem != g.x.problem {
		g.x.problem = f.Problem
		if f.Problem != "" {
			m.Error(f.Problem)
		}
	}
	if r := &f.Rig; m != nil && r.Attached && r.State != g.x.rigState {
		g.x.rigState = r.State
		switch r.State {
		case session.RigNotConnected, session.RigHalted, session.RigFault, session.RigNotFollowing, session.RigOther:
			m.Error(rigProblem(r))
		}
	}
	if m == nil || now.Sub(g.x.healthAt) < time.Second {
		return
	}
	if now.Sub(g.x.memAt) >= 10*time.Second {
		runtime.ReadMemStats(&g.x.mem)
		g.x.memAt = now
	}
	// The frames of the last 10 s or so.
	n, span, worst := 0, time.Duration(0), time.Duration(0)
	for i := len(g.between) - 1; i >= 0 && span < 10*time.Second; i-- {
		span += g.between[i]
		worst = max(worst, g.between[i])
		n++
	}
	rate := 0.0
	if span > 0 {
		rate = float64(n) / span.Seconds()
	}
	var cam camera.Status
	_, _, cam = g.con.CameraPicture()
	m.Update(func(s *health.Status) {
		s.FrameRate, s.FrameMaxMS = rate, ms(worst)
		s.Presentations, s.MachinePresentations = g.x.presented, f.Machine.Count
		s.Experiment, s.Mode, s.Epoch = f.Experiment, f.Mode.String(), f.Epoch
		s.Attracting = g.con.Attracting()
		s.Sound = g.soundState()
		s.HeapMB = float64(g.x.mem.HeapAlloc) / 1e6
		if g.con.HasCamera() {
			s.Camera, s.CameraDevice, s.CameraFPS = cam.State.String(), cam.Name, cam.FPS
		}
		if r := &f.Rig; r.Attached {
			s.Rig = rigStatus(r)
		}
	})
	g.x.healthAt = now
}

// drawComposed draws the layout: view's picture in its tiles, the camera panel, the title
// band, the staff screen, all turned by the layout's rotation.
func (g *Game) drawComposed(scr *ebiten.Image, pic *image.RGBA, fresh bool) {
	l := g.x.layout
	if g.x.viewImg == nil {
		g.x.viewImg = ebiten.NewImage(view.Width, view.Height)
	}
	if fresh {
		g.x.viewImg.WritePixels(pic.Pix)
	}
	scr.Fill(colorBack)
	l.SetOverlay(g.scene.Overlay())
	turn := func(op *ebiten.DrawImageOptions) {
		switch l.Rotate {
		case 90:
			op.GeoM.Rotate(math.Pi / 2)
			op.GeoM.Translate(float64(l.H), 0)
		case 180:
			op.GeoM.Rotate(math.Pi)
			op.GeoM.Translate(float64(l.W), float64(l.H))
		case 270:
			op.GeoM.Rotate(3 * math.Pi / 2)
			op.GeoM.Translate(0, float64(l.W))
		}
	}
	op := &g.x.op
	for _, t := range l.Tiles {
		op.GeoM.Reset()
		op.Filter = ebiten.FilterNearest
		if t.Dst.Size() != t.Src.Size() {
			op.Filter = ebiten.FilterLinear
		}
		op.GeoM.Scale(t.Scale(), t.Scale())
		op.GeoM.Translate(float64(t.Dst.Min.X), float64(t.Dst.Min.Y))
		turn(op)
		scr.DrawImage(g.x.viewImg.SubImage(t.Src).(*ebiten.Image), op)
	}
	if t := l.Over; !t.Src.Empty() {
		// What view drew over the machine, which the tiles cut apart, whole on top of a
		// darkened machine.
		if g.x.dimImg == nil {
			g.x.dimImg = ebiten.NewImage(1, 1)
			g.x.dimImg.Fill(color.RGBA{0, 0, 0, 215})
		}
		op.GeoM.Reset()
		op.Filter = ebiten.FilterNearest
		op.GeoM.Scale(float64(l.W), float64(l.H))
		turn(op)
		scr.DrawImage(g.x.dimImg, op)
		op.GeoM.Reset()
		op.Filter = ebiten.FilterLinear
		op.GeoM.Scale(t.Scale(), t.Scale())
		op.GeoM.Translate(float64(t.Dst.Min.X), float64(t.Dst.Min.Y))
		turn(op)
		scr.DrawImage(g.x.viewImg.SubImage(t.Src).(*ebiten.Image), op)
	}
	place := func(img *ebiten.Image, at image.Point) {
		op.GeoM.Reset()
		op.Filter = ebiten.FilterNearest
		op.GeoM.Translate(float64(at.X), float64(at.Y))
		turn(op)
		scr.DrawImage(img, op)
	}
	if g.x.panel != nil && !l.Panel.Empty() {
		place(g.x.panelImg, l.Panel.Min)
	}
	if g.x.bandImg != nil && !l.Band.Empty() {
		place(g.x.bandImg, l.Band.Min)
	}
	if g.x.staffOpen {
		place(g.x.staffImg, g.staffRect().Min)
	}
}

// updatePanels brings the camera panel's and the staff screen's pictures up to date; it
// reports whether either changed.
func (g *Game) updatePanels(now time.Time) bool {
	changed := false
	if g.x.panel != nil && g.x.layout != nil && !g.x.layout.Panel.Empty() {
		st := &g.x.panelSt
		st.Picture, st.Seq, st.Status = g.con.CameraPicture()
		st.Live, st.Pressed = g.con.CameraLive(), g.x.pressed
		st.Lang = g.con.UI.Lang
		if g.x.panel.Draw(st) {
			g.x.panelImg.WritePixels(g.x.panel.Image().Pix)
			changed = true
		}
	}
	if g.x.staffOpen && (g.x.staffAt.IsZero() || now.Sub(g.x.staffAt) >= time.Second) {
		g.x.staffAt = now
		st := health.Status{}
		if g.opts.Monitor != nil {
			st = g.opts.Monitor.Snapshot()
		}
		muted, vol := false, 0.0
		if g.x.synth != nil {
			muted, vol = g.x.synth.Muted(), g.x.synth.Volume()
		}
		g.x.staff.Draw(st, muted, vol)
		g.x.staffImg.WritePixels(g.x.staff.Image().Pix)
		changed = true
	}
	return changed
}

// warn logs a problem the staff may want to know of.
func (g *Game) warn(msg string) {
	if g.opts.Logger != nil {
		g.opts.Logger.Warn(msg)
	}
}

// rigStatus is the rig's state for the staff.
func rigStatus(r *session.Rig) *health.RigStatus {
	mode := "mirror"
	if r.Loop {
		mode = "loop"
	}
	return &health.RigStatus{Bridge: r.Addr, Mode: mode, Connected: r.State.Connected(), State: r.State.String(), Emulated: r.Emulated,
		Generation: r.Generation, Faults: r.Faults, FaultyChip: r.Chip, Knobs: r.AllKnobs, Moving: r.Moving,
		ReadbackError: r.ReadbackError, Sent: r.Sent, BusFrames: r.BusFrames, BusBytes: r.BusBytes}
}

// rigProblem says, for the staff's errors, what is wrong with the rig.
func rigProblem(r *session.Rig) string {
	msg := fmt.Sprintf("the rig at %s: %s", r.Addr, r.State)
	if r.Chip != "" {
		msg += " (" + r.Chip + ")"
	}
	if r.Emulated {
		msg += "; the machine learns on its emulated racks"
	}
	return msg
}
