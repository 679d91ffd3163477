package retina

import (
	"image"
	"math"
)

// Optics. The card's luminance (0..1, Rec. 601 weights as in color.Gray16Model, alpha composited
// over Surround) is integrated exactly over each cell's footprint with a summed-area table: the
// table holds the integral of a piecewise-constant image, which is bilinear within each pixel, so
// bilinear interpolation of the table at fractional coordinates is exact. Without rotation and
// blur each cell's average comes straight from the table. With rotation or blur, a focal plane of
// sub x sub sub-cells per cell (plus a margin as wide as the blur reaches) is rendered, each
// sub-cell the exact average over its footprint (with rotation: over the axis-aligned box of its
// size around its inverse-rotated centre, which is exact for multiples of 90 degrees); the plane
// is then blurred with a separable Gaussian and averaged back to cells in one pass per axis (the
// Gaussian and the sub-cell average combined into one kernel).

// sub is the number of focal-plane sub-cells per cell along each axis.
const sub = 4

// maxTablePixels bounds the images integrated exactly (it matches the decoder's cap on cards).
// Larger images, only synthetic ones, are point-sampled down to sampledPixels first.
const (
	maxTablePixels = 4096 * 4096
	sampledPixels  = 2048 * 2048
)

// keepScratch is the largest buffer (in float64s) Prepare keeps between calls.
const keepScratch = 1 << 18

// full is the luminance unit of the table: 16-bit luminance, 0..65535.
const full = 65535

