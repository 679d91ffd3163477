package view_test

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	mscreen "github.com/mark1-perceptron/mark1/museum/screen"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// accessScreens are the screens the access tests measure: the main screens, each in every
// language in the usual and the large text, and with the description of each kind of part
// shown where the pointer is.
type accessScreen struct {
	name string
	s    screen
}

func accessScreens(t *testing.T) []accessScreen {
	base := screens(t)
	hovers := []struct {
		p  view.Part
		at image.Point
	}{
		{view.Part{Kind: view.PartTitle}, image.Pt(300, 30)},
		{view.Part{Kind: view.PartCell, Index: 187}, image.Pt(200, 500)},
		{view.Part{Kind: view.PartCell, Index: -1}, image.Pt(200, 500)},
		{view.Part{Kind: view.PartLamp, Index: 40}, image.Pt(600, 250)},
		{view.Part{Kind: view.PartLamp, Index: -1}, image.Pt(600, 250)},
		{view.Part{Kind: view.PartUnit}, image.Pt(700, 460)},
		{view.Part{Kind: view.PartRLamp, Index: 3}, image.Pt(700, 540)},
		{view.Part{Kind: view.PartRLamp, Index: -1}, image.Pt(700, 540)},
		{view.Part{Kind: view.PartHeat, Index: 2}, image.Pt(700, 700)},
		{view.Part{Kind: view.PartHeat, Index: -1}, image.Pt(700, 700)},
		{view.Part{Kind: view.PartRack, Index: 1}, image.Pt(1300, 300)},
		{view.Part{Kind: view.PartDial, Index: 2, Sub: 512}, image.Pt(1300, 400)},
		{view.Part{Kind: view.PartButton, Index: 0}, image.Pt(80, 900)},
		{view.Part{Kind: view.PartButton, Index: 3}, image.Pt(480, 900)},
		{view.Part{Kind: view.PartRule, Index: 0}, image.Pt(650, 900)},
		{view.Part{Kind: view.PartSpeed, Index: 0}, image.Pt(1000, 900)},
		{view.Part{Kind: view.PartExperiment, Index: 2}, image.Pt(300, 1000)},
		{view.Part{Kind: view.PartClass, Index: 1}, image.Pt(700, 1000)},
		{view.Part{Kind: view.PartCurve}, image.Pt(1600, 950)},
		{view.Part{Kind: view.PartLanguage}, image.Pt(1600, 30)},
		{view.Part{Kind: view.PartLargeText}, image.Pt(1780, 30)},
		{view.Part{Kind: view.PartHelp}, image.Pt(1870, 30)},
	}
	var out []accessScreen
	for l := range i18n.NumLangs {
		for _, large := range []bool{false, true} {
			size := "usual"
			if large {
				size = "large"
			}
			for _, s := range base {
				s.ui.Lang, s.ui.LargeText = l, large
				out = append(out, accessScreen{fmt.Sprintf("%s/%s/%s", l.Code(), size, s.name), s})
			}
			for i, h := range hovers {
				s := base[1] // training
				if h.p.Kind == view.PartClass {
					s = base[2] // a drawing: the class keys are live
				}
				s.ui.Lang, s.ui.LargeText = l, large
				s.ui.Hover, s.ui.HoverAt = h.p, h.at
				out = append(out, accessScreen{fmt.Sprintf("%s/%s/hover%d", l.Code(), size, i), s})
			}
			// The help over the start screen (the base screens' "help" is over a test).
			s := base[0]
			s.ui.Lang, s.ui.LargeText, s.ui.Help = l, large, true
			out = append(out, accessScreen{fmt.Sprintf("%s/%s/start-help", l.Code(), size), s})
		}
	}
	return out
}

// traced draws s and returns the texts drawn, the texts cut short and the scene.
func traced(t *testing.T, s screen) ([]view.TextRun, []view.Cut, *view.Scene, *image.RGBA) {
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The last frame only (a screen that animates draws two), with its background.
	var img *image.RGBA
	if s.then != nil {
		drawScreen(t, sc, screen{frame: s.frame, ui: s.ui})
		s.frame, s.then = s.then, nil
		sc.Redraw()
	}
	runs, cuts := view.Trace(func() { img = drawScreen(t, sc, s) })
	if len(runs) < 20 {
		t.Fatalf("only %d texts traced", len(runs))
	}
	return runs, cuts, sc, img
}

