package retina

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// Expose's loop (exposeLoop: the AVX2 kernel where it runs) gives what the loop in Go gives,
// bit for bit: the new levels, the S-unit states, and the same dark-noise draws in the same
// order (the random stream is left at the same place). Random targets and levels of every
// size, in and out of the noise band, both polarities, with and without noise, a noise band
// holding most cells (a large DarkNoise), and presentation times from none (frozen levels)
// to far past every lag. Each trial draws from its own stream: one can be rerun alone
// (-run 'TestExposeKernelAsGo/trial=17$'). TestKernelPath says which path ran.
func TestExposeKernelAsGo(t *testing.T) {
	for trial := range 400 {
		t.Run(fmt.Sprintf("trial=%d", trial), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, uint64(trial)))
			p := DefaultParams()
			p.DarkNoise = []float64{0, p.DarkNoise, 0.2, 5}[trial%4]
			r := newRetina(t, p, uint64(trial))
			for i := range r.level {
				r.level[i] = math.Ldexp(rng.Float64(), -rng.IntN(8))
			}
			var s Stimulus
			for i := range s.G {
				switch rng.IntN(4) {
				case 0:
					s.G[i] = float32(r.level[i]) // no change: d is 0 or tiny
				default:
					s.G[i] = float32(math.Ldexp(rng.Float64(), -rng.IntN(8)))
				}
			}
			dt := []float64{0, 1e-9, 0.001, 0.05, 0.3, 10}[rng.IntN(6)]
			r.factors(dt)
			fLatch := [2]float64{r.decayL, r.riseL}
			fEnd := [2]float64{r.decEnd, r.riseEnd}
			band2 := r.band * r.band
			light := rng.IntN(2) == 0
			seed := rng.Uint64()
			var noise, noiseGo *rand.Rand
			if rng.IntN(3) > 0 {
				noise, noiseGo = rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 1))
			} else {
				band2 = 0
			}
			g := *r // the same retina for the Go loop
			var out, outGo Bits
			r.exposeLoop(&s, &fLatch, &fEnd, r.thr, band2, p.DarkNoise, light, noise, &out)
			g.exposeGo(&s, &fLatch, &fEnd, g.thr, band2, p.DarkNoise, light, noiseGo, &outGo)
			if out != outGo {
				t.Fatalf("dt %v, light %v: states differ\nkernel %x\nGo     %x", dt, light, out, outGo)
			}
			for i := range r.level {
				if math.Float64bits(r.level[i]) != math.Float64bits(g.level[i]) {
					t.Fatalf("dt %v: cell %d level: kernel %v, Go %v", dt, i, r.level[i], g.level[i])
				}
			}
			if noise != nil && noise.Uint64() != noiseGo.Uint64() {
				t.Fatal("the kernel drew a different number of noise values")
			}
		})
	}
}

// finish's kernel (finishMeans: the AVX2 kernel where it runs) gives what its Go loop gives,
// bit for bit: sums, added light and divisors of every size, means above 1 (held at 1), zero
// and infinite divisors (NaN and infinite means: Go's min keeps a NaN), placed in cell order
// or by a random permutation. Each trial draws from its own stream.
func TestFinishKernelAsGo(t *testing.T) {
	for trial := range 200 {
		t.Run(fmt.Sprintf("trial=%d", trial), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(41, uint64(trial)))
			m, f := randomFinish(rng, trial%2 == 0)
			var got, want [N]float64
			finishMeans(&m, &f, &got)
			finishGo(&m, &f, &want)
			for i := range N {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("cell %d: kernel %v, Go %v", i, got[i], want[i])
				}
			}
		})
	}
}

// randomFinish returns finish's sums and terms for TestFinishKernelAsGo: values of every size,
// zero and infinite divisors, the means placed in cell order (inPlace) or by a random
// permutation.
func randomFinish(rng *rand.Rand, inPlace bool) (m [N]float64, f finTerms) {
	for i := range N {
		m[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-20)
		f.add[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-20)
		f.den[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-20)
		switch rng.IntN(50) {
		case 0:
			f.den[i] = 0
		case 1:
			m[i], f.add[i], f.den[i] = 0, 0, 0
		case 2:
			f.den[i] = math.Inf(1)
		}
	}
	for i, j := range rng.Perm(N) {
		f.at[i] = int16(j)
		if inPlace {
			f.at[i] = int16(i)
		}
	}
	f.inPlace = inPlace
	return m, f
}

// PrepareIdeal gives what Prepare's Stimulus gives (IdealBits and Polarity), bit for bit, on
// the real cards of testdata and on random images of every colour model and size, under random
// placements, rotations, surrounds and polarities; an analog retina refuses it. (The images'
// bounds start at non-negative points: Go's image.NewYCbCr with a negative Min and chroma
// subsampling makes an image whose own YCbCrAt panics on some of its pixels.) Each trial draws
// from its own stream.
func TestPrepareIdealIsPrepare(t *testing.T) {
	cards := realCards(t)
	for trial := range 300 {
		t.Run(fmt.Sprintf("trial=%d", trial), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(51, uint64(trial)))
			p := randomParams(rng)
			p.Ideal = true
			ip := IdealParams()
			ip.Scale, ip.OffsetX, ip.OffsetY, ip.Rotation, ip.Surround, ip.Polarity = p.Scale, p.OffsetX, p.OffsetY, p.Rotation, p.Surround, p.Polarity
			r := newRetina(t, ip, uint64(trial))
			var img image.Image
			if trial%2 == 0 {
				img = cards[rng.IntN(len(cards))]
			} else {
				img = colourImage(colourKinds[rng.IntN(len(colourKinds))], rng, rng.IntN(9), rng.IntN(9), 1+rng.IntN(60), 1+rng.IntN(60), -1)
			}
			var st Stimulus
			r.Prepare(img, &st)
			want, _ := st.IdealBits()
			got, pol, ok := r.PrepareIdeal(img)
			if !ok || got != want || pol != st.Polarity() {
				t.Fatalf("%+v: PrepareIdeal %x %v %v, Prepare %x %v", ip, got, pol, ok, want, st.Polarity())
			}
		})
	}
	if _, _, ok := newRetina(t, DefaultParams(), 1).PrepareIdeal(cards[0]); ok {
		t.Fatal("an analog retina gave ideal bits")
	}
}
