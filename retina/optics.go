package retina

import (
	"encoding/binary"
	"image"
	"math"
	"math/bits"
	"slices"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// Optics. The card's luminance (Rec. 601 weights as in color.Gray16Model, alpha composited over
// the surround) is a piecewise-constant function of the card's pixels. Each cell receives the
// mean, over its square, of that function blurred by a Gaussian of sigma Blur cells (the
// defocus), the surround luminance filling the plane outside the card.
//
// Without rotation, and for rotations by multiples of 90 degrees, both the cell's square and the
// Gaussian are products of one function per axis, and so is every pixel, so each cell's mean is
// sum over pixels of Wy[cell row][pixel row] * Wx[cell column][pixel column] * luminance, plus
// the surround times the share of the cell's light coming from outside the card. The per-axis
// weights are exact closed forms (see axis.build): with blur, the double integral of the
// Gaussian over the pixel's and the cell's intervals, a difference of F(t) = t*Phi(t) + phi(t);
// without blur, the overlap of the two intervals. They are non-negative, banded (a cell touches
// only the pixels within its span plus the blur's reach) and depend only on the image's size, so
// a retina computes them once for a deck of same-size cards. Every term of the sum is
// non-negative, so each cell's mean is in [0, 1] by construction (the last-ulp excess over 1 is
// clamped).
//
// Other rotations render a focal plane of sub x sub sub-cells per cell, each the mean of the
// card over a box of its size, aligned with the card's axes, around its inverse-rotated centre
// (a summed-area table, exact for piecewise-constant pixels; each sub-cell clamped to [0, 1]),
// and integrate the plane with the same per-axis weights, the sub-cells playing the pixels. The
// plane holds the card at a quarter of a cell: on pixel noise at the default blur a cell's mean
// is within 1% of the exact one (it is exact for cards unrotated on the plane without blur).

// cells is the side of the field, in cells (Rows == Cols: the field is square).
const cells = Cols

// The field must be square for the axis swap of 90-degree rotations.
var _ [Rows - Cols]struct{}
var _ [Cols - Rows]struct{}

// sub is the number of focal-plane sub-cells per cell along each axis (rotated cards only).
const sub = 4

// Image size limits. Images within maxSide pixels per side and maxPixels pixels (the image
// loaders' caps) are integrated exactly; the separable path holds no table, only one row of
// luminance and the banded weights, so its memory grows with the image's sides, not its area.
// Larger images, only synthetic ones (image.Uniform has bounds of +-1e9 pixels), are
// point-sampled first, keeping their aspect ratio, to at most maxSide samples per side and
// sampledPixels in all. A card rotated by other than a multiple of 90 degrees needs a
// summed-area table of (w+1)*(h+1) float64s: it is built from at most maxTablePixels (sampled)
// pixels, 128 MiB at most, and dropped after the card.
const (
	maxSide        = 16384
	maxPixels      = 4096 * 4096
	sampledPixels  = 2048 * 2048
	maxTablePixels = 4096 * 4096
)

// keepScratch is the largest buffer (in float64s) Prepare keeps between calls; larger ones, and
// the weights of images that need more, are dropped after use.
const keepScratch = 1 << 18

// tailTol is the share of a cell's light a blur weight may leave out on each side: the weights
// reach tailReach(Blur) sigmas beyond the cell, where less than tailTol of the cell's light
// comes from further out (far below the float32 resolution of a Stimulus, 6e-8).
const tailTol = 0x1p-40

// scratch holds Prepare's buffers between calls.
type scratch struct {
	row []float64 // one row of luminance
	sat []float64 // summed-area table (rotated cards)
	pl  []float64 // focal plane (rotated cards)
}

// grow returns b resized to n, reusing its storage when it is large enough.
func grow(b []float64, n int) []float64 {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]float64, n)
}

// shrink drops a buffer too large to keep.
func shrink(b []float64) []float64 {
	if cap(b) > keepScratch {
		return nil
	}
	return b
}

