package retina

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// integrate computes each cell's mean over an image of the given axes, read a row at a time by
// row (values in units of 1/unit, each in [0, unit]), with the surround sur (0..1) outside the
// image, into avg.
func (r *Retina) integrate(ax *axes, unit, sur float64, avg *[N]float64, row func(y, x0 int, dst []float64)) {
	var m [N]float64 // m[b*cells+a]: v-cell b, u-cell a
	u := &ax.u
	r.sc.row = grow(r.sc.row, u.hi-u.lo)
	buf := r.sc.row
	for y := ax.v.lo; y < ax.v.hi; y++ {
		b0, b1 := int(ax.rowLo[y-ax.v.lo]), int(ax.rowHi[y-ax.v.lo])
		if b0 >= b1 {
			continue
		}
		row(y, u.lo, buf)
		var t [cells]float64 // the row's light on each u-cell
		for a := range cells {
			ws := u.w[u.off[a]:u.off[a+1]]
			if len(ws) == 0 {
				continue // the cell sees no pixel of the image
			}
			t[a] = dot(ws, buf[int(u.start[a])-u.lo:])
		}
		for b := b0; b < b1; b++ {
			wv := ax.v.w[int(ax.v.off[b])+y-int(ax.v.start[b])]
			mb := m[b*cells : (b+1)*cells]
			for a, ta := range t {
				mb[a] += float64(wv * ta)
			}
		}
	}
	finish(ax, &m, unit, sur, avg)
}

// integrateGray is integrate for an unsampled *image.Gray, reading its pixels in place, with
// the same result bit for bit. It leaves out only terms that are +0: every weight and pixel is
// finite and >= 0, so every product is >= +0 and every sum starts at +0 and stays >= +0 (never
// -0), and adding +0 to it changes nothing. So a row of black pixels adds nothing to any cell,
// nor does a u-cell whose band holds only black pixels of the row (dot of zeros is +0). When
// every u-band is short, dot's two sums are written out over the zero-padded weights: a
// padded weight adds its +0 product to the sum dot would have left alone.
func (r *Retina) integrateGray(ax *axes, src *source, sur float64, avg *[N]float64) {
	var m [N]float64 // m[b*cells+a]: v-cell b, u-cell a
	u := &ax.u
	n := u.hi - u.lo
	r.sc.row = grow(r.sc.row, n+shortBand)
	buf := r.sc.row
	clear(buf[n:]) // the padded weights read up to shortBand-1 values past the last pixel
	g := src.gray
	for y := ax.v.lo; y < ax.v.hi; y++ {
		b0, b1 := int(ax.rowLo[y-ax.v.lo]), int(ax.rowHi[y-ax.v.lo])
		if b0 >= b1 {
			continue
		}
		off := g.PixOffset(src.x0+u.lo, src.y0+y)
		pix := g.Pix[off : off+n]
		i0, i1 := inkSpan(pix)
		if i0 == i1 {
			continue // a black row
		}
		for i, v := range pix {
			buf[i] = float64(v)
		}
		var t [cells]float64 // the row's light on each u-cell
		a0, a1 := cells, 0   // the u-cells that see a non-black pixel: [a0, a1)
		for a := range cells {
			first := int(u.start[a]) - u.lo
			k := int(u.off[a+1] - u.off[a])
			if k == 0 || first >= i1 || first+k <= i0 {
				continue // +0: no pixel, or only black ones
			}
			a0, a1 = min(a0, a), a+1
			if ax.short {
				w := &ax.shortW[a]
				x := buf[first : first+shortBand]
				s0 := float64(w[0]*x[0]) + float64(w[2]*x[2])
				s1 := float64(w[1]*x[1]) + float64(w[3]*x[3])
				t[a] = s0 + s1
				continue
			}
			t[a] = dot(u.w[u.off[a]:u.off[a+1]], buf[first:])
		}
		for b := b0; b < b1; b++ {
			wv := ax.v.w[int(ax.v.off[b])+y-int(ax.v.start[b])]
			mb := m[b*cells+a0 : b*cells+a1]
			for a, ta := range t[a0:a1] {
				mb[a] += float64(wv * ta)
			}
		}
	}
	finish(ax, &m, src.unit, sur, avg)
}

// inkSpan returns the first and one past the last non-black pixel of pix, or 0, 0 when every
// pixel is black, reading eight pixels at a time.
func inkSpan(pix []byte) (i0, i1 int) {
	n := len(pix)
	for i0 < n {
		if i0+8 <= n {
			if w := binary.LittleEndian.Uint64(pix[i0:]); w != 0 {
				i0 += bits.TrailingZeros64(w) / 8
				break
			}
			i0 += 8
			continue
		}
		if pix[i0] != 0 {
			break
		}
		i0++
	}
	if i0 == n {
		return 0, 0
	}
	i1 = n
	for {
		if i1-8 >= i0 {
			if w := binary.LittleEndian.Uint64(pix[i1-8:]); w != 0 {
				return i0, i1 - bits.LeadingZeros64(w)/8
			}
			i1 -= 8
			continue
		}
		if pix[i1-1] != 0 {
			return i0, i1
		}
		i1--
	}
}

// finish turns the sums m of integrate into each cell's mean, adding the surround's light:
// (m + su*out) / (span_u*span_v*unit), at most 1, with su = sur*unit and out the share of the
// cell's light from outside the image. The terms other than m depend on the axes, the unit and
// the surround only: they are computed once for them (setFinish) and kept in the axes.
func finish(ax *axes, m *[N]float64, unit, sur float64, avg *[N]float64) {
	if !ax.finOK || ax.finUnit != math.Float64bits(unit) || ax.finSur != math.Float64bits(sur) {
		ax.setFinish(unit, sur)
	}
	finishMeans(m, &ax.fin, avg)
}

// finishGo is finish's loop over the cells (finishMeans runs the AVX2 kernel instead where
// useAVX2 says so).
func finishGo(m *[N]float64, f *finTerms, avg *[N]float64) {
	for i := range m {
		v := (m[i] + f.add[i]) / f.den[i]
		avg[f.at[i]] = min(v, 1)
	}
}

// setFinish computes finish's terms for unit and surround sur.
func (ax *axes) setFinish(unit, sur float64) {
	u := &ax.u
	su := sur * unit
	f := &ax.fin
	for b := range cells {
		for a := range cells {
			// The light from outside the image: all of it along u, or inside along u and
			// outside along v. Every term is >= 0.
			out := float64(u.out[a]*ax.v.span[b]) + float64(u.in[a]*ax.v.out[b])
			i := b*cells + a
			f.add[i] = float64(su * out)
			f.den[i] = float64(float64(u.span[a]*ax.v.span[b]) * unit)
			if ax.swap {
				f.at[i] = int16(a*Cols + b) // u-cell a is row a, v-cell b is column b
			} else {
				f.at[i] = int16(b*Cols + a)
			}
		}
	}
	f.inPlace = true
	for i, at := range f.at {
		f.inPlace = f.inPlace && int(at) == i
	}
	ax.finOK, ax.finUnit, ax.finSur = true, math.Float64bits(unit), math.Float64bits(sur)
}

// dot returns the sum of w[i]*x[i], len(x) >= len(w), with two accumulators.
func dot(w, x []float64) float64 {
	x = x[:len(w)]
	s0, s1 := 0.0, 0.0
	i := 0
	for ; i+1 < len(w); i += 2 {
		s0 += float64(w[i] * x[i])
		s1 += float64(w[i+1] * x[i+1])
	}
	if i < len(w) {
		s0 += float64(w[i] * x[i])
	}
	return s0 + s1
}
