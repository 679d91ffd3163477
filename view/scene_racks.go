package view

import (
	"image"
	"image/color"
	"math"

	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// The dials sweep +-maxSweep radians from straight up for +-Range increments.
const (
	maxSweep         = 135 * math.Pi / 180
	pointerSteps     = 91  // every 3 degrees
	zoomPointerSteps = 271 // every degree
)

func pointerAngle(i int) float64 {
	return -maxSweep + 2*maxSweep*float64(i)/float64(pointerSteps-1)
}

// bgRacks paints the racks' dial faces, or the zoomed rack's.
func (sc *Scene) bgRacks(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	if sc.zoom >= 0 {
		sc.drawZoomBackground(dst, f)
		return
	}
	panel(dst, l.rackPanel)
	for r := range sc.racksShown() {
		rk := l.rack[r]
		col := colHeading
		if sc.unused[r] {
			col = colTextUnused
		}
		base := rk.Min.Y + sc.fSmall.ascent - 1
		x := text(dst, sc.fSmall, rk.Min.X, base, sc.msg(i18n.RackName, i18n.Str(rName(r))), col)
		if sc.unused[r] {
			m := sc.msg(i18n.RackUnused)
			textRight(dst, fit(m, rk.Max.X-x-10, sc.fSmall, sc.faces[0].small), rk.Max.X-2, base, m, colTextUnused)
		}
		for p := range min(len(f.Machine.Pots[r]), dialCols*dialRows) {
			c := l.dialCentre(r, p)
			face := colDialFace
			if p == len(f.Machine.Pots[r])-1 {
				face = colBiasFace
			}
			sc.dialRing.draw(dst, c.X, c.Y, colDialRim)
			sc.dialFace.draw(dst, c.X, c.Y, face)
			if !math.IsInf(f.Range, 1) {
				// End stops: a red mark at each end of the sweep.
				for _, s := range [2]float64{-1, 1} {
					x := float64(c.X) + 0.5 + float64(5*math.Sin(s*maxSweep))
					y := float64(c.Y) + 0.5 - float64(5*math.Cos(s*maxSweep))
					disc(dst, x, y, 1, colStop)
				}
			}
		}
	}
}

func (sc *Scene) drawZoomBackground(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	r := sc.zoom
	panel(dst, l.zoom)
	x := text(dst, sc.fMid, l.zoom.Min.X+16, l.zoom.Min.Y+44, sc.msg(i18n.RackName, i18n.Str(rName(r))), colText)
	// What the rack holds, between its name and CLOSE: one line, or two smaller.
	x = max(x+24, l.zoom.Min.X+230)
	about := sc.msg(i18n.ZoomAbout)
	if a := aUnits(f); a != markIAUnits {
		about = sc.msg(i18n.ZoomAboutN, i18n.Int(a))
	}
	room := l.zoomClose.Min.X - 16 - x
	if f := sc.fLabel; width(f, about) <= room {
		text(dst, f, x, l.zoom.Min.Y+42, about, colTextDim)
	} else {
		f = sc.faces[0].small
		if sc.key.large {
			f = sc.fSmall
		}
		sc.ends, _ = paragraph(dst, f, x, l.zoom.Min.Y+30, room, f.height+2, 2, about, colTextDim, sc.ends)
	}
	sc.button(dst, l.zoomClose, sc.msg(i18n.ButtonClose), sc.fButton)
	for p := range min(len(f.Machine.Pots[r]), zoomCols*zoomRows) {
		c := l.zoomCentre(p)
		face := colDialFace
		if p == len(f.Machine.Pots[r])-1 {
			face = colBiasFace
		}
		sc.zoomRing.draw(dst, c.X, c.Y, colDialRim)
		sc.zoomFace.draw(dst, c.X, c.Y, face)
		fx, fy := float64(c.X)+0.5, float64(c.Y)+0.5
		// Scale: ticks every quarter of the sweep, the zero at the top.
		for i := -4; i <= 4; i++ {
			th := maxSweep * float64(i) / 4
			sx, sy := math.Sin(th), -math.Cos(th)
			col := colTextFaint
			if i == 0 {
				col = colTextDim
			}
			line(dst, fx+float64(12*sx), fy+float64(12*sy), fx+float64(15*sx), fy+float64(15*sy), 1, col)
		}
		if !math.IsInf(f.Range, 1) {
			for _, s := range [2]float64{-1, 1} {
				th := s * maxSweep
				line(dst, fx+float64(10*math.Sin(th)), fy-float64(10*math.Cos(th)), fx+float64(16.5*math.Sin(th)), fy-float64(16.5*math.Cos(th)), 2.4, colStop)
			}
		}
	}
	h := l.zoomHeat
	text(dst, sc.fHead, h.Min.X, h.Min.Y-14, sc.msg(i18n.ZoomLearned, i18n.Str(rName(r))), colHeading)
	// What the map shows, below it (under the motors and the bias), wrapped to the panel.
	sc.ends, _ = paragraph(dst, sc.fSmall, h.Min.X, h.Max.Y+112, l.zoom.Max.X-16-h.Min.X, sc.fSmall.height+2, 3,
		sc.msg(i18n.ZoomLearnedSub), colTextDim, sc.ends)
	fill(dst, h.Inset(-3), colPanelEdge)
}

// dialIndex returns the pointer sprite for value v on a dial of range rng.
func dialFraction(v float32, rng float64) float64 {
	full := rng
	if math.IsInf(full, 1) || full <= 0 {
		full = 64
	}
	return max(-1, min(1, float64(v)/full))
}

// pointerColour colours a pointer by its weight's sign, brighter the larger, amber while its
// motor turns.
func pointerColour(t float64, moving bool) color.RGBA {
	if moving {
		return colAmber
	}
	switch {
	case t > 0.004:
		return lerp(colPointer, colRed, 0.35+float64(0.65*math.Sqrt(min(1, 4*t))))
	case t < -0.004:
		return lerp(colPointer, colBlue, 0.35+float64(0.65*math.Sqrt(min(1, -4*t))))
	}
	return colPointer
}

func (sc *Scene) drawRacks(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	if h := ui.Hover; h.Kind == PartDial && h.Index >= 0 && h.Index < sc.racksShown() {
		c := l.dialCentre(h.Index, h.Sub)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 6, 8, colText)
	}
	for r := range sc.racksShown() {
		sh, mv := sc.shown[r], sc.moving[r]
		sh = sh[:min(len(sh), dialCols*dialRows)]
		for p, v := range sh {
			c := l.dialCentre(r, p)
			t := dialFraction(v, f.Range)
			if mv[p] {
				sc.dialRing.draw(dst, c.X, c.Y, colAmberGlow)
			}
			i := int(math.Round((t + 1) / 2 * float64(pointerSteps-1)))
			col := pointerColour(t, mv[p])
			if sc.unused[r] {
				col = colTextFaint
			}
			sc.pointers[i].draw(dst, c.X, c.Y, col)
		}
	}
}