// Prepare runs the optics once for a card: placement, area averaging over each cell, defocus,
// lamp and, with AutoPolarity, the card's polarity; then the cells' target conductances. It
// writes them to dst. A nil image or one with empty bounds shows the surround everywhere (and
// is DarkFigure under AutoPolarity); bounds need not start at (0, 0). Prepare allocates only to
// grow its scratch buffers and, once per image size, the weights it keeps for that size.
//
// Every value is finite and within its physical range: Light in [0, Lamp] (Ideal: [0, 1]), G in
// [0, s*Lamp^Gamma] for a cell of sensitivity s (Ideal: G = Light).
func (r *Retina) Prepare(img image.Image, dst *Stimulus) {
	var avg [N]float64
	pol := r.project(img, &avg)
	r.sc.row, r.sc.sat, r.sc.pl = shrink(r.sc.row), shrink(r.sc.sat), shrink(r.sc.pl)
	dst.pol = int8(pol) + 1
	dst.idealOK = false
	if r.p.Ideal {
		for i, a := range avg {
			dst.Light[i] = float32(a)
			dst.G[i] = float32(a)
		}
		idealBits(&dst.Light, pol, &dst.ideal)
		dst.idealOK = true
		return
	}
	lamp := r.p.Lamp
	for i, a := range avg {
		l := lamp * a // a <= 1, so l <= lamp
		dst.Light[i] = min(float32(l), r.lamp32)
		dst.G[i] = min(float32(r.sens[i]*r.pow.eval(l)), r.gmax32[i])
	}
}

// source reads a card's luminance, point-sampled when the image is too large (see maxSide).
type source struct {
	img    image.Image
	gray   *image.Gray       // fast path
	rgba64 image.RGBA64Image // faster than At
	x0, y0 int               // the image's bounds.Min
	w, h   int               // size in (sampled) pixels
	sx, sy float64           // image pixels per sampled pixel (1: every pixel)
	unit   float64           // luminance of white: 255 for *image.Gray, 65535 otherwise
	sur    float64           // surround luminance (0..1) under transparent pixels
	iw, ih int               // the image's size in image pixels
}

// newSource prepares to read img; w and h are 0 for a nil or empty image.
func newSource(img image.Image, sur float64) source {
	s := source{img: img, sx: 1, sy: 1, unit: full16, sur: sur}
	if img == nil {
		return s
	}
	bd := img.Bounds()
	w, h := bd.Dx(), bd.Dy()
	if w <= 0 || h <= 0 {
		return s
	}
	s.x0, s.y0, s.iw, s.ih = bd.Min.X, bd.Min.Y, w, h
	s.w, s.h, s.sx, s.sy = w, h, 1, 1
	if w > maxSide || h > maxSide || w > maxPixels/h {
		s.sample(maxSide, sampledPixels)
	}
	if g, ok := img.(*image.Gray); ok {
		s.gray, s.unit = g, 255
	} else if c, ok := img.(image.RGBA64Image); ok {
		s.rgba64 = c
	}
	return s
}

// sample sets the source to read at most side samples along either side and pixels samples in
// all, keeping the image's aspect ratio (down to one sample on a side).
func (s *source) sample(side, pixels int) {
	w, h := s.iw, s.ih
	f := max(float64(w)/float64(side), float64(h)/float64(side),
		math.Sqrt(float64(w)*float64(h)/float64(pixels)))
	nw := max(1, min(int(float64(w)/f), side))
	nh := max(1, min(int(float64(h)/f), side, pixels/nw))
	s.w, s.h = nw, nh
	s.sx, s.sy = float64(w)/float64(nw), float64(h)/float64(nh)
}

// full16 is the luminance of white in 16-bit units.
const full16 = 65535

// ix and iy return the image coordinates of sampled pixel column x and row y.
func (s *source) ix(x int) int {
	if s.sx == 1 {
		return s.x0 + x
	}
	return s.x0 + min(int((float64(x)+0.5)*s.sx), s.iw-1)
}

func (s *source) iy(y int) int {
	if s.sy == 1 {
		return s.y0 + y
	}
	return s.y0 + min(int((float64(y)+0.5)*s.sy), s.ih-1)
}

