package retina

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

// custom is an image.Image of no standard type (only At), so that Prepare takes its slowest
// path.
type custom struct {
	r   image.Rectangle
	pix []color.NRGBA64
}

func (c *custom) ColorModel() color.Model { return color.NRGBA64Model }
func (c *custom) Bounds() image.Rectangle { return c.r }
func (c *custom) At(x, y int) color.Color {
	if !(image.Point{x, y}.In(c.r)) {
		return color.NRGBA64{}
	}
	return c.pix[(y-c.r.Min.Y)*c.r.Dx()+x-c.r.Min.X]
}

// fill sets every byte of b from rng, or to v when v >= 0.
func fill(rng *rand.Rand, b []byte, v int) {
	for i := range b {
		if v >= 0 {
			b[i] = byte(v)
		} else {
			b[i] = byte(rng.Uint32())
		}
	}
}

// colourImage returns a w x h image of colour model kind with bounds at (x0, y0), random pixels
// (tone < 0), all black (tone 0) or all white (tone 255). Alpha images are all opaque or all
// transparent for the uniform tones.
func colourImage(kind string, rng *rand.Rand, x0, y0, w, h, tone int) image.Image {
	r := image.Rect(x0, y0, x0+w, y0+h)
	switch kind {
	case "Gray":
		m := image.NewGray(r)
		fill(rng, m.Pix, tone)
		return m
	case "Gray16":
		m := image.NewGray16(r)
		fill(rng, m.Pix, tone)
		return m
	case "RGBA", "RGBA64":
		// Random bytes include colours that are not validly premultiplied (a channel above
		// alpha): they too must give lights in range.
		var pix []byte
		var m image.Image
		if kind == "RGBA" {
			x := image.NewRGBA(r)
			pix, m = x.Pix, x
		} else {
			x := image.NewRGBA64(r)
			pix, m = x.Pix, x
		}
		fill(rng, pix, tone)
		if tone >= 0 { // opaque
			bpp := len(pix) / (w * h)
			for i := 0; i < len(pix); i += bpp {
				for c := bpp * 3 / 4; c < bpp; c++ {
					pix[i+c] = 255
				}
			}
		}
		return m
	case "NRGBA":
		m := image.NewNRGBA(r)
		fill(rng, m.Pix, tone)
		return m
	case "NRGBA64":
		m := image.NewNRGBA64(r)
		fill(rng, m.Pix, tone)
		return m
	case "Alpha":
		m := image.NewAlpha(r)
		fill(rng, m.Pix, tone)
		return m
	case "Alpha16":
		m := image.NewAlpha16(r)
		fill(rng, m.Pix, tone)
		return m
	case "CMYK":
		m := image.NewCMYK(r)
		fill(rng, m.Pix, tone)
		if tone >= 0 { // C=M=Y=0, K: 255 black, 0 white
			for i := 0; i < len(m.Pix); i += 4 {
				m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = 0, 0, 0, byte(255-tone)
			}
		}
		return m
	case "Paletted":
		pal := color.Palette{color.Black, color.White, color.NRGBA{200, 30, 90, 128}, color.RGBA{10, 200, 30, 255}, color.Transparent}
		m := image.NewPaletted(r, pal)
		for i := range m.Pix {
			switch tone {
			case 0:
				m.Pix[i] = 0
			case 255:
				m.Pix[i] = 1
			default:
				m.Pix[i] = uint8(rng.IntN(len(pal)))
			}
		}
		return m
	case "Uniform":
		v := uint8(rng.Uint32())
		if tone >= 0 {
			v = uint8(tone)
		}
		return image.NewUniform(color.NRGBA{v, v, v, uint8(rng.Uint32()) | 0x80})
	case "custom":
		m := &custom{r: r, pix: make([]color.NRGBA64, w*h)}
		for i := range m.pix {
			v := uint16(rng.Uint32())
			if tone >= 0 {
				v = uint16(tone) * 0x101
			}
			m.pix[i] = color.NRGBA64{v, uint16(rng.Uint32()), v, uint16(rng.Uint32())}
			if tone >= 0 {
				m.pix[i] = color.NRGBA64{v, v, v, 0xffff}
			}
		}
		return m
	}
	// YCbCr and NYCbCrA, kind "YCbCr-RATIO" or "NYCbCrA-RATIO".
	ratios := map[string]image.YCbCrSubsampleRatio{
		"444": image.YCbCrSubsampleRatio444, "422": image.YCbCrSubsampleRatio422,
		"420": image.YCbCrSubsampleRatio420, "440": image.YCbCrSubsampleRatio440,
		"411": image.YCbCrSubsampleRatio411, "410": image.YCbCrSubsampleRatio410,
	}
	var name, ratio string
	if _, err := fmt.Sscanf(kind, "%7s %3s", &name, &ratio); err != nil {
		panic(kind)
	}
	sr, ok := ratios[ratio]
	if !ok {
		panic(kind)
	}
	if name == "NYCbCrA" {
		m := image.NewNYCbCrA(r, sr)
		fill(rng, m.Y, tone)
		fill(rng, m.Cb, map[bool]int{true: 128, false: -1}[tone >= 0])
		fill(rng, m.Cr, map[bool]int{true: 128, false: -1}[tone >= 0])
		fill(rng, m.A, map[bool]int{true: 255, false: -1}[tone >= 0])
		return m
	}
	m := image.NewYCbCr(r, sr)
	fill(rng, m.Y, tone)
	fill(rng, m.Cb, map[bool]int{true: 128, false: -1}[tone >= 0])
	fill(rng, m.Cr, map[bool]int{true: 128, false: -1}[tone >= 0])
	return m
}

