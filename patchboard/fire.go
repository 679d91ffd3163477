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
	ctr := c.ctr
	if s.Count() <= retina.N/2 {
		copy(ctr, c.rest)
		for wi, w := range s {
			for w != 0 {
				i := wi<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				for _, t := range c.to[c.start[i]:c.start[i+1]] {
					ctr[t]++
				}
			}
		}
	} else {
		copy(ctr, c.full)
		for wi, w := range s {
			w = ^w
			if wi == retina.Words-1 {
				w &= 1<<(retina.N%64) - 1
			}
			for w != 0 {
				i := wi<<6 | bits.TrailingZeros64(w)
				w &= w - 1
				for _, t := range c.to[c.start[i]:c.start[i+1]] {
					ctr[t]--
				}
			}
		}
	}
	n := c.n
	exc, inh := ctr[:n], ctr[n:2*n]
	active = active[:0]
	for wi := range dst {
		lo, hi := wi*64, min(wi*64+64, n)
		e, in := exc[lo:hi], inh[lo:hi]
		in = in[:len(e)]
		var w uint64
		for j, x := range e {
			w |= uint64((x-in[j])>>15) << j
		}
		dst[wi] = w
		for w != 0 {
			active = append(active, uint16(wi<<6|bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return active
}
