package view_test

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"testing"

	"golang.org/x/image/font"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// mirrorKnobs are a mirror rig's knobs, as the simulated rig's file has them: R0's A-units 0
// to 22 and its bias.
func mirrorKnobs(f *session.Frame) session.Rig {
	r := session.Rig{Attached: true, Seq: 7, State: session.RigTurning, Addr: "127.0.0.1:8707", Generation: 2, Sent: 1234,
		BusFrames: 456, BusBytes: 56789, AllKnobs: 24, NKnobs: 24}
	pots := f.Machine.Pots[0]
	for i := range 24 {
		a, w := i, pots[i]
		if i == 23 {
			a, w = -1, pots[len(pots)-1]
		}
		k := session.RigKnob{R: 0, A: int16(a), Target: float32(w), Reading: float32(w), Readback: i >= 16 && i < 20}
		if i%5 == 2 { // on its way: the knob lags its target
			k.Reading, k.Moving = float32(w*0.5), true
			r.Moving++
		}
		r.Knobs[i] = k
	}
	r.ReadbackError = 0.42
	return r
}

// rigFrames are before and after with a mirror rig attached.
func rigFrames(t testing.TB, before, after *session.Frame) (*session.Frame, *session.Frame) {
	b, a := *before, *after
	b.Rig, a.Rig = mirrorKnobs(before), mirrorKnobs(after)
	return &b, &a
}

// loopRigFrame is the simulated loop rig's machine (15 A-units wired in strips, one R-unit,
// left/right) trained two epochs, its bridge gone: the learning is on the emulated pots.
func loopRigFrame(t testing.TB) *session.Frame {
	wiring, err := os.ReadFile("../testdata/rig/strips15.wiring")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := hwapi.LoopConfig(&hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "strips15.wiring", Board: string(wiring)})
	if err != nil {
		t.Fatal(err)
	}
	lr := newRig(t, "leftright", cfg)
	lr.epochs(2)
	k := 7
	a := lr.m.Present(&lr.deck.Stimuli[k])
	f := lr.frame(session.TrainCard, session.Training, k, lr.deck.Class[k], a)
	f.Rig = session.Rig{Attached: true, Loop: true, Seq: 3, State: session.RigNotConnected, Emulated: true, Addr: "raspberrypi.local:8707",
		Generation: 1, Sent: 57, BusBytes: 912, AllKnobs: 16, NKnobs: 16}
	pots := f.Machine.Pots[0]
	for i, w := range pots {
		a := i
		if i == len(pots)-1 {
			a = -1
		}
		// The pots where the rig last read them, the machine's weights gone on since.
		f.Rig.Knobs[i] = session.RigKnob{R: 0, A: int16(a), Target: float32(w), Reading: float32(w) - float32(i%3)*0.25, Readback: true}
	}
	return f
}

// rigWords are the rig's states as the screen writes them (English).
var rigWords = map[session.RigState]string{
	session.RigConnecting: "CONNECTING", session.RigNotConnected: "NOT CONNECTED", session.RigSyncing: "RETURNING TO THE WEIGHTS",
	session.RigTurning: "TURNING", session.RigResting: "AT REST", session.RigHeld: "HELD BY ITS WATCHDOG",
	session.RigHalted: "HALTED BY AN OPERATOR", session.RigFault: "A CHIP IS FAULTY", session.RigNotFollowing: "NOT FOLLOWING",
	session.RigOther: "ANOTHER RIG",
}

// near reports whether q is within tol of c in every channel.
func nearColour(q, c color.RGBA, tol int) bool {
	return absInt(int(q.R)-int(c.R)) <= tol && absInt(int(q.G)-int(c.G)) <= tol && absInt(int(q.B)-int(c.B)) <= tol
}

