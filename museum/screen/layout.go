// Package screen composes what the museum's window shows around package view's 1920x1080
// picture of the machine, in pure Go (no ebiten): the layout (landscape, with the camera's
// panel beside the card when there is a camera, or portrait: the machine cut into bands one
// above the other, for a screen taller than wide; a title band with the institution's name;
// the picture turned for a screen hung on its side), where a touch lands (on the machine, in
// view's coordinates, or on the panel), and the drawing of the camera panel and of the staff
// screen. The window (package museum) only moves the pieces with the GPU.
package screen

import (
	"image"

	"github.com/mark1-perceptron/mark1/view"
)

// Tile is a piece of view's picture placed on the screen: Src (view's pixels) is drawn scaled
// into Dst (the layout's pixels). Src and Dst have the same aspect ratio.
type Tile struct {
	Src, Dst image.Rectangle
}

// Scale is the tile's magnification.
func (t Tile) Scale() float64 { return float64(t.Dst.Dx()) / float64(t.Src.Dx()) }

// point maps q, a point of Dst, to view's pixel under it.
func (t Tile) point(q image.Point) image.Point {
	s := t.Scale()
	return image.Pt(t.Src.Min.X+int(float64(q.X-t.Dst.Min.X)/s), t.Src.Min.Y+int(float64(q.Y-t.Dst.Min.Y)/s))
}

// Options choose a layout.
type Options struct {
	Portrait bool
	Camera   bool   // a camera panel
	Title    string // the institution's name: a title band above the machine ("" none)
	Rotate   int    // 0, 90, 180, 270: the whole picture turned clockwise
}

// Layout is where everything goes: the layout's own W x H picture, then turned by Rotate.
type Layout struct {
	Options
	W, H  int
	Tiles []Tile
	Panel image.Rectangle // the camera panel (empty: none)
	Band  image.Rectangle // the title band (empty: none)
	// Over, when its Src is not empty, is what view drew over the machine (Scene.Overlay)
	// shown whole on top of the tiles, because the tiles cut it apart (SetOverlay).
	Over Tile
}

// TitleBand is the height of the title band.
const TitleBand = 48

// PanelWidth is the camera panel's width beside a landscape machine.
const PanelWidth = 340

// The bands the portrait layout cuts view's picture into (view's coordinates): the title and
// caption; the card, retina, lamps and R-units; the racks; the control panel; the curve.
var (
	portraitTop     = image.Rect(0, 0, view.Width, 166)
	portraitMachine = image.Rect(0, 166, 916, 836)
	portraitRacks   = image.Rect(916, 166, view.Width, 836)
	portraitControl = image.Rect(0, 836, 1380, view.Height)
	portraitCurve   = image.Rect(1380, 836, view.Width, view.Height)
)

// New lays the screen out.
func New(o Options) *Layout {
	l := &Layout{Options: o}
	y := 0
	if !o.Portrait {
		x := 0
		w := view.Width
		if o.Camera {
			x, w = PanelWidth, view.Width+PanelWidth
		}
		if o.Title != "" {
			l.Band = image.Rect(0, 0, w, TitleBand)
			y = TitleBand
		}
		l.W, l.H = w, y+view.Height
		l.Tiles = []Tile{{Src: image.Rect(0, 0, view.Width, view.Height), Dst: image.Rect(x, y, x+view.Width, y+view.Height)}}
		if o.Camera {
			l.Panel = image.Rect(0, y, PanelWidth, y+view.Height)
		}
		return l
	}
	const w = 1080
	l.W, l.H = w, 1920
	if o.Title != "" {
		l.Band = image.Rect(0, 0, w, TitleBand)
		y = TitleBand
	}
	// fit places src at (x, y), width dw.
	fit := func(src image.Rectangle, x, y, dw int) image.Rectangle {
		dh := (src.Dy()*dw + src.Dx()/2) / src.Dx()
		d := image.Rect(x, y, x+dw, y+dh)
		l.Tiles = append(l.Tiles, Tile{Src: src, Dst: d})
		return d
	}
	y = fit(portraitTop, 0, y, w).Max.Y
	y = fit(portraitMachine, 0, y, w).Max.Y
	side := 320
	racks := fit(portraitRacks, 0, y, w-side)
	if o.Camera {
		l.Panel = image.Rect(w-side, y, w, racks.Max.Y)
	} else {
		c := portraitCurve
		dh := c.Dy() * side / c.Dx()
		fit(c, w-side, y+(racks.Dy()-dh)/2, side)
	}
	y = fit(portraitControl, 0, racks.Max.Y, w).Max.Y
	if o.Camera {
		fit(portraitCurve, (w-portraitCurve.Dx())/2, y+16, portraitCurve.Dx())
	}
	return l
}

