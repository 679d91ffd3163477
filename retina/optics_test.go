package retina

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// grayImage returns a w x h gray image with bounds starting at (x0, y0) and pixel values from f.
func grayImage(x0, y0, w, h int, f func(x, y int) uint8) *image.Gray {
	img := image.NewGray(image.Rect(x0, y0, x0+w, y0+h))
	for y := range h {
		for x := range w {
			img.SetGray(x0+x, y0+y, color.Gray{Y: f(x, y)})
		}
	}
	return img
}

// randomGray returns a w x h image of random gray levels.
func randomGray(seed uint64, w, h int) *image.Gray {
	rng := rand.New(rand.NewPCG(seed, 1))
	return grayImage(0, 0, w, h, func(int, int) uint8 { return uint8(rng.IntN(256)) })
}

// newRetina builds a retina or fails the test.
func newRetina(t testing.TB, p Params, seed uint64) *Retina {
	t.Helper()
	r, err := New(p, rand.New(rand.NewPCG(seed, 7)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// idealWith returns IdealParams with DarkFigure polarity (these tests show dark cards on white
// paper; AutoPolarity has tests of its own), changed by f.
func idealWith(f func(*Params)) Params {
	p := IdealParams()
	p.Polarity = DarkFigure
	if f != nil {
		f(&p)
	}
	return p
}

// refMeans computes each cell's mean luminance independently of the summed-area table: the
// placement of the design (the larger side spans the field at Scale 1, centred, shifted by the
// offsets), then the exact overlap of the cell's box with every pixel, Surround elsewhere.
func refMeans(img *image.Gray, p Params) [N]float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	pp := float64(max(w, h)) / (Cols * p.Scale)
	var out [N]float64
	for row := range Rows {
		for col := range Cols {
			u0 := float64(w)/2 + pp*(float64(col)-10-p.OffsetX)
			v0 := float64(h)/2 + pp*(float64(row)-10-p.OffsetY)
			u1, v1 := u0+pp, v0+pp
			sum, covered := 0.0, 0.0
			for y := range h {
				oy := math.Min(v1, float64(y+1)) - math.Max(v0, float64(y))
				if oy <= 0 {
					continue
				}
				for x := range w {
					ox := math.Min(u1, float64(x+1)) - math.Max(u0, float64(x))
					if ox <= 0 {
						continue
					}
					sum += ox * oy * float64(img.GrayAt(b.Min.X+x, b.Min.Y+y).Y) / 255
					covered += ox * oy
				}
			}
			out[row*Cols+col] = (sum + p.Surround*(pp*pp-covered)) / (pp * pp)
		}
	}
	return out
}

func TestAreaAverageExact(t *testing.T) {
	tests := []struct {
		name string
		img  *image.Gray
		p    Params
	}{
		{"20x20 identity", randomGray(1, 20, 20), idealWith(nil)},
		{"40x40 2x2 blocks", randomGray(2, 40, 40), idealWith(nil)},
		{"60x60 3x3 blocks", randomGray(3, 60, 60), idealWith(nil)},
		{"28x28 fractional", randomGray(4, 28, 28), idealWith(nil)},
		{"30x30 fractional", randomGray(5, 30, 30), idealWith(nil)},
		{"7x5 small, wide", randomGray(6, 7, 5), idealWith(nil)},
		{"33x50 tall", randomGray(7, 33, 50), idealWith(nil)},
		{"half size", randomGray(8, 40, 40), idealWith(func(p *Params) { p.Scale = 0.5 })},
		{"double size", randomGray(9, 40, 40), idealWith(func(p *Params) { p.Scale = 2 })},
		{"shifted", randomGray(10, 28, 28), idealWith(func(p *Params) { p.OffsetX, p.OffsetY = 2.5, -1.25 })},
		{"grey surround, shrunk", randomGray(11, 25, 31), idealWith(func(p *Params) { p.Surround, p.Scale = 0.3, 0.7 })},
		{"off the field", randomGray(12, 20, 20), idealWith(func(p *Params) { p.OffsetX = 40 })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRetina(t, tc.p, 1)
			var s Stimulus
			r.Prepare(tc.img, &s)
			want := refMeans(tc.img, tc.p)
			for i := range N {
				if math.Abs(float64(s.Light[i])-want[i]) > 1e-6 {
					t.Fatalf("cell %d (row %d col %d): light %v, want %v", i, i/Cols, i%Cols, s.Light[i], want[i])
				}
				if s.G[i] != s.Light[i] {
					t.Fatalf("ideal cell %d: G %v != Light %v", i, s.G[i], s.Light[i])
				}
			}
		})
	}
}

// TestBlockMeansBitExact checks that cells made of whole pixels get exactly the float64 block
// mean: the ideal retina must agree with a plain threshold of the block means even at ties.
func TestBlockMeansBitExact(t *testing.T) {
	for _, k := range []int{1, 2, 3} {
		img := randomGray(uint64(20+k), 20*k, 20*k)
		r := newRetina(t, IdealParams(), 1)
		var s Stimulus
		r.Prepare(img, &s)
		for i := range N {
			sum := 0
			for y := range k {
				for x := range k {
					sum += int(img.GrayAt((i%Cols)*k+x, (i/Cols)*k+y).Y)
				}
			}
			want := float32(float64(sum) / float64(255*k*k))
			if s.Light[i] != want {
				t.Fatalf("k=%d cell %d: light %v, want exactly %v", k, i, s.Light[i], want)
			}
		}
	}
	// A 2x2 block of two black and two white pixels averages to exactly one half: off.
	img := grayImage(0, 0, 40, 40, func(x, _ int) uint8 { return uint8(255 * (x % 2)) })
	r := newRetina(t, IdealParams(), 1)
	var s Stimulus
	var out Bits
	r.Prepare(img, &s)
	r.Expose(&s, 3, nil, &out)
	if s.Light[0] != 0.5 || out.Count() != 0 {
		t.Fatalf("half-grey blocks: light %v, %d cells on; want 0.5 and none", s.Light[0], out.Count())
	}
}

func TestPlacementAndSurround(t *testing.T) {
	black := func(w, h int) *image.Gray { return grayImage(0, 0, w, h, func(int, int) uint8 { return 0 }) }
	tests := []struct {
		name     string
		img      image.Image
		p        Params
		inside   func(row, col int) bool // cells showing the card
		surround float32
	}{
		{"wide card centred vertically", black(40, 20), idealWith(nil),
			func(row, _ int) bool { return row >= 5 && row < 15 }, 1},
		{"tall card centred horizontally", black(20, 40), idealWith(nil),
			func(_, col int) bool { return col >= 5 && col < 15 }, 1},
		{"grey surround", black(30, 12), idealWith(func(p *Params) { p.Surround = 0.25 }),
			func(row, _ int) bool { return row >= 6 && row < 14 }, 0.25},
		{"half scale", black(10, 10), idealWith(func(p *Params) { p.Scale = 0.5 }),
			func(row, col int) bool { return row >= 5 && row < 15 && col >= 5 && col < 15 }, 1},
		{"shifted right and up", black(10, 10), idealWith(func(p *Params) { p.Scale, p.OffsetX, p.OffsetY = 0.5, 3, -2 }),
			func(row, col int) bool { return row >= 3 && row < 13 && col >= 8 && col < 18 }, 1},
		{"bounds not at origin", grayImage(-13, 71, 40, 20, func(int, int) uint8 { return 0 }), idealWith(nil),
			func(row, _ int) bool { return row >= 5 && row < 15 }, 1},
		{"empty image", image.NewGray(image.Rect(5, 5, 5, 9)), idealWith(func(p *Params) { p.Surround = 0.6 }),
			func(int, int) bool { return false }, 0.6},
		{"nil image", nil, idealWith(nil), func(int, int) bool { return false }, 1},
		{"analog empty image", image.NewGray(image.Rectangle{}), func() Params {
			p := DefaultParams()
			p.Surround, p.Lamp = 0.5, 1.5
			return p
		}(), func(int, int) bool { return false }, 0.75},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRetina(t, tc.p, 1)
			var s Stimulus
			r.Prepare(tc.img, &s)
			for i := range N {
				want := tc.surround
				if tc.inside(i/Cols, i%Cols) {
					want = 0
				}
				if math.Abs(float64(s.Light[i]-want)) > 1e-6 {
					t.Fatalf("row %d col %d: light %v, want %v", i/Cols, i%Cols, s.Light[i], want)
				}
			}
		})
	}
}

