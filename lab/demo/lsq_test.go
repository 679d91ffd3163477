package demo

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
)

// TestLSQByHand: the lecture notes' four points, solved by hand. A^T A = ((90, 71, 16),
// (71, 82, 18), (16, 18, 4)) and A^T t = (-10, 0, 0) give w = (-0.4, -0.4), w0 = 3.4, which
// fits every target exactly (E = 0). With lambda = 1 on the weights (not the bias) the first two
// diagonal entries become 91 and 83, and (-20, -10, 125)/53 solves it: 91(-20) + 71(-10) +
// 16(125) = -530 = 53(-10), 71(-20) + 83(-10) + 18(125) = 0, 16(-20) + 18(-10) + 4(125) = 0.
// Its fitted values are (55, 45, -45, -55)/53, residuals (2, -8, 8, -2)/53, E = 136/2809.
func TestLSQByHand(t *testing.T) {
	d := notesFourPoints()
	for _, tc := range []struct {
		lambda, w, e, normSq string
	}{
		{"0", "(-0.4, -0.4, 3.4)", "0", "0.32"},
		{"1", "(-20/53, -10/53, 125/53)", "136/2809", "500/2809"},
	} {
		t.Run("lambda="+tc.lambda, func(t *testing.T) {
			_, fits, err := lsqReport(context.Background(), d, mustRat(t, tc.lambda))
			if err != nil {
				t.Fatal(err)
			}
			f := fits[len(fits)-1]
			if f.W.String() != tc.w || exact.Format(f.E) != tc.e || exact.Format(f.NormSq) != tc.normSq {
				t.Errorf("w %s, E %s, |w|^2 %s; want %s, %s, %s", f.W, exact.Format(f.E), exact.Format(f.NormSq), tc.w, tc.e, tc.normSq)
			}
			if tc.lambda == "1" && f.R.String() != "(2/53, -8/53, 8/53, -2/53)" {
				t.Errorf("residuals %s", f.R)
			}
		})
	}
}

// TestLSQAgainstLearn: on integer data of three features the exact solution is learn's
// floating-point least squares (through gonum's pseudo-inverse), and the ridge solution makes
// the gradient of E + lambda |w|^2 vanish, checked here again in floating point.
func TestLSQAgainstLearn(t *testing.T) {
	d := points(t, "1,2,0,+1", "2,0,1,-1", "-1,1,3,+1", "3,3,-2,-1", "0,-2,1,+1", "4,1,1,-1", "2,2,2,+1")
	var xs [][]float64
	var ts []float64
	for _, p := range d.Points {
		xs, ts = append(xs, p.X.Floats()), append(ts, float64(p.Y))
	}
	_, fits, err := lsqReport(context.Background(), d, mustRat(t, "0.5"))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := learn.LeastSquares(xs, ts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range fits[0].W.Floats() {
		if math.Abs(ls.W[i]-v) > 1e-9*(1+math.Abs(v)) {
			t.Fatalf("exact %s, learn.LeastSquares %v", fits[0].W, ls.W)
		}
	}
	w := fits[1].W.Floats()
	grad := make([]float64, len(w))
	for i, x := range xs {
		a := append(append([]float64(nil), x...), 1)
		r := -ts[i]
		for j := range a {
			r += w[j] * a[j]
		}
		for j := range a {
			grad[j] += 2 * r * a[j]
		}
	}
	for j := range len(w) - 1 {
		grad[j] += 2 * 0.5 * w[j]
	}
	for j, g := range grad {
		if math.Abs(g) > 1e-9 {
			t.Errorf("the ridge objective's gradient, component %d: %g, want 0 (w %v)", j, g, w)
		}
	}
}

// TestLSQSingular: two samples on a line through three unknowns have no unique least-squares
// solution: refused with lambda 0, naming the way out; solved with lambda > 0.
func TestLSQSingular(t *testing.T) {
	d := points(t, "1,1,+1", "2,2,-1")
	if _, _, err := lsqReport(context.Background(), d, mustRat(t, "0")); err == nil || !strings.Contains(err.Error(), "give --lambda > 0") {
		t.Errorf("lambda 0: %v, want the normal equations singular", err)
	}
	_, fits, err := lsqReport(context.Background(), d, mustRat(t, "1/10"))
	if err != nil {
		t.Fatal(err)
	}
	if fits[0].W != nil || fits[1].W.String() != "(-10/11, -10/11, 30/11)" {
		t.Errorf("fits: %v and %s", fits[0].W, fits[1].W)
	}
}