// textProblems returns how the texts drawn overflow: a text cut short (more lines than its
// place shows), a text outside the panel or control it stands in (the smallest box holding
// the middle of its ink), across a control it does not belong to, or over another text.
// Texts in the description's box or the help are checked against that box, and not against
// what they cover.
func textProblems(runs []view.TextRun, cuts []view.Cut, boxes []view.Box, img *image.RGBA) []string {
	var out []string
	for _, c := range cuts {
		out = append(out, fmt.Sprintf("cut short: needs %d, has %d: %q", c.Need, c.Have, c.What))
	}
	var overlays, under []view.Box
	for _, b := range boxes {
		if b.Name == "description" || b.Name == "help" {
			overlays = append(overlays, b)
		} else {
			under = append(under, b)
		}
	}
	type placed struct {
		run     view.TextRun
		overlay bool
	}
	var shown []placed
	for _, r := range runs {
		if r.Ink.Empty() {
			continue
		}
		if !r.Ink.In(img.Rect) {
			out = append(out, fmt.Sprintf("%q (%v) runs off the screen", r.S, r.Ink))
			continue
		}
		mid := image.Pt((r.Ink.Min.X+r.Ink.Max.X)/2, (r.Ink.Min.Y+r.Ink.Max.Y)/2)
		overlay := r.Overlay
		candidates := under // the machine's text is in the machine's panels
		if overlay {
			candidates = overlays // a description's or the help's text is in its box
		}
		var box *view.Box
		for i := range candidates {
			b := &candidates[i]
			if mid.In(b.R) && (box == nil || b.R.Dx()*b.R.Dy() < box.R.Dx()*box.R.Dy()) {
				box = b
			}
		}
		if box == nil {
			out = append(out, fmt.Sprintf("%q (%v) is in no panel", r.S, r.Ink))
			continue
		}
		if !r.Ink.In(box.R) {
			out = append(out, fmt.Sprintf("%q (%v) overflows its %s (%v)", r.S, r.Ink, box.Name, box.R))
			continue
		}
		if !overlay {
			for _, b := range under {
				if b.Control && b.R != box.R && !box.R.In(b.R) && r.Ink.Overlaps(b.R) {
					out = append(out, fmt.Sprintf("%q (%v) runs over %s (%v)", r.S, r.Ink, b.Name, b.R))
				}
			}
		}
		shown = append(shown, placed{r, overlay})
	}
	for i, a := range shown {
		for _, b := range shown[i+1:] {
			if a.overlay != b.overlay || !a.run.Ink.Overlaps(b.run.Ink) {
				continue
			}
			// A lit button's label is drawn again over the same label, and a text drawn over
			// its own background's copy is the same text.
			if a.run.S == b.run.S && a.run.Origin == b.run.Origin {
				continue
			}
			out = append(out, fmt.Sprintf("%q (%v) and %q (%v) overlap", a.run.S, a.run.Ink, b.run.S, b.run.Ink))
		}
	}
	return out
}

// windowScreen is a screen the museum's window fills: its size and the layout the window
// chooses for it (museum/screen), whose picture ebiten scales to fit the screen whole.
type windowScreen struct {
	name   string
	size   image.Point
	layout *mscreen.Layout
}

// windowScreens are the screens a museum hangs: 1920x1080 and 3840x2160, with and without
// the camera's panel, with the institution's name, and the same screens hung portrait
// (1080x1920, 2160x3840), where the window cuts view's picture into bands and shows what is
// drawn over the machine (the help, a description, the zoomed rack) whole, on top
// (screen.Layout.SetOverlay).
func windowScreens() []windowScreen {
	var out []windowScreen
	for _, size := range []image.Point{{1920, 1080}, {3840, 2160}} {
		for _, cam := range []bool{false, true} {
			o := mscreen.Options{Camera: cam, Title: "Museum of Computing"}
			out = append(out, windowScreen{fmt.Sprintf("%dx%d camera %v", size.X, size.Y, cam), size, mscreen.New(o)})
			o.Portrait = true
			out = append(out, windowScreen{fmt.Sprintf("%dx%d portrait camera %v", size.Y, size.X, cam), image.Pt(size.Y, size.X), mscreen.New(o)})
		}
	}
	return out
}

