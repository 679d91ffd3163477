package retina

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// refExpose is the plain statement of Expose in the analog mode, one cell after the other, as
// Expose was written before it drew the noise in a second pass: the S-states, the levels and
// the noise draws of Expose must be exactly these.
func refExpose(r *Retina, s *Stimulus, dt float64, noise *rand.Rand, out *Bits) {
	if !(dt > 0) {
		dt = 0
	}
	latch := min(r.p.Latch, dt)
	light := r.polarity(s) == LightFigure
	*out = Bits{}
	for i := range N {
		g, c := float64(s.G[i]), r.level[i]
		d := c - g
		tau := r.p.DecayTau
		if d < 0 || (d == 0 && math.Signbit(d)) {
			tau = r.p.RiseTau
		}
		x := g + float64(d*lagFactor(latch, tau)) - r.thr
		if f := lagFactor(dt, tau); f != 1 {
			r.level[i] = g + float64(d*f)
		}
		if noise != nil && float64(x*x) < r.band*r.band {
			x += float64(r.p.DarkNoise * detmath.Normal(noise))
		}
		if light {
			x = 0 - x
		}
		out.Set(i, math.Signbit(x))
	}
}

func TestExposeMatchesReference(t *testing.T) {
	cards := realCards(t)[:300:300]
	cards = append(cards, letterCards()...)
	// Printed cards on pure white, whose ground cells settle at their largest conductance.
	for k := range 40 {
		cards = append(cards, grayImage(0, 0, 40, 40, func(x, y int) uint8 {
			if (x+k)%13 < 4 || (y*k)%17 < 3 {
				return 0
			}
			return 255
		}))
	}
	for _, tc := range []struct {
		name string
		f    func(*Params)
	}{
		{"default", nil},
		{"dark polarity, strong noise", func(p *Params) { p.Polarity, p.DarkNoise = DarkFigure, 0.05 }},
		{"light polarity, slow cells", func(p *Params) { p.Polarity, p.RiseTau, p.DecayTau = LightFigure, 0.4, 1.5 }},
		{"instant cells", func(p *Params) { p.RiseTau, p.DecayTau = 0, 0 }},
		{"threshold 0", func(p *Params) { p.Threshold, p.Polarity = 0, DarkFigure }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			if tc.f != nil {
				tc.f(&p)
			}
			a, b := newRetina(t, p, 4), newRetina(t, p, 4)
			stim := make([]Stimulus, len(cards))
			for k, img := range cards {
				a.Prepare(img, &stim[k])
			}
			// Some stimuli come from another retina with the same sensitivities.
			other := newRetina(t, p, 4)
			for k := 0; k < len(cards); k += 9 {
				other.Prepare(cards[k], &stim[k])
			}
			na, nb := rand.New(rand.NewPCG(8, 9)), rand.New(rand.NewPCG(8, 9))
			dts := []float64{3, 0.02, 0.7, 0, 3, math.NaN(), 0.31}
			for k := range 3 * len(stim) {
				s := &stim[(k*7)%len(stim)]
				dt := dts[k%len(dts)]
				var x, y Bits
				nx, ny := na, nb
				if k%5 == 4 {
					nx, ny = nil, nil
				}
				a.Expose(s, dt, nx, &x)
				refExpose(b, s, dt, ny, &y)
				if x != y {
					t.Fatalf("presentation %d: S-states differ from the reference", k)
				}
				if !equalFloats(a.level[:], b.level[:]) {
					t.Fatalf("presentation %d: levels differ from the reference", k)
				}
			}
			if na.Uint64() != nb.Uint64() {
				t.Fatal("Expose drew a different number of noise values than the reference")
			}
		})
	}
}

// TestReadersDoNotWrite checks that Levels, State and Params change nothing, in both modes,
// and (with -race) that they may run concurrently with each other.
func TestReadersDoNotWrite(t *testing.T) {
	for _, p := range []Params{DefaultParams(), IdealParams()} {
		r := newRetina(t, p, 1)
		cards := letterCards()
		var s Stimulus
		var out Bits
		r.Prepare(cards[1], &s)
		r.Expose(&s, 3, rand.New(rand.NewPCG(1, 1)), &out)
		before := *r
		lv := make([]float32, N)
		done := make(chan State, 4)
		for range 4 {
			go func() {
				l := make([]float32, N)
				r.Levels(l)
				_ = r.Params()
				done <- r.State()
			}()
		}
		r.Levels(lv)
		st := r.State()
		for range 4 {
			if got := <-done; !equalFloats(got.Level, st.Level) {
				t.Fatal("concurrent readers saw different states")
			}
		}
		after := *r
		if before.shown != after.shown || before.last != after.last || before.level != after.level || before.sens != after.sens {
			t.Fatalf("ideal=%v: a reader changed the retina", p.Ideal)
		}
		for i := range N {
			if lv[i] != float32(st.Level[i]) {
				t.Fatalf("ideal=%v: cell %d: Levels %v, State %v", p.Ideal, i, lv[i], st.Level[i])
			}
		}
		if p.Ideal && lv[0] != s.Light[0] {
			t.Fatalf("ideal: Levels %v, want the last card's light %v", lv[0], s.Light[0])
		}
	}
}
