package retina

import (
	"image"
	"math"
)

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
