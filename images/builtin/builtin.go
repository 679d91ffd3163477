package builtin

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/internal/pen"
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
	"letters": func() (*images.Set, error) {
		return letterSet("letters", alphabet, []*pen.Typeface{pen.GoBold}, letterGrid)
	},
	"letters2": func() (*images.Set, error) {
		return letterSet("letters2", alphabet, []*pen.Typeface{pen.GoMonoBold}, letterGrid)
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

// point is a position in pixels; y increases downward.
type point = pen.Point

// mul returns a*b rounded to float64, never fused into a multiply-add (see pen.Mul).
func mul(a, b float64) float64 { return pen.Mul(a, b) }

// render fills the closed polygons in black on a white built-in card, antialiased.
func render(contours [][]point) *image.Gray { return pen.Render(contours, cardSize) }

// The typefaces of the letters.
var bothFaces = []*pen.Typeface{pen.GoBold, pen.GoMonoBold}

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
		s = max(s, math.Abs(p.X), math.Abs(p.Y))
	}
	return cardSize - 2*margin - 2*s
}

var (
	// letterGrid: cap heights of about 11 and 14 retina cells, four diagonal shifts of 4/3 cell.
	letterGrid = variations{
		sizes:  []float64{34, 42},
		shifts: []point{{X: -4, Y: -4}, {X: 4, Y: -4}, {X: -4, Y: 4}, {X: 4, Y: 4}},
	}
	// pairGrid: three cap heights, centred and four diagonal shifts of 5/3 cell.
	pairGrid = variations{
		sizes:  []float64{30, 36, 42},
		shifts: []point{{X: 0, Y: 0}, {X: -5, Y: -5}, {X: 5, Y: -5}, {X: -5, Y: 5}, {X: 5, Y: 5}},
	}
	// shapeGrid: bounding-box sides of about 7, 10 and 12 retina cells (odd numbers of pixels,
	// so that straight edges fall mid-pixel and are antialiased), centred and four diagonal
	// shifts of 2 cells.
	shapeGrid = variations{
		sizes:  []float64{21, 29, 37},
		shifts: []point{{X: 0, Y: 0}, {X: -6, Y: -6}, {X: 6, Y: -6}, {X: -6, Y: 6}, {X: 6, Y: 6}},
	}
)

// letterSet draws each letter of letters (one class each) in every typeface at every
// variation. The size is the cap height (that of "H"); letters whose ink would not fit the room
// are shrunk to fit.
func letterSet(name, letters string, faces []*pen.Typeface, v variations) (*images.Set, error) {
	set := &images.Set{Name: name}
	for _, r := range letters {
		set.Classes = append(set.Classes, string(r))
	}
	room := v.room()
	for _, t := range faces {
		h, err := t.Glyph('H')
		if err != nil {
			return nil, fmt.Errorf("builtin: %w", err)
		}
		capHeight := h.Max.Y - h.Min.Y
		glyphs := make([]pen.Outline, len(set.Classes))
		for i, r := range letters {
			if glyphs[i], err = t.Glyph(r); err != nil {
				return nil, fmt.Errorf("builtin: %w", err)
			}
		}
		for _, size := range v.sizes {
			for _, s := range v.shifts {
				for class, o := range glyphs {
					scale := min(size/capHeight, room/(o.Max.X-o.Min.X), room/(o.Max.Y-o.Min.Y))
					set.Cards = append(set.Cards, images.Card{
						Image:  render(o.Place(scale, point{X: cardSize/2 + s.X, Y: cardSize/2 + s.Y})),
						Class:  class,
						Source: fmt.Sprintf("%s:%s/%s/%gpx/%+g,%+g", name, set.Classes[class], t.Name(), size, s.X, s.Y),
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

// shapeContours draws shape k with bounding-box side size centred on (cx, cy): solid, or an
// outline of width stroke (an inner contour running the other way).
func shapeContours(k shapeKind, solid bool, size, cx, cy float64) [][]point {
	h := float64(size / 2)
	if k == circle {
		out := [][]point{pen.Circle(point{X: cx, Y: cy}, h, false)}
		if !solid {
			out = append(out, pen.Circle(point{X: cx, Y: cy}, h-stroke, true))
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
		v = []point{{X: cx - h, Y: cy - h}, {X: cx + h, Y: cy - h}, {X: cx + h, Y: cy + h}, {X: cx - h, Y: cy + h}}
		c, r = point{X: cx, Y: cy}, h
	case diamond:
		v = []point{{X: cx, Y: cy - h}, {X: cx + h, Y: cy}, {X: cx, Y: cy + h}, {X: cx - h, Y: cy}}
		c, r = point{X: cx, Y: cy}, float64(h/math.Sqrt2)
	case triangle:
		t := mul(size, math.Sqrt(3)/2) // height
		half := float64(t / 2)
		v = []point{{X: cx, Y: cy - half}, {X: cx + h, Y: cy + half}, {X: cx - h, Y: cy + half}}
		c, r = point{X: cx, Y: cy + float64(t/6)}, float64(t/3)
	}
	out := [][]point{v}
	if !solid {
		f := (r - stroke) / r
		in := make([]point, len(v))
		for i, p := range v {
			in[len(v)-1-i] = point{X: c.X + mul(p.X-c.X, f), Y: c.Y + mul(p.Y-c.Y, f)}
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
						Image:  render(shapeContours(k, solid, size, cardSize/2+s.X, cardSize/2+s.Y)),
						Class:  class,
						Source: fmt.Sprintf("%s:%s/%s/%gpx/%+g,%+g", name, shapeNames[k], fill, size, s.X, s.Y),
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