// scratch holds Prepare's buffers between calls.
type scratch struct {
	sat   []float64 // summed-area table, (w+1)*(h+1)
	fine  []float64 // focal plane
	tmp   []float64 // focal plane after the horizontal pass
	gauss []float64 // Gaussian, 2*radius+1 taps
	kern  []float64 // Gaussian and sub-cell mean, sub+2*radius taps
	us    []float64 // focal-plane grid lines, pixels
	vs    []float64
	cu    []float64 // grid: clamped grid lines, table row values
	prev  []float64
	cur   []float64
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

// Prepare runs the optics once for a card: placement, area averaging over each cell, defocus and
// lamp, and the cells' target conductances, writing them to dst. A nil image or one with empty
// bounds shows the Surround everywhere; bounds need not start at (0, 0). Prepare allocates only
// to grow its scratch buffers.
func (r *Retina) Prepare(img image.Image, dst *Stimulus) {
	var avg [N]float64
	r.project(img, &avg)
	r.sc.sat, r.sc.fine, r.sc.tmp = shrink(r.sc.sat), shrink(r.sc.fine), shrink(r.sc.tmp)
	dst.idealPol = 0
	if r.p.Ideal {
		for i, a := range avg {
			dst.Light[i] = float32(a)
			dst.G[i] = float32(a)
		}
		idealBits(&dst.Light, r.p.Polarity, &dst.ideal)
		dst.idealPol = int8(r.p.Polarity) + 1
		return
	}
	for i, a := range avg {
		l := r.p.Lamp * a
		dst.Light[i] = float32(l)
		dst.G[i] = float32(r.sens[i] * math.Pow(l, r.p.Gamma))
	}
}

// table is a card's luminance as a summed-area table.
type table struct {
	sat  []float64 // sat[y*(w+1)+x]: sum of the luminance of pixels [0,x) x [0,y), in units of 1/full
	w, h int
	sur  float64 // Surround, in units of 1/full
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
	return s00 + fu*(s10-s00) + fv*(s01-s00) + fu*fv*(s11-s10-s01+s00)
}

// mean returns the mean luminance (0..1) over the box [u0,u1) x [v0,v1) in pixel coordinates,
// Surround outside the image. The box must have positive area.
func (t *table) mean(u0, v0, u1, v1 float64) float64 {
	area := (u1 - u0) * (v1 - v0)
	cu0, cu1 := min(max(u0, 0), float64(t.w)), min(max(u1, 0), float64(t.w))
	cv0, cv1 := min(max(v0, 0), float64(t.h)), min(max(v1, 0), float64(t.h))
	inner := (cu1 - cu0) * (cv1 - cv0)
	sum := 0.0
	if inner > 0 {
		sum = t.at(cu1, cv1) - t.at(cu0, cv1) - t.at(cu1, cv0) + t.at(cu0, cv0)
	}
	if inner < area {
		sum += t.sur * (area - inner)
	}
	return sum / (area * full)
}

// grid computes the mean luminance of every box of an axis-aligned grid: box (a, b) spans
// [us[a], us[a+1]) x [vs[b], vs[b+1]) in pixel coordinates, and its mean goes to
// dst[b*(len(us)-1)+a]. It is table.mean for each box, evaluating the table once per grid point.
func (r *Retina) grid(t *table, us, vs, dst []float64) {
	nx := len(us) - 1
	sc := &r.sc
	sc.cu = grow(sc.cu, len(us))
	sc.prev = grow(sc.prev, len(us))
	sc.cur = grow(sc.cur, len(us))
	cu, prev, cur := sc.cu, sc.prev, sc.cur
	for a, u := range us {
		cu[a] = min(max(u, 0), float64(t.w))
	}
	cvPrev := 0.0
	for b, v := range vs {
		cv := min(max(v, 0), float64(t.h))
		for a := range cur {
			cur[a] = t.at(cu[a], cv)
		}
		if b > 0 {
			dv, cdv := v-vs[b-1], cv-cvPrev
			row := dst[(b-1)*nx : b*nx]
			for a := range row {
				area := (us[a+1] - us[a]) * dv
				inner := (cu[a+1] - cu[a]) * cdv
				sum := 0.0
				if inner > 0 {
					sum = cur[a+1] - cur[a] - prev[a+1] + prev[a]
				}
				if inner < area {
					sum += t.sur * (area - inner)
				}
				row[a] = sum / (area * full)
			}
		}
		prev, cur = cur, prev
		cvPrev = cv
	}
}

// project computes each cell's mean luminance (before the lamp) into avg.
func (r *Retina) project(img image.Image, avg *[N]float64) {
	t := table{sur: r.p.Surround * full}
	if img != nil {
		t.sat, t.w, t.h = r.luminance(img)
	}
	if t.w <= 0 || t.h <= 0 {
		for i := range avg {
			avg[i] = r.p.Surround
		}
		return
	}
	// pp is the card's pixels per cell: the larger side spans Cols cells at Scale 1.
	pp := float64(max(t.w, t.h)) / (Cols * r.p.Scale)
	// The field point (x, y), in cells from the field's top-left corner, sees the card pixel
	// (u, v) = (w/2, h/2) + pp * R(-rotation) * ((x, y) - centre - offset).
	pl := placement{
		pp: pp, cx: Cols/2 + r.p.OffsetX, cy: Rows/2 + r.p.OffsetY,
		hw: float64(t.w) / 2, hh: float64(t.h) / 2,
	}
	pl.cos, pl.sin = turn(r.p.Rotation)
	blur := r.p.Blur
	if r.p.Ideal {
		blur = 0
	}
	if pl.cos == 1 && blur == 0 {
		var us, vs [Cols + 1]float64
		for k := range us {
			us[k] = pl.hw + pp*(float64(k)-pl.cx)
		}
		for k := range vs {
			vs[k] = pl.hh + pp*(float64(k)-pl.cy)
		}
		r.grid(&t, us[:], vs[:Rows+1], avg[:])
		return
	}
	r.focal(&t, avg, pl, blur)
}

// placement maps field points (cells) to card pixels.
type placement struct {
	pp       float64 // card pixels per cell
	cx, cy   float64 // field point of the card's centre
	hw, hh   float64 // the card's centre in pixels
	cos, sin float64 // of the clockwise rotation
}

// turn returns the cosine and sine of a clockwise rotation by deg degrees, exact for multiples
// of 90 degrees.
func turn(deg float64) (cos, sin float64) {
	deg = math.Mod(deg, 360)
	if deg < 0 {
		deg += 360
	}
	switch deg {
	case 0:
		return 1, 0
	case 90:
		return 0, 1
	case 180:
		return -1, 0
	case 270:
		return 0, -1
	}
	return math.Cos(deg * math.Pi / 180), math.Sin(deg * math.Pi / 180)
}

// focal renders the supersampled focal plane, blurs it and averages it back to cells.
func (r *Retina) focal(t *table, avg *[N]float64, pl placement, blur float64) {
	// rad is the blur kernel's radius in sub-cells; the plane extends that far beyond the field.
	rad := 0
	if blur > 0 {
		rad = int(math.Ceil(3 * blur * sub))
	}
	nx, ny := Cols*sub+2*rad, Rows*sub+2*rad
	sc := &r.sc
	sc.fine = grow(sc.fine, nx*ny)
	fine := sc.fine
	// Sub-cell a's left edge is at (a - rad)/sub cells from the field's left edge.
	edge := func(k int, c float64) float64 { return float64(k-rad)/sub - c }
	if pl.cos == 1 {
		sc.us = grow(sc.us, nx+1)
		sc.vs = grow(sc.vs, ny+1)
		for k := range sc.us {
			sc.us[k] = pl.hw + pl.pp*edge(k, pl.cx)
		}
		for k := range sc.vs {
			sc.vs[k] = pl.hh + pl.pp*edge(k, pl.cy)
		}
		r.grid(t, sc.us, sc.vs, fine)
	} else {
		h := pl.pp / sub / 2 // half a sub-cell, in pixels
		w, hgt := float64(t.w), float64(t.h)
		sur := t.sur / full
		for b := range ny {
			y := edge(b, pl.cy) + 0.5/sub
			for a := range nx {
				x := edge(a, pl.cx) + 0.5/sub
				u := pl.hw + pl.pp*(pl.cos*x+pl.sin*y)
				v := pl.hh + pl.pp*(pl.cos*y-pl.sin*x)
				if u+h <= 0 || v+h <= 0 || u-h >= w || v-h >= hgt {
					fine[b*nx+a] = sur
					continue
				}
				fine[b*nx+a] = t.mean(u-h, v-h, u+h, v+h)
			}
		}
	}
	// One kernel does the blur and the average over a cell's sub-cells: cell c (along either
	// axis) is the kernel applied to sub-cells c*sub .. c*sub+len(kern)-1 of the plane.
	kern := r.kernel(rad, blur*sub)
	sc.tmp = grow(sc.tmp, ny*Cols)
	tmp := sc.tmp
	for b := range ny {
		row := fine[b*nx : (b+1)*nx]
		for c := range Cols {
			src := row[c*sub : c*sub+len(kern)]
			s := 0.0
			for k, wk := range kern {
				s += wk * src[k]
			}
			tmp[b*Cols+c] = s
		}
	}
	for row := range Rows {
		out := avg[row*Cols : (row+1)*Cols]
		for c := range out {
			out[c] = 0
		}
		for k, wk := range kern {
			src := tmp[(row*sub+k)*Cols : (row*sub+k+1)*Cols]
			for c := range out {
				out[c] += wk * src[c]
			}
		}
	}
}

// kernel returns the combined kernel of sub+2*rad taps: a normalised Gaussian of sigma sub-cells
// and radius rad followed by the mean of sub sub-cells (just that mean when rad is 0).
func (r *Retina) kernel(rad int, sigma float64) []float64 {
	sc := &r.sc
	sc.gauss = grow(sc.gauss, 2*rad+1)
	g := sc.gauss
	total := 0.0
	for k := -rad; k <= rad; k++ {
		g[k+rad] = 1
		if rad > 0 {
			g[k+rad] = math.Exp(-float64(k*k) / (2 * sigma * sigma))
		}
		total += g[k+rad]
	}
	sc.kern = grow(sc.kern, sub+2*rad)
	kern := sc.kern
	for m := range kern {
		s := 0.0
		for k := range sub {
			if t := m - k; t >= 0 && t <= 2*rad {
				s += g[t]
			}
		}
		kern[m] = s / (total * sub)
	}
	return kern
}

// luminance builds the summed-area table of img's luminance (in units of 1/full, alpha
// composited over Surround) and returns it with its size. Images too large for the table are
// point-sampled down first.
func (r *Retina) luminance(img image.Image) (sat []float64, w, h int) {
	bd := img.Bounds()
	w, h = bd.Dx(), bd.Dy()
	if w <= 0 || h <= 0 {
		return nil, 0, 0
	}
	// Pixel (x, y) of the table is pixel (x0 + x*sx, y0 + y*sy) of the image (sx = sy = 1 unless
	// the image is too large).
	sx, sy := 1.0, 1.0
	if w > maxTablePixels/h {
		f := math.Sqrt(float64(w) * float64(h) / sampledPixels)
		nw := max(1, min(int(float64(w)/f), sampledPixels))
		nh := max(1, min(int(float64(h)/f), sampledPixels/nw))
		sx, sy = float64(w)/float64(nw), float64(h)/float64(nh)
		w, h = nw, nh
	}
	sat = grow(r.sc.sat, (w+1)*(h+1))
	r.sc.sat = sat
	for x := range w + 1 {
		sat[x] = 0
	}
	sur := r.p.Surround
	x0, y0 := bd.Min.X, bd.Min.Y
	gray, isGray := img.(*image.Gray)
	rgba64, isRGBA64 := img.(image.RGBA64Image)
	for y := range h {
		iy := y0 + y
		if sy != 1 {
			iy = y0 + int((float64(y)+0.5)*sy)
		}
		acc := 0.0
		row := sat[(y+1)*(w+1):]
		above := sat[y*(w+1):]
		row[0] = 0
		for x := range w {
			ix := x0 + x
			if sx != 1 {
				ix = x0 + int((float64(x)+0.5)*sx)
			}
			var l float64
			switch {
			case isGray:
				l = float64(gray.Pix[gray.PixOffset(ix, iy)]) * 0x101
			case isRGBA64:
				c := rgba64.RGBA64At(ix, iy)
				l = lum16(uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A), sur)
			default:
				cr, cg, cb, ca := img.At(ix, iy).RGBA()
				l = lum16(cr, cg, cb, ca, sur)
			}
			acc += l
			row[x+1] = above[x+1] + acc
		}
	}
	return sat, w, h
}

// lum16 is the luminance of an alpha-premultiplied 16-bit colour composited over a surround of
// luminance sur (0..1), in units of 1/full: color.Gray16Model's Rec. 601 weights for the colour,
// plus the surround showing through the transparent part.
func lum16(r, g, b, a uint32, sur float64) float64 {
	y := (19595*r + 38470*g + 7471*b + 1<<15) >> 16
	l := float64(y)
	if a < full {
		l = min(l+float64(full-a)*sur, full) // min: colours that are not validly premultiplied
	}
	return l
}