func (sc *Scene) drawZoom(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	r := sc.zoom
	if h := ui.Hover; h.Kind == PartDial && h.Index == r {
		c := l.zoomCentre(h.Sub)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 17, 19.5, colText)
	}
	sh, mv := sc.shown[r], sc.moving[r]
	moving := 0
	for p, v := range sh[:min(len(sh), zoomCols*zoomRows)] {
		c := l.zoomCentre(p)
		t := dialFraction(v, f.Range)
		if mv[p] {
			sc.zoomRing.draw(dst, c.X, c.Y, colAmberGlow)
			moving++
		}
		i := int(math.Round((t + 1) / 2 * float64(zoomPointerSteps-1)))
		sc.zoomPointers[i].draw(dst, c.X, c.Y, pointerColour(t, mv[p]))
	}
	sc.heatMap(dst, l.zoomHeat, &sc.heat[r], sc.heatScale())
	b := sc.lang.Append(sc.buf[:0], i18n.ZoomMotors, i18n.Int(moving))
	col := colTextDim
	if moving > 0 {
		col = colAmber
	}
	text(dst, sc.fButton, l.zoomHeat.Min.X, l.zoomHeat.Max.Y+44, b, col)
	b = sc.lang.Append(b[:0], i18n.ZoomBias, i18n.Num(float64(sh[len(sh)-1]), 1))
	text(dst, sc.fLabel, l.zoomHeat.Min.X, l.zoomHeat.Max.Y+76, b, colTextDim)
	sc.buf = b
}

// hitZoom finds p in the zoomed rack, when one is: its CLOSE, a dial, a cell of its heat
// map, or the rack. The zoomed rack lies over the lamps, the R-units and the racks.
func (sc *Scene) hitZoom(p image.Point) (Part, bool) {
	l := sc.l
	if sc.zoom < 0 || !p.In(l.zoom) {
		return Part{}, false
	}
	switch {
	case p.In(l.zoomClose):
		return Part{Kind: PartZoomClose}, true
	case p.In(l.zoomDials):
		x, y := (p.X-l.zoomDials.Min.X)/zoomPitch, (p.Y-l.zoomDials.Min.Y)/zoomPitch
		if i := y*zoomCols + x; i < len(sc.shown[sc.zoom]) {
			return Part{Kind: PartDial, Index: sc.zoom, Sub: i}, true
		}
	case p.In(l.zoomHeat):
		x, y := (p.X-l.zoomHeat.Min.X)*retina.Cols/l.zoomHeat.Dx(), (p.Y-l.zoomHeat.Min.Y)*retina.Rows/l.zoomHeat.Dy()
		return Part{Kind: PartHeat, Index: sc.zoom, Sub: y*retina.Cols + x}, true
	}
	return Part{Kind: PartRack, Index: sc.zoom}, true
}

// hitRacks finds the dial at p, or the rack it is in.
func (sc *Scene) hitRacks(p image.Point) (Part, bool) {
	l := sc.l
	if sc.rigOn() && p.In(l.rig) {
		return Part{}, true // the rig's panel, over the last racks
	}
	for r := range sc.racksShown() {
		if !p.In(l.rack[r]) {
			continue
		}
		q := p.Sub(l.dials[r])
		if q.Y >= 0 {
			if i := (q.Y/dialPitchY)*dialCols + q.X/dialPitch; i < len(sc.shown[r]) {
				return Part{Kind: PartDial, Index: r, Sub: i}, true
			}
		}
		return Part{Kind: PartRack, Index: r}, true
	}
	return Part{}, false
}

// racksPartRect says where a rack is (all of them for an Index out of range, or while one is
// zoomed), and the zoomed rack's CLOSE.
func (sc *Scene) racksPartRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartRack:
		if p.Index >= 0 && p.Index < maxR && sc.zoom < 0 {
			return l.rack[p.Index], true
		}
		return l.rackPanel, true
	case PartZoomClose:
		if sc.zoom >= 0 {
			return l.zoomClose, true
		}
	}
	return image.Rectangle{}, false
}
