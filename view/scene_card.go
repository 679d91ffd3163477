package view

import (
	"image"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// bgCard paints the card holder and the answer's panel.
func (sc *Scene) bgCard(dst *image.RGBA, f *session.Frame) {
	panel(dst, image.Rect(16, 172-8, 452, 172+180))
	fill(dst, sc.l.card.Inset(-4), colPanelEdge)
}

// drawCard shows the card in the holder, or the visitor's drawing as it is being made.
func (sc *Scene) drawCard(dst *image.RGBA, f *session.Frame, ui *UI) {
	r := sc.l.card
	if ui.Drawing != nil {
		drawGray(dst, r, ui.Drawing)
		return
	}
	for y := range r.Dy() {
		py := y * session.PictureSide / r.Dy()
		i := dst.PixOffset(r.Min.X, r.Min.Y+y)
		row := f.Picture[py*session.PictureSide : (py+1)*session.PictureSide]
		for x := range r.Dx() {
			v := float64(row[x*session.PictureSide/r.Dx()]) / 255
			c := lerp(colInk, colPaper, v)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c.R, c.G, c.B, 255
			i += 4
		}
	}
}

// drawGray scales g into r (nearest pixel), as paper and ink.
func drawGray(dst *image.RGBA, r image.Rectangle, g *image.Gray) {
	b := g.Bounds()
	for y := range r.Dy() {
		py := b.Min.Y + y*b.Dy()/r.Dy()
		i := dst.PixOffset(r.Min.X, r.Min.Y+y)
		for x := range r.Dx() {
			px := b.Min.X + x*b.Dx()/r.Dx()
			v := float64(g.Pix[g.PixOffset(px, py)]) / 255
			c := lerp(colInk, colPaper, v)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c.R, c.G, c.B, 255
			i += 4
		}
	}
}

func (sc *Scene) drawAnswer(dst *image.RGBA, f *session.Frame) {
	a := sc.l.answer
	text(dst, sc.fHead, a.Min.X, a.Min.Y+10, sc.msg(i18n.PanelAnswer), colHeading)
	if f.Answer < 0 || f.Answer >= len(f.Classes) {
		text(dst, sc.fMid, a.Min.X, a.Min.Y+96, "–", colTextUnused)
		return
	}
	label := sc.label(f, f.Answer)
	fnt := sc.fBig
	if width(fnt, label) > a.Dx()-10 {
		fnt = sc.fMid
	}
	col := colAmber
	text(dst, fnt, a.Min.X, a.Min.Y+24+fnt.ascent*3/4+4, label, col)
	if f.Want < 0 || f.Want >= len(f.Classes) {
		m := sc.msg(i18n.AnswerNone)
		text(dst, fit(m, a.Dx(), sc.fLabel, sc.faces[0].label, sc.faces[0].small), a.Min.X, a.Min.Y+150, m, colTextDim)
		return
	}
	x := text(dst, sc.fLabel, a.Min.X, a.Min.Y+136, sc.msg(i18n.AnswerWanted), colTextDim)
	text(dst, sc.fButton, x, a.Min.Y+137, sc.label(f, f.Want), colText)
	right := f.Want == f.Answer
	lamp, word := colWrong, i18n.AnswerWrong
	if right {
		lamp, word = colGreen, i18n.AnswerRight
	}
	disc(dst, float64(a.Min.X+10), float64(a.Min.Y+160), 9, lamp)
	text(dst, sc.fButton, a.Min.X+26, a.Min.Y+169, sc.msg(word), lamp)
}

// hitCard finds p on the card (or just around it) or in the answer.
func (sc *Scene) hitCard(p image.Point) (Part, bool) {
	switch {
	case p.In(sc.l.card.Inset(-4)):
		return Part{Kind: PartCard}, true
	case p.In(sc.l.answer):
		return Part{Kind: PartAnswer}, true
	}
	return Part{}, false
}

// cardPartRect says where the card and the answer are.
func (sc *Scene) cardPartRect(p Part) (image.Rectangle, bool) {
	switch p.Kind {
	case PartCard:
		return sc.l.card, true
	case PartAnswer:
		return sc.l.answer, true
	}
	return image.Rectangle{}, false
}
