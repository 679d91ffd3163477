package view

import (
	"image"

	"github.com/mark1-perceptron/mark1/session"
)

// The description's box: its width, usual and large, and the most lines it shows.
const (
	tipWidth      = 560
	tipWidthLarge = 760
	tipLines      = 12
)

// drawTip shows what the part under the pointer is.
func (sc *Scene) drawTip(dst *image.RGBA, f *session.Frame, ui *UI) {
	sc.tip = sc.words.description(sc.tip[:0], sc.lang, ui.Hover, f, ui, sc)
	if len(sc.tip) == 0 {
		return
	}
	w, gap := tipWidth, 31
	if sc.key.large {
		w, gap = tipWidthLarge, 38
	}
	sc.ends = wrap(sc.fTip, sc.tip, w-32, sc.ends)
	lines := min(len(sc.ends), tipLines)
	sc.traceCut(len(sc.ends), tipLines)
	h := 24 + lines*gap
	x, y := ui.HoverAt.X+28, ui.HoverAt.Y+28
	if x+w > Width-8 {
		x = ui.HoverAt.X - 28 - w
	}
	if y+h > Height-8 {
		y = ui.HoverAt.Y - 28 - h
	}
	x, y = max(8, x), max(8, y)
	r := rect(x, y, w, h)
	sc.tipAt = r
	if tracing != nil {
		tracing.overlay(true)
		defer tracing.overlay(false)
	}
	blendRect(dst, r, colTipBack)
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+3), colAmber)
	start := 0
	for i := range lines {
		e := sc.ends[i]
		text(dst, sc.fTip, x+16, y+32+i*gap, sc.tip[start:e], colText)
		start = e + 1
	}
}