// row writes the luminance (in units of 1/unit) of sampled pixels [x0, x0+len(dst)) of
// sampled row y to dst.
func (s *source) row(y, x0 int, dst []float64) {
	iy := s.iy(y)
	if s.gray != nil && s.sx == 1 {
		off := s.gray.PixOffset(s.x0+x0, iy)
		pix := s.gray.Pix[off : off+len(dst)]
		for i, v := range pix {
			dst[i] = float64(v)
		}
		return
	}
	for i := range dst {
		dst[i] = s.at(s.ix(x0+i), iy)
	}
}

// at returns the luminance of image pixel (ix, iy), in units of 1/unit.
func (s *source) at(ix, iy int) float64 {
	switch {
	case s.gray != nil:
		return float64(s.gray.Pix[s.gray.PixOffset(ix, iy)])
	case s.rgba64 != nil:
		c := s.rgba64.RGBA64At(ix, iy)
		return lum16(uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A), s.sur)
	}
	cr, cg, cb, ca := s.img.At(ix, iy).RGBA()
	return lum16(cr, cg, cb, ca, s.sur)
}

// lum16 is the luminance of an alpha-premultiplied 16-bit colour composited over a surround of
// luminance sur (0..1), in units of 1/65535: color.Gray16Model's Rec. 601 weights for the
// colour, plus the surround showing through the transparent part.
func lum16(r, g, b, a uint32, sur float64) float64 {
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 16
	l := float64(y)
	if a < full16 {
		l = min(l+float64(float64(full16-a)*sur), full16) // min: colours not validly premultiplied
	}
	return l
}

// ringMean returns the mean luminance (0..1) of the outermost ring of (sampled) pixels.
func (r *Retina) ringMean(s *source) float64 {
	r.sc.row = grow(r.sc.row, s.w)
	row := r.sc.row
	sum := 0.0
	s.row(0, 0, row)
	for _, v := range row {
		sum += v
	}
	n := s.w
	if s.h > 1 {
		s.row(s.h-1, 0, row)
		for _, v := range row {
			sum += v
		}
		n += s.w
		for y := 1; y < s.h-1; y++ {
			iy := s.iy(y)
			sum += s.at(s.ix(0), iy)
			n++
			if s.w > 1 {
				sum += s.at(s.ix(s.w-1), iy)
				n++
			}
		}
	}
	return sum / (float64(n) * s.unit)
}

// project computes each cell's mean luminance (before the lamp), in [0, 1], into avg, and
// returns the card's polarity (resolved when Params.Polarity is AutoPolarity).
func (r *Retina) project(img image.Image, avg *[N]float64) Polarity {
	pol, sur := r.p.Polarity, r.p.Surround
	src := newSource(img, sur)
	if pol == AutoPolarity {
		pol = DarkFigure
		if src.w > 0 && r.ringMean(&src) < 0.5 {
			// A light figure on a dark ground: the field outside the image is taken to match
			// the ground. Transparent pixels keep showing Surround, as when deciding.
			pol, sur = LightFigure, 1-sur
		}
	}
	if src.w <= 0 || src.h <= 0 {
		for i := range avg {
			avg[i] = sur
		}
		return pol
	}
	if r.rot.quarter {
		ax := r.axesFor(&src)
		if src.gray != nil && src.sx == 1 && src.sy == 1 {
			r.integrateGray(ax, &src, sur, avg)
		} else {
			r.integrate(ax, src.unit, sur, avg, func(y, x0 int, dst []float64) { src.row(y, x0, dst) })
		}
		r.dropAxes(ax)
		return pol
	}
	r.focal(&src, sur, avg)
	return pol
}

// rotation is the card's rotation, fixed per retina.
type rotation struct {
	cos, sin float64 // of the clockwise rotation
	quarter  bool    // a multiple of 90 degrees: cos and sin are exactly 0 or +-1
}

