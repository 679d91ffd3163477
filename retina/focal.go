package retina

import (
	"math"
)

// sub is the number of focal-plane sub-cells per cell along each axis (rotated cards only).
const sub = 4

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
