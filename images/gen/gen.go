package gen

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/internal/pen"
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
			for _, t := range []*pen.Typeface{pen.GoBold, pen.GoMonoBold} {
				if _, err := t.Glyph([]rune(r)[0]); err != nil {
					return nil, fmt.Errorf("gen: %w", err)
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
		img, what = s.switches(rng, class)
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
	c := point{X: s.centre(rng, half), Y: s.centre(rng, half)}
	name := "square"
	var contours [][]point
	if s.Kind == "squares-circles" && class == 1 {
		name = "circle"
		contours = [][]point{pen.Circle(c, float64(size/2), false)}
		if !solid {
			contours = append(contours, pen.Circle(c, float64(size/2)-s.Stroke, true))
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
	return render(contours), fmt.Sprintf("%s %s %.1fpx %.1fdeg at %.1f,%.1f", name, fill, size, angle, c.X, c.Y)
}

// letter draws r at a random cap height in one of the typefaces, at a random position that
// keeps the margin. Letters too wide for the card are shrunk to fit.
func (s Spec) letter(rng *rand.Rand, r rune) (*image.Gray, string) {
	t := pen.GoBold
	switch s.Font {
	case "mono":
		t = pen.GoMonoBold
	case "both":
		if rng.IntN(2) == 1 {
			t = pen.GoMonoBold
		}
	}
	size := uniform(rng, s.Size.Min, s.Size.Max)
	h, _ := t.Glyph('H')
	o, _ := t.Glyph(r)
	capHeight := h.Max.Y - h.Min.Y
	w, ht := o.Max.X-o.Min.X, o.Max.Y-o.Min.Y
	scale := min(size/capHeight, room/w, room/ht)
	hw, hh := float64(mul(w, scale)/2), float64(mul(ht, scale)/2)
	c := point{X: s.centre(rng, hw), Y: s.centre(rng, hh)}
	return render(o.Place(scale, c)), fmt.Sprintf("%c %s %.1fpx at %.1f,%.1f", r, t.Name(), size, c.X, c.Y)
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
	c := point{X: x, Y: uniform(rng, margin+h, cardSize-margin-h)}
	return render([][]point{squarePath(c, size, 0, 1, false)}), fmt.Sprintf("square %.1fpx at %.1f,%.1f", size, c.X, c.Y)
}

// switchGap is the least gap between strokes that must not touch, in pixels: two retina
// cells, so that a whole row or column of dark cells lies between them wherever they fall.
const switchGap = 6

// switches draws Minsky and Papert's figure for connectedness: four horizontal strokes, rows 1
// to 4 from the top, joined at each end by a switch. A switch in state 0 joins rows 1-2 and
// rows 3-4; in state 1 it joins rows 2-3 and, by a longer stroke outside them, rows 1-4. With
// both switches alike the figure is two closed loops (side by side, or one inside the other);
// with them different, one loop through all four rows. Connectedness is the exclusive or of
// two switches that lie far apart: each end alone says nothing, and the ink differs only as
// the switches do (a connected figure has as much as the mean of the two disconnected kinds).
// The rows' spacing, the strokes' extent and the figure's place are drawn at random.
func (s Spec) switches(rng *rand.Rand, class int) (*image.Gray, string) {
	w := s.Stroke
	left := rng.IntN(2)
	right := left
	if class == 0 {
		right = 1 - left // different switches: one loop
	}
	spacing := uniform(rng, w+switchGap, 14)
	height := float64(3*spacing) + w
	top := uniform(rng, margin, cardSize-margin-height)
	outer := w + switchGap // how far a state-1 switch's outer stroke lies beyond the rows
	x0 := uniform(rng, margin+outer, 22)
	x1 := uniform(rng, cardSize-22, cardSize-margin-outer)
	row := func(i int) float64 { return top + float64(float64(i)*spacing) }
	var contours [][]point
	box := func(ax, ay, bx, by float64) {
		contours = append(contours, rectPath(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), false))
	}
	// The rows, from the left switch's inner column to the right one's.
	for i := range 4 {
		box(x0, row(i), x1, row(i)+w)
	}
	for end, state := range []int{left, right} {
		in, out := x0, x0-outer // the inner and outer columns' left edges
		if end == 1 {
			in, out = x1-w, x1+switchGap
		}
		if state == 0 {
			box(in, row(0), in+w, row(1)+w)
			box(in, row(2), in+w, row(3)+w)
			continue
		}
		box(in, row(1), in+w, row(2)+w)
		box(out, row(0), out+w, row(3)+w)
		// Rows 1 and 4 reach out to the outer stroke.
		box(min(in, out), row(0), max(in, out)+w, row(0)+w)
		box(min(in, out), row(3), max(in, out)+w, row(3)+w)
	}
	return render(contours), fmt.Sprintf("switches %d,%d; rows %.1fpx apart from y %.1f; x %.1f to %.1f", left, right, spacing, top, x0, x1)
}
