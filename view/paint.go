package view

import (
	"image"
	"image/color"
	"math"
)

// The painting primitives below write straight into an opaque *image.RGBA's pixels, clip to
// its bounds and never allocate. Colours are not premultiplied; c.A is the opacity.

// div255 returns x/255 rounded, for x in 0..255*255.
func div255(x uint32) uint32 {
	x += 128
	return (x + x>>8) >> 8
}

// mixPix blends colour c at opacity a (0..255) into the pixel at offset i.
func mixPix(p []uint8, i int, c color.RGBA, a uint32) {
	if a == 0 {
		return
	}
	if a >= 255 {
		p[i], p[i+1], p[i+2], p[i+3] = c.R, c.G, c.B, 255
		return
	}
	na := 255 - a
	p[i] = uint8(div255(uint32(p[i])*na + uint32(c.R)*a))
	p[i+1] = uint8(div255(uint32(p[i+1])*na + uint32(c.G)*a))
	p[i+2] = uint8(div255(uint32(p[i+2])*na + uint32(c.B)*a))
	p[i+3] = 255
}

// fill paints r with the opaque colour c.
func fill(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	i0 := dst.PixOffset(r.Min.X, r.Min.Y)
	row := dst.Pix[i0 : i0+4*r.Dx()]
	for i := 0; i < len(row); i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, 255
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		j := dst.PixOffset(r.Min.X, y)
		copy(dst.Pix[j:j+len(row)], row)
	}
}

// blendRect blends c (at its opacity c.A) over r.
func blendRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	if c.A == 255 {
		fill(dst, r, c)
		return
	}
	r = r.Intersect(dst.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := dst.PixOffset(r.Min.X, y)
		for x := r.Min.X; x < r.Max.X; x++ {
			mixPix(dst.Pix, i, c, uint32(c.A))
			i += 4
		}
	}
}

// blendMask blends c through an alpha mask of w x h placed at (x, y).
func blendMask(dst *image.RGBA, x, y int, mask []uint8, w, h int, c color.RGBA) {
	r := image.Rect(x, y, x+w, y+h).Intersect(dst.Rect)
	ca := uint32(c.A)
	for py := r.Min.Y; py < r.Max.Y; py++ {
		m := mask[(py-y)*w+(r.Min.X-x):]
		i := dst.PixOffset(r.Min.X, py)
		for px := 0; px < r.Dx(); px++ {
			if a := uint32(m[px]); a != 0 {
				mixPix(dst.Pix, i, c, div255(a*ca))
			}
			i += 4
		}
	}
}

// sprite is a small alpha mask drawn many times (lamps, dial pointers), centred on a point.
type sprite struct {
	mask []uint8
	w, h int
	ox   int // offset of the centre from the top-left corner
	oy   int
}

func (s *sprite) draw(dst *image.RGBA, cx, cy int, c color.RGBA) {
	blendMask(dst, cx-s.ox, cy-s.oy, s.mask, s.w, s.h, c)
}

// newSprite rasterises a shape given by its coverage function cov(x, y) (pixel centres
// relative to the sprite's centre, in pixels) into a mask of side 2*half+1.
func newSprite(half int, cov func(x, y float64) float64) *sprite {
	n := 2*half + 1
	s := &sprite{mask: make([]uint8, n*n), w: n, h: n, ox: half, oy: half}
	for y := range n {
		for x := range n {
			// 4x4 supersampling.
			var sum float64
			for sy := range 4 {
				for sx := range 4 {
					px := float64(x-half) + float64((float64(sx)+0.5)/4) - 0.5
					py := float64(y-half) + float64((float64(sy)+0.5)/4) - 0.5
					sum += cov(px, py)
				}
			}
			s.mask[y*n+x] = uint8(math.Round(255 * min(1, max(0, sum/16))))
		}
	}
	return s
}

// discCov is the coverage of a disc of radius r centred at the origin.
func discCov(r float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		if float64(x*x)+float64(y*y) <= r*r {
			return 1
		}
		return 0
	}
}

// glowCov is a soft glow: 1 inside radius r, falling off to 0 at radius r+fall.
func glowCov(r, fall float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		d := math.Hypot(x, y)
		if d <= r {
			return 1
		}
		t := 1 - (d-r)/fall
		return max(0, t*t)
	}
}

// ringCov is a ring between radii r0 and r1.
func ringCov(r0, r1 float64) func(x, y float64) float64 {
	return func(x, y float64) float64 {
		d2 := float64(x*x) + float64(y*y)
		if d2 >= r0*r0 && d2 <= r1*r1 {
			return 1
		}
		return 0
	}
}

// segCov is a segment from the origin to angle theta (radians, clockwise from up), length l,
// width w, with a round end.
func segCov(theta, l, w float64) func(x, y float64) float64 {
	dx, dy := math.Sin(theta), -math.Cos(theta)
	return func(x, y float64) float64 {
		t := min(l, max(0, float64(x*dx)+float64(y*dy)))
		ex, ey := x-float64(t*dx), y-float64(t*dy)
		if float64(ex*ex)+float64(ey*ey) <= w*w/4 {
			return 1
		}
		return 0
	}
}

