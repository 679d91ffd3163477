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
	return string(appendDescription(nil, p, f, ui, sc))
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
