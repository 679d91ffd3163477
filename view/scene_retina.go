package view

import (
	"image"
	"math"

	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

func (sc *Scene) bgRetina(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.retinaPanel)
	fill(dst, l.retina.Inset(-3), colPanelEdge)
	for s := range retina.N {
		fill(dst, sc.l.cellRect(s).Inset(1), colCellDark)
	}
}

func (sc *Scene) bgLamps(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.lampPanel)
	lamps := 0
	if f.Board != nil {
		lamps = f.Board.Len()
	}
	for a := range min(lamps, lampCols*16) {
		c := l.lampCentre(a)
		sc.lampOn.draw(dst, c.X, c.Y, colAmberDim)
	}
}

// bgUnit paints the plug-board's panel and its arrows.
func (sc *Scene) bgUnit(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.unitPanel)
	sc.button(dst, l.unitPrev, arrowPrev, sc.fButton)
	sc.button(dst, l.unitNext, arrowNext, sc.fButton)
}

// drawRetina shows each photocell glowing with its level and the S-unit's lamp lit when on.
func (sc *Scene) drawRetina(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	for s := range retina.N {
		cr := l.cellRect(s).Inset(1)
		lv := float64(f.Machine.Levels[s])
		c := lerp(colCellDark, colCellLit, math.Sqrt(max(0, min(1.2, lv))/1.2))
		fill(dst, cr, c)
		cx, cy := cr.Min.X+cr.Dx()/2, cr.Min.Y+cr.Dy()/2
		if f.Machine.S.Get(s) {
			sc.sLampGlow.draw(dst, cx, cy, withAlpha(colAmberGlow, 160))
			sc.sLamp.draw(dst, cx, cy, colAmber)
		}
	}
	if ui.Drawing != nil {
		// The strokes as they are drawn, over the cells, until the machine sees them.
		g := ui.Drawing
		b := g.Bounds()
		r := l.retina
		for y := range r.Dy() {
			py := b.Min.Y + y*b.Dy()/r.Dy()
			i := dst.PixOffset(r.Min.X, r.Min.Y+y)
			for x := range r.Dx() {
				px := b.Min.X + x*b.Dx()/r.Dx()
				if v := g.Pix[g.PixOffset(px, py)]; v < 250 {
					mixPix(dst.Pix, i, colAmber, uint32(255-v)*100/255)
				}
				i += 4
			}
		}
	}
	b := sc.lang.Append(sc.buf[:0], i18n.RetinaCount, i18n.Int(f.Machine.S.Count()))
	text(dst, fit(b, l.retinaPanel.Dx()-16, sc.fSmall, sc.faces[0].small), l.retinaPanel.Min.X+8, l.retinaPanel.Max.Y-10, b, colTextDim)
	sc.buf = b
}

// diamond is an inhibitory plug's outline: its corners, from the cell's centre.
var diamond = [4][2]float64{{9, 0}, {0, 9}, {-9, 0}, {0, -9}}

// drawWiring draws the chosen A-unit's plugs: wires from its cells to its lamp, red for
// excitatory, blue for inhibitory.
func (sc *Scene) drawWiring(dst *image.RGBA, f *session.Frame, ui *UI) {
	if f.Board == nil || ui.Unit < 0 || ui.Unit >= f.Board.Len() {
		return
	}
	l := sc.l
	u := &f.Board.Units[ui.Unit]
	lc := l.lampCentre(ui.Unit)
	lx, ly := float64(lc.X)+0.5, float64(lc.Y)+0.5
	lit := func(s uint16) bool { return f.Machine.S.Get(int(s)) }
	nExc, nInh := 0, 0
	for pass := range 2 {
		plugs, col := u.Exc, colRed
		if pass == 1 {
			plugs, col = u.Inh, colBlue
		}
		for _, s := range plugs {
			cr := l.cellRect(int(s))
			cx, cy := float64(cr.Min.X)+float64(cellPx)/2, float64(cr.Min.Y)+float64(cellPx)/2
			a := uint8(110)
			if lit(s) {
				a = 230
				if pass == 0 {
					nExc++
				} else {
					nInh++
				}
			}
			line(dst, cx, cy, lx, ly, 1.6, withAlpha(col, a))
			if pass == 0 {
				ring(dst, cx, cy, 6.5, 9, withAlpha(col, 255))
			} else {
				// An inhibitory plug is a diamond: its kind is seen by its shape too.
				for i := range 4 {
					a, b := diamond[i], diamond[(i+1)%4]
					line(dst, cx+a[0], cy+a[1], cx+b[0], cy+b[1], 2.5, col)
				}
			}
		}
	}
	ring(dst, lx, ly, 6, 8.5, colText)
	// The plug-board panel: the unit's sum and threshold.
	p := l.unitPanel
	lang, I := sc.lang, i18n.Int
	// From 0, as the rig (R0.A17), train and features number them.
	b := lang.Append(sc.buf[:0], i18n.AUnitName, I(ui.Unit))
	nameEnd := text(dst, sc.fButton, p.Min.X+66, p.Min.Y+27, b, colText)
	if len(u.Inh) == 0 {
		b = lang.Append(b[:0], i18n.AUnitPlugsExc, I(nExc), I(len(u.Exc)), I(u.Theta))
	} else {
		b = lang.Append(b[:0], i18n.AUnitPlugs, I(nExc), I(len(u.Exc)), I(nInh), I(len(u.Inh)), I(u.Theta))
	}
	text(dst, fit(b, p.Dx()-132, sc.fSmall, sc.faces[0].small), p.Min.X+66, p.Min.Y+50, b, colTextDim)
	fires := nExc-nInh >= u.Theta
	word, col := i18n.AUnitResting, colTextDim
	if fires {
		word, col = i18n.AUnitFires, colAmber
	}
	b = lang.Append(b[:0], word)
	textRight(dst, fit(b, p.Max.X-66-nameEnd-12, sc.fButton, sc.faces[0].button, sc.faces[0].label), p.Max.X-66, p.Min.Y+27, b, col)
	sc.buf = b
}

