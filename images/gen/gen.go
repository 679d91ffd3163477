package gen

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/mark1-perceptron/mark1/images"
)

// streamBase separates the generator's random streams from any other use of the same seed.
const streamBase = 0x6d61726b31_67656e // "mark1gen"

// Generate draws the set s describes: s.N cards, card i of class i mod the number of classes,
// each from its own random stream (see the package documentation). The set's Name is
// s.String(). Cards are drawn on all cores; the result does not depend on how many there are.
func Generate(s Spec) (*images.Set, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	set := &images.Set{Name: s.String(), Classes: s.Classes(), Cards: make([]images.Card, s.N)}
	// Parse the typefaces before the workers start (the outlines are cached on first use).
	if s.Font != "" {
		for _, r := range set.Classes {
			for _, t := range []*typeface{goBold, goMonoBold} {
				if _, err := t.glyph([]rune(r)[0]); err != nil {
					return nil, err
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, s.N/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < s.N; i += workers {
				set.Cards[i] = s.Card(i)
			}
		}()
	}
	wg.Wait()
	return set, nil
}

// Card draws card i of the set s describes (which must be valid), alone: the same card that
// Generate puts at index i.
func (s Spec) Card(i int) images.Card {
	rng := rand.New(rand.NewPCG(s.Seed, streamBase+uint64(i)))
	k, _ := findKind(s.Kind)
	class := i % len(k.Classes)
	var img *image.Gray
	var what string
	switch s.Kind {
	case "squares-circles", "square-diamond":
		img, what = s.shape(rng, class)
	case "ef", "xe", "letters":
		img, what = s.letter(rng, []rune(k.Classes[class])[0])
	case "leftright":
		img, what = s.leftRight(rng, class)
	case "connected":
		img, what = s.rings(rng, class)
	}
	return images.Card{Image: img, Class: class, Source: fmt.Sprintf("gen:%s,seed=%d#%d: %s", s.Kind, s.Seed, i, what)}
}

// centre draws a figure's centre along one axis, for a figure extending half pixels either
// side: within Shift of the card's centre, keeping the margin.
func (s Spec) centre(rng *rand.Rand, half float64) float64 {
	return uniform(rng, max(margin+half, cardSize/2-s.Shift), min(cardSize-margin-half, cardSize/2+s.Shift))
}

// uniform draws from [lo, hi].
func uniform(rng *rand.Rand, lo, hi float64) float64 { return lerp(lo, hi, rng.Float64()) }

// fill draws whether a shape is solid.
func (s Spec) solid(rng *rand.Rand) bool {
	switch s.Fill {
	case "solid":
		return true
	case "both":
		return rng.IntN(2) == 0
	}
	return false
}

// shape draws a square or a circle (squares-circles), or a square or diamond (square-diamond).
// The centre is drawn over the same range for both classes, the one that keeps the margin for
// the largest extent either class can take (a turned square's or a diamond's diagonal), so that
// where a figure lies says nothing about its class.
func (s Spec) shape(rng *rand.Rand, class int) (*image.Gray, string) {
	size := uniform(rng, s.Size.Min, s.Size.Max)
	solid := s.solid(rng)
	angle := 0.0
	if s.Kind == "squares-circles" && s.Rotate {
		angle = uniform(rng, 0, 90)
	}
	if s.Kind == "square-diamond" && class == 1 {
		angle = 45
	}
	half := float64(size / 2)
	if s.Kind == "square-diamond" || s.Rotate {
		half = float64(size / math.Sqrt2)
	}
	c := point{s.centre(rng, half), s.centre(rng, half)}
	name := "square"
	var contours [][]point
	if s.Kind == "squares-circles" && class == 1 {
		name = "circle"
		contours = [][]point{circlePath(c, float64(size/2), false)}
		if !solid {
			contours = append(contours, circlePath(c, float64(size/2)-s.Stroke, true))
		}
	} else {
		if s.Kind == "square-diamond" && class == 1 {
			name = "diamond"
		}
		sin, cos := sincosDeg(angle)
		contours = [][]point{squarePath(c, size, sin, cos, false)}
		if !solid {
			contours = append(contours, squarePath(c, size-2*s.Stroke, sin, cos, true))
		}
	}
	fill := "outline"
	if solid {
		fill = "solid"
	}
	return render(contours), fmt.Sprintf("%s %s %.1fpx %.1fdeg at %.1f,%.1f", name, fill, size, angle, c.x, c.y)
}

// letter draws r at a random cap height in one of the typefaces, at a random position that
// keeps the margin. Letters too wide for the card are shrunk to fit.
func (s Spec) letter(rng *rand.Rand, r rune) (*image.Gray, string) {
	t := goBold
	switch s.Font {
	case "mono":
		t = goMonoBold
	case "both":
		if rng.IntN(2) == 1 {
			t = goMonoBold
		}
	}
	size := uniform(rng, s.Size.Min, s.Size.Max)
	h, _ := t.glyph('H')
	o, _ := t.glyph(r)
	capHeight := h.max.y - h.min.y
	w, ht := o.max.x-o.min.x, o.max.y-o.min.y
	scale := min(size/capHeight, room/w, room/ht)
	hw, hh := float64(mul(w, scale)/2), float64(mul(ht, scale)/2)
	c := point{s.centre(rng, hw), s.centre(rng, hh)}
	return render(o.place(scale, c)), fmt.Sprintf("%c %s %.1fpx at %.1f,%.1f", r, t.name, size, c.x, c.y)
}

// leftRight draws a solid square wholly in the left (class 0) or right half of the card, at
// least a pixel from the centre line.
func (s Spec) leftRight(rng *rand.Rand, class int) (*image.Gray, string) {
	size := uniform(rng, s.Size.Min, s.Size.Max)
	h := float64(size / 2)
	x := uniform(rng, margin+h, cardSize/2-1-h)
	if class == 1 {
		x = cardSize - x
	}
	c := point{x, uniform(rng, margin+h, cardSize-margin-h)}
	return render([][]point{squarePath(c, size, 0, 1, false)}), fmt.Sprintf("square %.1fpx at %.1f,%.1f", size, c.x, c.y)
}

// rect is an axis-aligned rectangle, in pixels.
type rect struct{ x0, y0, x1, y1 float64 }

// apart reports whether a and b are separated by at least gap along x or along y.
func apart(a, b rect, gap float64) bool {
	return a.x1+gap <= b.x0 || b.x1+gap <= a.x0 || a.y1+gap <= b.y0 || b.y1+gap <= a.y0
}

// ringGap is the least gap between two rings, in pixels: two retina cells, so that a whole row
// or column of cells lies dark between them whatever the placement.
const ringGap = 6

// rings draws one rectangular ring (connected) or two rings apart (disconnected) with the same
// total perimeter: the perimeter is drawn first, from the same range for both classes, so that
// the amount of ink and the local look of the strokes (straight runs and corners, no ends) say
// nothing about the class.
func (s Spec) rings(rng *rand.Rand, class int) (*image.Gray, string) {
	minSide := 2*s.Stroke + ringHole
	for range 100_000 {
		perimeter := uniform(rng, 140, 180)
		var sides [][2]float64
		if class == 0 {
			if wh, ok := ringSides(rng, float64(perimeter/2), minSide, room); ok {
				sides = [][2]float64{wh}
			}
		} else {
			p1 := mul(perimeter, uniform(rng, 0.4, 0.6))
			a, okA := ringSides(rng, float64(p1/2), minSide, room-ringGap-minSide)
			b, okB := ringSides(rng, float64((perimeter-p1)/2), minSide, room-ringGap-minSide)
			if okA && okB {
				sides = [][2]float64{a, b}
			}
		}
		if sides == nil {
			continue
		}
		var placed []rect
		for try := 0; try < 50 && len(placed) < len(sides); try++ {
			wh := sides[len(placed)]
			x0 := uniform(rng, margin, cardSize-margin-wh[0])
			y0 := uniform(rng, margin, cardSize-margin-wh[1])
			r := rect{x0, y0, x0 + wh[0], y0 + wh[1]}
			if len(placed) == 0 || apart(placed[0], r, ringGap) {
				placed = append(placed, r)
			}
		}
		if len(placed) < len(sides) {
			continue
		}
		var contours [][]point
		what := ""
		for _, r := range placed {
			contours = append(contours, rectPath(r.x0, r.y0, r.x1, r.y1, false),
				rectPath(r.x0+s.Stroke, r.y0+s.Stroke, r.x1-s.Stroke, r.y1-s.Stroke, true))
			what += fmt.Sprintf(" ring %.1fx%.1f at %.1f,%.1f", r.x1-r.x0, r.y1-r.y0, r.x0, r.y0)
		}
		return render(contours), fmt.Sprintf("perimeter %.1fpx:%s", perimeter, what)
	}
	panic("gen: no room for the rings of " + s.String()) // Validate keeps the stroke small enough
}

// ringHole is the least side of a ring's hole, in pixels: two retina cells, so that a whole
// cell lies inside it whatever the placement and the ring stays a ring on the retina.
const ringHole = 6

// ringSides splits a half-perimeter into a width and a height, each within minSide..limit.
func ringSides(rng *rand.Rand, half, minSide, limit float64) ([2]float64, bool) {
	lo, hi := max(minSide, half-limit), min(limit, half-minSide)
	if lo > hi {
		return [2]float64{}, false
	}
	w := uniform(rng, lo, hi)
	return [2]float64{w, half - w}, true
}
