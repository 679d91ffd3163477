package view

import (
	"image"

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

var ColGreen, ColRed = colGreen, colRed

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
