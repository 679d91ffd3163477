package patchboard

import (
	"math/bits"

	"github.com/mark1-perceptron/mark1/retina"
)

// Fire computes the A-unit states for S-states s: dst gets the A-bits (bit a%64 of word a/64 is
// A-unit a; Fire clears the words up to (Len()+63)/64 and panics if dst is shorter), and the
// indices of firing units are appended to active[:0] in ascending order. Zero allocations once
// active has capacity Len().
//
// Fire compiles the board on first use (see Board) and panics if the board is invalid. It
// counts in scratch space kept in the Board, so it is not safe for concurrent use: give every
// goroutine its own Board (boards read from the same wiring file, for instance).
func (b *Board) Fire(s *retina.Bits, dst []uint64, active []uint16) []uint16 {
	c := b.c
	if c == nil || len(c.units) != len(b.Units) || len(b.Units) > 0 && &c.units[0] != &b.Units[0] {
		if err := b.Compile(); err != nil {
			panic(err.Error())
		}
		c = b.c
	}
	dst = dst[:c.words]
	lanes := c.lanes
	// Scatter: every lit S-unit steps the counters of the A-units it feeds. When more than half
	// the field is lit (light figures on a dark field), start from the all-lit counters and take
	// back the unlit S-units instead.
	if s.Count() <= retina.N/2 {
		copy(lanes, c.rest)
		for wi, w := range s {
			for w != 0 {
				i := wi<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				for _, a := range c.excTo[c.excStart[i]:c.excStart[i+1]] {
					lanes[a>>2] += 1 << (uint(a&3) << 4)
				}
				for _, a := range c.inhTo[c.inhStart[i]:c.inhStart[i+1]] {
					lanes[a>>2] -= 1 << (uint(a&3) << 4)
				}
			}
		}
	} else {
		copy(lanes, c.full)
		for wi, w := range s {
			w = ^w
			if wi == retina.Words-1 {
				w &= 1<<(retina.N%64) - 1
			}
			for w != 0 {
				i := wi<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				for _, a := range c.excTo[c.excStart[i]:c.excStart[i+1]] {
					lanes[a>>2] -= 1 << (uint(a&3) << 4)
				}
				for _, a := range c.inhTo[c.inhStart[i]:c.inhStart[i+1]] {
					lanes[a>>2] += 1 << (uint(a&3) << 4)
				}
			}
		}
	}
	// Threshold: gather the top bit of every lane, four lanes per word, 64 A-units per A-bit
	// word. (x & signs) * gather moves bits 15, 31, 47 and 63 of x to bits 60..63 without
	// carries (every partial product lands on its own bit).
	const signs = 0x8000_8000_8000_8000
	const gather = 1<<45 | 1<<30 | 1<<15 | 1
	active = active[:0]
	for wi := range dst {
		l := lanes[wi*16 : wi*16+16]
		var w uint64
		for j := 15; j >= 0; j-- {
			w = w<<4 | (l[j]&signs)*gather>>60
		}
		dst[wi] = w
		for w != 0 {
			active = append(active, uint16(wi<<6|bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return active
}