// turn returns the cosine and sine of a clockwise rotation by deg degrees, exact for multiples
// of 90 degrees.
func turn(deg float64) rotation {
	deg = math.Mod(deg, 360)
	if deg < 0 {
		deg += 360
	}
	switch deg {
	case 0:
		return rotation{1, 0, true}
	case 90:
		return rotation{0, 1, true}
	case 180:
		return rotation{-1, 0, true}
	case 270:
		return rotation{0, -1, true}
	}
	sin, cos := detmath.Sincos(deg * (math.Pi / 180))
	return rotation{cos, sin, false}
}

// placement maps field points (cells) to card pixels: the field point (x, y), in cells from
// the field's top-left corner, sees the card pixel
// (u, v) = (w/2, h/2) + pp * R(-rotation) * ((x, y) - centre - offset).
type placement struct {
	pp     float64 // card pixels per cell: the larger side spans Cols cells at Scale 1
	cx, cy float64 // field point of the card's centre
	hw, hh float64 // the card's centre in pixels
}

func (r *Retina) placement(w, h int) placement {
	return placement{
		pp: float64(max(w, h)) / (Cols * r.p.Scale),
		cx: Cols/2 + r.p.OffsetX, cy: Rows/2 + r.p.OffsetY,
		hw: float64(float64(w) / 2), hh: float64(float64(h) / 2),
	}
}

// blur returns the defocus sigma in cells (0 in Ideal mode).
func (r *Retina) blur() float64 {
	if r.p.Ideal {
		return 0
	}
	return r.p.Blur
}

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

