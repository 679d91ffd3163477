package learn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFisherMultiTwoClasses: with two classes the discriminant is Fisher's own, S_W⁻¹(m+ - m-),
// with its threshold midway between the projected means.
func TestFisherMultiTwoClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d := &Data{Classes: []string{"-1", "+1"}}
	for i := range 40 {
		c := i % 2
		x := []float64{rng.NormFloat64() + float64(2*c), 0.5*rng.NormFloat64() - float64(c)}
		d.X, d.Y = append(d.X, x), append(d.Y, c)
	}
	m, err := FisherMulti(d)
	if err != nil {
		t.Fatal(err)
	}
	y := make([]int, d.Len())
	for i, c := range d.Y {
		y[i] = 2*c - 1
	}
	f, err := Fisher(d.X, y, MidpointThreshold)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Units[0].W
	scale := g[0] / f.W[0]
	for i := range g {
		if math.Abs(g[i]-scale*f.W[i]) > 1e-9*math.Abs(g[i]) || scale <= 0 {
			t.Fatalf("FisherMulti %v is not a positive multiple of Fisher %v", g, f.W)
		}
	}
}

// TestFisherMultiThree: three classes along a line, each well apart: every sample right; and
// Fisher's answers do not change when a feature is rescaled and shifted (S_W whitens it away).
func TestFisherMultiThree(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := &Data{Classes: []string{"a", "b", "c"}}
	for i := range 90 {
		c := i % 3
		x := []float64{float64(3*c) + 0.6*rng.NormFloat64(), float64(3*c) + 0.6*rng.NormFloat64()}
		d.X, d.Y = append(d.X, x), append(d.Y, c)
	}
	m, err := FisherMulti(d)
	if err != nil {
		t.Fatal(err)
	}
	if e := Errors(m, d); e != 0 {
		t.Errorf("%d errors on three classes apart", e)
	}
	scaled := &Data{Classes: d.Classes, Y: d.Y}
	for _, x := range d.X {
		scaled.X = append(scaled.X, []float64{100*x[0] - 7, x[1] / 3})
	}
	ms, err := FisherMulti(scaled)
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		x := []float64{rng.Float64()*12 - 3, rng.Float64()*12 - 3}
		if a, b := m.Predict(x), ms.Predict([]float64{100*x[0] - 7, x[1] / 3}); a != b {
			t.Fatalf("%v: class %d, rescaled %d", x, a, b)
		}
	}
}
