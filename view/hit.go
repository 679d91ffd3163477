package view

import (
	"image"
	"math"
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

// partRect returns where a part is on the screen: each panel answers for its own kinds of
// part (the scene_*.go files).
func (sc *Scene) partRect(p Part) (image.Rectangle, bool) {
	for _, rect := range panelRects {
		if r, ok := rect(sc, p); ok {
			return r, true
		}
	}
	return image.Rectangle{}, false
}

// panelRects are the panels' partRect: each says where a part of its own is.
var panelRects = [...]func(*Scene, Part) (image.Rectangle, bool){
	(*Scene).titlePartRect, (*Scene).cardPartRect, (*Scene).retinaPartRect, (*Scene).lampsPartRect,
	(*Scene).rUnitsPartRect, (*Scene).racksPartRect, (*Scene).controlsPartRect, (*Scene).curvePartRect,
}

// HitTest returns the part of the screen at p, as the scene last drew it.
func (sc *Scene) HitTest(p image.Point) Part {
	for _, hit := range panelHits {
		if part, ok := hit(sc, p); ok {
			return part
		}
	}
	return Part{}
}

// panelHits are the panels' hit tests (the scene_*.go files), in the order HitTest asks
// them: what is drawn over another first (the open help, then the zoomed rack over the
// lamps, the plug-board, the R-units and the racks).
var panelHits = [...]func(*Scene, image.Point) (Part, bool){
	(*Scene).hitTitle,    // the open help, the visitor's own controls, the title bar, the caption
	(*Scene).hitCard,     // the card and the answer
	(*Scene).hitRetina,   // the retina's cells and panel
	(*Scene).hitZoom,     // the zoomed rack
	(*Scene).hitLamps,    // the A-unit lamps and the plug-board
	(*Scene).hitRUnits,   // the R-units' lamps and heat maps
	(*Scene).hitRacks,    // the racks and their dials
	(*Scene).hitControls, // the control panel, the experiments and the teach panel
	(*Scene).hitCurve,    // the curve
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
