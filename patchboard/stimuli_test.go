package patchboard

import (
	"math"

	"github.com/mark1-perceptron/mark1/retina"
)

// Test stimuli: letters and shapes drawn with strokes on the 20x20 field, standing in for the
// printed cards (package images is not a dependency of this package).

type pt struct{ x, y float64 }

// glyphs are capital letters as polylines in a box 4 wide and 6 tall (x right, y down).
var glyphs = map[byte][][]pt{
	'A': {{{0, 6}, {2, 0}, {4, 6}}, {{1, 3.5}, {3, 3.5}}},
	'B': {{{0, 0}, {0, 6}}, {{0, 0}, {3, 0}, {4, 1}, {4, 2}, {3, 3}, {0, 3}}, {{3, 3}, {4, 4}, {4, 5}, {3, 6}, {0, 6}}},
	'C': {{{4, 1}, {3, 0}, {1, 0}, {0, 1}, {0, 5}, {1, 6}, {3, 6}, {4, 5}}},
	'D': {{{0, 0}, {0, 6}, {3, 6}, {4, 5}, {4, 1}, {3, 0}, {0, 0}}},
	'E': {{{4, 0}, {0, 0}, {0, 6}, {4, 6}}, {{0, 3}, {3, 3}}},
	'F': {{{4, 0}, {0, 0}, {0, 6}}, {{0, 3}, {3, 3}}},
	'G': {{{4, 1}, {3, 0}, {1, 0}, {0, 1}, {0, 5}, {1, 6}, {3, 6}, {4, 5}, {4, 3}, {2, 3}}},
	'H': {{{0, 0}, {0, 6}}, {{4, 0}, {4, 6}}, {{0, 3}, {4, 3}}},
	'I': {{{1, 0}, {3, 0}}, {{2, 0}, {2, 6}}, {{1, 6}, {3, 6}}},
	'J': {{{1, 0}, {4, 0}}, {{3, 0}, {3, 5}, {2, 6}, {1, 6}, {0, 5}}},
	'K': {{{0, 0}, {0, 6}}, {{4, 0}, {0, 4}}, {{1, 3}, {4, 6}}},
	'L': {{{0, 0}, {0, 6}, {4, 6}}},
	'M': {{{0, 6}, {0, 0}, {2, 3}, {4, 0}, {4, 6}}},
	'N': {{{0, 6}, {0, 0}, {4, 6}, {4, 0}}},
	'O': {{{1, 0}, {3, 0}, {4, 1}, {4, 5}, {3, 6}, {1, 6}, {0, 5}, {0, 1}, {1, 0}}},
	'P': {{{0, 6}, {0, 0}, {3, 0}, {4, 1}, {4, 2}, {3, 3}, {0, 3}}},
	'Q': {{{1, 0}, {3, 0}, {4, 1}, {4, 5}, {3, 6}, {1, 6}, {0, 5}, {0, 1}, {1, 0}}, {{2.5, 4.5}, {4, 6}}},
	'R': {{{0, 6}, {0, 0}, {3, 0}, {4, 1}, {4, 2}, {3, 3}, {0, 3}}, {{2, 3}, {4, 6}}},
	'S': {{{4, 1}, {3, 0}, {1, 0}, {0, 1}, {0, 2}, {1, 3}, {3, 3}, {4, 4}, {4, 5}, {3, 6}, {1, 6}, {0, 5}}},
	'T': {{{0, 0}, {4, 0}}, {{2, 0}, {2, 6}}},
	'U': {{{0, 0}, {0, 5}, {1, 6}, {3, 6}, {4, 5}, {4, 0}}},
	'V': {{{0, 0}, {2, 6}, {4, 0}}},
	'W': {{{0, 0}, {1, 6}, {2, 3}, {3, 6}, {4, 0}}},
	'X': {{{0, 0}, {4, 6}}, {{4, 0}, {0, 6}}},
	'Y': {{{0, 0}, {2, 3}, {4, 0}}, {{2, 3}, {2, 6}}},
	'Z': {{{0, 0}, {4, 0}, {0, 6}, {4, 6}}},
}