func TestColourAndAlpha(t *testing.T) {
	opaque := image.NewRGBA(image.Rect(0, 0, 20, 20))
	clear := image.NewNRGBA(image.Rect(0, 0, 20, 20))
	half := image.NewNRGBA(image.Rect(0, 0, 20, 20))
	paletted := image.NewPaletted(image.Rect(0, 0, 20, 20), color.Palette{color.RGBA{R: 200, G: 30, B: 90, A: 255}})
	for y := range 20 {
		for x := range 20 {
			opaque.Set(x, y, color.RGBA{R: 200, G: 30, B: 90, A: 255})
			clear.Set(x, y, color.NRGBA{})
			half.Set(x, y, color.NRGBA{A: 128}) // black at half opacity
		}
	}
	y16 := float64(color.Gray16Model.Convert(color.RGBA{R: 200, G: 30, B: 90, A: 255}).(color.Gray16).Y) / 65535
	tests := []struct {
		name     string
		img      image.Image
		surround float64
		want     float64
	}{
		{"RGBA uses Rec. 601 luminance", opaque, 1, y16},
		{"paletted through RGBA64At", paletted, 1, y16},
		{"transparent shows the surround", clear, 0.4, 0.4},
		{"half-transparent black over white", half, 1, 1 - 128.0/255},
		{"half-transparent black over black", half, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRetina(t, idealWith(func(p *Params) { p.Surround = tc.surround }), 1)
			var s Stimulus
			r.Prepare(tc.img, &s)
			for i := range N {
				if math.Abs(float64(s.Light[i])-tc.want) > 1e-4 {
					t.Fatalf("cell %d: light %v, want %v", i, s.Light[i], tc.want)
				}
			}
		})
	}
}

