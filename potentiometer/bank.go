package potentiometer

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Bank reads several racks of the same size at once, as SumRacks does and bit for bit, from a
// copy of their readings laid out pot by pot: row i holds pot i of every rack, so that one
// active A-unit adds a whole row with vector instructions. The copy follows the racks: a rack
// driven through the bank's Drive has its moved pots copied at once; a rack changed any other
// way (its own Drive, a drift batch, SetState) is copied whole at the next Sum. Not safe for
// concurrent use.
type Bank struct {
	racks  []*Rack
	n      int       // A-unit pots of each rack
	stride int       // lanes in a row: len(racks) rounded up to a multiple of 4
	rows   []float64 // rows[i*stride+r]: racks[r]'s reading of pot i (i = n: the bias pot)
	seen   []uint64  // racks[r].ver when column r was last copied (stale if different)
	out    []float64 // the kernel's sums, stride lanes
	ideal  bool      // every rack is ideal
}

// NewBank returns a bank over racks, or nil when they are not all of one size or this
// processor has no vector kernel for it (then SumRacks is as fast). The bank reads the
// racks themselves: they stay usable on their own.
func NewBank(racks []*Rack) *Bank {
	if !haveKernel || len(racks) == 0 {
		return nil
	}
	return newBank(racks)
}

// newBank is NewBank for any processor.
func newBank(racks []*Rack) *Bank {
	n := racks[0].n
	for _, r := range racks {
		if r.n != n {
			return nil
		}
	}
	stride := (len(racks) + 3) &^ 3
	b := &Bank{racks: racks, n: n, stride: stride, rows: make([]float64, (n+1)*stride),
		seen: make([]uint64, len(racks)), out: make([]float64, stride)}
	b.ideal = true
	for r, x := range racks {
		b.copyColumn(r)
		b.seen[r] = x.ver
		b.ideal = b.ideal && x.ideal
	}
	return b
}

// copyColumn copies every reading of rack r into the rows.
func (b *Bank) copyColumn(r int) {
	rd := b.racks[r].rd[:b.n+1]
	for i, v := range rd {
		b.rows[i*b.stride+r] = v
	}
}

// Sum writes to dst[r] what SumRacks(racks, active, noise, dst) writes, bit for bit: each
// rack's bias reading plus its active pots' readings in the same four interleaved partial sums,
// then for an analog rack its gain and contact noise, drawn from noise in rack order.
// len(dst) >= the number of racks; active holds distinct A-unit indices below the racks' n.
func (b *Bank) Sum(active []uint16, noise *rand.Rand, dst []float64) {
	for r, x := range b.racks {
		if b.seen[r] != x.ver {
			b.copyColumn(r)
			b.seen[r] = x.ver
		}
	}
	if !sumLanes(b.rows, b.stride, active, b.n, b.out) {
		panic(fmt.Sprintf("potentiometer: Bank.Sum: an active index past the %d A-unit pots", b.n))
	}
	bias := b.rows[b.n*b.stride:]
	root := 0.0 // sqrt(a+1), once, for the analog racks
	if !b.ideal {
		root = math.Sqrt(float64(len(active) + 1))
	}
	for r, x := range b.racks {
		dst[r] = x.analogSumRoot(bias[r]+b.out[r], root, noise)
	}
}

// Drive drives rack r as its Drive does and keeps the rows in step: with onInactive 0 only the
// active pots and the bias pot moved, and only they are copied.
func (b *Bank) Drive(r int, active []uint16, onActive, onInactive float64, noise *rand.Rand) {
	x := b.racks[r]
	fresh := b.seen[r] == x.ver
	x.Drive(active, onActive, onInactive, noise)
	if !fresh || onInactive != 0 {
		return // copied whole at the next Sum
	}
	if onActive != 0 {
		for _, i := range active {
			b.rows[int(i)*b.stride+r] = x.rd[i]
		}
		b.rows[b.n*b.stride+r] = x.rd[b.n]
	}
	b.seen[r] = x.ver
}

// Advance lets dt seconds of machine time pass for every rack in order, as each rack's
// Advance does (noise as there).
func (b *Bank) Advance(dt float64, noise *rand.Rand) {
	if b.ideal { // each rack's Advance would check dt and count it, nothing more
		checkDt(dt)
		for _, x := range b.racks {
			x.t += dt
		}
		return
	}
	for _, x := range b.racks {
		x.Advance(dt, noise)
	}
}

// sumGo is the kernel in Go: for each lane l < stride, out[l] gets
// (s0 + s1) + (s2 + s3) where s_j sums rows[active[k]*stride+l] over k = j mod 4, the
// leftover k (past the last multiple of 4) going to s0, as rawSum adds them. It reports
// false when an active index is >= limit.
func sumGo(rows []float64, stride int, active []uint16, limit int, out []float64) bool {
	for _, i := range active {
		if int(i) >= limit {
			return false
		}
	}
	for l := range stride {
		var s0, s1, s2, s3 float64
		a := active
		for len(a) >= 4 {
			s0 += rows[int(a[0])*stride+l]
			s1 += rows[int(a[1])*stride+l]
			s2 += rows[int(a[2])*stride+l]
			s3 += rows[int(a[3])*stride+l]
			a = a[4:]
		}
		for _, i := range a {
			s0 += rows[int(i)*stride+l]
		}
		out[l] = (s0 + s1) + (s2 + s3)
	}
	return true
}