// screenProblems returns how the texts drawn fare on the window's screens: a text cut
// between two of the layout's pieces (the portrait's bands), or off the screen once the
// layout is scaled to fill it. It notes in smallest each screen's smallest text with a capital
// (its ink's height on the screen, in the screen's pixels).
func screenProblems(runs []view.TextRun, over image.Rectangle, screens []windowScreen, smallest map[string]float64) []string {
	var out []string
	for _, ws := range screens {
		l := ws.layout
		l.SetOverlay(over)
		s := min(float64(ws.size.X)/float64(l.W), float64(ws.size.Y)/float64(l.H))
		off := image.Pt(int((float64(ws.size.X)-float64(float64(l.W)*s))/2), int((float64(ws.size.Y)-float64(float64(l.H)*s))/2))
		onScreen := image.Rectangle{Max: ws.size}
		for _, r := range runs {
			if r.Ink.Empty() {
				continue
			}
			var tile *mscreen.Tile
			for i := range l.Tiles {
				if r.Ink.In(l.Tiles[i].Src) {
					tile = &l.Tiles[i]
				}
			}
			if !l.Over.Src.Empty() && r.Ink.In(l.Over.Src) {
				tile = &l.Over // shown whole, on top
			}
			if tile == nil {
				out = append(out, fmt.Sprintf("%s: %q (%v) is cut between the layout's pieces", ws.name, r.S, r.Ink))
				continue
			}
			// view's pixels to the layout's, then to the screen's.
			k := tile.Scale() * s
			at := func(p image.Point) image.Point {
				return image.Pt(off.X+int(math.Floor((float64(tile.Dst.Min.X)+float64(float64(p.X-tile.Src.Min.X)*tile.Scale()))*s)),
					off.Y+int(math.Floor((float64(tile.Dst.Min.Y)+float64(float64(p.Y-tile.Src.Min.Y)*tile.Scale()))*s)))
			}
			ink := image.Rectangle{Min: at(r.Ink.Min), Max: at(r.Ink.Max)}
			if !ink.In(onScreen) {
				out = append(out, fmt.Sprintf("%s: %q (%v) is off the screen at %v", ws.name, r.S, r.Ink, ink))
			}
			if h := float64(r.Ink.Dy()) * k; strings.ContainsAny(r.S, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
				(smallest[ws.name] == 0 || h < smallest[ws.name]) { // a capital's height at least
				smallest[ws.name] = h
			}
		}
	}
	return out
}

// No text overflows its panel, runs over a control or another text, or is cut short, in any
// language, in the usual and the large text, on the main screens, with each kind of
// description and with the help. The widths are the rendered ones: each glyph's ink as the
// scene's font rasterises it. View paints 1920x1080, and the window scales its layout of that
// picture to the screen: on 1920x1080 and 3840x2160 screens, with and without the camera's
// panel, no text is cut between the layout's pieces or left off the screen
// (TestScaledScreens: 3840x2160 shows the landscape picture scaled by exactly 2).
func TestTextFitsEveryLanguage(t *testing.T) {
	// Each problem once, with the screens it is seen on. Each screen is a subtest (en/usual/start,
	// de/large/hover3: -run 'TestTextFitsEveryLanguage/de/large' runs a language's large text),
	// failed when it has a problem; the problems are listed below, once each.
	seen := map[string][]string{}
	var order []string
	screens := windowScreens()
	smallest := map[string]float64{}
	for _, as := range accessScreens(t) {
		t.Run(as.name, func(t *testing.T) {
			runs, cuts, sc, img := traced(t, as.s)
			ps := textProblems(runs, cuts, sc.Boxes(), img)
			ps = append(ps, screenProblems(runs, sc.Overlay(), screens, smallest)...)
			for _, p := range ps {
				if seen[p] == nil {
					order = append(order, p)
				}
				seen[p] = append(seen[p], as.name)
			}
			if len(ps) > 0 {
				t.Fail()
			}
		})
	}
	for _, ws := range screens {
		t.Logf("%s: the smallest text's ink is %.1f px high on the screen", ws.name, smallest[ws.name])
	}
	for i, p := range order {
		if i == 100 {
			t.Errorf("and %d more problems", len(order)-100)
			break
		}
		t.Errorf("%s (%d screens: %s)", p, len(seen[p]), seen[p][0])
	}
}

// A 3840x2160 screen shows view's 1920x1080 picture scaled by exactly 2 in both directions:
// every text and its panel grow together, so the widths measured at 1920x1080 hold.
func TestScaledScreens(t *testing.T) {
	for _, sz := range []image.Point{{1920, 1080}, {3840, 2160}} {
		t.Run(fmt.Sprintf("%dx%d", sz.X, sz.Y), func(t *testing.T) {
			sx, sy := float64(sz.X)/view.Width, float64(sz.Y)/view.Height
			if sx != sy || sx != math.Trunc(sx) {
				t.Errorf("%v: view's picture scales by %v x %v, not one whole number", sz, sx, sy)
			}
		})
	}
}

// The overflow test finds a text too long: a caption word made wider than the caption, a
// button's label longer than its button, and a note too long for the caption's lines.
func TestTextFitsCatchesOverflow(t *testing.T) {
	base := screens(t)
	for _, c := range []struct {
		name string
		ui   func(*view.UI)
		want string
	}{
		{"a note too long", func(u *view.UI) { u.Note = strings.Repeat("Die Gewichte sind Potentiometer. ", 12) }, "cut short"},
		{"a word too wide", func(u *view.UI) { u.Note = strings.Repeat("W", 90) }, "runs off the screen"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base[0]
			c.ui(&s.ui)
			runs, cuts, sc, img := traced(t, s)
			ps := textProblems(runs, cuts, sc.Boxes(), img)
			found := false
			for _, p := range ps {
				found = found || strings.Contains(p, c.want)
			}
			if !found {
				t.Errorf("%s: not found (%d problems: %q)", c.name, len(ps), ps)
			}
		})
	}
}