func TestHugeSyntheticImage(t *testing.T) {
	// image.Uniform has bounds of +-1e9 pixels: it is sampled, not integrated, and must not
	// exhaust memory.
	r := newRetina(t, IdealParams(), 1)
	var s Stimulus
	r.Prepare(image.NewUniform(color.Gray{Y: 51}), &s)
	for i := range N {
		if math.Abs(float64(s.Light[i])-0.2) > 1e-6 {
			t.Fatalf("cell %d: light %v, want 0.2", i, s.Light[i])
		}
	}
}

func TestRotation(t *testing.T) {
	img := randomGray(30, 20, 20)
	r0 := newRetina(t, IdealParams(), 1)
	var s0 Stimulus
	r0.Prepare(img, &s0)
	orig := func(row, col int) float32 { return s0.Light[row*Cols+col] }
	tests := []struct {
		deg  float64
		from func(row, col int) (int, int) // the original cell a rotated cell shows
	}{
		{90, func(r, c int) (int, int) { return 19 - c, r }},
		{-270, func(r, c int) (int, int) { return 19 - c, r }},
		{450, func(r, c int) (int, int) { return 19 - c, r }},
		{180, func(r, c int) (int, int) { return 19 - r, 19 - c }},
		{270, func(r, c int) (int, int) { return c, 19 - r }},
		{-90, func(r, c int) (int, int) { return c, 19 - r }},
		{360, func(r, c int) (int, int) { return r, c }},
	}
	for _, tc := range tests {
		r := newRetina(t, idealWith(func(p *Params) { p.Rotation = tc.deg }), 1)
		var s Stimulus
		r.Prepare(img, &s)
		for i := range N {
			fr, fc := tc.from(i/Cols, i%Cols)
			if math.Abs(float64(s.Light[i]-orig(fr, fc))) > 1e-6 {
				t.Fatalf("rotation %v: cell (%d,%d) light %v, want original (%d,%d) %v",
					tc.deg, i/Cols, i%Cols, s.Light[i], fr, fc, orig(fr, fc))
			}
		}
	}

	// The card turns about its own centre; the offsets then move it along the field's axes.
	// A 10x10 card at half size, shifted by (3, -2), has its centre at field point (13, 8).
	small := randomGray(31, 10, 10)
	shifted := func(deg float64) *Stimulus {
		r := newRetina(t, idealWith(func(p *Params) { p.Scale, p.OffsetX, p.OffsetY, p.Rotation = 0.5, 3, -2, deg }), 1)
		s := new(Stimulus)
		r.Prepare(small, s)
		return s
	}
	flat, turned := shifted(0), shifted(90)
	for i := range N {
		row, col := i/Cols, i%Cols
		fr, fc := 20-col, row+5 // about (13, 8)
		want := float32(1)
		if fr >= 0 && fr < Rows && fc >= 0 && fc < Cols {
			want = flat.Light[fr*Cols+fc]
		}
		if math.Abs(float64(turned.Light[i]-want)) > 1e-6 {
			t.Fatalf("shifted card at 90 degrees: cell (%d,%d) light %v, want %v", row, col, turned.Light[i], want)
		}
	}

	// Defocus is isotropic: blurring then turning by 90 degrees is turning then blurring.
	blurred := func(deg float64) *Stimulus {
		p := DefaultParams()
		p.Rotation, p.Blur = deg, 0.8
		r := newRetina(t, p, 1)
		s := new(Stimulus)
		r.Prepare(img, s)
		return s
	}
	b0, b90 := blurred(0), blurred(90)
	for i := range N {
		row, col := i/Cols, i%Cols
		if math.Abs(float64(b90.Light[i]-b0.Light[(19-col)*Cols+row])) > 1e-5 {
			t.Fatalf("blurred, 90 degrees: cell (%d,%d) light %v, want %v", row, col, b90.Light[i], b0.Light[(19-col)*Cols+row])
		}
	}

	// Clockwise: a bar along the top of the field ends up along its right side at 90 degrees.
	bar := grayImage(0, 0, 20, 20, func(_, y int) uint8 {
		if y < 3 {
			return 0
		}
		return 255
	})
	r := newRetina(t, idealWith(func(p *Params) { p.Rotation = 90 }), 1)
	var s Stimulus
	var out Bits
	r.Prepare(bar, &s)
	r.Expose(&s, 3, nil, &out)
	for i := range N {
		if want := i%Cols >= 17; out.Get(i) != want {
			t.Fatalf("90 degrees: cell (%d,%d) on=%v, want %v", i/Cols, i%Cols, out.Get(i), want)
		}
	}

	// Any angle keeps a figure's dark area when it stays on the field.
	square := grayImage(0, 0, 40, 40, func(x, y int) uint8 {
		if x >= 12 && x < 28 && y >= 16 && y < 24 {
			return 0
		}
		return 255
	})
	for _, deg := range []float64{0, 17, 45, 100} {
		r := newRetina(t, idealWith(func(p *Params) { p.Rotation = deg }), 1)
		var s Stimulus
		r.Prepare(square, &s)
		dark := 0.0
		for _, l := range s.Light {
			dark += 1 - float64(l)
		}
		if math.Abs(dark-32) > 0.5 {
			t.Errorf("rotation %v: dark area %.3f cells, want 32", deg, dark)
		}
	}
}

