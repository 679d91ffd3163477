package builtin

import (
	"errors"
	"fmt"
	"github.com/mark1-perceptron/mark1/images"
	"image"
	"math"
	"slices"
	"strings"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Geometry of the built-in cards, in pixels.
const (
	cardSize = 60 // side of a built-in card: 3 pixels per retina cell, so area averaging matters
	margin   = 3  // white border every figure keeps (one retina cell)
	stroke   = 4  // line width of the outline shapes
)

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// builtins maps each built-in set's name to its generator.
var builtins = map[string]func() (*images.Set, error){
	"letters": func() (*images.Set, error) { return letterSet("letters", alphabet, []*typeface{goBold}, letterGrid) },
	"letters2": func() (*images.Set, error) {
		return letterSet("letters2", alphabet, []*typeface{goMonoBold}, letterGrid)
	},
	"letters-both": func() (*images.Set, error) { return letterSet("letters-both", alphabet, bothFaces, letterGrid) },
	"ef":           func() (*images.Set, error) { return letterSet("ef", "EF", bothFaces, pairGrid) },
	"xe":           func() (*images.Set, error) { return letterSet("xe", "XE", bothFaces, pairGrid) },
	"shapes": func() (*images.Set, error) {
		return shapeSet("shapes", []shapeKind{square, circle, diamond, triangle}), nil
	},
	"squares-circles": func() (*images.Set, error) { return shapeSet("squares-circles", []shapeKind{square, circle}), nil },
	"square-diamond":  func() (*images.Set, error) { return shapeSet("square-diamond", []shapeKind{square, diamond}), nil },
	"leftright":       func() (*images.Set, error) { return leftRightSet(), nil },
}

// BuiltinNames returns the names of the built-in card sets, sorted.
func Names() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Builtin generates the built-in card set of the given name. Every card is a fresh 60x60
// *image.Gray (3 pixels per retina cell), black antialiased ink on white, and every figure keeps
// a white margin of at least 3 pixels. The cards come from a fixed grid of variations, so
// every call on every machine gives pixel-identical cards, ordered round-robin over the classes
// (the first card of each class, then the second of each, and so on). The sets:
//
//   - "letters": A to Z in Go Bold, 26 classes "A".."Z", 8 cards each (208): cap heights 34 and
//     42 pixels (about 11 and 14 retina cells), each shifted 4 pixels up-left, up-right,
//     down-left and down-right of the centre. Wide letters are shrunk to fit.
//   - "letters2": the same in a second typeface, Go Mono Bold (slab serifs, monospaced), for
//     the historical experiment "train on one typeface, test on the other".
//   - "letters-both": both typefaces, 16 cards per letter (416).
//   - "ef": E against F, both typefaces, cap heights 30, 36 and 42 pixels, centred or shifted
//     5 pixels diagonally: 30 cards per class (60).
//   - "xe": X against E, the same variations (60).
//   - "shapes": classes "square", "circle", "diamond", "triangle", each solid and outlined
//     (4-pixel line), bounding-box sides 21, 29 and 37 pixels, centred or shifted 6 pixels
//     diagonally: 30 cards per class (120). The diamond is the square turned 45 degrees within
//     the same bounding box; the triangle is equilateral, pointing up.
//   - "squares-circles": classes "square" and "circle" of "shapes" (60).
//   - "square-diamond": classes "square" and "diamond" of "shapes" (60, as historically).
//   - "leftright": classes "left" and "right": a solid square of side 13, 17 or 21 pixels in
//     the left or right half of the card, at 5 heights and 2 distances from the centre line:
//     30 cards per class (60).
//
// An unknown name gives an error listing the valid names.
func Load(name string) (*images.Set, error) {
	gen, ok := builtins[name]
	if !ok {
		return nil, fmt.Errorf("builtin: unknown built-in set %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return gen()
}

// point is a position in pixels (or font units before placement); y increases downward.
type point struct{ x, y float64 }

// mul returns a*b rounded to float64. Every product that is then added goes through it: the
// explicit conversion forbids the compiler to fuse the two into one multiply-add, which would
// round differently on machines that have one, and the cards must be the same everywhere.
func mul(a, b float64) float64 { return float64(a * b) }

// mid returns the midpoint of a and b. The halving is a product (x*0.5) to the compiler, so it
// is rounded explicitly too.
func mid(a, b point) point { return point{float64((a.x + b.x) / 2), float64((a.y + b.y) / 2)} }

// quadTo appends the quadratic Bezier curve p0-p1-p2 (p0 already in c) flattened by 2^depth
// midpoint subdivisions.
func quadTo(c []point, p0, p1, p2 point, depth int) []point {
	if depth == 0 {
		return append(c, p2)
	}
	a, b := mid(p0, p1), mid(p1, p2)
	m := mid(a, b)
	c = quadTo(c, p0, a, m, depth-1)
	return quadTo(c, m, b, p2, depth-1)
}

// cubeTo appends the cubic Bezier curve p0-p1-p2-p3 (p0 already in c), flattened likewise.
func cubeTo(c []point, p0, p1, p2, p3 point, depth int) []point {
	if depth == 0 {
		return append(c, p3)
	}
	a, b, d := mid(p0, p1), mid(p1, p2), mid(p2, p3)
	ab, bd := mid(a, b), mid(b, d)
	m := mid(ab, bd)
	c = cubeTo(c, p0, a, ab, m, depth-1)
	return cubeTo(c, m, bd, d, p3, depth-1)
}

// render fills the closed polygons (non-zero winding: a hole must run the other way round) in
// black on a white cardSize x cardSize card, antialiased. At this size the vector rasterizer
// works in fixed point, so the result depends only on the float32 vertices.
func render(contours [][]point) *image.Gray {
	z := vector.NewRasterizer(cardSize, cardSize)
	for _, c := range contours {
		if len(c) < 3 {
			continue
		}
		z.MoveTo(float32(c[0].x), float32(c[0].y))
		for _, p := range c[1:] {
			z.LineTo(float32(p.x), float32(p.y))
		}
		z.ClosePath()
	}
	mask := image.NewAlpha(image.Rect(0, 0, cardSize, cardSize))
	z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	g := image.NewGray(mask.Bounds())
	for i, a := range mask.Pix {
		g.Pix[i] = 255 - a
	}
	return g
}

// --- letters ---

// typeface is an embedded font, parsed on first use.
type typeface struct {
	name string // short name used in card sources
	font func() (*sfnt.Font, error)
}

func newTypeface(name string, ttf []byte) *typeface {
	return &typeface{name: name, font: sync.OnceValues(func() (*sfnt.Font, error) { return sfnt.Parse(ttf) })}
}

var (
	goBold     = newTypeface("gobold", gobold.TTF)
	goMonoBold = newTypeface("gomonobold", gomonobold.TTF)
	bothFaces  = []*typeface{goBold, goMonoBold}
)

// outline is a glyph flattened to polygons, in font units (y down), with its ink bounds.
type outline struct {
	contours [][]point
	min, max point
}

// glyph returns the outline of r in t.
func (t *typeface) glyph(buf *sfnt.Buffer, r rune) (outline, error) {
	f, err := t.font()
	if err != nil {
		return outline{}, fmt.Errorf("builtin: typeface %s: %w", t.name, err)
	}
	idx, err := f.GlyphIndex(buf, r)
	if err == nil && idx == 0 {
		err = errors.New("no glyph")
	}
	if err != nil {
		return outline{}, fmt.Errorf("builtin: typeface %s, letter %q: %w", t.name, r, err)
	}
	// At ppem = units per em the segments are in font units (26.6 fixed point, exact).
	segs, err := f.LoadGlyph(buf, idx, fixed.Int26_6(f.UnitsPerEm())<<6, nil)
	if err != nil {
		return outline{}, fmt.Errorf("builtin: typeface %s, letter %q: %w", t.name, r, err)
	}
	pt := func(p fixed.Point26_6) point { return point{float64(p.X) / 64, float64(p.Y) / 64} }
	var o outline
	var cur []point
	var pen point
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if len(cur) > 0 {
				o.contours = append(o.contours, cur)
			}
			pen = pt(s.Args[0])
			cur = []point{pen}
		case sfnt.SegmentOpLineTo:
			pen = pt(s.Args[0])
			cur = append(cur, pen)
		case sfnt.SegmentOpQuadTo:
			cur = quadTo(cur, pen, pt(s.Args[0]), pt(s.Args[1]), 3)
			pen = pt(s.Args[1])
		case sfnt.SegmentOpCubeTo:
			cur = cubeTo(cur, pen, pt(s.Args[0]), pt(s.Args[1]), pt(s.Args[2]), 3)
			pen = pt(s.Args[2])
		}
	}
	if len(cur) > 0 {
		o.contours = append(o.contours, cur)
	}
	o.min = point{math.Inf(1), math.Inf(1)}
	o.max = point{math.Inf(-1), math.Inf(-1)}
	for _, c := range o.contours {
		for _, p := range c {
			o.min = point{min(o.min.x, p.x), min(o.min.y, p.y)}
			o.max = point{max(o.max.x, p.x), max(o.max.y, p.y)}
		}
	}
	if o.max.x <= o.min.x || o.max.y <= o.min.y {
		return outline{}, fmt.Errorf("builtin: typeface %s, letter %q: empty glyph", t.name, r)
	}
	return o, nil
}

// place scales o by scale and centres its ink bounds on (cx, cy), in pixels.
func (o outline) place(scale, cx, cy float64) [][]point {
	left := cx - float64(mul(o.max.x-o.min.x, scale)/2)
	top := cy - float64(mul(o.max.y-o.min.y, scale)/2)
	out := make([][]point, len(o.contours))
	for i, c := range o.contours {
		out[i] = make([]point, len(c))
		for j, p := range c {
			out[i][j] = point{left + mul(p.x-o.min.x, scale), top + mul(p.y-o.min.y, scale)}
		}
	}
	return out
}

// variations is a grid of figure sizes and shifts of the figure's centre from the card's
// centre, in pixels.
type variations struct {
	sizes  []float64
	shifts []point
}

// room is the largest figure extent that keeps the margin at every shift.
func (v variations) room() float64 {
	s := 0.0
	for _, p := range v.shifts {
		s = max(s, math.Abs(p.x), math.Abs(p.y))
	}
	return cardSize - 2*margin - 2*s
}

var (
	// letterGrid: cap heights of about 11 and 14 retina cells, four diagonal shifts of 4/3 cell.
	letterGrid = variations{
		sizes:  []float64{34, 42},
		shifts: []point{{-4, -4}, {4, -4}, {-4, 4}, {4, 4}},
	}
	// pairGrid: three cap heights, centred and four diagonal shifts of 5/3 cell.
	pairGrid = variations{
		sizes:  []float64{30, 36, 42},
		shifts: []point{{0, 0}, {-5, -5}, {5, -5}, {-5, 5}, {5, 5}},
	}
	// shapeGrid: bounding-box sides of about 7, 10 and 12 retina cells (odd numbers of pixels,
	// so that straight edges fall mid-pixel and are antialiased), centred and four diagonal
	// shifts of 2 cells.
	shapeGrid = variations{
		sizes:  []float64{21, 29, 37},
		shifts: []point{{0, 0}, {-6, -6}, {6, -6}, {-6, 6}, {6, 6}},
	}
)

// letterSet draws each letter of letters (one class each) in every typeface at every
// variation. The size is the cap height (that of "H"); letters whose ink would not fit the room
// are shrunk to fit.
func letterSet(name, letters string, faces []*typeface, v variations) (*images.Set, error) {
	set := &images.Set{Name: name}
	for _, r := range letters {
		set.Classes = append(set.Classes, string(r))
	}
	room := v.room()
	var buf sfnt.Buffer
	for _, t := range faces {
		h, err := t.glyph(&buf, 'H')
		if err != nil {
			return nil, err
		}
		capHeight := h.max.y - h.min.y
		glyphs := make([]outline, len(set.Classes))
		for i, r := range letters {
			if glyphs[i], err = t.glyph(&buf, r); err != nil {
				return nil, err
			}
		}
		for _, size := range v.sizes {
			for _, s := range v.shifts {
				for class, o := range glyphs {
					scale := min(size/capHeight, room/(o.max.x-o.min.x), room/(o.max.y-o.min.y))
					set.Cards = append(set.Cards, images.Card{
						Image:  render(o.place(scale, cardSize/2+s.x, cardSize/2+s.y)),
						Class:  class,
						Source: fmt.Sprintf("%s:%s/%s/%gpx/%+g,%+g", name, set.Classes[class], t.name, size, s.x, s.y),
					})
				}
			}
		}
	}
	return set, nil
}

// --- shapes ---

type shapeKind int

const (
	square shapeKind = iota
	circle
	diamond
	triangle
)

var shapeNames = [...]string{square: "square", circle: "circle", diamond: "diamond", triangle: "triangle"}

// kappa places the control points of a cubic Bezier quarter circle.
const kappa = 0.5522847498307936

// circlePath is the circle of radius r about (cx, cy), clockwise on screen, or anticlockwise
// if reverse (for a hole).
func circlePath(cx, cy, r float64, reverse bool) []point {
	k := mul(r, kappa)
	// Quarter arcs: start, control, control, end.
	arcs := [4][4]point{
		{{cx + r, cy}, {cx + r, cy + k}, {cx + k, cy + r}, {cx, cy + r}},
		{{cx, cy + r}, {cx - k, cy + r}, {cx - r, cy + k}, {cx - r, cy}},
		{{cx - r, cy}, {cx - r, cy - k}, {cx - k, cy - r}, {cx, cy - r}},
		{{cx, cy - r}, {cx + k, cy - r}, {cx + r, cy - k}, {cx + r, cy}},
	}
	c := []point{arcs[0][0]}
	for _, a := range arcs {
		c = cubeTo(c, a[0], a[1], a[2], a[3], 4)
	}
	c = c[:len(c)-1] // the last point repeats the first
	if reverse {
		slices.Reverse(c)
	}
	return c
}

// shapeContours draws shape k with bounding-box side size centred on (cx, cy): solid, or an
// outline of width stroke (an inner contour running the other way).
func shapeContours(k shapeKind, solid bool, size, cx, cy float64) [][]point {
	h := float64(size / 2)
	if k == circle {
		out := [][]point{circlePath(cx, cy, h, false)}
		if !solid {
			out = append(out, circlePath(cx, cy, h-stroke, true))
		}
		return out
	}
	// The polygons are tangential: the outline's inner edge is the polygon shrunk about its
	// incentre c from inradius r to r-stroke.
	var v []point
	var c point
	var r float64
	switch k {
	case square:
		v = []point{{cx - h, cy - h}, {cx + h, cy - h}, {cx + h, cy + h}, {cx - h, cy + h}}
		c, r = point{cx, cy}, h
	case diamond:
		v = []point{{cx, cy - h}, {cx + h, cy}, {cx, cy + h}, {cx - h, cy}}
		c, r = point{cx, cy}, float64(h/math.Sqrt2)
	case triangle:
		t := mul(size, math.Sqrt(3)/2) // height
		half := float64(t / 2)
		v = []point{{cx, cy - half}, {cx + h, cy + half}, {cx - h, cy + half}}
		c, r = point{cx, cy + float64(t/6)}, float64(t/3)
	}
	out := [][]point{v}
	if !solid {
		f := (r - stroke) / r
		in := make([]point, len(v))
		for i, p := range v {
			in[len(v)-1-i] = point{c.x + mul(p.x-c.x, f), c.y + mul(p.y-c.y, f)}
		}
		out = append(out, in)
	}
	return out
}

// shapeSet draws each shape kind (one class each), solid and outlined, at every variation.
func shapeSet(name string, kinds []shapeKind) *images.Set {
	set := &images.Set{Name: name}
	for _, k := range kinds {
		set.Classes = append(set.Classes, shapeNames[k])
	}
	for _, solid := range []bool{true, false} {
		fill := "solid"
		if !solid {
			fill = "outline"
		}
		for _, size := range shapeGrid.sizes {
			for _, s := range shapeGrid.shifts {
				for class, k := range kinds {
					set.Cards = append(set.Cards, images.Card{
						Image:  render(shapeContours(k, solid, size, cardSize/2+s.x, cardSize/2+s.y)),
						Class:  class,
						Source: fmt.Sprintf("%s:%s/%s/%gpx/%+g,%+g", name, shapeNames[k], fill, size, s.x, s.y),
					})
				}
			}
		}
	}
	return set
}

// leftRightSet draws a solid square in the left or the right half of the card (the 1958 IBM 704
// simulation of the Mark I reported in the New York Times).
func leftRightSet() *images.Set {
	set := &images.Set{Name: "leftright", Classes: []string{"left", "right"}}
	sizes := []float64{13, 17, 21} // odd: the edges fall mid-pixel
	ys := []float64{14, 22, 30, 38, 46}
	xs := []float64{14, 19} // centre of a left square; a right one mirrors it
	for _, size := range sizes {
		for _, y := range ys {
			for _, x := range xs {
				for class, cx := range []float64{x, cardSize - x} {
					set.Cards = append(set.Cards, images.Card{
						Image:  render(shapeContours(square, true, size, cx, y)),
						Class:  class,
						Source: fmt.Sprintf("leftright:%s/square/%gpx/at%g,%g", set.Classes[class], size, cx, y),
					})
				}
			}
		}
	}
	return set
}