// segDist returns the distance from p to the segment ab.
func segDist(p, a, b pt) float64 {
	dx, dy := b.x-a.x, b.y-a.y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((p.x-a.x)*dx+(p.y-a.y)*dy)/l))
	}
	return math.Hypot(p.x-a.x-t*dx, p.y-a.y-t*dy)
}

// strokes renders polylines (in field cells) of stroke width w: a cell is on when its centre
// lies within w/2 of a stroke.
func strokes(lines [][]pt, w float64) retina.Bits {
	var s retina.Bits
	for i := range retina.N {
		c := pt{float64(i%retina.Cols) + 0.5, float64(i/retina.Cols) + 0.5}
		for _, l := range lines {
			for k := 1; k < len(l); k++ {
				if segDist(c, l[k-1], l[k]) <= w/2 {
					s.Set(i, true)
				}
			}
		}
	}
	return s
}

// letter renders glyph ch in the box at (x, y) of width bw and height bh cells.
func letter(ch byte, x, y, bw, bh, w float64) retina.Bits {
	var lines [][]pt
	for _, l := range glyphs[ch] {
		m := make([]pt, len(l))
		for k, p := range l {
			m[k] = pt{x + p.x/4*bw, y + p.y/6*bh}
		}
		lines = append(lines, m)
	}
	return strokes(lines, w)
}

// fill renders the cells whose centre satisfies in.
func fill(in func(x, y float64) bool) retina.Bits {
	var s retina.Bits
	for i := range retina.N {
		s.Set(i, in(float64(i%retina.Cols)+0.5, float64(i/retina.Cols)+0.5))
	}
	return s
}

// testStimuli returns letters and shapes at several sizes, stroke widths and positions, all
// with 10% to 35% of the field on.
func testStimuli() []retina.Bits {
	var all []retina.Bits
	for ch := byte('A'); ch <= 'Z'; ch++ {
		for _, h := range []float64{11, 14, 17} {
			for _, w := range []float64{1.5, 2.2, 3} {
				for _, dx := range []float64{-2, 0, 2} {
					bw := h * 0.7
					x, y := (20-bw)/2+dx, (20-h)/2+dx/2
					all = append(all, letter(ch, x, y, bw, h, w))
				}
			}
		}
	}
	for _, c := range []pt{{10, 10}, {8, 9}, {12, 11}, {9, 12}} {
		for _, r := range []float64{3, 4, 5, 6, 7, 8} {
			for _, w := range []float64{1.5, 2.5} {
				// squares and rings (outlines), diamonds
				all = append(all,
					fill(func(x, y float64) bool {
						d := max(math.Abs(x-c.x), math.Abs(y-c.y))
						return d <= r && d > r-w
					}),
					fill(func(x, y float64) bool {
						d := math.Hypot(x-c.x, y-c.y)
						return d <= r && d > r-w
					}),
					fill(func(x, y float64) bool {
						d := math.Abs(x-c.x) + math.Abs(y-c.y)
						return d <= r*1.3 && d > r*1.3-w*1.4
					}))
			}
			// filled squares and discs, bars, crosses
			all = append(all,
				fill(func(x, y float64) bool { return max(math.Abs(x-c.x), math.Abs(y-c.y)) <= r/1.6 }),
				fill(func(x, y float64) bool { return math.Hypot(x-c.x, y-c.y) <= r/1.4 }),
				fill(func(x, y float64) bool { return math.Abs(x-c.x) <= r/2.5 && math.Abs(y-c.y) <= r+1 }),
				fill(func(x, y float64) bool { return math.Abs(y-c.y) <= r/2.5 && math.Abs(x-c.x) <= r+1 }),
				fill(func(x, y float64) bool {
					return math.Min(math.Abs(x-c.x), math.Abs(y-c.y)) <= r/4 && max(math.Abs(x-c.x), math.Abs(y-c.y)) <= r+1
				}))
		}
	}
	out := all[:0]
	for _, s := range all {
		if f := float64(s.Count()) / retina.N; f >= 0.10 && f <= 0.35 {
			out = append(out, s)
		}
	}
	return out
}
