package view_test

import (
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

func centre(r image.Rectangle) image.Point { return r.Min.Add(r.Size().Div(2)) }

func TestHitTest(t *testing.T) {
	r := newRig(t, "shapes", machine.Default())
	f := r.frame(session.None, session.Stopped, -1, -1, -1)
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ui := &view.UI{Zoom: -1}
	sc.Draw(f, ui, time.Now())
	for _, c := range []struct {
		name string
		at   image.Point
		want view.Part
	}{
		{"cell-0", centre(sc.CellRect(0)), view.Part{Kind: view.PartCell, Index: 0}},
		{"cell-399", centre(sc.CellRect(399)), view.Part{Kind: view.PartCell, Index: 399}},
		{"cell-143", centre(sc.CellRect(7*20 + 3)), view.Part{Kind: view.PartCell, Index: 143}},
		{"lamp-0", sc.LampCentre(0), view.Part{Kind: view.PartLamp, Index: 0}},
		{"lamp-511", sc.LampCentre(511), view.Part{Kind: view.PartLamp, Index: 511}},
		{"lamp-77", sc.LampCentre(77), view.Part{Kind: view.PartLamp, Index: 77}},
		{"dial-0-0", sc.DialCentre(0, 0), view.Part{Kind: view.PartDial, Index: 0, Sub: 0}},
		{"dial-7-512", sc.DialCentre(7, 512), view.Part{Kind: view.PartDial, Index: 7, Sub: 512}},
		{"dial-3-250", sc.DialCentre(3, 250), view.Part{Kind: view.PartDial, Index: 3, Sub: 250}},
		{"rlamp-5", centre(sc.RLampRect(5)), view.Part{Kind: view.PartRLamp, Index: 5}},
		{"button-train", centre(sc.ButtonRect(view.ButtonTrain)), view.Part{Kind: view.PartButton, Index: int(view.ButtonTrain)}},
		{"button-reset", centre(sc.ButtonRect(view.ButtonReset)), view.Part{Kind: view.PartButton, Index: int(view.ButtonReset)}},
		{"rule-forced", centre(sc.RuleRect(1)), view.Part{Kind: view.PartRule, Index: int(machine.Forced)}},
		{"speed-4", centre(sc.SpeedRect(4)), view.Part{Kind: view.PartSpeed, Index: 4}},
		{"experiment-3", centre(sc.ExperimentRect(3)), view.Part{Kind: view.PartExperiment, Index: 3}},
		{"class-key-2", centre(sc.ClassKeyRect(2)), view.Part{Kind: view.PartClass, Index: 2}},
		{"clear", centre(sc.ClearRect()), view.Part{Kind: view.PartClear}},
		{"unit-next", centre(sc.UnitNextRect()), view.Part{Kind: view.PartUnitNext}},
		{"title", image.Pt(100, 20), view.Part{Kind: view.PartTitle}},
		{"outside", image.Pt(-5, 2000), view.Part{}},
		// Every other kind of part, and the panels around the parts (Index -1).
		{"caption", centre(sc.CaptionRect()), view.Part{Kind: view.PartCaption}},
		{"card", centre(sc.CardRect()), view.Part{Kind: view.PartCard}},
		{"card-margin", sc.CardRect().Min.Sub(image.Pt(3, 3)), view.Part{Kind: view.PartCard}},
		{"answer", centre(sc.AnswerRect()), view.Part{Kind: view.PartAnswer}},
		{"unit-prev", centre(sc.PartRect(view.Part{Kind: view.PartUnitPrev})), view.Part{Kind: view.PartUnitPrev}},
		{"unit-panel", centre(sc.UnitPanelRect()), view.Part{Kind: view.PartUnit}},
		{"heat-2", centre(sc.HeatRect(2)), view.Part{Kind: view.PartHeat, Index: 2, Sub: 10*20 + 10}},
		{"rack-6", sc.PartRect(view.Part{Kind: view.PartRack, Index: 6}).Min.Add(image.Pt(5, 5)), view.Part{Kind: view.PartRack, Index: 6}},
		{"rule-alpha", centre(sc.PartRect(view.Part{Kind: view.PartRule})).Sub(image.Pt(100, 0)), view.Part{Kind: view.PartRule, Index: int(machine.Alpha)}},
		{"curve", centre(sc.PartRect(view.Part{Kind: view.PartCurve})), view.Part{Kind: view.PartCurve}},
		{"language", centre(sc.LanguageRect()), view.Part{Kind: view.PartLanguage}},
		{"large-text", centre(sc.PartRect(view.Part{Kind: view.PartLargeText})), view.Part{Kind: view.PartLargeText}},
		{"help", centre(sc.PartRect(view.Part{Kind: view.PartHelp})), view.Part{Kind: view.PartHelp}},
		{"cells-panel", sc.CellRect(0).Min.Sub(image.Pt(10, 10)), view.Part{Kind: view.PartCell, Index: -1}},
		{"lamps-panel", sc.LampCentre(0).Sub(image.Pt(0, 15)), view.Part{Kind: view.PartLamp, Index: -1}},
		{"rlamps-panel", sc.RLampRect(0).Min.Sub(image.Pt(0, 10)), view.Part{Kind: view.PartRLamp, Index: -1}},
		{"heat-panel", sc.HeatRect(0).Min.Sub(image.Pt(0, 10)), view.Part{Kind: view.PartHeat, Index: -1, Sub: -1}},
	} {
		t.Run("usual/"+c.name, func(t *testing.T) {
			if got := sc.HitTest(c.at); got != c.want {
				t.Errorf("HitTest(%v) = %+v, want %+v", c.at, got, c.want)
			}
		})
	}
	// Zoomed, the rack covers the lamps.
	ui.Zoom = 2
	sc.Draw(f, ui, time.Now())
	for _, c := range []struct {
		name string
		at   image.Point
		want view.Part
	}{
		{"dial-2-0", sc.ZoomCentre(0), view.Part{Kind: view.PartDial, Index: 2, Sub: 0}},
		{"dial-2-512", sc.ZoomCentre(512), view.Part{Kind: view.PartDial, Index: 2, Sub: 512}},
		{"zoom-close", centre(sc.ZoomCloseRect()), view.Part{Kind: view.PartZoomClose}},
		{"cell-5", centre(sc.CellRect(5)), view.Part{Kind: view.PartCell, Index: 5}},
		{"zoom-heat", centre(sc.ZoomHeatRect()), view.Part{Kind: view.PartHeat, Index: 2, Sub: 10*20 + 10}},
		{"rack-over-lamps", sc.LampCentre(0), view.Part{Kind: view.PartRack, Index: 2}},
	} {
		t.Run("zoomed/"+c.name, func(t *testing.T) {
			if got := sc.HitTest(c.at); got != c.want {
				t.Errorf("zoomed: HitTest(%v) = %+v, want %+v", c.at, got, c.want)
			}
		})
	}
	// The help, open, is over everything but the title bar.
	ui.Help = true
	sc.Draw(f, ui, time.Now())
	for _, c := range []struct {
		name string
		at   image.Point
		want view.Part
	}{
		{"dial-under-help", sc.ZoomCentre(0), view.Part{Kind: view.PartHelp, Index: 1}},
		{"help", centre(sc.PartRect(view.Part{Kind: view.PartHelp})), view.Part{Kind: view.PartHelp}},
	} {
		t.Run("help/"+c.name, func(t *testing.T) {
			if got := sc.HitTest(c.at); got != c.want {
				t.Errorf("help: HitTest(%v) = %+v, want %+v", c.at, got, c.want)
			}
		})
	}
}

func near(c, want color.RGBA, tol int) bool {
	d := func(a, b uint8) int {
		if a > b {
			return int(a - b)
		}
		return int(b - a)
	}
	return d(c.R, want.R) <= tol && d(c.G, want.G) <= tol && d(c.B, want.B) <= tol
}

// What is lit and what moves: a lamp is amber exactly where its A-unit fired, an S-unit's
// lamp where its cell is on, and a dial's motor glows while its pointer turns toward a new
// reading, and not once it has arrived.
func TestLitAndMoved(t *testing.T) {
	f1, f2 := framesInTraining(t)
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ui := &view.UI{Zoom: -1, Unit: -1} // no wiring drawn over the cells
	t0 := time.Now()
	sc.Draw(f1, ui, t0)
	img := sc.Draw(f2, ui, t0.Add(50*time.Millisecond))
	lit := 0
	for a := range 512 {
		c := sc.LampCentre(a)
		on := f2.Machine.A[a/64]>>(a%64)&1 == 1
		got := img.RGBAAt(c.X, c.Y)
		if on != near(got, view.ColAmber, 40) {
			t.Fatalf("A-unit %d: firing %v, lamp colour %v", a, on, got)
		}
		if on {
			lit++
		}
	}
	if lit != f2.Machine.Active || lit == 0 {
		t.Errorf("%d lamps lit, %d A-units active", lit, f2.Machine.Active)
	}
	for s := range 400 {
		c := centre(sc.CellRect(s))
		got := img.RGBAAt(c.X, c.Y)
		if f2.Machine.S.Get(s) != near(got, view.ColAmber, 40) {
			t.Fatalf("S-unit %d: on %v, centre colour %v", s, f2.Machine.S.Get(s), got)
		}
	}
	// A corrected rack's active pots: their motors glow (a ring of amber around the face).
	mv := f2.Machine.Moves[0]
	glowing := func(img *image.RGBA, r, p int) bool {
		c := sc.DialCentre(r, p)
		n := 0
		for _, d := range []image.Point{{5, 0}, {-5, 0}, {0, 5}, {0, -5}} {
			px := img.RGBAAt(c.X+d.X, c.Y+d.Y)
			if px.R > 150 && px.G > 70 && px.B < 90 {
				n++
			}
		}
		return n >= 3
	}
	moved, still := 0, 0
	for p := range 513 {
		on := p == 512 || f2.Machine.A[p/64]>>(p%64)&1 == 1
		if on && glowing(img, mv.R, p) {
			moved++
		}
		if !on && glowing(img, mv.R, p) {
			still++
		}
	}
	if moved < f2.Machine.Active || still > 0 {
		t.Errorf("rack R%d: %d active pots glow (want at least %d), %d inactive ones glow (want 0)", mv.R, moved, f2.Machine.Active, still)
	}
	// Two seconds of historical time later the motors have arrived: nothing glows.
	img = sc.Draw(f2, ui, t0.Add(2*time.Second))
	for p := range 513 {
		if glowing(img, mv.R, p) {
			t.Fatalf("rack R%d pot %d still glows after the motors arrived", mv.R, p)
		}
	}
}

func TestCaptions(t *testing.T) {
	r := newRig(t, "letters", machine.Default())
	fresh := r.frame(session.None, session.Stopped, -1, -1, -1)
	r.epochs(2)
	var wrong, right *session.Frame
	for k := 0; k < r.deck.Len() && (wrong == nil || right == nil); k++ {
		f := r.train(k, k+1, 3)
		if f.Answer != f.Want && wrong == nil {
			wrong = f
		}
		if f.Answer == f.Want && right == nil {
			right = f
		}
	}
	test := r.frame(session.TestCard, session.Testing, 4, r.deck.Class[4], r.m.Present(&r.deck.Stimuli[4]))
	test.Tested, test.TestDone, test.TestCorrect = true, 5, 4
	done := r.frame(session.TestCard, session.Stopped, 4, r.deck.Class[4], 1)
	done.Tested, done.TestDone, done.TestCorrect = true, 208, 197
	conv := r.frame(session.TrainCard, session.Stopped, 3, 3, 3)
	conv.Converged, conv.Epoch = true, 9

	ef := newRig(t, "ef", machine.Default())
	ef.epochs(3)
	shown := ef.frame(session.Shown, session.Stopped, -1, -1, 1)
	forced := machine.Default()
	forced.Rule = machine.Forced
	fr := newRig(t, "ef", forced)
	fr.epochs(1)
	var forcedRight *session.Frame
	for k := range fr.deck.Len() {
		if f := fr.train(k, k+1, 0); f.Answer == f.Want {
			forcedRight = f
			break
		}
	}

	for _, c := range []struct {
		name  string
		f     *session.Frame
		wants []string
	}{
		{"fresh", fresh, []string{"Mark I Perceptron", "Press TRAIN", "LETTERS A–Z", "draw a capital letter"}},
		{"wrong", wrong, []string{"The machine answered " + wrong.Classes[wrong.Answer] + "; it should be " + wrong.Classes[wrong.Want] + ".",
			"turn the weights of the " + itoa(wrong.Machine.Active) + " lit A-units toward " + wrong.Classes[wrong.Want], "the letter " + wrong.Classes[wrong.Want]}},
		{"right", right, []string{"answered " + right.Classes[right.Want] + ": right, so nothing changes."}},
		{"test", test, []string{"Test, card 5 of 208", "4 of 5 right so far", "nothing is learned"}},
		{"test done", done, []string{"Test finished: 197 of 208 cards right (94.7%)"}},
		{"converged", conv, []string{"Learned!", "without a mistake, after 9 epochs"}},
		{"shown", shown, []string{"Your drawing", "The machine answers F", "press the right answer"}},
		{"forced", forcedRight, []string{": right. Forced learning:", "all the same"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := view.Caption(c.f)
			for _, w := range c.wants {
				if !strings.Contains(got, w) {
					t.Errorf("%s: caption %q lacks %q", c.name, got, w)
				}
			}
		})
	}
	if n := len(wrong.Machine.Moves); n > 1 && !strings.Contains(view.Caption(wrong), "of "+itoa(n)+" racks") {
		t.Errorf("caption %q does not say %d racks turn", view.Caption(wrong), n)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// An empty frame (nothing published yet) draws without a fault.
func TestDrawEmptyFrame(t *testing.T) {
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ui := range []*view.UI{{Zoom: -1}, {Zoom: 2, Hover: view.Part{Kind: view.PartDial, Index: 2, Sub: 3}}, {Zoom: -1, Unit: 5, Hover: view.Part{Kind: view.PartLamp, Index: 5}}} {
		sc.Draw(&session.Frame{Answer: -1, Want: -1, Card: -1}, ui, time.Now())
	}
}

// The R-units are R0 to R7 on the screen, as in mark1's other commands, the lab and the rig's
// pot names (R0.A17): the descriptions of the first and last R-unit's lamp, map, rack and dials
// name them so.
func TestRUnitNames(t *testing.T) {
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, "letters", machine.Default())
	r.epochs(1)
	f := r.frame(session.TrainCard, session.Training, 0, r.deck.Class[0], 0)
	ui := &view.UI{Zoom: -1}
	sc.Draw(f, ui, time.Now())
	for _, c := range []struct {
		name string
		p    view.Part
		want string
	}{
		{"R0-lamp", view.Part{Kind: view.PartRLamp, Index: 0}, "R-unit R0:"},
		{"R7-lamp", view.Part{Kind: view.PartRLamp, Index: 7}, "R-unit R7:"},
		{"R0-map", view.Part{Kind: view.PartHeat, Index: 0}, "What R-unit R0 has learned"},
		{"R7-map", view.Part{Kind: view.PartHeat, Index: 7}, "What R-unit R7 has learned"},
		{"R0-dial", view.Part{Kind: view.PartDial, Index: 0, Sub: 17}, "into R-unit R0:"},
		{"R7-bias-dial", view.Part{Kind: view.PartDial, Index: 7, Sub: 512}, "The bias potentiometer of R-unit R7:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := sc.Describe(c.p, f, ui); !strings.Contains(got, c.want) {
				t.Errorf("%+v: %q lacks %q", c.p, got, c.want)
			}
			if got := sc.Describe(c.p, f, ui); strings.Contains(got, "R8") || strings.Contains(got, "R-unit 8") {
				t.Errorf("%+v: %q names an R-unit 8", c.p, got)
			}
		})
	}
}
