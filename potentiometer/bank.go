package potentiometer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Bank reads several racks of the same size at once, as SumRacks does and bit for bit, from a
// copy of their readings laid out pot by pot: row i holds pot i of every rack, so that one
// active A-unit adds a whole row with vector instructions (AVX2 on amd64; elsewhere a loop in
// Go reads the rows two racks at a time). The copy follows the racks: a rack driven through
// the bank's Drive has its moved pots copied at once; a rack changed any other way (its own
// Drive, a drift batch, SetState) is copied whole at the next Sum. Not safe for concurrent
// use.
type Bank struct {
	racks  []*Rack
	n      int       // A-unit pots of each rack
	stride int       // lanes in a row: len(racks) rounded up to a multiple of 4
	rows   []float64 // rows[i*stride+r]: racks[r]'s reading of pot i (i = n: the bias pot)
	seen   []uint64  // racks[r].ver when column r was last copied (stale if different)
	out    []float64 // the kernel's sums, stride lanes
	ideal  bool      // every rack is ideal
}

// NewBank returns a bank over racks, on every processor (where there is no AVX2 kernel, a
// loop in Go sums the rows, bit for bit the same). It refuses no racks and racks of different
// sizes (SumRacks sums those). The bank keeps its own list of the racks and reads the racks
// themselves: they stay usable on their own.
func NewBank(racks []*Rack) (*Bank, error) {
	if len(racks) == 0 {
		return nil, errors.New("potentiometer: NewBank: no racks")
	}
	n := racks[0].n
	for r, x := range racks {
		if x.n != n {
			return nil, fmt.Errorf("potentiometer: NewBank: rack %d has %d A-unit pots, rack 0 has %d", r, x.n, n)
		}
	}
	racks = slices.Clone(racks)
	stride := (len(racks) + 3) &^ 3
	b := &Bank{racks: racks, n: n, stride: stride, rows: make([]float64, (n+1)*stride),
		seen: make([]uint64, len(racks)), out: make([]float64, stride)}
	b.ideal = true
	for r, x := range racks {
		b.copyColumn(r)
		b.seen[r] = x.ver
		b.ideal = b.ideal && x.ideal
	}
	return b, nil
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
	if !sumLanes(b.rows, b.stride, len(b.racks), active, b.n, b.out) {
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

// sumGo is the kernel in Go: for each lane l < lanes (<= stride), out[l] gets
// (s0 + s1) + (s2 + s3) where s_j sums rows[active[k]*stride+l] over k = j mod 4, the
// leftover k (past the last multiple of 4) going to s0, as rawSum adds them; the lanes past
// lanes are left as they are (lanes >= 1). It reports false, having written nothing, when an active index
// is >= limit (the first pass finds it). It sums two lanes at a time (sumPair), as SumRacks
// takes two racks.
func sumGo(rows []float64, stride, lanes int, active []uint16, limit int, out []float64) bool {
	out = out[:lanes]
	l := 0
	for ; l+1 < lanes; l += 2 {
		x, y, ok := sumPair(rows[l:], stride, active, limit)
		if !ok {
			return false
		}
		out[l], out[l+1] = x, y
	}
	if l < lanes {
		x, ok := sumLane(rows[l:], stride, active, limit)
		if !ok {
			return false
		}
		out[l] = x
	}
	return true
}

// sumPair returns sumGo's sums of lanes 0 and 1 of col, eight partial sums in registers (each
// lane's added in the same order as sumLane adds them), or false when an active index is >=
// limit.
func sumPair(col []float64, stride int, active []uint16, limit int) (x, y float64, ok bool) {
	var x0, x1, x2, x3, y0, y1, y2, y3 float64
	cx, cy := col, col[1:]
	a := active
	for len(a) >= 4 {
		i0, i1, i2, i3 := int(a[0]), int(a[1]), int(a[2]), int(a[3])
		if i0 >= limit || i1 >= limit || i2 >= limit || i3 >= limit {
			return 0, 0, false
		}
		p0, p1, p2, p3 := i0*stride, i1*stride, i2*stride, i3*stride
		x0 += cx[p0]
		y0 += cy[p0]
		x1 += cx[p1]
		y1 += cy[p1]
		x2 += cx[p2]
		y2 += cy[p2]
		x3 += cx[p3]
		y3 += cy[p3]
		a = a[4:]
	}
	for _, i := range a {
		if int(i) >= limit {
			return 0, 0, false
		}
		p := int(i) * stride
		x0 += cx[p]
		y0 += cy[p]
	}
	return (x0 + x1) + (x2 + x3), (y0 + y1) + (y2 + y3), true
}

// sumLane returns sumGo's sum of lane 0 of col, or false when an active index is >= limit.
func sumLane(col []float64, stride int, active []uint16, limit int) (float64, bool) {
	var s0, s1, s2, s3 float64
	a := active
	for len(a) >= 4 {
		i0, i1, i2, i3 := int(a[0]), int(a[1]), int(a[2]), int(a[3])
		if i0 >= limit || i1 >= limit || i2 >= limit || i3 >= limit {
			return 0, false
		}
		s0 += col[i0*stride]
		s1 += col[i1*stride]
		s2 += col[i2*stride]
		s3 += col[i3*stride]
		a = a[4:]
	}
	for _, i := range a {
		if int(i) >= limit {
			return 0, false
		}
		s0 += col[int(i)*stride]
	}
	return (s0 + s1) + (s2 + s3), true
}