func TestBlur(t *testing.T) {
	spot := grayImage(0, 0, 20, 20, func(x, y int) uint8 {
		if x == 10 && y == 10 {
			return 0
		}
		return 255
	})
	centre, right, diag, far := 10*Cols+10, 10*Cols+11, 11*Cols+11, 0
	tests := []struct {
		blur float64
	}{{0}, {0.35}, {0.7}, {1.5}}
	prevCentre := float32(-1)
	for _, tc := range tests {
		p := DefaultParams()
		p.Blur, p.Spread = tc.blur, 0
		r := newRetina(t, p, 1)
		var s Stimulus
		r.Prepare(spot, &s)
		dark := 0.0
		for _, l := range s.Light {
			dark += 1 - float64(l)
		}
		if math.Abs(dark-1) > 0.01 {
			t.Errorf("blur %v: total darkness %.4f, want 1 (conserved)", tc.blur, dark)
		}
		if s.Light[far] != 1 {
			t.Errorf("blur %v: far corner light %v, want 1", tc.blur, s.Light[far])
		}
		if tc.blur == 0 {
			if s.Light[centre] != 0 || s.Light[right] != 1 {
				t.Errorf("no blur: centre %v right %v, want 0 and 1", s.Light[centre], s.Light[right])
			}
		} else {
			if !(s.Light[centre] > prevCentre) {
				t.Errorf("blur %v: centre light %v, want more than at less blur (%v)", tc.blur, s.Light[centre], prevCentre)
			}
			if !(s.Light[right] < 1) || !(s.Light[diag] < 1) || !(s.Light[diag] > s.Light[right]) {
				t.Errorf("blur %v: neighbour %v, diagonal %v: want both below 1, diagonal brighter", tc.blur, s.Light[right], s.Light[diag])
			}
		}
		prevCentre = s.Light[centre]
	}
}

