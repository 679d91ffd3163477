package view

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

func (sc *Scene) bgRUnits(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.rPanel)
	for r := range maxR {
		b := l.rLamp[r]
		cx, cy := float64(b.Min.X+b.Dx()/2), float64(b.Min.Y+20)
		disc(dst, cx, cy, 19, colPanelEdge)
		disc(dst, cx, cy, 16, colGreenDim)
		label := rName(r)
		col := colTextDim
		if r >= sc.nR || sc.unused[r] {
			col = colTextUnused
			disc(dst, cx, cy, 16, colDialFace)
		}
		textCentred(dst, sc.fLabel, b.Min.X+b.Dx()/2, b.Min.Y+62, label, col)
	}
}

func (sc *Scene) bgHeat(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.heatPanel)
	for r := range sc.nR {
		h := l.heat[r]
		fill(dst, h.Inset(-2), colPanelEdge)
		fill(dst, h, colHeatZero)
		col := colTextDim
		if sc.unused[r] {
			col = colTextUnused
		}
		text(dst, sc.fSmall, h.Min.X-24, h.Min.Y+14, rName(r), col)
	}
	// Legend of the heat maps.
	// Right-aligned in the panel: a bright red square marked + and the word for on, a dark
	// blue one marked − and the word for off.
	on, off := sc.msg(i18n.HeatOn), []byte(nil)
	wOn := width(sc.fSmall, on)
	off = sc.msg(i18n.HeatOff)
	wOff := width(sc.fSmall, off)
	sq := sc.fSmall.ascent
	hy := l.heatPanel.Min.Y + 22
	hx := l.heatPanel.Max.X - 12 - (sq + 4 + wOn + 14 + sq + 4 + wOff)
	sc.legendSquare(dst, rect(hx, hy-sq+1, sq, sq), colRed, true)
	text(dst, sc.fSmall, hx+sq+4, hy, sc.msg(i18n.HeatOn), colTextDim)
	hx += sq + 4 + wOn + 14
	sc.legendSquare(dst, rect(hx, hy-sq+1, sq, sq), colBlue, false)
	text(dst, sc.fSmall, hx+sq+4, hy, sc.msg(i18n.HeatOff), colTextDim)
}

// legendSquare paints a colour's square in a legend, marked + or − in the panel's colour, so
// that the sign is read by shape as well as by colour.
func (sc *Scene) legendSquare(dst *image.RGBA, r image.Rectangle, c color.RGBA, plus bool) {
	fill(dst, r, c)
	cx, cy, h := r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2, r.Dx()/2-2
	fill(dst, image.Rect(cx-h, cy-1, cx+h, cy+1), colPanel)
	if plus {
		fill(dst, image.Rect(cx-1, cy-h, cx+1, cy+h), colPanel)
	}
}

func (sc *Scene) drawRUnits(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	for r := range min(sc.nR, len(f.Machine.Sums)) {
		if sc.unused[r] {
			continue
		}
		b := l.rLamp[r]
		cx, cy := b.Min.X+b.Dx()/2, b.Min.Y+20
		sum := f.Machine.Sums[r]
		if f.Machine.Count > 0 && sum > 0 {
			sc.rGlow.draw(dst, cx, cy, withAlpha(colGreen, 90))
			disc(dst, float64(cx), float64(cy), 16, colGreen)
		}
		if f.Machine.Count > 0 {
			bb := sc.buf[:0]
			if sum > 0 {
				bb = append(bb, '+')
			}
			bb = strconv.AppendFloat(bb, sum, 'f', 0, 64)
			textCentred(dst, fit(bb, b.Dx()-2, sc.fSmall, sc.faces[0].small), cx, b.Min.Y+82, bb, colTextDim)
			sc.buf = bb
		}
	}
	for _, m := range f.Machine.Moves {
		if m.R < sc.nR {
			b := l.rLamp[m.R]
			frameRect(dst, b.Inset(-2), 8, 2, colAmber)
		}
	}
}

// heatColour maps a learned value, scaled to -1..1, to blue, dark or red.
func heatColour(v float32) color.RGBA {
	t := float64(v)
	if t >= 0 {
		return lerp(colHeatZero, colRed, math.Sqrt(min(1, t)))
	}
	return lerp(colHeatZero, colBlue, math.Sqrt(min(1, -t)))
}

// heatScale returns the scale of the heat maps: the largest magnitude over all of them, at
// least a few increments so that a fresh machine's small weights show faintly.
func (sc *Scene) heatScale() float32 {
	m := float32(8)
	for r := range sc.nR {
		for _, v := range sc.heat[r] {
			m = max(m, v, -v)
		}
	}
	return m
}

func (sc *Scene) drawHeat(dst *image.RGBA, f *session.Frame) {
	scale := sc.heatScale()
	for r := range sc.nR {
		sc.heatMap(dst, sc.l.heat[r], &sc.heat[r], scale)
	}
}

func (sc *Scene) heatMap(dst *image.RGBA, rr image.Rectangle, h *[retina.N]float32, scale float32) {
	cw := rr.Dx() / retina.Cols
	for s := range retina.N {
		y, x := s/retina.Cols, s%retina.Cols
		fill(dst, rect(rr.Min.X+x*cw, rr.Min.Y+y*cw, cw, cw), heatColour(h[s]/scale))
	}
}

// hitRUnits finds the R-unit lamp or the heat map's cell at p, or the panel around them
// (Index -1).
func (sc *Scene) hitRUnits(p image.Point) (Part, bool) {
	l := sc.l
	for r := range sc.nR {
		if p.In(l.rLamp[r]) {
			return Part{Kind: PartRLamp, Index: r}, true
		}
		if h := l.heat[r]; p.In(h) {
			x, y := (p.X-h.Min.X)*retina.Cols/h.Dx(), (p.Y-h.Min.Y)*retina.Rows/h.Dy()
			return Part{Kind: PartHeat, Index: r, Sub: y*retina.Cols + x}, true
		}
	}
	switch {
	case p.In(l.rPanel):
		return Part{Kind: PartRLamp, Index: -1}, true
	case p.In(l.heatPanel):
		return Part{Kind: PartHeat, Index: -1, Sub: -1}, true
	}
	return Part{}, false
}

// rUnitsPartRect says where the R-units' lamps and the heat maps are.
func (sc *Scene) rUnitsPartRect(p Part) (image.Rectangle, bool) {
	switch p.Kind {
	case PartRLamp:
		return sc.l.rPanel, true
	case PartHeat:
		return sc.l.heatPanel, true
	}
	return image.Rectangle{}, false
}
