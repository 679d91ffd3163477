package gen

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

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// Geometry of the cards, in pixels (as package builtin draws them).
const (
	cardSize = 60 // 3 pixels per retina cell
	margin   = 3  // white border every figure keeps (one retina cell)
)

// point is a position in pixels; y increases downward.
type point struct{ x, y float64 }

// mul returns a*b rounded to float64: every product that is then added goes through it, so
// that no compiler fuses the two into a multiply-add (the cards must be the same everywhere).
func mul(a, b float64) float64 { return float64(a * b) }

// lerp returns a + (b-a)*u.
func lerp(a, b, u float64) float64 { return a + mul(b-a, u) }

// rotate turns p about c by the angle whose sine and cosine are sin, cos (clockwise on the
// screen for a positive angle, y being down).
func rotate(p, c point, sin, cos float64) point {
	dx, dy := p.x-c.x, p.y-c.y
	return point{c.x + mul(dx, cos) - mul(dy, sin), c.y + mul(dx, sin) + mul(dy, cos)}
}

func mid(a, b point) point { return point{float64((a.x + b.x) / 2), float64((a.y + b.y) / 2)} }

// quadTo appends the quadratic Bezier curve p0-p1-p2 (p0 already in c), flattened by 2^depth
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

// render fills the closed polygons (non-zero winding: a hole runs the other way round) in
// black on a white card, antialiased. At this size the rasterizer works in fixed point, so the
// result depends only on the float32 vertices.
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

// kappa places the control points of a cubic Bezier quarter circle.
const kappa = 0.5522847498307936

// circlePath is the circle of radius r about c, clockwise on the screen, or anticlockwise if
// reverse (for a hole).
func circlePath(c point, r float64, reverse bool) []point {
	k := mul(r, kappa)
	cx, cy := c.x, c.y
	arcs := [4][4]point{
		{{cx + r, cy}, {cx + r, cy + k}, {cx + k, cy + r}, {cx, cy + r}},
		{{cx, cy + r}, {cx - k, cy + r}, {cx - r, cy + k}, {cx - r, cy}},
		{{cx - r, cy}, {cx - r, cy - k}, {cx - k, cy - r}, {cx, cy - r}},
		{{cx, cy - r}, {cx + k, cy - r}, {cx + r, cy - k}, {cx + r, cy}},
	}
	out := []point{arcs[0][0]}
	for _, a := range arcs {
		out = cubeTo(out, a[0], a[1], a[2], a[3], 4)
	}
	out = out[:len(out)-1] // the last point repeats the first
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// squarePath is the square of side s about c turned by the angle of sin, cos, clockwise on
// the screen, or anticlockwise if reverse.
func squarePath(c point, s, sin, cos float64, reverse bool) []point {
	h := float64(s / 2)
	v := []point{{c.x - h, c.y - h}, {c.x + h, c.y - h}, {c.x + h, c.y + h}, {c.x - h, c.y + h}}
	for i := range v {
		v[i] = rotate(v[i], c, sin, cos)
	}
	if reverse {
		slices.Reverse(v)
	}
	return v
}

// rectPath is the axis-aligned rectangle from (x0, y0) to (x1, y1).
func rectPath(x0, y0, x1, y1 float64, reverse bool) []point {
	v := []point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	if reverse {
		slices.Reverse(v)
	}
	return v
}

// sincosDeg returns the sine and cosine of deg degrees, the same on every architecture.
func sincosDeg(deg float64) (sin, cos float64) {
	return detmath.Sincos(float64(deg * (math.Pi / 180)))
}

// --- letters ---

// typeface is an embedded font, parsed on first use.
type typeface struct {
	name string
	font func() (*sfnt.Font, error)
}

func newTypeface(name string, ttf []byte) *typeface {
	return &typeface{name: name, font: sync.OnceValues(func() (*sfnt.Font, error) { return sfnt.Parse(ttf) })}
}

var (
	goBold     = newTypeface("gobold", gobold.TTF)
	goMonoBold = newTypeface("gomonobold", gomonobold.TTF)
)

// outline is a glyph flattened to polygons, in font units (y down), with its ink bounds.
type outline struct {
	contours [][]point
	min, max point
}

// glyphCache keeps the outlines of the letters drawn so far, per typeface (a glyph is parsed
// once; the outlines are only read afterwards).
var glyphCache sync.Map // key glyphKey, value glyphEntry

type glyphKey struct {
	face *typeface
	r    rune
}

type glyphEntry struct {
	o   outline
	err error
}

// glyph returns the outline of r in t.
func (t *typeface) glyph(r rune) (outline, error) {
	key := glyphKey{t, r}
	if e, ok := glyphCache.Load(key); ok {
		return e.(glyphEntry).o, e.(glyphEntry).err
	}
	o, err := t.loadGlyph(r)
	glyphCache.Store(key, glyphEntry{o, err})
	return o, err
}

func (t *typeface) loadGlyph(r rune) (outline, error) {
	f, err := t.font()
	if err != nil {
		return outline{}, fmt.Errorf("gen: typeface %s: %w", t.name, err)
	}
	var buf sfnt.Buffer
	idx, err := f.GlyphIndex(&buf, r)
	if err == nil && idx == 0 {
		err = errors.New("no glyph")
	}
	if err != nil {
		return outline{}, fmt.Errorf("gen: typeface %s, letter %q: %w", t.name, r, err)
	}
	// At ppem = units per em the segments are in font units (26.6 fixed point, exact).
	segs, err := f.LoadGlyph(&buf, idx, fixed.Int26_6(f.UnitsPerEm())<<6, nil)
	if err != nil {
		return outline{}, fmt.Errorf("gen: typeface %s, letter %q: %w", t.name, r, err)
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
		return outline{}, fmt.Errorf("gen: typeface %s, letter %q: empty glyph", t.name, r)
	}
	return o, nil
}

// place scales o by scale and puts its ink bounds' centre at c, in pixels.
func (o outline) place(scale float64, c point) [][]point {
	left := c.x - float64(mul(o.max.x-o.min.x, scale)/2)
	top := c.y - float64(mul(o.max.y-o.min.y, scale)/2)
	out := make([][]point, len(o.contours))
	for i, cont := range o.contours {
		out[i] = make([]point, len(cont))
		for j, p := range cont {
			out[i][j] = point{left + mul(p.x-o.min.x, scale), top + mul(p.y-o.min.y, scale)}
		}
	}
	return out
}
