package view

import (
	"image"
	"math"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// drawHighlight rings the narration's subject.
func (sc *Scene) drawHighlight(dst *image.RGBA, ui *UI) {
	r, ok := sc.partRect(ui.Highlight)
	if !ok {
		return
	}
	pulse := 0.5 + float64(0.5*math.Sin(ui.Elapsed.Seconds()*4))
	frameRect(dst, r.Inset(-6), 12, 4, withAlpha(colHighlight, uint8(120+float64(120*pulse))))
}

// partRect returns where a part is on the screen.
func (sc *Scene) partRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartTitle:
		return l.title, true
	case PartCaption:
		return l.caption, true
	case PartCard:
		return l.card, true
	case PartAnswer:
		return l.answer, true
	case PartCell:
		if p.Index >= 0 && p.Index < retina.N {
			return l.cellRect(p.Index), true
		}
		return l.retina, true
	case PartLamp:
		return l.lamps, true
	case PartUnit:
		return l.unitPanel, true
	case PartRLamp:
		return l.rPanel, true
	case PartHeat:
		return l.heatPanel, true
	case PartRack:
		if p.Index >= 0 && p.Index < maxR && sc.zoom < 0 {
			return l.rack[p.Index], true
		}
		return l.rackPanel, true
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
	case PartCurve:
		return l.curve, true
	case PartLanguage:
		return l.lang, true
	case PartLargeText:
		return l.large, true
	case PartHelp:
		if p.Index == 1 {
			return l.helpPanel, true
		}
		return l.help, true
	case PartUnitPrev:
		return l.unitPrev, true
	case PartUnitNext:
		return l.unitNext, true
	case PartClear:
		return l.clear, true
	case PartZoomClose:
		if sc.zoom >= 0 {
			return l.zoomClose, true
		}
	}
	return image.Rectangle{}, false
}

// HitTest returns the part of the screen at p, as the scene last drew it.
func (sc *Scene) HitTest(p image.Point) Part {
	l := sc.l
	in := p.In
	switch {
	case sc.helpOpen && in(l.helpPanel):
		return Part{Kind: PartHelp, Index: 1}
	case in(l.lang):
		return Part{Kind: PartLanguage}
	case in(l.large):
		return Part{Kind: PartLargeText}
	case in(l.help):
		return Part{Kind: PartHelp}
	case in(l.title):
		return Part{Kind: PartTitle}
	case in(l.caption):
		return Part{Kind: PartCaption}
	case in(l.card.Inset(-4)):
		return Part{Kind: PartCard}
	case in(l.answer):
		return Part{Kind: PartAnswer}
	case in(l.retina):
		x, y := (p.X-l.retina.Min.X)/cellPx, (p.Y-l.retina.Min.Y)/cellPx
		return Part{Kind: PartCell, Index: y*retina.Cols + x}
	}
	if sc.zoom >= 0 && in(l.zoom) {
		switch {
		case in(l.zoomClose):
			return Part{Kind: PartZoomClose}
		case in(l.zoomDials):
			x, y := (p.X-l.zoomDials.Min.X)/zoomPitch, (p.Y-l.zoomDials.Min.Y)/zoomPitch
			if i := y*zoomCols + x; i < len(sc.shown[sc.zoom]) {
				return Part{Kind: PartDial, Index: sc.zoom, Sub: i}
			}
		case in(l.zoomHeat):
			x, y := (p.X-l.zoomHeat.Min.X)*retina.Cols/l.zoomHeat.Dx(), (p.Y-l.zoomHeat.Min.Y)*retina.Rows/l.zoomHeat.Dy()
			return Part{Kind: PartHeat, Index: sc.zoom, Sub: y*retina.Cols + x}
		}
		return Part{Kind: PartRack, Index: sc.zoom}
	}
	switch {
	case in(l.lamps):
		x, y := (p.X-l.lamps.Min.X)/lampPitch, (p.Y-l.lamps.Min.Y)/lampPitch
		return Part{Kind: PartLamp, Index: y*lampCols + x}
	case in(l.unitPrev):
		return Part{Kind: PartUnitPrev}
	case in(l.unitNext):
		return Part{Kind: PartUnitNext}
	case in(l.unitPanel):
		return Part{Kind: PartUnit}
	}
	for r := range sc.nR {
		if in(l.rLamp[r]) {
			return Part{Kind: PartRLamp, Index: r}
		}
		if in(l.heat[r]) {
			x, y := (p.X-l.heat[r].Min.X)*retina.Cols/l.heat[r].Dx(), (p.Y-l.heat[r].Min.Y)*retina.Rows/l.heat[r].Dy()
			return Part{Kind: PartHeat, Index: r, Sub: y*retina.Cols + x}
		}
		if in(l.rack[r]) {
			q := p.Sub(l.dials[r])
			if q.Y >= 0 {
				if i := (q.Y/dialPitchY)*dialCols + q.X/dialPitch; i < len(sc.shown[r]) {
					return Part{Kind: PartDial, Index: r, Sub: i}
				}
			}
			return Part{Kind: PartRack, Index: r}
		}
	}
	for i := range numButtons {
		if in(l.buttons[i]) {
			return Part{Kind: PartButton, Index: int(i)}
		}
	}
	for i, r := range l.rules {
		if in(r) {
			rule := machine.Alpha
			if i == 1 {
				rule = machine.Forced
			}
			return Part{Kind: PartRule, Index: int(rule)}
		}
	}
	for i, r := range l.speeds {
		if in(r) {
			return Part{Kind: PartSpeed, Index: i}
		}
	}
	for i, r := range l.exps {
		if in(r) {
			return Part{Kind: PartExperiment, Index: i}
		}
	}
	for i, r := range sc.classKeys {
		if in(r) {
			return Part{Kind: PartClass, Index: i}
		}
	}
	switch {
	case in(l.clear):
		return Part{Kind: PartClear}
	case in(l.curve):
		return Part{Kind: PartCurve}
	case in(l.lampPanel):
		return Part{Kind: PartLamp, Index: -1}
	case in(l.rPanel):
		return Part{Kind: PartRLamp, Index: -1}
	case in(l.heatPanel):
		return Part{Kind: PartHeat, Index: -1, Sub: -1}
	case in(l.retinaPanel):
		return Part{Kind: PartCell, Index: -1}
	}
	return Part{}
}

// RetinaRect returns where the retina is on the screen (the visitor draws there).
func (sc *Scene) RetinaRect() image.Rectangle { return sc.l.retina }

// Overlay returns where the last Draw painted over the machine's usual panels, in the
// picture's pixels: the help, else the zoomed rack and the description box (their union
// when both), or an empty rectangle. A window that cuts the picture into pieces (the
// museum's portrait layout) shows this region whole, on top, so that nothing drawn over a
// boundary between two pieces is cut apart.
func (sc *Scene) Overlay() image.Rectangle {
	if sc.helpOpen {
		return sc.l.helpPanel
	}
	r := sc.tipAt
	if sc.zoom >= 0 {
		r = r.Union(sc.l.zoom)
	}
	return r
}
