package view

import (
	"image"
	"image/color"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

func (sc *Scene) bgControls(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.controls)
	for i := range numButtons {
		sc.button(dst, l.buttons[i], sc.msg(buttonLabels[i]), sc.fButton)
	}
	m := sc.msg(i18n.PanelRule)
	text(dst, fit(m, l.ruleLabel.Dx(), sc.fHead, sc.faces[0].head), l.ruleLabel.Min.X, l.ruleLabel.Min.Y+16, m, colHeading)
	sc.button(dst, l.rules[0], sc.msg(ruleLabels[0]), sc.fLabel)
	sc.button(dst, l.rules[1], sc.msg(ruleLabels[1]), sc.fLabel)
	m = sc.msg(i18n.PanelSpeed)
	text(dst, fit(m, l.speedLabel.Dx(), sc.fHead, sc.faces[0].head, sc.faces[0].small), l.speedLabel.Min.X, l.speedLabel.Min.Y+16, m, colHeading)
	for i, r := range l.speeds {
		sc.button(dst, r, sc.speedLabel(i), sc.fButton)
	}
	for i, r := range l.exps {
		sc.button(dst, r, sc.msg(experiments[i].TitleMsg), sc.fLabel)
	}
	m = sc.msg(i18n.PanelTeach)
	text(dst, fit(m, l.teachPanel.Dx(), sc.fHead, sc.faces[0].head, sc.faces[0].small), l.teachPanel.Min.X, l.teachPanel.Min.Y+6, m, colHeading)
	for i, r := range sc.classKeys {
		label := sc.label(f, i)
		sc.button(dst, r, label, sc.classFace(label, r))
	}
	sc.button(dst, l.clear, sc.msg(i18n.ButtonClear), sc.fLabel)
}

// button paints a push button's body and label (unlit).
func (sc *Scene) button(dst *image.RGBA, r image.Rectangle, label []byte, f *face) {
	roundRect(dst, r.Add(image.Pt(0, 3)), 8, colShadow)
	roundRect(dst, r, 8, colButton)
	frameRect(dst, r, 8, 1.2, colButtonEdge)
	f = sc.buttonFace(label, r, f)
	textCentred(dst, f, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2+f.ascent*7/20, label, colTextDim)
}

// buttonFace is the face a button's label is set in: f, or the usual size of the labels, or
// the small face, the first in which the label fits the button.
func (sc *Scene) buttonFace(label []byte, r image.Rectangle, f *face) *face {
	return fit(label, r.Dx()-12, f, sc.faces[0].label, sc.faces[0].small)
}

// litButton lights a button: amber glass and a bright label.
func (sc *Scene) litButton(dst *image.RGBA, r image.Rectangle, label []byte, f *face, pressed bool) {
	// The unlit label is painted over first: the lit one stands on the glass alone.
	roundRect(dst, r, 8, colButton)
	frameRect(dst, r, 8, 1.2, colButtonEdge)
	blendRect(dst, r.Inset(3), colButtonLit)
	if pressed {
		blendRect(dst, r.Inset(3), color.RGBA{255, 255, 255, 40})
	}
	f = sc.buttonFace(label, r, f)
	textCentred(dst, f, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2+f.ascent*7/20, label, colAmber)
}

func (sc *Scene) drawControls(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	pressed := func(k PartKind, i int) bool { return ui.Pressed.Kind == k && ui.Pressed.Index == i }
	for i := range numButtons {
		lit := i == ButtonTrain && f.Mode == session.Training || i == ButtonTest && f.Mode == session.Testing ||
			i == ButtonStop && f.Mode == session.Stopped
		if lit || pressed(PartButton, int(i)) {
			sc.litButton(dst, l.buttons[i], sc.msg(buttonLabels[i]), sc.fButton, pressed(PartButton, int(i)))
		}
	}
	rule := 0
	if f.Rule == machine.Forced {
		rule = 1
	}
	sc.litButton(dst, l.rules[rule], sc.msg(ruleLabels[rule]), sc.fLabel, pressed(PartRule, rule))
	for i, v := range speeds {
		if v == f.Speed || pressed(PartSpeed, i) {
			sc.litButton(dst, l.speeds[i], sc.speedLabel(i), sc.fButton, pressed(PartSpeed, i))
		}
	}
	if e := experimentIndex(f.Experiment); e >= 0 && e < len(l.exps) {
		sc.litButton(dst, l.exps[e], sc.msg(experiments[e].TitleMsg), sc.fLabel, pressed(PartExperiment, e))
	}
	for i, r := range sc.classKeys {
		if !ui.HaveDrawing && ui.Drawing == nil {
			blendRect(dst, r.Inset(2), color.RGBA{14, 16, 21, 110})
		}
		if pressed(PartClass, i) || f.Kind == session.Taught && f.Want == i {
			label := sc.label(f, i)
			sc.litButton(dst, r, label, sc.classFace(label, r), pressed(PartClass, i))
		}
	}
	if pressed(PartClear, 0) {
		sc.litButton(dst, l.clear, sc.msg(i18n.ButtonClear), sc.fLabel, true)
	}
	if pressed(PartUnitPrev, 0) {
		sc.litButton(dst, l.unitPrev, arrowPrev, sc.fButton, true)
	}
	if pressed(PartUnitNext, 0) {
		sc.litButton(dst, l.unitNext, arrowNext, sc.fButton, true)
	}
	if sc.zoom >= 0 && pressed(PartZoomClose, 0) {
		sc.litButton(dst, l.zoomClose, sc.msg(i18n.ButtonClose), sc.fButton, true)
	}
}

// hitControls finds the push button, the rule's position, the speed, the experiment, the
// class key or CLEAR at p.
func (sc *Scene) hitControls(p image.Point) (Part, bool) {
	l := sc.l
	for i := range numButtons {
		if p.In(l.buttons[i]) {
			return Part{Kind: PartButton, Index: int(i)}, true
		}
	}
	for i, r := range l.rules {
		if p.In(r) {
			rule := machine.Alpha
			if i == 1 {
				rule = machine.Forced
			}
			return Part{Kind: PartRule, Index: int(rule)}, true
		}
	}
	for i, r := range l.speeds {
		if p.In(r) {
			return Part{Kind: PartSpeed, Index: i}, true
		}
	}
	for i, r := range l.exps {
		if p.In(r) {
			return Part{Kind: PartExperiment, Index: i}, true
		}
	}
	for i, r := range sc.classKeys {
		if p.In(r) {
			return Part{Kind: PartClass, Index: i}, true
		}
	}
	if p.In(l.clear) {
		return Part{Kind: PartClear}, true
	}
	return Part{}, false
}

// controlsPartRect says where a push button is, the rule switch, the speed selector, the
// experiments' panel, the class keys and CLEAR.
func (sc *Scene) controlsPartRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartButton:
		if p.Index >= 0 && p.Index < int(numButtons) {
			return l.buttons[p.Index], true
		}
	case PartRule:
		return l.rules[0].Union(l.rules[1]), true
	case PartSpeed:
		return l.speeds[0].Union(l.speeds[len(l.speeds)-1]), true
	case PartExperiment:
		return l.expPanel, true
	case PartClass:
		if len(sc.classKeys) > 0 {
			return sc.classKeys[0].Union(sc.classKeys[len(sc.classKeys)-1]), true
		}
	case PartClear:
		return l.clear, true
	}
	return image.Rectangle{}, false
}
