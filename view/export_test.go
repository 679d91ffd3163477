package view

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/mark1-perceptron/mark1/session"
)

// Test hooks: where parts are drawn.

func (sc *Scene) LampCentre(a int) image.Point    { return sc.l.lampCentre(a) }
func (sc *Scene) CellRect(s int) image.Rectangle  { return sc.l.cellRect(s) }
func (sc *Scene) DialCentre(r, p int) image.Point { return sc.l.dialCentre(r, p) }
func (sc *Scene) ZoomCentre(p int) image.Point    { return sc.l.zoomCentre(p) }
func (sc *Scene) RLampRect(r int) image.Rectangle { return sc.l.rLamp[r] }
func (sc *Scene) ButtonRect(b Button) image.Rectangle {
	return sc.l.buttons[b]
}
func (sc *Scene) ClassKeyRect(i int) image.Rectangle { return sc.classKeys[i] }
func (sc *Scene) SpeedRect(i int) image.Rectangle    { return sc.l.speeds[i] }
func (sc *Scene) ExperimentRect(i int) image.Rectangle {
	return sc.l.exps[i]
}
func (sc *Scene) RuleRect(i int) image.Rectangle { return sc.l.rules[i] }
func (sc *Scene) ZoomCloseRect() image.Rectangle { return sc.l.zoomClose }
func (sc *Scene) ClearRect() image.Rectangle     { return sc.l.clear }
func (sc *Scene) UnitNextRect() image.Rectangle  { return sc.l.unitNext }

var ColAmber = colAmber

// Describe returns what the screen says of part p when it is pointed at.
func (sc *Scene) Describe(p Part, f *session.Frame, ui *UI) string {
	var w words
	return string(w.description(nil, ui.Lang, p, f, ui, sc))
}

// AnswerLampCentre is the centre of the answer's RIGHT/WRONG lamp.
func (sc *Scene) AnswerLampCentre() image.Point {
	return image.Pt(sc.l.answer.Min.X+10, sc.l.answer.Min.Y+160)
}

var ColGreen, ColRed = colGreen, colWrong

// SkipStep makes the scene leave out the draw step named name ("" draws them all) and draw
// its background anew.
func (sc *Scene) SkipStep(name string) {
	sc.skip = name
	sc.key = bgKey{}
	sc.bg.Pix[3] = 0
}

// DrawSteps returns the names of the scene's draw steps: the background's, then a frame's.
func DrawSteps() []string {
	var out []string
	for _, s := range bgSteps {
		out = append(out, s.name)
	}
	for _, s := range frameSteps {
		out = append(out, s.name)
	}
	return out
}

// A Region is a part of the screen the tests compare on its own.
type Region struct {
	Name string
	Rect image.Rectangle
}

// Regions returns the screen's parts as the scene last drew them (a zoomed rack covers the
// lamps, the plug-board, the R-units, the heat maps and the racks), then the whole screen,
// which also holds what crosses the parts: the wiring, a description, a highlight.
func (sc *Scene) Regions() []Region {
	l := sc.l
	out := []Region{
		{"title", l.title},
		{"caption", l.caption},
		{"card", l.card.Inset(-4)},
		{"answer", l.answer},
		{"retina", l.retinaPanel},
	}
	if sc.zoom >= 0 {
		out = append(out, Region{"zoom", l.zoom})
	} else {
		out = append(out, Region{"lamps", l.lampPanel}, Region{"plug-board", l.unitPanel}, Region{"R-units", l.rPanel},
			Region{"heat maps", l.heatPanel}, Region{"dials", l.rackPanel})
	}
	if sc.rigOn() {
		out = append(out, Region{"rig", l.rig})
	}
	out = append(out, Region{"controls", image.Rect(l.controls.Min.X, l.controls.Min.Y, l.curve.Min.X, l.controls.Max.Y)},
		Region{"curve", l.curve}, Region{"screen", image.Rect(0, 0, Width, Height)})
	return out
}