func TestLampAndGamma(t *testing.T) {
	grey := grayImage(0, 0, 20, 20, func(int, int) uint8 { return 102 }) // 0.4
	tests := []struct {
		lamp, gamma float64
		wantOn      bool
	}{
		{1, 1, true},    // 0.4 < 0.5
		{1.5, 1, false}, // 0.6 > 0.5
		{1, 0.8, true},  // 0.4^0.8 < 0.5^0.8
		{1.2, 0.8, false},
		{0, 0.8, true}, // lamps off: everything dark
	}
	for _, tc := range tests {
		p := DefaultParams()
		p.Lamp, p.Gamma, p.Spread, p.DarkNoise, p.Blur = tc.lamp, tc.gamma, 0, 0, 0
		p.Polarity = DarkFigure // a grey card: AutoPolarity would call it a light figure
		r := newRetina(t, p, 1)
		var s Stimulus
		var out Bits
		r.Prepare(grey, &s)
		wantL := tc.lamp * 0.4
		if math.Abs(float64(s.Light[0])-wantL) > 1e-6 || math.Abs(float64(s.G[0])-math.Pow(wantL, tc.gamma)) > 1e-6 {
			t.Errorf("lamp %v gamma %v: light %v G %v, want %v and %v", tc.lamp, tc.gamma, s.Light[0], s.G[0], wantL, math.Pow(wantL, tc.gamma))
		}
		r.Expose(&s, 30, nil, &out)
		if want := map[bool]int{true: N, false: 0}[tc.wantOn]; out.Count() != want {
			t.Errorf("lamp %v gamma %v: %d cells on, want %d", tc.lamp, tc.gamma, out.Count(), want)
		}
	}
}

// glNodes returns the Gauss-Legendre nodes and weights of order n on [-1, 1].
func glNodes(n int) (x, w []float64) {
	x, w = make([]float64, n), make([]float64, n)
	for i := range n {
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		for range 100 {
			p1, p2 := 1.0, 0.0
			for j := 1; j <= n; j++ {
				p1, p2 = ((2*float64(j)-1)*z*p1-(float64(j)-1)*p2)/float64(j), p1
			}
			dp := float64(n) * (z*p1 - p2) / (z*z - 1)
			z0 := z
			z -= p1 / dp
			if math.Abs(z-z0) < 1e-16 {
				x[i], w[i] = z, 2/((1-z*z)*dp*dp)
				break
			}
		}
	}
	return x, w
}

// refAxis integrates, by Gauss-Legendre quadrature over 64 panels, the light a cell [lo, hi]
// receives from each of n pixels (and from outside them) under a Gaussian blur of sigma s
// pixels: the mean over the cell of Phi((p1-x)/s) - Phi((p0-x)/s). It shares no code with the
// closed forms of axis.build.
func refAxis(lo, hi, s float64, n int) (w []float64, out float64) {
	phi := func(t float64) float64 { return 0.5 * math.Erfc(-t/math.Sqrt2) }
	gx, gw := glNodes(24)
	w = make([]float64, n)
	const panels = 64
	for q := range panels {
		a, b := lo+(hi-lo)*float64(q)/panels, lo+(hi-lo)*float64(q+1)/panels
		for k := range gx {
			x := (a+b)/2 + (b-a)/2*gx[k]
			wt := (b - a) / 2 * gw[k] / (hi - lo)
			out += wt * (phi(-x/s) + phi((x-float64(n))/s))
			for p := range n {
				w[p] += wt * (phi((float64(p+1)-x)/s) - phi((float64(p)-x)/s))
			}
		}
	}
	return w, out
}

