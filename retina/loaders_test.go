package retina_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/retina"
)

// TestLoadedDigits runs the cards as the command line loads them (images.LoadIDX and
// images.LoadDir: MNIST, white on black, and the 8x8 optdigits) through the default analog
// retina and the ideal one, many times: no NaN, every light and level in range, the digits seen
// as light figures, and every state written read back.
func TestLoadedDigits(t *testing.T) {
	var sets []*images.Set
	for _, f := range [][2]string{
		{"../testdata/mnist/train-images.idx.gz", "../testdata/mnist/train-labels.idx.gz"},
		{"../testdata/mnist/test-images.idx.gz", "../testdata/mnist/test-labels.idx.gz"},
		{"../testdata/optdigits/digits-images.idx.gz", "../testdata/optdigits/digits-labels.idx.gz"},
	} {
		set, err := images.LoadIDX(f[0], f[1])
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set)
	}
	dir, err := images.LoadDir("../testdata/mnist/png")
	if err != nil {
		t.Fatal(err)
	}
	sets = append(sets, dir)
	for _, p := range []retina.Params{retina.DefaultParams(), retina.IdealParams()} {
		r, err := retina.New(p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		noise := rand.New(rand.NewPCG(3, 4))
		lv := make([]float32, retina.N)
		var s retina.Stimulus
		var out retina.Bits
		for _, set := range sets {
			on := 0
			for pass := range 2 {
				for k, c := range set.Cards {
					r.Prepare(c.Image, &s)
					if s.Polarity() != retina.LightFigure {
						t.Fatalf("ideal=%v %s: polarity %v, want light", p.Ideal, c.Source, s.Polarity())
					}
					for i := range retina.N {
						if l := float64(s.Light[i]); !(l >= 0 && l <= p.Lamp) || math.IsNaN(float64(s.G[i])) || s.G[i] < 0 {
							t.Fatalf("ideal=%v %s: cell %d light %v, G %v", p.Ideal, c.Source, i, s.Light[i], s.G[i])
						}
					}
					r.Expose(&s, []float64{3, 0.4, 3, 1}[k%4], noise, &out)
					if pass == 0 {
						on += out.Count()
					}
				}
				r.Levels(lv)
				for i, v := range lv {
					if !(v >= 0) || math.IsInf(float64(v), 0) {
						t.Fatalf("ideal=%v %s: cell %d level %v", p.Ideal, set.Name, i, v)
					}
				}
				q, err := retina.New(p, rand.New(rand.NewPCG(9, 9)))
				if err != nil {
					t.Fatal(err)
				}
				if err := q.SetState(r.State()); err != nil {
					t.Fatalf("ideal=%v %s: SetState refuses what State wrote: %v", p.Ideal, set.Name, err)
				}
			}
			// The ink of a digit covers about a fifth of the field, not nearly all of it.
			if frac := float64(on) / float64(len(set.Cards)*retina.N); frac < 0.05 || frac > 0.4 {
				t.Errorf("ideal=%v %s: %.0f%% of the S-units on, want the ink's share", p.Ideal, set.Name, 100*frac)
			}
		}
	}
}
