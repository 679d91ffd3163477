package retina

import (
	"math"
	"slices"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// tailTol is the share of a cell's light a blur weight may leave out on each side: the weights
// reach tailReach(Blur) sigmas beyond the cell, where less than tailTol of the cell's light
// comes from further out (far below the float32 resolution of a Stimulus, 6e-8).
const tailTol = 0x1p-40

// axes are the weights of the separable integration for one image size (w x h image pixels):
// u along the image's columns (pixel x), v along its rows (pixel y), in sampled pixels. swap
// says that u is driven by the field's rows (rotations by 90 and 270 degrees): cell (row, col)
// is then u-cell row and v-cell col.
type axes struct {
	w, h int
	u, v axis
	swap bool
	// rowLo and rowHi give, for each pixel row y in [v.lo, v.hi), the v-cells whose band holds
	// it: [rowLo[y-v.lo], rowHi[y-v.lo]).
	rowLo, rowHi []int8
	// short says that every u-cell's band holds at most shortBand pixels; then shortW[a] is
	// u-cell a's weights padded with zeros to shortBand (see integrateGray).
	short  bool
	shortW [cells][shortBand]float64
	// fin holds finish's terms for each cell (b*cells+a) for one unit and surround: finOK
	// says they are for finUnit and finSur (compared bit for bit).
	fin             finTerms
	finOK           bool
	finUnit, finSur uint64
}

// finTerms are finish's terms of each cell, [v-cell b*cells + u-cell a]: the surround's light
// added to the sum, the divisor (the cell's area times the unit) and where the mean goes.
type finTerms struct {
	add, den [N]float64
	at       [N]int16
	inPlace  bool       // at[i] == i: the means go to avg in cell order
	scratch  [N]float64 // the kernel's means before they are placed (not inPlace)
}

// shortBand is the longest u-band integrateGray takes in its fixed-length form: a cell of an
// unblurred 28x28 card spans 1.4 pixels, at most 3.
const shortBand = 4

// setShort fills short and shortW from the u-axis weights.
func (a *axes) setShort() {
	u := &a.u
	a.short = true
	for k := range cells {
		ws := u.w[u.off[k]:u.off[k+1]]
		if len(ws) > shortBand {
			a.short = false
			return
		}
		a.shortW[k] = [shortBand]float64{}
		copy(a.shortW[k][:], ws)
	}
}

// size returns the number of float64-sized words the axes hold.
func (a *axes) size() int { return len(a.u.w) + len(a.v.w) + len(a.rowLo)/4 + 2*cells*cells }

// axesFor returns the weights for cards of src's size, from the cache when it holds them.
func (r *Retina) axesFor(src *source) *axes {
	for i, c := range r.cache {
		if c.w == src.iw && c.h == src.ih {
			copy(r.cache[1:i+1], r.cache[:i]) // most recently used first
			r.cache[0] = c
			return c
		}
	}
	var ax *axes
	if len(r.cache) < cachedSizes {
		ax = new(axes)
		r.cache = append(r.cache, nil)
	} else {
		ax = r.cache[len(r.cache)-1] // reuse the least recently used
	}
	copy(r.cache[1:], r.cache)
	r.cache[0] = ax
	ax.w, ax.h = src.iw, src.ih
	pl := r.placement(src.iw, src.ih)
	sigma := r.blur() * pl.pp // image pixels
	// Cell k along a field axis covers [k, k+1] cells; along the image axis it is driven by,
	// with sign s, it covers pixels c + s*pp*([k, k+1] - centre): image pixels, divided by the
	// sampling step to give sampled pixels.
	edges := func(centre, fieldCentre, s, step float64) (e [cells][2]float64) {
		for k := range cells {
			a := centre + float64(s*float64(pl.pp*(float64(k)-fieldCentre)))
			b := centre + float64(s*float64(pl.pp*(float64(k+1)-fieldCentre)))
			e[k] = [2]float64{min(a, b) / step, max(a, b) / step}
		}
		return e
	}
	rot := r.rot
	ax.swap = rot.cos == 0
	var eu, ev [cells][2]float64
	if !ax.swap {
		eu = edges(pl.hw, pl.cx, rot.cos, src.sx) // u = hw + cos*pp*(x - cx)
		ev = edges(pl.hh, pl.cy, rot.cos, src.sy) // v = hh + cos*pp*(y - cy)
	} else {
		eu = edges(pl.hw, pl.cy, rot.sin, src.sx)  // u = hw + sin*pp*(y - cy)
		ev = edges(pl.hh, pl.cx, -rot.sin, src.sy) // v = hh - sin*pp*(x - cx)
	}
	ax.u.build(&eu, src.w, sigma/src.sx, r.reach*sigma/src.sx)
	ax.v.build(&ev, src.h, sigma/src.sy, r.reach*sigma/src.sy)
	ax.rows()
	ax.setShort()
	ax.finOK = false
	return ax
}

// cachedSizes is how many image sizes a retina keeps the weights of.
const cachedSizes = 4

// dropAxes forgets ax when it is too large to keep for the next card.
func (r *Retina) dropAxes(ax *axes) {
	if ax.size() > keepScratch {
		r.cache = slices.DeleteFunc(r.cache, func(c *axes) bool { return c == ax })
	}
}

// rows fills rowLo and rowHi from the v-axis bands.
func (a *axes) rows() {
	n := a.v.hi - a.v.lo
	if cap(a.rowLo) >= n {
		a.rowLo, a.rowHi = a.rowLo[:n], a.rowHi[:n]
	} else {
		a.rowLo, a.rowHi = make([]int8, n), make([]int8, n)
	}
	for i := range n {
		a.rowLo[i], a.rowHi[i] = cells, 0
	}
	for k := range cells {
		first := int(a.v.start[k]) - a.v.lo
		for y := first; y < first+int(a.v.off[k+1]-a.v.off[k]); y++ {
			a.rowLo[y] = min(a.rowLo[y], int8(k))
			a.rowHi[y] = max(a.rowHi[y], int8(k+1))
		}
	}
}

// axis holds the weights of one image axis: cell k (along the field axis that drives this
// image axis) takes pixels start[k] .. start[k]+len(w[off[k]:off[k+1]])-1 with those weights.
// Weights and masses are in pixels (length along the axis); a cell's weights and its outside
// mass sum to its span, up to the dropped tails (tailTol).
type axis struct {
	lo, hi int              // pixels [lo, hi) are in some cell's band
	start  [cells]int32     // first pixel of each cell's band
	off    [cells + 1]int32 // cell k's weights are w[off[k]:off[k+1]]
	w      []float64        // the weights, >= 0
	in     [cells]float64   // sum of each cell's weights
	out    [cells]float64   // light each cell takes from outside the image, >= 0
	span   [cells]float64   // each cell's length in pixels, > 0
}

// build computes the weights of cells covering pixel intervals e[k] = [lo, hi] of an axis of n
// pixels, blurred by a Gaussian of sigma pixels whose weights reach reach pixels beyond a cell.
//
// The light a cell [lo, hi] of span L receives from pixel [p0, p1], in pixels, is
// (1/L) times the integral over x in [lo, hi] and y in [p0, p1] of g(x-y), g the Gaussian
// density. With D(p) = sigma*(F((p-lo)/sigma) - F((p-hi)/sigma)), the light (times L) from
// everything below p, and Dc(p) = sigma*(F((hi-p)/sigma) - F((lo-p)/sigma)) = L - D(p), the
// light from everything above, the pixel's weight is D(p1) - D(p0) = Dc(p0) - Dc(p1); each is
// evaluated on the side where its terms are small, so that nothing large cancels. Without
// blur the weight is the overlap of the intervals.
func (a *axis) build(e *[cells][2]float64, n int, sigma, reach float64) {
	a.w = a.w[:0]
	a.lo, a.hi = n, 0
	for k := range cells {
		lo, hi := e[k][0], e[k][1]
		span := hi - lo
		if !(span > 0) {
			span = math.SmallestNonzeroFloat64 // not reached for valid Params
		}
		a.span[k] = span
		// Pixels [p0, p1) of the band.
		p0 := int(min(max(0, math.Floor(lo-reach)), float64(n)))
		p1 := max(int(min(max(0, math.Ceil(hi+reach)), float64(n))), p0)
		a.start[k] = int32(p0)
		a.off[k] = int32(len(a.w))
		sum := 0.0
		if sigma == 0 {
			for p := p0; p < p1; p++ {
				o := max(0, min(hi, float64(p+1))-max(lo, float64(p)))
				a.w = append(a.w, o)
				sum += o
			}
			a.out[k] = max(0, min(hi, 0)-lo) + max(0, hi-max(lo, float64(n)))
		} else {
			g := gauss{lo: lo, hi: hi, sigma: sigma, mid: lo + float64(0.5*span), span: span}
			below := g.below(float64(p0))
			for p := p0; p < p1; p++ {
				next := g.below(float64(p + 1))
				o := g.weight(float64(p), float64(p+1), below, next)
				a.w = append(a.w, o)
				sum += o
				below = next
			}
			a.out[k] = g.outside(float64(n))
		}
		a.in[k] = sum
		if p1 > p0 {
			a.lo, a.hi = min(a.lo, p0), max(a.hi, p1)
		}
	}
	a.off[cells] = int32(len(a.w))
	if a.hi < a.lo {
		a.lo, a.hi = 0, 0
	}
}

// gauss evaluates the blurred light of one cell [lo, hi] (see axis.build).
type gauss struct {
	lo, hi, mid, span, sigma float64
}

// side is D(p) for p at or below the cell's middle, Dc(p) above it: the light from beyond p on
// p's own side, which is small when p is far from the cell.
func (g *gauss) side(p float64) float64 {
	if p <= g.mid {
		return max(0, float64(g.sigma*(fF((p-g.lo)/g.sigma)-fF((p-g.hi)/g.sigma))))
	}
	return max(0, float64(g.sigma*(fF((g.hi-p)/g.sigma)-fF((g.lo-p)/g.sigma))))
}

// below returns side(p), to be passed to weight.
func (g *gauss) below(p float64) float64 { return g.side(p) }

// weight returns the light from pixel [p0, p1], given s0 = side(p0) and s1 = side(p1).
func (g *gauss) weight(p0, p1, s0, s1 float64) float64 {
	switch {
	case p1 <= g.mid: // D(p1) - D(p0)
		return max(0, s1-s0)
	case p0 > g.mid: // Dc(p0) - Dc(p1)
		return max(0, s0-s1)
	}
	return max(0, g.span-s0-s1) // L - D(p0) - Dc(p1)
}

// outside returns the light from below pixel 0 and above pixel n.
func (g *gauss) outside(n float64) float64 {
	var lo, hi float64
	if 0 <= g.mid {
		lo = g.side(0)
	} else {
		lo = max(0, g.span-g.side(0))
	}
	if n > g.mid {
		hi = g.side(n)
	} else {
		hi = max(0, g.span-g.side(n))
	}
	return min(g.span, lo+hi)
}

// fF is F(t) = t*Phi(t) + phi(t), the antiderivative of the standard normal distribution
// function Phi (phi its density); F > 0, F(t) - F(-t) = t.
func fF(t float64) float64 {
	phi := float64(detmath.Exp(float64(-0.5*t)*t) * invSqrt2Pi)
	if t >= 0 {
		return float64(t*(1-float64(0.5*detmath.Erfc(t*invSqrt2)))) + phi
	}
	return max(0, phi-float64(-t*float64(0.5*detmath.Erfc(-t*invSqrt2))))
}

const (
	invSqrt2   = 0.70710678118654752440084436210484903928483593768847
	invSqrt2Pi = 0.39894228040143267793994605993438186847585863116493
)

// tailReach returns, in sigmas beyond a cell's edge, how far blur weights must reach so that
// less than tailTol of a cell's light is left out on each side: the light from beyond distance
// t*sigma is at most blur*F(-t), blur the sigma in cells.
func tailReach(blur float64) float64 {
	if blur == 0 {
		return 0
	}
	t := 0.0
	for float64(blur*fF(-t)) > tailTol && t < 40 {
		t += 0.25
	}
	return t
}
