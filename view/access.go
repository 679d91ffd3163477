package view

import (
	"image"
	"image/color"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// The labels of the large-text and help buttons: signs, not words.
var (
	largeLabel = []byte("A+")
	helpLabel  = []byte("?")
)

// colTextUnused is text for what this experiment leaves unused (an R-unit, a rack): dimmer
// than colTextDim, and still above WCAG AA's 4.5:1 on the panels (access_test.go).
var colTextUnused = color.RGBA{134, 142, 158, 255}

// Controls returns the controls a visitor can press, in the order Tab visits them: the
// push buttons, the rule, the speeds, the experiments, the class keys and CLEAR, the
// plug-board's arrows, the zoomed rack's CLOSE when a rack is zoomed, and the language,
// large-text and help buttons. It appends to dst[:0].
func (sc *Scene) Controls(dst []Part) []Part {
	dst = dst[:0]
	for i := range numButtons {
		dst = append(dst, Part{Kind: PartButton, Index: int(i)})
	}
	dst = append(dst, Part{Kind: PartRule, Index: int(machine.Alpha)}, Part{Kind: PartRule, Index: int(machine.Forced)})
	for i := range sc.l.speeds {
		dst = append(dst, Part{Kind: PartSpeed, Index: i})
	}
	for i := range sc.l.exps {
		dst = append(dst, Part{Kind: PartExperiment, Index: i})
	}
	for i := range sc.classKeys {
		dst = append(dst, Part{Kind: PartClass, Index: i})
	}
	dst = append(dst, Part{Kind: PartClear})
	if sc.zoom >= 0 {
		dst = append(dst, Part{Kind: PartZoomClose})
	} else {
		dst = append(dst, Part{Kind: PartUnitPrev}, Part{Kind: PartUnitNext})
	}
	return append(dst, Part{Kind: PartLanguage}, Part{Kind: PartLargeText}, Part{Kind: PartHelp})
}

// ControlRect returns where control p is: the rectangle a touch must fall in to press it.
func (sc *Scene) ControlRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartRule:
		i := 0
		if p.Index == int(machine.Forced) {
			i = 1
		}
		return l.rules[i], true
	case PartSpeed:
		if p.Index >= 0 && p.Index < len(l.speeds) {
			return l.speeds[p.Index], true
		}
		return image.Rectangle{}, false
	case PartExperiment:
		if p.Index >= 0 && p.Index < len(l.exps) {
			return l.exps[p.Index], true
		}
		return image.Rectangle{}, false
	case PartClass:
		if p.Index >= 0 && p.Index < len(sc.classKeys) {
			return sc.classKeys[p.Index], true
		}
		return image.Rectangle{}, false
	}
	return sc.partRect(p)
}

// drawFocus rings the control the keyboard has chosen: a bright double ring, seen on any
// panel and by visitors who cannot tell amber from green.
func (sc *Scene) drawFocus(dst *image.RGBA, ui *UI) {
	r, ok := sc.ControlRect(ui.Focus)
	if !ok {
		return
	}
	frameRect(dst, r.Inset(-5), 10, 3, colText)
	frameRect(dst, r.Inset(-9), 12, 2, colBackground)
}

// helpText are the help's paragraphs, in order.
var helpText = [...]i18n.Msg{i18n.HelpDraw, i18n.HelpTeach, i18n.HelpButtons, i18n.HelpPoint, i18n.HelpAccess}

// helpKeys are the keys the help lists, in two columns.
var helpKeys = [...]i18n.Msg{
	i18n.HelpKeySpace, i18n.HelpKeyTest, i18n.HelpKeyReset, i18n.HelpKeyClear, i18n.HelpKeyArrows, i18n.HelpKeySpeed,
	i18n.HelpKeyTab, i18n.HelpKeyLanguage, i18n.HelpKeyLarge, i18n.HelpKeyHelp, i18n.HelpKeyEscape,
}

// drawHelp paints the help over the machine: what a visitor can do, and the keys.
func (sc *Scene) drawHelp(dst *image.RGBA) {
	l := sc.l
	p := l.helpPanel
	if tracing != nil {
		tracing.overlay(true)
		defer tracing.overlay(false)
	}
	blendRect(dst, image.Rect(0, 0, Width, Height), color.RGBA{0, 0, 0, 150})
	fill(dst, p, colPanel)
	frameRect(dst, p, 10, 2, colAmber)
	x, w := p.Min.X+36, p.Dx()-72
	y := p.Min.Y + 56
	text(dst, sc.fMid, x, y, sc.msg(i18n.HelpTitle), colAmber)
	y += 24
	gap := sc.fTip.height + 2
	for _, m := range helpText {
		y += gap
		var n int
		sc.tip = sc.lang.Append(sc.tip[:0], m)
		sc.ends, n = paragraph(dst, sc.fTip, x, y, w, gap, 4, sc.tip, colText, sc.ends)
		y += (n-1)*gap + 6
	}
	y += 40
	text(dst, sc.fHead, x, y, sc.msg(i18n.HelpKeysTitle), colHeading)
	// Two columns; a key's line may wrap once.
	rows := (len(helpKeys) + 1) / 2
	colW := w / 2
	kgap := sc.fLabel.height + 2
	bottom := y
	for c := range 2 {
		cy := y + 10 + kgap
		for i := c * rows; i < min(len(helpKeys), (c+1)*rows); i++ {
			var n int
			sc.ends, n = paragraph(dst, sc.fLabel, x+c*colW, cy, colW-24, kgap, 2, sc.msg(helpKeys[i]), colText, sc.ends)
			cy += n*kgap + 4
		}
		bottom = max(bottom, cy-kgap)
	}
	y = bottom
	sc.traceBottom(y+sc.fLabel.height, p.Max.Y-sc.fLabel.height-8)
	textCentred(dst, sc.fLabel, p.Min.X+p.Dx()/2, p.Max.Y-20, sc.msg(i18n.HelpClose), colTextDim)
}

// A tracer is told of every text drawn and of every text cut short (tests only: the
// overflow and contrast tests of access_test.go set one with export_test.go's Trace).
type tracer interface {
	text(dst *image.RGBA, f *face, x, y int, s string, c color.RGBA)
	cut(what string, need, have int)
	overlay(on bool) // the texts that follow are drawn over the machine (a description, the help)
}

// tracing is the tracer, nil but in those tests (which do not run in parallel).
var tracing tracer

// traceCut tells the tracer when a text needs more lines than it is given.
func (sc *Scene) traceCut(need, have int) {
	if tracing != nil && need > have {
		tracing.cut("the description", need, have)
	}
}

// traceBottom tells the tracer when the help's text runs below its panel.
func (sc *Scene) traceBottom(bottom, limit int) {
	if tracing != nil && bottom > limit {
		tracing.cut("the help, in pixels", bottom, limit)
	}
}