// refBlurred computes each cell's mean light of a blurred, unrotated card by quadrature.
func refBlurred(img *image.Gray, p Params) [N]float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	pp := float64(max(w, h)) / (Cols * p.Scale)
	s := p.Blur * pp
	var wx, wy [Cols][]float64
	var ox, oy [Cols]float64
	for k := range Cols {
		lo := float64(w)/2 + pp*(float64(k)-10-p.OffsetX)
		wx[k], ox[k] = refAxis(lo, lo+pp, s, w)
		lo = float64(h)/2 + pp*(float64(k)-10-p.OffsetY)
		wy[k], oy[k] = refAxis(lo, lo+pp, s, h)
	}
	var out [N]float64
	for row := range Rows {
		for col := range Cols {
			sum, inx, iny := 0.0, 1-ox[col], 1-oy[row]
			for y := range h {
				for x := range w {
					sum += wy[row][y] * wx[col][x] * float64(img.GrayAt(b.Min.X+x, b.Min.Y+y).Y) / 255
				}
			}
			out[row*Cols+col] = sum + p.Surround*(1-inx*iny)
		}
	}
	return out
}

// TestBlurExact checks the closed-form blurred cell means against quadrature, to 1e-11 (the
// weights leave out less than 2^-40 of a cell's light on each side).
func TestBlurExact(t *testing.T) {
	tests := []struct {
		name string
		img  *image.Gray
		f    func(*Params)
	}{
		{"28x28 default blur", randomGray(1, 28, 28), nil},
		{"13x9 off the origin, wide blur", grayImage(-7, 30, 13, 9, func(x, y int) uint8 { return uint8(x*19 + y*7) }),
			func(p *Params) { p.Blur = 1.7 }},
		{"shrunk and shifted, grey surround", randomGray(2, 20, 31), func(p *Params) {
			p.Scale, p.OffsetX, p.OffsetY, p.Surround, p.Blur = 0.6, 3.3, -4.1, 0.3, 0.5
		}},
		{"enlarged, slight blur", randomGray(3, 10, 10), func(p *Params) { p.Scale, p.Blur = 2.5, 0.05 }},
		{"single pixel", randomGray(4, 1, 1), func(p *Params) { p.Blur = 2 }},
		{"far off the field", randomGray(5, 8, 8), func(p *Params) { p.OffsetX, p.Surround = 40, 0.7 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			p.Polarity = DarkFigure
			if tc.f != nil {
				tc.f(&p)
			}
			r := newRetina(t, p, 1)
			var got [N]float64
			r.project(tc.img, &got)
			want := refBlurred(tc.img, p)
			for i := range N {
				if math.Abs(got[i]-want[i]) > 1e-11 {
					t.Fatalf("cell %d (row %d col %d): mean %.15g, quadrature %.15g", i, i/Cols, i%Cols, got[i], want[i])
				}
			}
		})
	}
}

// TestFocalAgreesWithSeparable checks the rotated-card path (focal plane) against the
// separable path on unrotated cards: exactly (to rounding) without blur, where every sub-cell
// is an exact mean; with blur to the plane's resolution.
func TestFocalAgreesWithSeparable(t *testing.T) {
	for _, blur := range []float64{0, 0.35, 1} {
		for _, img := range []*image.Gray{randomGray(1, 28, 28), randomGray(2, 60, 60), letterCards()[0].(*image.Gray)} {
			p := DefaultParams()
			p.Blur, p.Polarity = blur, DarkFigure
			r := newRetina(t, p, 1)
			var sep, foc [N]float64
			r.project(img, &sep)
			src := newSource(img, p.Surround)
			r.focal(&src, p.Surround, &foc)
			tol := 1e-12
			if blur > 0 {
				// The plane holds the card at a quarter cell: random pixels are its worst case.
				tol = 0.02
			}
			worst := 0.0
			for i := range N {
				worst = max(worst, math.Abs(sep[i]-foc[i]))
				if math.Abs(sep[i]-foc[i]) > tol {
					t.Fatalf("blur %v, %v: cell %d separable %v, focal plane %v", blur, img.Bounds(), i, sep[i], foc[i])
				}
			}
			t.Logf("blur %v, %v: largest difference %.3g", blur, img.Bounds(), worst)
		}
	}
}