// Every caption, hint and scene of the narration fits the caption's lines, in every language
// and both text sizes, with long numbers in its arguments.
func TestCaptionsFit(t *testing.T) {
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A museum's machine may run for months: epochs and counts in thousands; a deck has at
	// most 208 cards. The longest class phrase and the longest label of each language.
	big, cards := i18n.Int(9999), i18n.Int(208)
	words := map[i18n.Msg][]i18n.Arg{}
	for l := range i18n.NumLangs {
		t.Run(l.Code(), func(t *testing.T) {
			phrase := i18n.Str(l.S(i18n.ClassOnTheRight))
			longest := l.S(i18n.ClassTriangle)
			for _, m := range []i18n.Msg{i18n.ClassSquare, i18n.ClassCircle, i18n.ClassDiamond, i18n.ClassLeft, i18n.ClassRight} {
				if s := l.S(m); len(s) > len(longest) {
					longest = s
				}
			}
			long := i18n.Str(longest)
			motors := i18n.Str(l.S(i18n.MotorsSentence, i18n.Int(8), i18n.Int(512), long))
			clause := i18n.Str(l.S(i18n.MotorsClause, i18n.Int(8), i18n.Int(512), long))
			title := i18n.Str(l.S(i18n.ExpLeftRightTitle))
			draw := i18n.Str(l.S(i18n.ExpShapesDraw))
			words[i18n.CapWelcome] = []i18n.Arg{title, draw}
			words[i18n.CapStoppedWrong] = []i18n.Arg{big, phrase, long, long}
			words[i18n.CapStoppedWrongMoved] = []i18n.Arg{big, phrase, long, long, motors}
			words[i18n.CapLearned] = []i18n.Arg{cards, big, draw}
			words[i18n.CapStopped] = []i18n.Arg{big, cards, cards}
			words[i18n.CapTrainRight] = []i18n.Arg{cards, cards, phrase, long}
			words[i18n.CapTrainRightForced] = []i18n.Arg{cards, cards, phrase, long, clause}
			words[i18n.CapTrainWrong] = []i18n.Arg{cards, cards, phrase, long, long, motors}
			words[i18n.CapTestDone] = []i18n.Arg{cards, cards, i18n.Num(99.9, 1)}
			words[i18n.CapTestCardRight] = []i18n.Arg{cards, cards, phrase, long, cards, cards}
			words[i18n.CapTestCardWrong] = []i18n.Arg{cards, cards, phrase, long, cards, cards}
			words[i18n.CapShown] = []i18n.Arg{i18n.Int(400), i18n.Int(512), long}
			words[i18n.CapShownN] = []i18n.Arg{i18n.Int(400), i18n.Int(4096), i18n.Int(4096), long}
			words[i18n.CapTaughtWrong] = []i18n.Arg{long, long, clause}
			words[i18n.CapTaughtMoved] = []i18n.Arg{long, clause}
			words[i18n.CapTaughtNothing] = []i18n.Arg{long}
			var msgs []i18n.Msg
			for m := range words {
				msgs = append(msgs, m)
			}
			msgs = append(msgs, i18n.CapTrainingBegins, i18n.NoteReset, i18n.NoteResetArmed, i18n.NoteDrawFirst,
				i18n.NoteLanguage, i18n.NoteLargeText, i18n.NoteNormalText, i18n.CamStarting, i18n.CamMissing,
				i18n.CamBusy, i18n.CamUnplugged, i18n.CamDenied, i18n.CamFailed, i18n.CamNoPicture, i18n.CamShown,
				i18n.CamLive, i18n.AttractHistory, i18n.AttractRetina, i18n.AttractAUnits, i18n.AttractRUnits,
				i18n.AttractMotors, i18n.AttractMistakes, i18n.AttractMaps, i18n.AttractYourTurn)
			texts := map[string]string{}
			for _, m := range msgs {
				texts[fmt.Sprint("message ", m)] = l.S(m, words[m]...)
			}
			for j := range view.NumExperiments {
				e := view.ExperimentAt(j)
				texts[e.Name+" about"] = l.S(e.AboutMsg)
				texts[e.Name+" record"] = l.S(i18n.AttractRecord, i18n.Str(l.S(e.YearMsg)), i18n.Str(l.S(e.TitleMsg)))
			}
			for name, s := range texts {
				for _, large := range []bool{false, true} {
					if n := sc.CaptionLines(large, s); n > view.CaptionMaxLines {
						t.Errorf("%s %s (large %v): %d lines: %q", l.Code(), name, large, n, s)
					}
				}
			}
		})
	}
}

