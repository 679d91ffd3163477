package gen

import (
	"image"
	"math"
	"slices"

	"github.com/mark1-perceptron/mark1/images/internal/pen"
	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// Geometry of the cards, in pixels (as package builtin draws them).
const (
	cardSize = 60 // 3 pixels per retina cell
	margin   = 3  // white border every figure keeps (one retina cell)
)

// point is a position in pixels; y increases downward.
type point = pen.Point

// mul returns a*b rounded to float64, never fused into a multiply-add (see pen.Mul).
func mul(a, b float64) float64 { return pen.Mul(a, b) }

// render fills the closed polygons in black on a white card, antialiased.
func render(contours [][]point) *image.Gray { return pen.Render(contours, cardSize) }

// lerp returns a + (b-a)*u.
func lerp(a, b, u float64) float64 { return a + mul(b-a, u) }

// rotate turns p about c by the angle whose sine and cosine are sin, cos (clockwise on the
// screen for a positive angle, y being down).
func rotate(p, c point, sin, cos float64) point {
	dx, dy := p.X-c.X, p.Y-c.Y
	return point{X: c.X + mul(dx, cos) - mul(dy, sin), Y: c.Y + mul(dx, sin) + mul(dy, cos)}
}

// squarePath is the square of side s about c turned by the angle of sin, cos, clockwise on
// the screen, or anticlockwise if reverse.
func squarePath(c point, s, sin, cos float64, reverse bool) []point {
	h := float64(s / 2)
	v := []point{{X: c.X - h, Y: c.Y - h}, {X: c.X + h, Y: c.Y - h}, {X: c.X + h, Y: c.Y + h}, {X: c.X - h, Y: c.Y + h}}
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
	v := []point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	if reverse {
		slices.Reverse(v)
	}
	return v
}

// sincosDeg returns the sine and cosine of deg degrees, the same on every architecture.
func sincosDeg(deg float64) (sin, cos float64) {
	return detmath.Sincos(float64(deg * (math.Pi / 180)))
}
