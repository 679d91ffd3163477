package demo

import (
	"context"
	"math"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
)

// TestFisherLSQ: least squares with targets N/N1 and -N/N2 is an exact multiple of Fisher's
// direction, with the bias -w.m; with +1 and -1 the direction is Fisher's too, the bias is
// not; and Fisher's direction agrees with learn.Fisher's (floating point, through gonum).
func TestFisherLSQ(t *testing.T) {
	d := twoClasses(12, 20, 1)
	f, err := newFisherLSQ(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if f.N1 != 12 || f.N2 != 20 || exact.Format(f.Special.T1) != "8/3" || exact.Format(f.Special.T2) != "-1.6" {
		t.Fatalf("%d, %d, targets %s, %s", f.N1, f.N2, exact.Format(f.Special.T1), exact.Format(f.Special.T2))
	}
	if f.Special.Ratio == nil || f.Special.Ratio.Sign() <= 0 {
		t.Errorf("least squares with N/N1, -N/N2: w = %s is not a positive multiple of Fisher's %s", f.Special.W, f.Fisher)
	}
	if f.Special.W0.Cmp(f.Special.AtMean) != 0 {
		t.Errorf("w0 = %s, -w.m = %s", exact.Format(f.Special.W0), exact.Format(f.Special.AtMean))
	}
	if f.Plain.Ratio == nil || f.Plain.W0.Cmp(f.Plain.AtMean) == 0 {
		t.Errorf("least squares with +1, -1: ratio %v, w0 %s, -w.m %s", f.Plain.Ratio, exact.Format(f.Plain.W0), exact.Format(f.Plain.AtMean))
	}
	var xs [][]float64
	var ys []int
	for _, p := range d.Points {
		xs, ys = append(xs, p.X.Floats()), append(ys, p.Y)
	}
	lf, err := learn.Fisher(xs, ys, learn.MidpointThreshold)
	if err != nil {
		t.Fatal(err)
	}
	fw := f.Fisher.Floats()
	if cross := lf.W[0]*fw[1] - lf.W[1]*fw[0]; math.Abs(cross) > 1e-9*math.Hypot(lf.W[0], lf.W[1])*math.Hypot(fw[0], fw[1]) || lf.W[0]*fw[0]+lf.W[1]*fw[1] <= 0 {
		t.Errorf("learn.Fisher %v, exact %v: not the same direction", lf.W, fw)
	}
	t1 := make([]float64, len(ys))
	for i, y := range ys {
		t1[i] = map[int]float64{1: 32.0 / 12, -1: -32.0 / 20}[y]
	}
	ls, err := learn.LeastSquares(xs, t1)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range append(f.Special.W.Floats(), exact.Float(f.Special.W0)) {
		if math.Abs(ls.W[i]-v) > 1e-9*(1+math.Abs(v)) {
			t.Errorf("learn.LeastSquares %v, exact %s %s", ls.W, f.Special.W, exact.Format(f.Special.W0))
		}
	}
}

// TestProjectionFigure: Fisher's histograms count every sample of each class once, and the
// threshold of least squares with the targets N/N1 and -N/N2 lies at the projection of the mean
// of all samples (its bias is -w.m).
func TestProjectionFigure(t *testing.T) {
	d := twoClasses(12, 20, 1)
	f, err := newFisherLSQ(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	fig := projectionFigure(d, f)
	for i, want := range []float64{12, 20} {
		s := fig.Series[i]
		total := 0.0
		for k := 1; k < len(s.Y); k += 4 { // each bin's outline: (x0, 0), (x0, n), (x1, n), (x1, 0)
			total += s.Y[k]
		}
		if total != want {
			t.Errorf("%s: %v samples in the histogram, want %v", s.Name, total, want)
		}
	}
	fw := f.Fisher.Floats()
	m := f.M.Floats()
	norm := math.Hypot(fw[0], fw[1])
	if got, want := fig.Series[2].X[0], (fw[0]*m[0]+fw[1]*m[1])/norm; math.Abs(got-want) > 1e-12 {
		t.Errorf("the threshold of targets N/N1, -N/N2 at %v, the mean projects to %v", got, want)
	}
}
