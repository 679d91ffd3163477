package retina

import "math/bits"

// Field geometry: the Mark I retina was a 20x20 grid of photocells (historical).
const (
	Rows  = 20          // photocell rows
	Cols  = 20          // photocell columns
	N     = Rows * Cols // number of S-units
	Words = (N + 63) / 64
)

// Bits holds the binary states of the N S-units, bit-packed: S-unit i (= row*Cols+col) is bit
// i%64 of word i/64. A set bit means the S-unit is on (it sees figure).
type Bits [Words]uint64

// Get reports whether S-unit i is on.
func (b *Bits) Get(i int) bool { return b[i>>6]>>(uint(i)&63)&1 != 0 }

// Set turns S-unit i on or off.
func (b *Bits) Set(i int, on bool) {
	if on {
		b[i>>6] |= 1 << (uint(i) & 63)
	} else {
		b[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// Count returns the number of S-units that are on.
func (b *Bits) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}