var colourKinds = []string{
	"Gray", "Gray16", "RGBA", "RGBA64", "NRGBA", "NRGBA64", "Alpha", "Alpha16", "CMYK",
	"YCbCr 444", "YCbCr 422", "YCbCr 420", "YCbCr 440", "YCbCr 411", "YCbCr 410",
	"NYCbCrA 444", "NYCbCrA 420", "NYCbCrA 411", "Paletted", "Uniform", "custom",
}

// randomParams returns random valid parameters: placement, rotation (a quarter turn or none
// half the time), blur, lamp, gamma, surround, polarity and the cell flaws; Ideal one time in
// four.
func randomParams(rng *rand.Rand) Params {
	p := DefaultParams()
	if rng.IntN(4) == 0 {
		p = IdealParams()
	}
	p.Scale = math.Exp(rng.Float64()*4 - 2)
	if rng.IntN(3) == 0 {
		p.Scale = 1
	}
	p.OffsetX, p.OffsetY = rng.Float64()*30-15, rng.Float64()*30-15
	if rng.IntN(3) == 0 {
		p.OffsetX, p.OffsetY = 0, 0
	}
	switch rng.IntN(4) {
	case 0:
		p.Rotation = float64(90 * (rng.IntN(9) - 4))
	case 1:
		p.Rotation = 0
	default:
		p.Rotation = rng.Float64()*720 - 360
	}
	p.Surround = rng.Float64()
	if rng.IntN(3) == 0 {
		p.Surround = float64(rng.IntN(2))
	}
	p.Polarity = Polarity(rng.IntN(3))
	if !p.Ideal {
		p.Blur = []float64{0, 0.05, 0.35, 1, 3, 10}[rng.IntN(6)] * rng.Float64()
		p.Lamp = []float64{0, 1, 1.7, 1000}[rng.IntN(4)]
		p.Gamma = []float64{0.05, 0.8, 1, 3, 10}[rng.IntN(5)]
		p.Spread = rng.Float64() * 0.5
		p.RiseTau, p.DecayTau = rng.Float64(), rng.Float64()*3
		p.DarkNoise = rng.Float64() * 0.1
		p.Threshold = rng.Float64()
	}
	return p
}

// TestRangesAllColourModels checks that every light, target conductance and level is finite
// and within its physical range, for random images of every colour model the image package
// has (and a custom one), sizes from 1x1 up to 2000x2000 with bounds not at the origin, all
// black and all white, under random placement, rotation, blur, lamp, gamma and polarity.
func TestRangesAllColourModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	sizes := [][2]int{{1, 1}, {1, 7}, {9, 1}, {2, 3}, {8, 8}, {28, 28}, {29, 17}, {64, 64}, {101, 37}, {200, 333}}
	for _, kind := range colourKinds {
		for k, sz := range sizes {
			for _, tone := range []int{-1, 0, 255} {
				p := randomParams(rng)
				r := newRetina(t, p, uint64(k))
				x0, y0 := rng.IntN(200)-100, rng.IntN(200)-100
				img := colourImage(kind, rng, x0, y0, sz[0], sz[1], tone)
				what := fmt.Sprintf("%s %dx%d at (%d,%d) tone %d, %+v", kind, sz[0], sz[1], x0, y0, tone, p)
				var s Stimulus
				r.Prepare(img, &s)
				checkStimulus(t, r, &s, what)
				var out Bits
				noise := rand.New(rand.NewPCG(uint64(k), 5))
				for _, dt := range []float64{3, 0.01, 0} {
					r.Expose(&s, dt, noise, &out)
				}
				checkLevels(t, r, what)
			}
		}
	}
	// Large images, and all-black and all-white ones, with the default and random parameters.
	large := []struct {
		kind string
		w, h int
	}{{"Gray", 2000, 2000}, {"NRGBA", 1999, 1500}, {"YCbCr 420", 1024, 2000}, {"Paletted", 2000, 3}}
	if testing.Short() {
		large = large[:1]
	}
	for _, l := range large {
		for _, tone := range []int{-1, 0, 255} {
			img := colourImage(l.kind, rng, 7, -3, l.w, l.h, tone)
			for _, p := range []Params{DefaultParams(), IdealParams(), randomParams(rng)} {
				r := newRetina(t, p, 1)
				var s Stimulus
				r.Prepare(img, &s)
				what := fmt.Sprintf("%s %dx%d tone %d, %+v", l.kind, l.w, l.h, tone, p)
				checkStimulus(t, r, &s, what)
				var out Bits
				r.Expose(&s, 3, rand.New(rand.NewPCG(1, 1)), &out)
				checkLevels(t, r, what)
			}
		}
	}
}

// TestUniformCards checks all-black and all-white cards of every colour model: the light is
// exactly 0 or 1 (times the lamp) everywhere the card covers, whatever the blur.
func TestUniformCards(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, kind := range colourKinds {
		if kind == "Uniform" || kind == "Alpha" || kind == "Alpha16" {
			continue // Uniform draws its alpha; Alpha shows the surround through
		}
		for _, tone := range []int{0, 255} {
			for _, blur := range []float64{0, 0.35, 2} {
				p := DefaultParams()
				p.Blur, p.Spread, p.Polarity, p.Surround = blur, 0, DarkFigure, float64(tone)/255
				r := newRetina(t, p, 1)
				var s Stimulus
				r.Prepare(colourImage(kind, rng, -5, 9, 28, 28, tone), &s)
				for i, l := range s.Light {
					if want := float32(tone) / 255; math.Abs(float64(l-want)) > 1e-6 {
						t.Fatalf("%s tone %d blur %v: cell %d light %v, want %v", kind, tone, blur, i, l, want)
					}
				}
			}
		}
	}
}
