package demo

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestRegions: one-vs-rest by sign leaves ambiguous and unclaimed regions (with K classifiers;
// with K-1 only ambiguous ones), one-vs-one's vote ties in the middle, and K discriminants
// answer everywhere, their regions convex; with either way of fitting.
func TestRegions(t *testing.T) {
	for _, method := range []string{"lsq", "perceptron"} {
		t.Run(method, func(t *testing.T) {
			_, stats, err := regionsReport(context.Background(), regionsConfig{Method: method, K: 3, Seed: 1, Cells: 60})
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]regionStats{}
			for _, s := range stats {
				byName[s.Scheme] = s
			}
			ovr, ovr1, ovo, kd := byName["one-vs-rest, K"], byName["one-vs-rest, K-1"], byName["one-vs-one"], byName["K discriminants"]
			if ovr.AmbiguousArea < 0.05 || ovr.NoClassArea < 0.01 {
				t.Errorf("%s one-vs-rest, K: %+v, want ambiguous and unclaimed regions", method, ovr)
			}
			if ovr1.AmbiguousArea < 0.01 || ovr1.NoClassArea != 0 {
				t.Errorf("%s one-vs-rest, K-1: %+v, want ambiguous regions and nothing unclaimed", method, ovr1)
			}
			if method == "lsq" && ovo.AmbiguousArea < 0.005 {
				t.Errorf("%s one-vs-one: %+v, want a tie in the middle", method, ovo)
			}
			if kd.AmbiguousArea != 0 || kd.NoClassArea != 0 {
				t.Errorf("%s K discriminants: %+v, want every point answered", method, kd)
			}
		})
	}
	// Argmax regions are convex: the midpoint of two points of a class is the class's.
	d := pinwheel(3, 30, 1)
	schemes, leftOut, err := regionSchemes(context.Background(), d, "lsq")
	if err != nil {
		t.Fatal(err)
	}
	kd := schemes[3]
	// One-vs-rest with K-1: leaving out the last class is the scheme of the table above, every
	// point goes to some class, and a point only the left-out class's classifier claims is
	// the left-out class's.
	if len(leftOut) != 3 {
		t.Fatalf("%d schemes with a class left out", len(leftOut))
	}
	for i := range 2000 {
		x := []float64{float64(i%50)/4 - 6, float64(i/50)/4 - 6}
		if a, b := leftOut[2].Decide(x), schemes[1].Decide(x); a != b {
			t.Fatalf("at %v: the last class left out answers %d, one-vs-rest K-1 %d", x, a, b)
		}
		for c, s := range leftOut {
			if s.Decide(x) == noClass(3) {
				t.Fatalf("at %v: class %d left out leaves no class", x, c)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 20000 {
		a := []float64{rng.Float64()*12 - 6, rng.Float64()*12 - 6}
		b := []float64{rng.Float64()*12 - 6, rng.Float64()*12 - 6}
		if kd.Decide(a) != kd.Decide(b) {
			continue
		}
		checked++
		if m := []float64{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}; kd.Decide(m) != kd.Decide(a) {
			t.Fatalf("%v and %v are class %d, their midpoint class %d", a, b, kd.Decide(a), kd.Decide(m))
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d pairs checked", checked)
	}
}