// TestIdealNeverNegative is the regression test of the ideal level that SetState refused
// (-9.06e-16 from a summed-area table): ideal light on black regions is exactly 0, at every
// image size and placement.
func TestIdealNeverNegative(t *testing.T) {
	for _, n := range []int{28, 64, 8, 57} {
		img := grayImage(0, 0, n, n, func(x, y int) uint8 {
			if x > n/3 && x < n/2 && y > n/4 {
				return 255
			}
			return 0
		})
		for _, rot := range []float64{0, 90, 13} {
			p := idealWith(func(p *Params) { p.Rotation, p.OffsetX, p.Scale = rot, 0.37, 1.1 })
			p.Surround = 0
			r := newRetina(t, p, 1)
			var s Stimulus
			r.Prepare(img, &s)
			var out Bits
			r.Expose(&s, 3, nil, &out)
			zero := 0
			for i, l := range s.Light {
				if !(l >= 0) {
					t.Fatalf("%dx%d rotation %v: cell %d light %v", n, n, rot, i, l)
				}
				if l == 0 {
					zero++
				}
			}
			if zero == 0 {
				t.Fatalf("%dx%d rotation %v: no cell exactly black", n, n, rot)
			}
			if err := newRetina(t, p, 2).SetState(r.State()); err != nil {
				t.Fatalf("%dx%d rotation %v: %v", n, n, rot, err)
			}
		}
	}
}

func TestPower(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, gamma := range []float64{0.01, 0.5, 0.8, 1, 1.5, 2.2, 7, 10} {
		var p power
		p.init(gamma)
		worst := 0.0
		for k := range 20000 {
			x := rng.Float64() * 1000
			switch k % 4 {
			case 1:
				x = rng.Float64()
			case 2:
				x = math.Exp(-rng.Float64() * 60) // down to 1e-26
			case 3:
				x = math.Exp(-rng.Float64() * 745) // below the tables, down to subnormals
			}
			want := math.Pow(x, gamma)
			if x < 0x1p-1000 {
				// math.Pow is inaccurate for subnormal x (Pow(5e-324, 0.8) = 1.9e-262, not
				// 2.26e-259): scale first.
				want = math.Pow(x*0x1p200, gamma) * math.Pow(0x1p-200, gamma)
			}
			got := p.eval(x)
			if want > 0 {
				e := math.Abs(got-want) / want
				if x < 0x1p-64 {
					e /= 10 // each exact rescaling by 2^64 adds a rounding: 1e-13 allowed
				}
				worst = max(worst, e)
			} else if got != 0 {
				t.Fatalf("gamma %v: %v^gamma = %v, want %v", gamma, x, got, want)
			}
		}
		if worst > 1e-14 {
			t.Errorf("gamma %v: relative error %.3g, want below 1e-14", gamma, worst)
		}
		if p.eval(0) != 0 || p.eval(-1) != 0 || p.eval(1) != 1 {
			t.Errorf("gamma %v: 0, -1, 1 give %v, %v, %v", gamma, p.eval(0), p.eval(-1), p.eval(1))
		}
		if gamma == 1 {
			for range 100 {
				if x := rng.Float64() * 3; p.eval(x) != x {
					t.Fatalf("gamma 1: %v^1 = %v", x, p.eval(x))
				}
			}
		}
	}
}

// bigGray is a w x h gray image built without storing its pixels: a dark bar on white.
type bigGray struct{ w, h int }

