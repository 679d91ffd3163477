// Package pen draws the cards of packages builtin and gen: points, Bezier curves flattened to
// polygons, circles, glyph outlines of the embedded Go fonts, and an antialiased rasterizer.
// Every product that is then added is rounded explicitly, so the cards are the same, bit for
// bit, on every architecture.
package pen

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// Point is a position in pixels (or font units before placement); y increases downward.
type Point struct{ X, Y float64 }

// Mul returns a*b rounded to float64. Every product that is then added goes through it: the
// explicit conversion forbids the compiler to fuse the two into one multiply-add, which would
// round differently on machines that have one, and the cards must be the same everywhere.
func Mul(a, b float64) float64 { return float64(a * b) }

// Mid returns the midpoint of a and b. The halving is a product (x*0.5) to the compiler, so it
// is rounded explicitly too.
func Mid(a, b Point) Point { return Point{float64((a.X + b.X) / 2), float64((a.Y + b.Y) / 2)} }

// QuadTo appends the quadratic Bezier curve p0-p1-p2 (p0 already in c) flattened by 2^depth
// midpoint subdivisions.
func QuadTo(c []Point, p0, p1, p2 Point, depth int) []Point {
	if depth == 0 {
		return append(c, p2)
	}
	a, b := Mid(p0, p1), Mid(p1, p2)
	m := Mid(a, b)
	c = QuadTo(c, p0, a, m, depth-1)
	return QuadTo(c, m, b, p2, depth-1)
}

// CubeTo appends the cubic Bezier curve p0-p1-p2-p3 (p0 already in c), flattened likewise.
func CubeTo(c []Point, p0, p1, p2, p3 Point, depth int) []Point {
	if depth == 0 {
		return append(c, p3)
	}
	a, b, d := Mid(p0, p1), Mid(p1, p2), Mid(p2, p3)
	ab, bd := Mid(a, b), Mid(b, d)
	m := Mid(ab, bd)
	c = CubeTo(c, p0, a, ab, m, depth-1)
	return CubeTo(c, m, bd, d, p3, depth-1)
}

// Render fills the closed polygons (non-zero winding: a hole must run the other way round) in
// black on a white size x size card, antialiased. At card sizes the vector rasterizer works in
// fixed point, so the result depends only on the float32 vertices.
func Render(contours [][]Point, size int) *image.Gray {
	z := vector.NewRasterizer(size, size)
	for _, c := range contours {
		if len(c) < 3 {
			continue
		}
		z.MoveTo(float32(c[0].X), float32(c[0].Y))
		for _, p := range c[1:] {
			z.LineTo(float32(p.X), float32(p.Y))
		}
		z.ClosePath()
	}
	mask := image.NewAlpha(image.Rect(0, 0, size, size))
	z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	g := image.NewGray(mask.Bounds())
	for i, a := range mask.Pix {
		g.Pix[i] = 255 - a
	}
	return g
}

// kappa places the control points of a cubic Bezier quarter circle.
const kappa = 0.5522847498307936

