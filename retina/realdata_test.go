package retina

import (
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// readIDX reads a gzipped IDX file of unsigned-byte images (magic 0x00000803) as *image.Gray,
// at most max images (0: all).
func readIDX(t testing.TB, name string, max int) []*image.Gray {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var hdr [16]byte
	if _, err := io.ReadFull(z, hdr[:]); err != nil {
		t.Fatal(err)
	}
	if m := binary.BigEndian.Uint32(hdr[:]); m != 0x803 {
		t.Fatalf("%s: magic %#x, want 0x803", name, m)
	}
	n := int(binary.BigEndian.Uint32(hdr[4:]))
	h, w := int(binary.BigEndian.Uint32(hdr[8:])), int(binary.BigEndian.Uint32(hdr[12:]))
	if max > 0 {
		n = min(n, max)
	}
	out := make([]*image.Gray, n)
	for i := range out {
		out[i] = image.NewGray(image.Rect(0, 0, w, h))
		if _, err := io.ReadFull(z, out[i].Pix); err != nil {
			t.Fatalf("%s: image %d: %v", name, i, err)
		}
	}
	return out
}

// readPNGs decodes every PNG under dir (one sub-folder per class), in path order.
func readPNGs(t testing.TB, dir string) []image.Image {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.png"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no PNG files under %s (%v)", dir, err)
	}
	sort.Strings(paths)
	var out []image.Image
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, img)
	}
	return out
}

var (
	realOnce  sync.Once
	realDeck  []image.Image
	realNames []string
)

// realCards returns real handwritten digits, white on black: the 600 MNIST training digits
// (28x28, IDX), the 200 MNIST PNG files, and the first 400 UCI optdigits (8x8, IDX).
func realCards(t testing.TB) []image.Image {
	t.Helper()
	realOnce.Do(func() {
		for _, g := range readIDX(t, "../testdata/mnist/train-images.idx.gz", 0) {
			realDeck = append(realDeck, g)
			realNames = append(realNames, "mnist-idx")
		}
		for _, img := range readPNGs(t, "../testdata/mnist/png") {
			realDeck = append(realDeck, img)
			realNames = append(realNames, "mnist-png")
		}
		for _, g := range readIDX(t, "../testdata/optdigits/digits-images.idx.gz", 400) {
			realDeck = append(realDeck, g)
			realNames = append(realNames, "optdigits")
		}
	})
	if len(realDeck) == 0 {
		t.Fatal("no real cards")
	}
	return realDeck[:len(realDeck):len(realDeck)] // appending copies
}

// checkStimulus fails when a value of s is not finite or outside its physical range for r.
func checkStimulus(t testing.TB, r *Retina, s *Stimulus, what string) {
	t.Helper()
	p := r.Params()
	for i := range N {
		l, g := float64(s.Light[i]), float64(s.G[i])
		top, gtop := p.Lamp, r.gmax[i]
		if p.Ideal {
			top, gtop = 1, 1
		}
		if !(l >= 0 && l <= top) {
			t.Fatalf("%s: cell %d: light %v, want 0..%v", what, i, l, top)
		}
		if !(g >= 0 && g <= gtop) {
			t.Fatalf("%s: cell %d: G %v, want 0..%v", what, i, g, gtop)
		}
		if p.Ideal && g != l {
			t.Fatalf("%s: ideal cell %d: G %v != light %v", what, i, g, l)
		}
	}
	if pol := s.Polarity(); pol != DarkFigure && pol != LightFigure {
		t.Fatalf("%s: polarity %v", what, pol)
	}
}

// checkLevels fails when a level of r is not finite or outside [0, sensitivity*Lamp^Gamma]
// (ideal: [0, 1]), through both Levels and State.
func checkLevels(t testing.TB, r *Retina, what string) {
	t.Helper()
	lv := make([]float32, N)
	r.Levels(lv)
	st := r.State()
	for i := range N {
		top := r.gmax[i]
		if r.p.Ideal {
			top = 1
		}
		if v := float64(lv[i]); !(v >= 0 && v <= top) {
			t.Fatalf("%s: cell %d: Levels %v, want 0..%v", what, i, v, top)
		}
		if v := st.Level[i]; !(v >= 0 && v <= top) {
			t.Fatalf("%s: cell %d: State level %v, want 0..%v", what, i, v, top)
		}
	}
}

// TestGmax checks the bound the range checks use: sensitivity * Lamp^Gamma.
func TestGmax(t *testing.T) {
	for _, lamp := range []float64{0, 0.3, 1, 1.7, 1000} {
		for _, gamma := range []float64{0.1, 0.8, 1, 2.5, 10} {
			p := DefaultParams()
			p.Lamp, p.Gamma, p.Spread = lamp, gamma, 0.3
			r := newRetina(t, p, 3)
			for i := range N {
				want := r.sens[i] * math.Pow(lamp, gamma)
				if math.Abs(r.gmax[i]-want) > 1e-13*want {
					t.Fatalf("lamp %v gamma %v: gmax %v, want %v", lamp, gamma, r.gmax[i], want)
				}
			}
		}
	}
}