// OverlayMargin is the space kept around an overlay shown on top (SetOverlay).
const OverlayMargin = 16

// SetOverlay tells the layout what view drew over the machine this frame (Scene.Overlay:
// the help, the zoomed rack, a description). When no single tile shows src whole (the
// portrait layout's bands would cut it apart), Over shows it on top, centred below the
// title band, as large as fits (never enlarged); otherwise, and for an empty src, Over is
// cleared.
func (l *Layout) SetOverlay(src image.Rectangle) {
	l.Over = Tile{}
	if src.Empty() {
		return
	}
	for _, t := range l.Tiles {
		if src.In(t.Src) {
			return
		}
	}
	top := l.Band.Max.Y
	aw, ah := l.W-2*OverlayMargin, l.H-top-2*OverlayMargin
	s := min(1, float64(aw)/float64(src.Dx()), float64(ah)/float64(src.Dy()))
	w, h := int(float64(src.Dx())*s), int(float64(src.Dy())*s)
	x, y := (l.W-w)/2, top+(l.H-top-h)/2
	l.Over = Tile{Src: src, Dst: image.Rect(x, y, x+w, y+h)}
}

// Size returns the size of the picture on the screen, after the turn.
func (l *Layout) Size() (int, int) {
	if l.Rotate == 90 || l.Rotate == 270 {
		return l.H, l.W
	}
	return l.W, l.H
}

// Unturn maps a point of the turned picture (the screen's) to the layout's.
func (l *Layout) Unturn(p image.Point) image.Point {
	switch l.Rotate {
	case 90: // the layout's (x, y) is at (H-1-y, x)
		return image.Pt(p.Y, l.H-1-p.X)
	case 180:
		return image.Pt(l.W-1-p.X, l.H-1-p.Y)
	case 270: // at (y, W-1-x)
		return image.Pt(l.W-1-p.Y, p.X)
	}
	return p
}

// Where is what a point of the screen is on.
type Where int

// The places.
const (
	Nowhere Where = iota
	OnMachine
	OnPanel
	OnBand
)

// At returns what the screen's point p is on, and the point in that thing's coordinates
// (view's for OnMachine, the panel's for OnPanel).
func (l *Layout) At(p image.Point) (Where, image.Point) {
	q := l.Unturn(p)
	if q.In(l.Panel) {
		return OnPanel, q.Sub(l.Panel.Min)
	}
	if q.In(l.Band) {
		return OnBand, q.Sub(l.Band.Min)
	}
	if t := l.Over; !t.Src.Empty() && q.In(t.Dst) {
		return OnMachine, t.point(q)
	}
	for _, t := range l.Tiles {
		if q.In(t.Dst) {
			return OnMachine, t.point(q)
		}
	}
	return Nowhere, image.Point{}
}

// Plain reports whether the layout is view's picture alone, unmoved: the window then writes
// it straight into the screen.
func (l *Layout) Plain() bool {
	return len(l.Tiles) == 1 && l.Tiles[0].Dst == l.Tiles[0].Src && l.Rotate == 0 && l.Panel.Empty() && l.Band.Empty()
}
