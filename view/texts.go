package view

import (
	"image"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// The words on the controls, as messages of the catalogue.
var (
	buttonLabels = [numButtons]i18n.Msg{i18n.ButtonTrain, i18n.ButtonTest, i18n.ButtonStop, i18n.ButtonReset}
	ruleLabels   = [2]i18n.Msg{i18n.RuleAlpha, i18n.RuleForced}
	arrowPrev    = []byte("<")
	arrowNext    = []byte(">")
)

// msg writes message m in the frame's language into the scene's message buffer and returns
// it: it stays good until the next call.
func (sc *Scene) msg(m i18n.Msg, args ...i18n.Arg) []byte {
	sc.mbuf = sc.lang.Append(sc.mbuf[:0], m, args...)
	return sc.mbuf
}

// label writes how the screen labels class c of f's experiment (a letter, a shape's name)
// into the scene's label buffer and returns it: it stays good until the next call.
func (sc *Scene) label(f *session.Frame, c int) []byte {
	sc.lbuf = appendLabel(sc.lbuf[:0], sc.lang, f, c)
	return sc.lbuf
}

// speedLabel is the label of speed i: "1×" to "100×", or the catalogue's word for MAX.
func (sc *Scene) speedLabel(i int) []byte {
	if speeds[i].IsMax() {
		return sc.msg(i18n.SpeedMax)
	}
	sc.mbuf = sc.lang.AppendInt(sc.mbuf[:0], int(speeds[i]))
	sc.mbuf = append(sc.mbuf, "×"...)
	return sc.mbuf
}

// classFace is the face a class key's label is set in: the button's, or a smaller one for a
// word too wide for the key.
func (sc *Scene) classFace(label []byte, r image.Rectangle) *face {
	if width(sc.fButton, label) > r.Dx()-8 {
		return sc.fSmall
	}
	return sc.fButton
}