// TestRealDigitsInRange presents the real digits many times with every analog effect on (and
// in the ideal retina), and checks every light, target and level for NaN and range, and that
// State/SetState round-trips every state written on the way.
func TestRealDigitsInRange(t *testing.T) {
	cards := realCards(t)
	variants := []struct {
		name string
		f    func(*Params)
	}{
		{"default", nil},
		{"ideal", func(p *Params) { *p = IdealParams() }},
		{"dark polarity", func(p *Params) { p.Polarity = DarkFigure }},
		{"light polarity", func(p *Params) { p.Polarity = LightFigure }},
		{"strong flaws", func(p *Params) {
			p.Blur, p.Gamma, p.Spread, p.DarkNoise, p.Lamp = 1.5, 0.4, 0.3, 0.05, 1.4
			p.RiseTau, p.DecayTau = 0.5, 2
		}},
		{"rotated, shifted, scaled", func(p *Params) { p.Rotation, p.OffsetX, p.Scale = 23, 2.5, 0.8 }},
		{"quarter turn, grey surround", func(p *Params) { p.Rotation, p.Surround = 270, 0.3 }},
		{"ideal, rotated", func(p *Params) { *p = IdealParams(); p.Rotation = 41 }},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			p := DefaultParams()
			if v.f != nil {
				v.f(&p)
			}
			r := newRetina(t, p, 1)
			stim := make([]Stimulus, len(cards))
			for k, img := range cards {
				r.Prepare(img, &stim[k])
				checkStimulus(t, r, &stim[k], realNames[k])
			}
			noise := rand.New(rand.NewPCG(2, 3))
			var out Bits
			dts := []float64{3, 0.05, 0.4, 3, 0, 1.2}
			for pass := range 3 {
				for k := range stim {
					r.Expose(&stim[k], dts[(k+pass)%len(dts)], noise, &out)
				}
				checkLevels(t, r, "after presenting the digits")
				// Every state written is read back.
				st := r.State()
				data, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				var back State
				if err := json.Unmarshal(data, &back); err != nil {
					t.Fatal(err)
				}
				q := newRetina(t, p, 99)
				if err := q.SetState(back); err != nil {
					t.Fatalf("pass %d: SetState refuses what State wrote: %v", pass, err)
				}
				if got := q.State(); !equalFloats(got.Level, st.Level) || !equalFloats(got.Sensitivity, st.Sensitivity) {
					t.Fatalf("pass %d: state changed in the round trip", pass)
				}
			}
		})
	}
}

// TestAutoPolarityOnDigits checks that AutoPolarity sees the white-on-black digits as light
// figures: about as many S-units on as the digit's ink covers, not nearly all of them.
func TestAutoPolarityOnDigits(t *testing.T) {
	cards := realCards(t)
	for _, ideal := range []bool{true, false} {
		p := DefaultParams()
		if ideal {
			p = IdealParams()
		}
		r := newRetina(t, p, 1)
		total := 0
		for k, img := range cards {
			var s Stimulus
			var out Bits
			r.Prepare(img, &s)
			if s.Polarity() != LightFigure {
				t.Fatalf("ideal=%v %s card %d: polarity %v, want light", ideal, realNames[k], k, s.Polarity())
			}
			r.Expose(&s, 3, nil, &out)
			total += out.Count()
		}
		mean := float64(total) / float64(len(cards)) / N
		if mean < 0.08 || mean > 0.4 {
			t.Errorf("ideal=%v: %.1f%% of the S-units on over the digits, want the ink's share (8-40%%)", ideal, 100*mean)
		}
	}
}

// TestNeutralIsIdeal checks that the analog retina with every flaw neutral gives exactly the
// ideal retina's S-states on real cards, for several placements and polarities.
func TestNeutralIsIdeal(t *testing.T) {
	cards := realCards(t)
	cards = append(cards[:0:0], cards...)
	cards = append(cards, letterCards()...)
	placements := []struct {
		name string
		f    func(*Params)
	}{
		{"default", nil},
		{"shifted and scaled", func(p *Params) { p.OffsetX, p.OffsetY, p.Scale = 1.3, -2.7, 0.77 }},
		{"quarter turn", func(p *Params) { p.Rotation = 90 }},
		{"rotated", func(p *Params) { p.Rotation = -33 }},
		{"dark polarity, grey surround", func(p *Params) { p.Polarity, p.Surround = DarkFigure, 0.4 }},
		{"light polarity", func(p *Params) { p.Polarity = LightFigure }},
	}
	for _, pl := range placements {
		t.Run(pl.name, func(t *testing.T) {
			pi, pn := IdealParams(), NeutralParams()
			if pl.f != nil {
				pl.f(&pi)
				pl.f(&pn)
			}
			ri, rn := newRetina(t, pi, 1), newRetina(t, pn, 1)
			noise := rand.New(rand.NewPCG(1, 1))
			for k, img := range cards {
				var si, sn Stimulus
				ri.Prepare(img, &si)
				rn.Prepare(img, &sn)
				var bi, bn Bits
				ri.Expose(&si, 3, noise, &bi)
				rn.Expose(&sn, 3, noise, &bn)
				if bi != bn {
					t.Fatalf("card %d: neutral and ideal S-states differ", k)
				}
				if si.Light != sn.Light || si.Polarity() != sn.Polarity() {
					t.Fatalf("card %d: neutral and ideal light differ", k)
				}
			}
		})
	}
}
