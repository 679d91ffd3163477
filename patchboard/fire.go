package patchboard

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"github.com/mark1-perceptron/mark1/retina"
)

// lastWord masks the bits of the last word of retina.Bits that hold S-units.
const lastWord = 1<<(retina.N-64*(retina.Words-1)) - 1

// Fire computes the A-unit states for S-states s (bits past S-unit 399 are ignored): dst gets
// the A-bits (bit a%64 of word a/64 is A-unit a; Fire overwrites the words up to
// (Len()+63)/64, leaves any further words alone, and panics if dst is shorter), and the indices
// of the firing units are appended to active[:0] in ascending order. Zero allocations once
// active has capacity Len().
//
// Fire compiles the board on first use (see Board) and panics if the board is invalid. It
// counts in scratch space kept in the Board, so it is not safe for concurrent use. A Board
// copied by value shares that space; give every goroutine a Board of its own instead, such as
// &Board{Units: b.Units, FanOut: b.FanOut} (the units may be shared, as Fire only reads them).
//
// Fire works in the scatter form: every lit S-unit steps a counter of each A-unit it feeds
// (when more than half the field is lit, every unlit S-unit takes a step back from the all-lit
// counts), then one pass compares the counters with the thresholds. Its cost grows with the
// plugs of the lit S-units: for the default Mark I board and letters with a quarter of the
// field on, about 1400 counter steps.
func (b *Board) Fire(s *retina.Bits, dst []uint64, active []uint16) []uint16 {
	c := b.c
	if c == nil || len(c.units) != len(b.Units) || len(b.Units) > 0 && &c.units[0] != &b.Units[0] {
		if err := b.Compile(); err != nil {
			panic(err.Error())
		}
		c = b.c
	}
	if c.small {
		return c.fire8(s, dst, active, len(b.Units))
	}
	ctr, to, start := c.ctr, c.to, c.start[:]
	// Scatter: every lit S-unit steps the counters of the A-units it feeds. When more than half
	// the field is lit (light figures on a dark field), start from the all-lit counters and take
	// back the unlit S-units instead.
	if s.Count() <= retina.N/2 {
		copy(ctr, c.rest)
		for wi, w := range s {
			if wi == retina.Words-1 {
				w &= lastWord // S-units 0..399 only
			}
			for w != 0 {
				var i, j int
				i, j, w = run(w, wi)
				for _, t := range to[start[i]:start[j]] {
					ctr[t]++
				}
			}
		}
	} else {
		copy(ctr, c.full)
		for wi, w := range s {
			w = ^w
			if wi == retina.Words-1 {
				w &= lastWord
			}
			for w != 0 {
				var i, j int
				i, j, w = run(w, wi)
				for _, t := range to[start[i]:start[j]] {
					ctr[t]--
				}
			}
		}
	}
	// Threshold: A-unit a fires when the top bit of exc[a]-inh[a] is set. Four accumulators
	// keep the dependency chains short.
	m := c.m
	if len(dst) < m/64 {
		panic(fmt.Sprintf("patchboard: Fire: dst has %d words, want at least %d for %d A-units", len(dst), m/64, len(b.Units)))
	}
	dst = dst[:m/64]
	exc, inh := ctr[:m], ctr[m:2*m]
	active = active[:0]
	for wi := range dst {
		e := exc[wi*64 : wi*64+64 : wi*64+64]
		in := inh[wi*64 : wi*64+64 : wi*64+64]
		var w0, w1, w2, w3 uint64
		for j := 0; j < 64; j += 4 {
			w0 |= uint64((e[j]-in[j])>>15) << j
			w1 |= uint64((e[j+1]-in[j+1])>>15) << j
			w2 |= uint64((e[j+2]-in[j+2])>>15) << j
			w3 |= uint64((e[j+3]-in[j+3])>>15) << j
		}
		w := w0 | w1<<1 | w2<<2 | w3<<3
		dst[wi] = w
		for w != 0 {
			active = append(active, uint16(wi<<6|bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return active
}

// fire8 is Fire in the byte form (see compiled).
func (c *compiled) fire8(s *retina.Bits, dst []uint64, active []uint16, units int) []uint16 {
	ctr := c.ctr8
	m := c.m
	if s.Count() <= retina.N/2 {
		copy(ctr[:m], c.rest8)
		for wi, w := range s {
			if wi == retina.Words-1 {
				w &= lastWord
			}
			for w != 0 {
				var i, j int
				i, j, w = run(w, wi)
				for _, a := range c.eTo[c.eStart[i]:c.eStart[j]] {
					ctr[a]++
				}
				for _, a := range c.iTo[c.iStart[i]:c.iStart[j]] {
					ctr[a]--
				}
			}
		}
	} else {
		copy(ctr[:m], c.full8)
		for wi, w := range s {
			w = ^w
			if wi == retina.Words-1 {
				w &= lastWord
			}
			for w != 0 {
				var i, j int
				i, j, w = run(w, wi)
				for _, a := range c.eTo[c.eStart[i]:c.eStart[j]] {
					ctr[a]--
				}
				for _, a := range c.iTo[c.iStart[i]:c.iStart[j]] {
					ctr[a]++
				}
			}
		}
	}
	if len(dst) < m/64 {
		panic(fmt.Sprintf("patchboard: Fire: dst has %d words, want at least %d for %d A-units", len(dst), m/64, units))
	}
	dst = dst[:m/64]
	active = active[:0]
	for wi := range dst {
		blk := ctr[wi*64 : wi*64+64]
		var w uint64
		for k := 0; k < 64; k += 8 {
			// The top bits of eight counters, gathered into eight bits (counter j to bit j).
			x := binary.LittleEndian.Uint64(blk[k:k+8]) >> 7 & 0x0101010101010101
			w |= x * 0x0102040810204080 >> 56 << k
		}
		dst[wi] = w
		for w != 0 {
			active = append(active, uint16(wi<<6|bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return active
}

// run returns the lowest run of set bits of w != 0, word wi of the S-units, as the S-units
// [i, j), and w without it. The plugs of consecutive S-units are consecutive in the compiled
// lists, so a run is one pass over each list: a figure's stroke lights cells side by side, and
// a branch mispredicted at the end of every S-unit's short list costs more than its steps.
func run(w uint64, wi int) (i, j int, rest uint64) {
	lo := bits.TrailingZeros64(w)
	n := bits.TrailingZeros64(^(w >> uint(lo)))
	i = wi<<6 | lo
	return i, i + n, w & (w + w&-w)
}