// disc paints an antialiased disc (drawn directly: for the background and a few large lamps).
func disc(dst *image.RGBA, cx, cy, r float64, c color.RGBA) {
	ring(dst, cx, cy, -1, r, c)
}

// ring paints an antialiased ring between radii r0 and r1 (r0 < 0: a disc).
func ring(dst *image.RGBA, cx, cy, r0, r1 float64, c color.RGBA) {
	b := image.Rect(int(cx-r1-1), int(cy-r1-1), int(cx+r1+2), int(cy+r1+2)).Intersect(dst.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			cov := min(1, max(0, r1-d+0.5))
			if r0 >= 0 {
				cov = min(cov, max(0, min(1, d-r0+0.5)))
			}
			if cov > 0 {
				mixPix(dst.Pix, dst.PixOffset(x, y), c, uint32(cov*float64(c.A)))
			}
		}
	}
}

// line paints an antialiased segment of width w.
func line(dst *image.RGBA, x0, y0, x1, y1, w float64, c color.RGBA) {
	b := image.Rect(int(min(x0, x1)-w-1), int(min(y0, y1)-w-1), int(max(x0, x1)+w+2), int(max(y0, y1)+w+2)).Intersect(dst.Rect)
	dx, dy := x1-x0, y1-y0
	l2 := float64(dx*dx) + float64(dy*dy)
	half := float64(w / 2) // rounded: no fused multiply-add (see scripts/check-fma.sh)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		py := float64(y) + 0.5
		// Only the pixels near the segment: solve for the x range on this row.
		xa, xb := b.Min.X, b.Max.X
		if dy != 0 && math.Abs(dx) > 0.01 && l2 > 0 {
			// The segment's x at this row, +- the half width's horizontal extent.
			t := (py - y0) / dy
			xc := x0 + float64(t*dx)
			ext := float64((half+1)*math.Sqrt(l2)/math.Abs(dy)) + 1
			xa, xb = max(xa, int(xc-ext)), min(xb, int(xc+ext)+1)
		}
		for x := xa; x < xb; x++ {
			px := float64(x) + 0.5
			t := 0.0
			if l2 > 0 {
				t = min(1, max(0, (float64((px-x0)*dx)+float64((py-y0)*dy))/l2))
			}
			ex, ey := px-(x0+float64(t*dx)), py-(y0+float64(t*dy))
			d := math.Sqrt(float64(ex*ex) + float64(ey*ey))
			cov := min(1, max(0, half-d+0.5))
			if cov > 0 {
				mixPix(dst.Pix, dst.PixOffset(x, y), c, uint32(cov*float64(c.A)))
			}
		}
	}
}

// roundRect paints a rectangle with corners of radius rad (antialiased).
func roundRect(dst *image.RGBA, r image.Rectangle, rad float64, c color.RGBA) {
	rb := r.Intersect(dst.Rect)
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	for y := rb.Min.Y; y < rb.Max.Y; y++ {
		py := float64(y) + 0.5
		for x := rb.Min.X; x < rb.Max.X; x++ {
			px := float64(x) + 0.5
			// Distance outside the inner rectangle shrunk by rad.
			qx := max(x0+rad-px, 0, px-(x1-rad))
			qy := max(y0+rad-py, 0, py-(y1-rad))
			d := math.Hypot(qx, qy) - rad
			cov := min(1, max(0, 0.5-d))
			if cov > 0 {
				mixPix(dst.Pix, dst.PixOffset(x, y), c, uint32(cov*float64(c.A)))
			}
		}
	}
}

// frameRect paints the outline of a rounded rectangle, thickness t.
func frameRect(dst *image.RGBA, r image.Rectangle, rad, t float64, c color.RGBA) {
	rb := r.Intersect(dst.Rect)
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	for y := rb.Min.Y; y < rb.Max.Y; y++ {
		py := float64(y) + 0.5
		for x := rb.Min.X; x < rb.Max.X; x++ {
			px := float64(x) + 0.5
			qx := max(x0+rad-px, 0, px-(x1-rad))
			qy := max(y0+rad-py, 0, py-(y1-rad))
			d := math.Hypot(qx, qy) - rad
			cov := min(1, max(0, 0.5-d), max(0, d+t+0.5))
			if cov > 0 {
				mixPix(dst.Pix, dst.PixOffset(x, y), c, uint32(cov*float64(c.A)))
			}
		}
	}
}

// lerp mixes two colours: t=0 gives a, t=1 gives b.
func lerp(a, b color.RGBA, t float64) color.RGBA {
	t = min(1, max(0, t))
	m := func(x, y uint8) uint8 { return uint8(float64(x) + float64((float64(y)-float64(x))*t) + 0.5) }
	return color.RGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), m(a.A, b.A)}
}

// withAlpha returns c at opacity a.
func withAlpha(c color.RGBA, a uint8) color.RGBA {
	c.A = a
	return c
}
