package retina

import (
	"image"
	"math"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// cells is the side of the field, in cells (Rows == Cols: the field is square).
const cells = Cols

// The field must be square for the axis swap of 90-degree rotations.
var _ [Rows - Cols]struct{}
var _ [Cols - Rows]struct{}

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

// PrepareIdeal is Prepare for an ideal retina when only the card's S-unit states and its
// polarity are wanted: it returns what IdealBits and Polarity of the Stimulus Prepare fills
// would, bit for bit, without filling the cells' light. ok is false for an analog retina.
func (r *Retina) PrepareIdeal(img image.Image) (s Bits, pol Polarity, ok bool) {
	if !r.p.Ideal {
		return Bits{}, DarkFigure, false
	}
	var avg [N]float64
	pol = r.project(img, &avg)
	r.sc.row, r.sc.sat, r.sc.pl = shrink(r.sc.row), shrink(r.sc.sat), shrink(r.sc.pl)
	idealBits(&avg, pol, &s)
	return s, pol, true
}

// project computes each cell's mean luminance (before the lamp), in [0, 1], into avg, and
// returns the card's polarity (resolved when Params.Polarity is AutoPolarity).
//
// The card's luminance (Rec. 601 weights as in color.Gray16Model, alpha composited over
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