func (sc *Scene) drawLamps(dst *image.RGBA, f *session.Frame, ui *UI) {
	if f.Board == nil {
		return
	}
	l := sc.l
	for a := range min(f.Board.Len(), lampCols*16) { // the panel has room for the Mark I's 512
		if a/64 < len(f.Machine.A) && f.Machine.A[a/64]>>(a%64)&1 == 1 {
			c := l.lampCentre(a)
			sc.lampGlow.draw(dst, c.X, c.Y, withAlpha(colAmberGlow, 130))
			sc.lampOn.draw(dst, c.X, c.Y, colAmber)
		}
	}
	b := sc.lang.Append(sc.buf[:0], i18n.LampsFiring, i18n.Int(f.Machine.Active))
	textRight(dst, sc.fSmall, l.lampPanel.Max.X-10, l.lampPanel.Min.Y+24, b, colAmber)
	sc.buf = b
}

// hitRetina finds the photocell at p, or the retina's panel around them (Index -1).
func (sc *Scene) hitRetina(p image.Point) (Part, bool) {
	l := sc.l
	switch {
	case p.In(l.retina):
		x, y := (p.X-l.retina.Min.X)/cellPx, (p.Y-l.retina.Min.Y)/cellPx
		return Part{Kind: PartCell, Index: y*retina.Cols + x}, true
	case p.In(l.retinaPanel):
		return Part{Kind: PartCell, Index: -1}, true
	}
	return Part{}, false
}

// retinaPartRect says where a photocell is, or the retina (Index out of range).
func (sc *Scene) retinaPartRect(p Part) (image.Rectangle, bool) {
	if p.Kind != PartCell {
		return image.Rectangle{}, false
	}
	if p.Index >= 0 && p.Index < retina.N {
		return sc.l.cellRect(p.Index), true
	}
	return sc.l.retina, true
}

// hitLamps finds the A-unit lamp at p, the plug-board's arrows or panel, or the lamps' panel
// around them (Index -1).
func (sc *Scene) hitLamps(p image.Point) (Part, bool) {
	l := sc.l
	switch {
	case p.In(l.lamps):
		x, y := (p.X-l.lamps.Min.X)/lampPitch, (p.Y-l.lamps.Min.Y)/lampPitch
		return Part{Kind: PartLamp, Index: y*lampCols + x}, true
	case p.In(l.unitPrev):
		return Part{Kind: PartUnitPrev}, true
	case p.In(l.unitNext):
		return Part{Kind: PartUnitNext}, true
	case p.In(l.unitPanel):
		return Part{Kind: PartUnit}, true
	case p.In(l.lampPanel):
		return Part{Kind: PartLamp, Index: -1}, true
	}
	return Part{}, false
}

// lampsPartRect says where the A-unit lamps, the plug-board and its arrows are.
func (sc *Scene) lampsPartRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartLamp:
		return l.lamps, true
	case PartUnit:
		return l.unitPanel, true
	case PartUnitPrev:
		return l.unitPrev, true
	case PartUnitNext:
		return l.unitNext, true
	}
	return image.Rectangle{}, false
}