// contrast is WCAG 2.x's contrast ratio of two relative luminances.
func contrast(a, b float64) float64 {
	return (max(a, b) + 0.05) / (min(a, b) + 0.05)
}

// Every text drawn on the main screens, in every language and text size, stands out from
// what lies under it by at least WCAG AA's 4.5:1: the text's colour against the mean
// luminance of the pixels under its glyphs, read from the screen just before the text was
// drawn.
func TestTextContrast(t *testing.T) {
	worst, worstText, n := math.Inf(1), "", 0
	for _, as := range accessScreens(t) {
		t.Run(as.name, func(t *testing.T) {
			runs, _, _, _ := traced(t, as.s)
			for _, r := range runs {
				if r.Covered == 0 {
					continue
				}
				n++
				c := contrast(view.RelativeLuminance(r.Colour), r.BackLum)
				if c < worst {
					worst, worstText = c, fmt.Sprintf("%s: %q in %v", as.name, r.S, r.Colour)
				}
				if c < 4.5 {
					t.Errorf("%s: %q in %v: contrast %.2f:1, below 4.5:1", as.name, r.S, r.Colour, c)
				}
			}
		})
	}
	t.Logf("%d texts measured; the lowest contrast is %.2f:1 (%s)", n, worst, worstText)
}

// Machado, Oliveira and Fernandes (2009), "A physiologically-based model for simulation of
// color vision deficiency", severity 1.0, on linear RGB.
var cvd = map[string][3][3]float64{
	"normal vision": {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	"protanopia":    {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
	"deuteranopia":  {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
	"tritanopia":    {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}},
}

func linear(v uint8) float64 {
	s := float64(v) / 255
	if s <= 0.04045 {
		return s / 12.92
	}
	return math.Pow((s+0.055)/1.055, 2.4)
}

// simulate returns c as seen with the deficiency m, in linear RGB.
func simulate(m [3][3]float64, c color.RGBA) [3]float64 {
	l := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
	var out [3]float64
	for i := range 3 {
		v := float64(m[i][0]*l[0]) + float64(m[i][1]*l[1]) + float64(m[i][2]*l[2])
		out[i] = min(1, max(0, v))
	}
	return out
}

func luminance(l [3]float64) float64 {
	return float64(0.2126*l[0]) + float64(0.7152*l[1]) + float64(0.0722*l[2])
}

// lab is CIE L*a*b* (D65) of linear sRGB.
func lab(l [3]float64) [3]float64 {
	x := float64(0.4124*l[0]) + float64(0.3576*l[1]) + float64(0.1805*l[2])
	y := luminance(l)
	z := float64(0.0193*l[0]) + float64(0.1192*l[1]) + float64(0.9505*l[2])
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (float64(24389.0/27*t) + 16) / 116
	}
	fx, fy, fz := f(x/0.95047), f(y), f(z/1.08883)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

func deltaE(a, b [3]float64) float64 {
	la, lb := lab(a), lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

// The colours that carry meaning stay apart for visitors who do not see them all: the
// weights' signs (the wires, the pointers, the heat maps' extremes) and the answer's right
// and wrong, under protanopia, deuteranopia and tritanopia simulated with Machado's
// matrices, differ in colour (CIE76 ΔE at least 40 for the signs, which carry no word) and in
// brightness (a luminance contrast of at least 1.5:1 for both, so that hue is not the only
// code); the signs are also told by shape (the plug-board's inhibitory plugs are squares, the
// legend's squares marked + and −).
func TestPaletteColourBlind(t *testing.T) {
	pos, neg, right, wrong, _, _, _ := view.Palette()
	hp, hn := view.HeatColour(1), view.HeatColour(-1)
	for name, m := range cvd {
		t.Run(name, func(t *testing.T) {
			for _, p := range []struct {
				what       string
				a, b       color.RGBA
				minDE, lum float64
			}{
				{"the weights' red and blue", pos, neg, 40, 1.5},
				{"the heat maps' extremes", hp, hn, 40, 1.5},
				{"right and wrong", right, wrong, 0, 1.5},
			} {
				t.Run(p.what, func(t *testing.T) {
					sa, sb := simulate(m, p.a), simulate(m, p.b)
					de, lc := deltaE(sa, sb), contrast(luminance(sa), luminance(sb))
					t.Logf("%s, %s: ΔE %.1f, luminance contrast %.2f:1", name, p.what, de, lc)
					if de < p.minDE {
						t.Errorf("%s: %s differ by ΔE %.1f, want %.0f or more", name, p.what, de, p.minDE)
					}
					if lc < p.lum {
						t.Errorf("%s: %s differ in luminance by %.2f:1, want %.1f:1 or more", name, p.what, lc, p.lum)
					}
				})
			}
		})
	}
}

// Every control is a touch target at least 9 mm square on a 24-inch 1920x1080 screen, and a
// touch anywhere in it presses it (view's hit test), in the usual and the zoomed screens.
func TestTouchTargets(t *testing.T) {
	// A 24-inch 16:9 screen is 24·16/√(16²+9²) inches wide.
	mmPerPx := 24 * 25.4 * 16 / math.Sqrt(16*16+9*9) / 1920
	minPx := int(math.Ceil(9 / mmPerPx))
	if minPx < 32 || minPx > 34 {
		t.Fatalf("9 mm is %d px: the arithmetic is wrong", minPx)
	}
	base := screens(t)
	for _, s := range []screen{base[0], base[3], base[4]} { // start, zoomed rack, shapes
		t.Run(s.name, func(t *testing.T) {
			sc, err := view.New(view.Options{})
			if err != nil {
				t.Fatal(err)
			}
			drawScreen(t, sc, s)
			controls := sc.Controls(nil)
			if len(controls) < 20 {
				t.Fatalf("%s: only %d controls", s.name, len(controls))
			}
			for _, p := range controls {
				r, ok := sc.ControlRect(p)
				if !ok {
					t.Errorf("%s: control %+v has no place", s.name, p)
					continue
				}
				if r.Dx() < minPx || r.Dy() < minPx {
					t.Errorf("%s: control %+v is %dx%d px, under 9 mm (%d px)", s.name, p, r.Dx(), r.Dy(), minPx)
				}
				for y := r.Min.Y; y < r.Max.Y; y += 3 {
					for x := r.Min.X; x < r.Max.X; x += 3 {
						got := sc.HitTest(image.Pt(x, y))
						want := p
						if p.Kind == view.PartRule || p.Kind == view.PartSpeed || p.Kind == view.PartExperiment || p.Kind == view.PartClass {
							got.Sub = 0
						}
						if got.Kind != want.Kind || got.Index != want.Index {
							t.Errorf("%s: a touch at (%d,%d) in control %+v presses %+v", s.name, x, y, p, got)
							y, x = r.Max.Y, r.Max.X
						}
					}
				}
			}
		})
	}
}