// finish turns the sums m of integrate into each cell's mean, adding the surround's light.
func finish(ax *axes, m *[N]float64, unit, sur float64, avg *[N]float64) {
	u := &ax.u
	su := sur * unit
	for b := range cells {
		for a := range cells {
			// The light from outside the image: all of it along u, or inside along u and
			// outside along v. Every term is >= 0.
			out := float64(u.out[a]*ax.v.span[b]) + float64(u.in[a]*ax.v.out[b])
			v := (m[b*cells+a] + float64(su*out)) / float64(float64(u.span[a]*ax.v.span[b])*unit)
			v = min(v, 1)
			if ax.swap {
				avg[a*Cols+b] = v // u-cell a is row a, v-cell b is column b
			} else {
				avg[b*Cols+a] = v
			}
		}
	}
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

// table is a card's luminance as a summed-area table, for rotated cards.
type table struct {
	sat  []float64 // sat[y*(w+1)+x]: sum of the luminance of pixels [0,x) x [0,y), in 1/unit
	w, h int
	unit float64
	sur  float64 // luminance outside the image, 0..1
}

// newTable builds the summed-area table of src's image, point-sampled down to at most
// maxTablePixels samples, with the luminance sur (0..1) outside the image.
func (r *Retina) newTable(src *source, sur float64) table {
	s := *src
	if s.w > maxTablePixels/s.h {
		s.sample(maxTablePixels, maxTablePixels)
	}
	t := table{w: s.w, h: s.h, unit: s.unit, sur: sur}
	w := t.w
	r.sc.sat = grow(r.sc.sat, (w+1)*(t.h+1))
	sat := r.sc.sat
	for x := range w + 1 {
		sat[x] = 0
	}
	r.sc.row = grow(r.sc.row, w)
	buf := r.sc.row
	for y := range t.h {
		s.row(y, 0, buf)
		acc := 0.0
		row := sat[(y+1)*(w+1) : (y+2)*(w+1)]
		above := sat[y*(w+1) : (y+1)*(w+1)]
		row[0] = 0
		for x, l := range buf {
			acc += l
			row[x+1] = above[x+1] + acc
		}
	}
	t.sat = sat
	return t
}

// at returns the integral of the luminance over [0,u) x [0,v), for 0 <= u <= w, 0 <= v <= h:
// bilinear interpolation of the table, exact for piecewise-constant pixels.
func (t *table) at(u, v float64) float64 {
	i, j := int(u), int(v)
	if i >= t.w {
		i = t.w - 1
	}
	if j >= t.h {
		j = t.h - 1
	}
	fu, fv := u-float64(i), v-float64(j)
	k := j*(t.w+1) + i
	s00, s10 := t.sat[k], t.sat[k+1]
	s01, s11 := t.sat[k+t.w+1], t.sat[k+t.w+2]
	return s00 + float64(fu*(s10-s00)) + float64(fv*(s01-s00)) + float64(float64(fu*fv)*((s11-s10)-(s01-s00)))
}

// mean returns the mean luminance, clamped to [0, 1], over the box [u0,u1) x [v0,v1) in pixel
// coordinates, the surround outside the image. The box must have positive area. (Differences
// of large sums can round a little below 0 or above 1; the clamp keeps the plane physical.)
func (t *table) mean(u0, v0, u1, v1 float64) float64 {
	area := float64((u1 - u0) * (v1 - v0))
	cu0, cu1 := min(max(u0, 0), float64(t.w)), min(max(u1, 0), float64(t.w))
	cv0, cv1 := min(max(v0, 0), float64(t.h)), min(max(v1, 0), float64(t.h))
	inner := float64((cu1 - cu0) * (cv1 - cv0))
	sum := 0.0
	if inner > 0 {
		sum = ((t.at(cu1, cv1) - t.at(cu0, cv1)) - t.at(cu1, cv0)) + t.at(cu0, cv0)
	}
	m := sum / (area * t.unit)
	if inner < area {
		m += float64(t.sur * float64((area-inner)/area))
	}
	return min(max(m, 0), 1)
}

// focal renders the focal plane of a card at an arbitrary rotation and integrates it over the
// cells with the blur.
func (r *Retina) focal(src *source, sur float64, avg *[N]float64) {
	t := r.newTable(src, sur)
	pl := r.placement(src.iw, src.ih)
	// The table may be sampled: scale the placement's image pixels to its samples.
	kx, ky := float64(t.w)/float64(src.iw), float64(t.h)/float64(src.ih)
	// rad is how far the plane extends beyond the field, in sub-cells: the blur's reach.
	sigma := r.blur() * sub
	rad := int(math.Ceil(float64(r.reach) * sigma))
	n := cells*sub + 2*rad
	r.sc.pl = grow(r.sc.pl, n*n)
	plane := r.sc.pl
	hu := float64(float64(kx*pl.pp) / (2 * sub)) // half a sub-cell, in table pixels
	hv := float64(float64(ky*pl.pp) / (2 * sub))
	w, h := float64(t.w), float64(t.h)
	cos, sin := r.rot.cos, r.rot.sin
	for b := range n {
		y := float64(float64(b-rad)/sub) + 0.5/sub - pl.cy
		for a := range n {
			x := float64(float64(a-rad)/sub) + 0.5/sub - pl.cx
			u := float64(kx * (pl.hw + float64(pl.pp*(float64(cos*x)+float64(sin*y)))))
			v := float64(ky * (pl.hh + float64(pl.pp*(float64(cos*y)-float64(sin*x)))))
			if u+hu <= 0 || v+hv <= 0 || u-hu >= w || v-hv >= h {
				plane[b*n+a] = sur
				continue
			}
			plane[b*n+a] = t.mean(u-hu, v-hv, u+hu, v+hv)
		}
	}
	ax := r.planeAxes(n, rad, sigma)
	r.integrate(ax, 1, sur, avg, func(y, x0 int, dst []float64) { copy(dst, plane[y*n+x0:]) })
}

// planeAxes returns the weights of the focal plane of n x n sub-cells, cell k covering
// sub-cells rad+k*sub .. rad+(k+1)*sub-1 along either axis; they depend only on Params and
// are kept for the retina's life.
func (r *Retina) planeAxes(n, rad int, sigma float64) *axes {
	if r.plane != nil {
		return r.plane
	}
	ax := new(axes)
	ax.w, ax.h = n, n
	var e [cells][2]float64
	for k := range cells {
		e[k] = [2]float64{float64(rad + k*sub), float64(rad + (k+1)*sub)}
	}
	reach := float64(r.reach) * sigma
	ax.u.build(&e, n, sigma, reach)
	ax.v.build(&e, n, sigma, reach)
	ax.rows()
	r.plane = ax
	return ax
}