// Circle is the circle of radius r about c, clockwise on the screen, or anticlockwise if
// reverse (for a hole).
func Circle(c Point, r float64, reverse bool) []Point {
	k := Mul(r, kappa)
	cx, cy := c.X, c.Y
	// Quarter arcs: start, control, control, end.
	arcs := [4][4]Point{
		{{cx + r, cy}, {cx + r, cy + k}, {cx + k, cy + r}, {cx, cy + r}},
		{{cx, cy + r}, {cx - k, cy + r}, {cx - r, cy + k}, {cx - r, cy}},
		{{cx - r, cy}, {cx - r, cy - k}, {cx - k, cy - r}, {cx, cy - r}},
		{{cx, cy - r}, {cx + k, cy - r}, {cx + r, cy - k}, {cx + r, cy}},
	}
	out := []Point{arcs[0][0]}
	for _, a := range arcs {
		out = CubeTo(out, a[0], a[1], a[2], a[3], 4)
	}
	out = out[:len(out)-1] // the last point repeats the first
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// Typeface is an embedded font, parsed on first use.
type Typeface struct {
	name string
	font func() (*sfnt.Font, error)
	mu   sync.Mutex
	// glyphs keeps the outlines drawn so far (a glyph is parsed once; outlines are only read
	// afterwards).
	glyphs map[rune]glyphEntry
}

type glyphEntry struct {
	o   Outline
	err error
}

func newTypeface(name string, ttf []byte) *Typeface {
	return &Typeface{name: name, font: sync.OnceValues(func() (*sfnt.Font, error) { return sfnt.Parse(ttf) }), glyphs: map[rune]glyphEntry{}}
}

// The embedded typefaces: Go Bold and Go Mono Bold.
var (
	GoBold     = newTypeface("gobold", gobold.TTF)
	GoMonoBold = newTypeface("gomonobold", gomonobold.TTF)
)

// Name returns the typeface's short name, used in card sources.
func (t *Typeface) Name() string { return t.name }

// Outline is a glyph flattened to polygons, in font units (y down), with its ink bounds. Its
// contours are shared: read them, do not change them.
type Outline struct {
	Contours [][]Point
	Min, Max Point
}

// Glyph returns the outline of r in t.
func (t *Typeface) Glyph(r rune) (Outline, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.glyphs[r]
	if !ok {
		e.o, e.err = t.load(r)
		t.glyphs[r] = e
	}
	return e.o, e.err
}

func (t *Typeface) load(r rune) (Outline, error) {
	f, err := t.font()
	if err != nil {
		return Outline{}, fmt.Errorf("typeface %s: %w", t.name, err)
	}
	var buf sfnt.Buffer
	idx, err := f.GlyphIndex(&buf, r)
	if err == nil && idx == 0 {
		err = errors.New("no glyph")
	}
	if err != nil {
		return Outline{}, fmt.Errorf("typeface %s, letter %q: %w", t.name, r, err)
	}
	// At ppem = units per em the segments are in font units (26.6 fixed point, exact).
	segs, err := f.LoadGlyph(&buf, idx, fixed.Int26_6(f.UnitsPerEm())<<6, nil)
	if err != nil {
		return Outline{}, fmt.Errorf("typeface %s, letter %q: %w", t.name, r, err)
	}
	pt := func(p fixed.Point26_6) Point { return Point{float64(p.X) / 64, float64(p.Y) / 64} }
	var o Outline
	var cur []Point
	var pen Point
	for _, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if len(cur) > 0 {
				o.Contours = append(o.Contours, cur)
			}
			pen = pt(s.Args[0])
			cur = []Point{pen}
		case sfnt.SegmentOpLineTo:
			pen = pt(s.Args[0])
			cur = append(cur, pen)
		case sfnt.SegmentOpQuadTo:
			cur = QuadTo(cur, pen, pt(s.Args[0]), pt(s.Args[1]), 3)
			pen = pt(s.Args[1])
		case sfnt.SegmentOpCubeTo:
			cur = CubeTo(cur, pen, pt(s.Args[0]), pt(s.Args[1]), pt(s.Args[2]), 3)
			pen = pt(s.Args[2])
		}
	}
	if len(cur) > 0 {
		o.Contours = append(o.Contours, cur)
	}
	o.Min = Point{math.Inf(1), math.Inf(1)}
	o.Max = Point{math.Inf(-1), math.Inf(-1)}
	for _, c := range o.Contours {
		for _, p := range c {
			o.Min = Point{min(o.Min.X, p.X), min(o.Min.Y, p.Y)}
			o.Max = Point{max(o.Max.X, p.X), max(o.Max.Y, p.Y)}
		}
	}
	if o.Max.X <= o.Min.X || o.Max.Y <= o.Min.Y {
		return Outline{}, fmt.Errorf("typeface %s, letter %q: empty glyph", t.name, r)
	}
	return o, nil
}

// Place scales o by scale and puts the centre of its ink bounds at c, in pixels.
func (o Outline) Place(scale float64, c Point) [][]Point {
	left := c.X - float64(Mul(o.Max.X-o.Min.X, scale)/2)
	top := c.Y - float64(Mul(o.Max.Y-o.Min.Y, scale)/2)
	out := make([][]Point, len(o.Contours))
	for i, cont := range o.Contours {
		out[i] = make([]Point, len(cont))
		for j, p := range cont {
			out[i][j] = Point{left + Mul(p.X-o.Min.X, scale), top + Mul(p.Y-o.Min.Y, scale)}
		}
	}
	return out
}