func (sc *Scene) TitleRect() image.Rectangle     { return sc.l.title }
func (sc *Scene) CaptionRect() image.Rectangle   { return sc.l.caption }
func (sc *Scene) CardRect() image.Rectangle      { return sc.l.card }
func (sc *Scene) AnswerRect() image.Rectangle    { return sc.l.answer }
func (sc *Scene) UnitPanelRect() image.Rectangle { return sc.l.unitPanel }
func (sc *Scene) CurvePlot() image.Rectangle     { return sc.l.curvePlot }
func (sc *Scene) HeatRect(r int) image.Rectangle { return sc.l.heat[r] }
func (sc *Scene) ZoomHeatRect() image.Rectangle  { return sc.l.zoomHeat }
func (sc *Scene) PartRect(p Part) image.Rectangle {
	r, _ := sc.partRect(p)
	return r
}

// Colours the tests read the screen by.
var (
	ColText, ColTextDim, ColHeading, ColPanel = colText, colTextDim, colHeading, colPanel
	ColBackground, ColTitleBar, ColBlue       = colBackground, colTitleBar, colBlue
	ColHighlight, ColCellDark, ColCellLit     = colHighlight, colCellDark, colCellLit
	ColDialFace, ColButton, ColPaper, ColInk  = colDialFace, colButton, colPaper, colInk
	ColTextFaint, ColHeatZero                 = colTextFaint, colHeatZero
)

// TextRun is a text the scene drew: where its ink is, in what colour, and the mean relative
// luminance (WCAG 2.x) of what lay under its glyphs just before it was drawn.
type TextRun struct {
	S      string
	Ink    image.Rectangle
	Origin image.Point
	Colour color.RGBA
	// BackLum is the mean relative luminance of the pixels under the glyphs' ink (coverage
	// at least one half), read before the text was drawn; Covered counts them.
	BackLum float64
	Covered int
	Onto    *image.RGBA
	// Overlay says the text was drawn over the machine: in a description or the help.
	Overlay bool
}

// Cut is a text that needed more lines (or pixels) than it was given.
type Cut struct {
	What       string
	Need, Have int
}

type testTracer struct {
	runs []TextRun
	cuts []Cut
	over bool
}

func (t *testTracer) overlay(on bool) { t.over = on }

func (t *testTracer) text(dst *image.RGBA, f *face, x, y int, s string, c color.RGBA) {
	run := TextRun{S: s, Origin: image.Pt(x, y), Colour: c, Onto: dst, Overlay: t.over}
	sum := 0.0
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		g := f.glyph(r)
		if g.mask != nil {
			gr := rect(x+g.dx, y+g.dy, g.w, g.h)
			run.Ink = run.Ink.Union(gr)
			for py := range g.h {
				for px := range g.w {
					if g.mask[py*g.w+px] < 128 {
						continue
					}
					q := image.Pt(gr.Min.X+px, gr.Min.Y+py)
					if !q.In(dst.Rect) {
						continue
					}
					o := dst.PixOffset(q.X, q.Y)
					sum += RelativeLuminance(color.RGBA{dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], 255})
					run.Covered++
				}
			}
		}
		x += g.adv
		i += n
	}
	if run.Covered > 0 {
		run.BackLum = sum / float64(run.Covered)
	}
	t.runs = append(t.runs, run)
}

func (t *testTracer) cut(what string, need, have int) { t.cuts = append(t.cuts, Cut{what, need, have}) }

// Redraw makes the next Draw paint the background again (its texts traced).
func (sc *Scene) Redraw() { sc.key = bgKey{} }

// Trace records every text drawn and every text cut short while draw runs. Not for tests
// that run in parallel.
func Trace(draw func()) ([]TextRun, []Cut) {
	t := &testTracer{}
	tracing = t
	defer func() { tracing = nil }()
	draw()
	return t.runs, t.cuts
}

// RelativeLuminance is WCAG 2.x's relative luminance of an opaque colour.
func RelativeLuminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return float64(0.2126*lin(c.R)) + float64(0.7152*lin(c.G)) + float64(0.0722*lin(c.B))
}

// Box is a rectangle of the layout a text may lie in, and whether it is a control (a text
// may not cross a control it does not belong to).
type Box struct {
	Name    string
	R       image.Rectangle
	Control bool
}