func (b bigGray) ColorModel() color.Model { return color.GrayModel }
func (b bigGray) Bounds() image.Rectangle { return image.Rect(0, 0, b.w, b.h) }
func (b bigGray) At(x, y int) color.Color {
	if x >= b.w/4 && x < b.w/2 {
		return color.Gray{}
	}
	return color.Gray{Y: 255}
}

// TestLargeImages checks that images up to the loaders' limits (16384 pixels per side,
// 4096x4096 pixels) are integrated exactly with bounded memory, and that larger synthetic ones
// are sampled.
func TestLargeImages(t *testing.T) {
	if testing.Short() {
		t.Skip("large images")
	}
	tests := []struct {
		name string
		img  image.Image
		rot  float64
	}{
		{"4096x4096 gray", grayImage(0, 0, 4096, 4096, func(x, _ int) uint8 { return uint8(255 * (x / 1024 % 2)) }), 0},
		{"16384x1000, quarter turn", bigGray{16384, 1000}, 90},
		{"4096x4096 rotated", bigGray{4096, 4096}, 30},
		{"1e6 x 3, sampled", bigGray{1000000, 3}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := idealWith(func(p *Params) { p.Rotation = tc.rot })
			r := newRetina(t, p, 1)
			var s Stimulus
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r.Prepare(tc.img, &s)
			runtime.ReadMemStats(&after)
			if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 200 {
				t.Errorf("Prepare allocated %.0f MB", mb)
			}
			b := tc.img.Bounds()
			pp := float64(max(b.Dx(), b.Dy())) / Cols
			for i := range N {
				row, col := i/Cols, i%Cols
				if tc.rot != 0 {
					continue
				}
				// Each cell's share of the dark part, in image columns.
				x0, x1 := float64(b.Dx())/2+pp*(float64(col)-10), float64(b.Dx())/2+pp*(float64(col)-9)
				y0, y1 := float64(b.Dy())/2+pp*(float64(row)-10), float64(b.Dy())/2+pp*(float64(row)-9)
				ink := 0.0
				if g, ok := tc.img.(*image.Gray); ok {
					for k := 0; k < 4; k += 2 { // dark stripes [0,1024) and [2048,3072)
						ink += max(0, min(x1, float64(k+1)*1024)-max(x0, float64(k)*1024))
					}
					_ = g
				} else {
					ink = max(0, min(x1, float64(b.Dx()/2))-max(x0, float64(b.Dx()/4)))
				}
				cover := max(0, min(y1, float64(b.Dy()))-max(y0, 0)) / (y1 - y0)
				want := 1 - cover*ink/(x1-x0)
				tol := 1e-9
				if b.Dx() > 16384 {
					tol = 1e-4 // sampled
				}
				if math.Abs(float64(s.Light[i])-want) > tol+6e-8 {
					t.Fatalf("cell (%d,%d): light %v, want %v", row, col, s.Light[i], want)
				}
			}
			checkStimulus(t, r, &s, tc.name)
		})
	}
}

// TestWeightCache prepares cards of more sizes than the retina keeps weights for, in turns, and
// checks each against a fresh retina.
func TestWeightCache(t *testing.T) {
	sizes := [][2]int{{28, 28}, {60, 60}, {8, 8}, {31, 17}, {1, 5}, {28, 28}, {100, 3}, {60, 60}, {28, 28}, {9, 40}}
	for _, p := range []Params{DefaultParams(), IdealParams(), idealWith(func(p *Params) { p.Rotation = 270 })} {
		r := newRetina(t, p, 1)
		for round := range 3 {
			for k, sz := range sizes {
				img := randomGray(uint64(k+10*round), sz[0], sz[1])
				got := prepare(r, img)
				want := prepare(newRetina(t, p, 1), img)
				if got.Light != want.Light || got.G != want.G {
					t.Fatalf("%+v: round %d, %dx%d: the kept weights give another stimulus than a fresh retina", p, round, sz[0], sz[1])
				}
			}
		}
		if len(r.cache) > cachedSizes {
			t.Fatalf("%d sizes kept, want at most %d", len(r.cache), cachedSizes)
		}
	}
}
