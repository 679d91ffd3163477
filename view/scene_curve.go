package view

import (
	"image"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

func (sc *Scene) bgCurve(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.curve)
	m := sc.msg(i18n.PanelCurve)
	text(dst, fit(m, l.curve.Dx()-24, sc.fHead, sc.faces[0].head, sc.faces[0].small), l.curve.Min.X+12, l.curve.Min.Y+22, m, colHeading)
	fill(dst, image.Rect(l.curvePlot.Min.X, l.curvePlot.Max.Y, l.curvePlot.Max.X, l.curvePlot.Max.Y+1), colTextFaint)
	fill(dst, image.Rect(l.curvePlot.Min.X-1, l.curvePlot.Min.Y, l.curvePlot.Min.X, l.curvePlot.Max.Y), colTextFaint)
}

// drawCurve plots the mistakes of each epoch, the latest that fit, and the epoch under way.
func (sc *Scene) drawCurve(dst *image.RGBA, f *session.Frame) {
	p := sc.l.curvePlot
	hist := f.History
	first := f.HistoryFirst
	barW := min(24, p.Dx()/max(1, len(hist)+1))
	barW = max(barW, 4)
	maxBars := p.Dx() / barW
	if len(hist) > maxBars-1 {
		first += len(hist) - (maxBars - 1)
		hist = hist[len(hist)-(maxBars-1):]
	}
	top := max(4, f.EpochMistakes)
	for _, v := range hist {
		top = max(top, v)
	}
	top = niceCeil(top)
	for i, v := range hist {
		h := v * p.Dy() / top
		col := colAmber
		if v == 0 {
			col = colGreen
			h = 2
		}
		fill(dst, image.Rect(p.Min.X+i*barW, p.Max.Y-h, p.Min.X+i*barW+barW-max(1, barW/5), p.Max.Y), col)
	}
	if f.EpochDone > 0 {
		i := len(hist)
		h := f.EpochMistakes * p.Dy() / top
		blendRect(dst, image.Rect(p.Min.X+i*barW, p.Max.Y-h, p.Min.X+i*barW+barW-max(1, barW/5), p.Max.Y), withAlpha(colAmber, 90))
	}
	lang := sc.lang
	b := lang.AppendInt(sc.buf[:0], top)
	textRight(dst, sc.fSmall, p.Min.X-6, p.Min.Y+10, b, colTextDim)
	textRight(dst, sc.fSmall, p.Min.X-6, p.Max.Y, "0", colTextDim)
	if len(hist) > 0 {
		b = lang.Append(b[:0], i18n.CurveEpoch, i18n.Int(first))
		end := text(dst, sc.fSmall, p.Min.X, p.Max.Y+18, b, colTextDim)
		if len(hist) > 1 {
			b = lang.AppendInt(b[:0], first+len(hist)-1)
			textRight(dst, sc.fSmall, max(end+12+width(sc.fSmall, b), p.Min.X+len(hist)*barW), p.Max.Y+18, b, colTextDim)
		}
	} else if f.EpochDone == 0 {
		text(dst, sc.fSmall, p.Min.X+8, p.Min.Y+p.Dy()/2, sc.msg(i18n.CurveNone), colTextUnused)
	}
	sc.buf = b
}

// niceCeil rounds n up to 1, 2 or 5 times a power of ten.
func niceCeil(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range [3]int{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
	}
}

// hitCurve finds p in the curve.
func (sc *Scene) hitCurve(p image.Point) (Part, bool) {
	if p.In(sc.l.curve) {
		return Part{Kind: PartCurve}, true
	}
	return Part{}, false
}

// curvePartRect says where the curve is.
func (sc *Scene) curvePartRect(p Part) (image.Rectangle, bool) {
	if p.Kind == PartCurve {
		return sc.l.curve, true
	}
	return image.Rectangle{}, false
}