// Boxes returns the panels and controls of the screen as last drawn, and the description's
// box when one was drawn.
func (sc *Scene) Boxes() []Box {
	l := sc.l
	// The answer, the experiments and the teach panel have their headings just above them.
	above := func(r image.Rectangle, h int) image.Rectangle {
		return image.Rect(r.Min.X, r.Min.Y-h, r.Max.X, r.Max.Y)
	}
	out := []Box{
		{"title bar", l.title, false}, {"caption", l.caption, false},
		{"card and answer", image.Rect(l.retinaPanel.Min.X, l.caption.Max.Y, l.retinaPanel.Max.X, l.retinaPanel.Min.Y), false},
		// The answer has no frame: its words may reach down to the retina's panel.
		{"answer", image.Rect(l.answer.Min.X, l.answer.Min.Y-12, l.answer.Max.X, l.retinaPanel.Min.Y), false},
		{"retina panel", l.retinaPanel, false}, {"control panel", l.controls, false},
		{"rule label", above(l.ruleLabel, 4), false}, {"speed label", above(l.speedLabel, 4), false},
		{"experiments", above(l.expPanel, 16), false}, {"teach panel", above(l.teachPanel, 16), false},
		{"curve", l.curve, false},
	}
	if sc.zoom >= 0 {
		out = append(out, Box{"zoomed rack", l.zoom, false}, Box{"close", l.zoomClose, true})
	} else {
		out = append(out, Box{"A-unit lamps", l.lampPanel, false}, Box{"plug-board", l.unitPanel, false},
			Box{"R-units", l.rPanel, false}, Box{"heat maps", l.heatPanel, false}, Box{"racks", l.rackPanel, false})
		for r := range sc.nR {
			if r < sc.racksShown() {
				out = append(out, Box{"rack " + rName(r), l.rack[r], false})
			}
			out = append(out, Box{"R-unit lamp " + rName(r), l.rLamp[r], false})
		}
		if sc.rigOn() {
			out = append(out, Box{"rig panel", l.rig, false})
		}
	}
	var parts []Part
	for _, p := range sc.Controls(parts) {
		if r, ok := sc.ControlRect(p); ok {
			out = append(out, Box{fmt.Sprintf("control %d/%d", p.Kind, p.Index), r, true})
		}
	}
	if sc.helpOpen {
		out = append(out, Box{"help", l.helpPanel, false})
	}
	if sc.tipAt != (image.Rectangle{}) {
		out = append(out, Box{"description", sc.tipAt, false})
	}
	return out
}

// Palette returns the colours the tests check: the weights' two signs, the answer's right and
// wrong, and the panels texts stand on.
func Palette() (pos, neg, right, wrong, panel, background, title color.RGBA) {
	return colRed, colBlue, colGreen, colWrong, colPanel, colBackground, colTitleBar
}

// HeatColour is the colour of a heat-map cell for weight fraction t in [-1, 1].
func HeatColour(t float32) color.RGBA { return heatColour(t) }

// CaptionLines returns how many lines s takes in the caption, in the usual or the large
// text; the caption shows CaptionMaxLines.
func (sc *Scene) CaptionLines(large bool, s string) int {
	sc.useFaces(large)
	defer sc.useFaces(false)
	return len(wrap(sc.fCaption, s, sc.l.caption.Dx()-16, nil))
}

// CaptionMaxLines is how many lines the caption shows.
const CaptionMaxLines = captionLines

// LanguageRect is the language button.
func (sc *Scene) LanguageRect() image.Rectangle { return sc.l.lang }

// ColTextUnused is the colour of what an experiment leaves unused, and of "no epoch yet".
var ColTextUnused = colTextUnused

// RigRect is the hardware rig's panel.
func (sc *Scene) RigRect() image.Rectangle { return sc.l.rig }

// RigStateAt is where the rig's state is written: its word's left end and baseline, as last
// drawn.
func (sc *Scene) RigStateAt() image.Point {
	return image.Pt(sc.l.rig.Min.X+12+28, sc.gaugeGeo.state)
}

// RigColour is the colour the rig's state is written in.
func RigColour(r *session.Rig) color.RGBA { return rigColour(r) }

// ColKnob marks a dial that has a real knob.
var ColKnob = colKnob

// RigGauge returns knob i's gauge as last drawn: its track, the zero's row, the rows from zero
// to the scale's end, and the scale.
func (sc *Scene) RigGauge(r *session.Rig, i int) (track image.Rectangle, mid int, half float64, scale int) {
	gl := sc.gauges(r, sc.gaugeGeo)
	cx := gl.left + i*gl.pitch + gl.pitch/2
	return image.Rect(cx-gl.tw/2, sc.gaugeGeo.gaugeTop, cx-gl.tw/2+gl.tw, sc.gaugeGeo.gaugeB), gl.mid, gl.half, gl.scale
}