// checkRig reads the rig's panel: its state's word in its colour; each knob's gauge, a bar
// from zero to where the knob is (red above, blue below, amber while it turns) and a white
// line at its target; and the mark on each dial with a real knob. Without a rig, no dial is
// marked.
func checkRig(s *seen) []string {
	var out []string
	r := &s.f.Rig
	racks := min(len(s.f.Machine.Pots), 8)
	if !r.Attached || s.ui.Zoom >= 0 {
		marked := 0
		for y := 198; y < 820; y++ {
			for x := 924; x < 1904; x++ {
				if s.img.RGBAAt(x, y) == view.ColKnob {
					marked++
				}
			}
		}
		if marked > 0 && !r.Attached {
			out = append(out, fmt.Sprintf("no rig, and %d pixels of a knob's mark on the racks", marked))
		}
		return out
	}
	var words []string
	for _, w := range rigWords {
		words = append(words, w)
	}
	at := s.sc.RigStateAt()
	zone := image.Rect(at.X-4, at.Y-24, s.sc.RigRect().Max.X-8, at.Y+7)
	if got, q, _ := read(s, zone, []font.Face{fontTitle(s.t())}, words, view.RigColour(r), view.ColTitleBar); got != rigWords[r.State] || q < readWell {
		out = append(out, fmt.Sprintf("the rig's state reads %q (%.2f), want %q", got, q, rigWords[r.State]))
	}
	if c := px(s.img, image.Pt(at.X-19, at.Y-8)); !nearColour(c, view.RigColour(r), 30) {
		out = append(out, fmt.Sprintf("the rig's lamp is %v, want %v", c, view.RigColour(r)))
	}
	bars, lines := 0, 0
	for i, k := range r.Knobs[:r.NKnobs] {
		track, mid, half, scale := s.sc.RigGauge(r, i)
		cx := (track.Min.X + track.Max.X) / 2
		clamp := func(v float32) float64 { return max(-1, min(1, float64(v)/float64(scale))) }
		ty := mid - int(math.Round(clamp(k.Target)*half))
		if c := px(s.img, image.Pt(track.Min.X-3, ty)); !nearColour(c, view.ColText, 10) {
			lines++
		}
		ry := mid - int(math.Round(clamp(k.Reading)*half))
		if absInt(ry-mid) < 4 {
			continue // too short a bar to read
		}
		in := px(s.img, image.Pt(cx, (ry+mid)/2))
		sign := 1
		if ry > mid {
			sign = -1
		}
		beyond := image.Pt(cx, ry-3*sign)
		wrong := nearColour(in, view.ColDialFace, 8)
		switch {
		case k.Moving:
			wrong = wrong || !(in.R > 200 && in.G > 110 && in.B < 120)
		case k.Reading > 0:
			wrong = wrong || int(in.R) < int(in.B)+30
		default:
			wrong = wrong || int(in.B) < int(in.R)+30
		}
		if beyond.In(track) && absInt(beyond.Y-ty) > 2 && !nearColour(px(s.img, beyond), view.ColDialFace, 8) {
			wrong = true // the bar goes past the knob's reading
		}
		if wrong {
			bars++
		}
	}
	if bars > 0 || lines > 0 {
		out = append(out, fmt.Sprintf("%d of %d gauges' bars are not where their knobs are, %d lines not at their targets", bars, r.NKnobs, lines))
	}
	unmarked := 0
	for _, k := range r.Knobs[:r.NKnobs] {
		rr, p := int(k.R), int(k.A)
		if rr >= min(racks, 5) {
			continue
		}
		if p < 0 {
			p = len(s.f.Machine.Pots[rr]) - 1
		}
		c := s.sc.DialCentre(rr, p)
		hits := 0
		for _, d := range []image.Point{{0, -7}, {7, 0}, {-7, 0}, {0, 6}} {
			if nearColour(px(s.img, c.Add(d)), view.ColKnob, 60) {
				hits++
			}
		}
		if hits < 2 {
			unmarked++
		}
	}
	if unmarked > 0 {
		out = append(out, fmt.Sprintf("%d of the dials with a real knob are not marked", unmarked))
	}
	return out
}

// Every state of the rig, for a mirror and for a loop (emulated or not), with a long bridge's
// name and chip's name and large numbers, fits the rig's panel in every language and both
// text sizes: no text cut, out of its panel or over another.
func TestRigTextsFit(t *testing.T) {
	if testing.Short() {
		t.Skip("draws the rig's panel in every state and language")
	}
	var base []screen
	for _, s := range screens(t) {
		if s.name == "rig" || s.name == "rig-loop" {
			if s.then != nil {
				s.frame, s.then = s.then, nil
			}
			base = append(base, s)
		}
	}
	if len(base) != 2 {
		t.Fatalf("%d rig screens", len(base))
	}
	for _, b := range base {
		for st := session.RigConnecting; st <= session.RigOther; st++ {
			for _, emulated := range []bool{false, true} {
				if emulated && !b.frame.Rig.Loop {
					continue
				}
				for l := range i18n.NumLangs {
					for _, large := range []bool{false, true} {
						name := fmt.Sprintf("%s/%v/emulated=%v/%s/large=%v", b.name, st, emulated, l.Code(), large)
						t.Run(name, func(t *testing.T) {
							f := *b.frame
							f.Rig.State, f.Rig.Emulated = st, emulated
							f.Rig.Addr, f.Rig.Chip = "exhibit-bridge-07.museum.local:8707", "readback-adc-12"
							f.Rig.Generation, f.Rig.Sent, f.Rig.BusBytes, f.Rig.ReadbackError = 123456, 9876543, 987654321, 12.3
							s := screen{name: name, frame: &f, ui: view.UI{Zoom: -1, Unit: b.ui.Unit, Lang: l, LargeText: large}}
							runs, cuts, sc, img := traced(t, s)
							for _, p := range textProblems(runs, cuts, sc.Boxes(), img) {
								t.Error(p)
							}
						})
					}
				}
			}
		}
	}
}
