package learn

import (
	"math"
	"testing"
)

// TestLogisticByHand: one feature, three samples at x = 1 labelled +1, +1, -1 and three at
// x = -1 labelled -1, -1, +1. The likelihood is largest where P(+1 | x = 1) = 2/3 and
// P(+1 | x = -1) = 1/3: g(1) = log 2 = -g(-1), so w = log 2 and w0 = 0.
func TestLogisticByHand(t *testing.T) {
	x := [][]float64{{1}, {1}, {1}, {-1}, {-1}, {-1}}
	y := []int{1, 1, -1, -1, -1, 1}
	l, err := Logistic(x, y, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(l.W[0]-math.Log(2)) > 1e-9 || math.Abs(l.W[1]) > 1e-9 {
		t.Errorf("w = %v, want (log 2, 0)", l.W)
	}
	if p := Sigmoid(l.Score([]float64{1})); math.Abs(p-2.0/3) > 1e-9 {
		t.Errorf("P(+1 | x = 1) = %v, want 2/3", p)
	}
}

// TestLogisticPenalty: on separable classes the likelihood has no finite maximum, and Logistic
// says so; with lambda > 0 it converges, to weights where the penalised objective's gradient is
// zero (checked here again) and the bias is not penalised.
func TestLogisticPenalty(t *testing.T) {
	x := [][]float64{{0, 0}, {1, 0}, {0, 1}, {3, 1}, {4, 3}, {3, 3}}
	y := []int{1, 1, 1, -1, -1, -1}
	if _, err := Logistic(x, y, 0); err == nil {
		t.Error("separable classes, lambda 0: no error")
	}
	for _, lambda := range []float64{0.01, 1} {
		l, err := Logistic(x, y, lambda)
		if err != nil {
			t.Fatal(err)
		}
		grad := make([]float64, 3)
		for i, xi := range x {
			a := append(append([]float64(nil), xi...), 1)
			p := Sigmoid(-float64(y[i]) * l.Score(xi))
			for j := range a {
				grad[j] -= float64(y[i]) * p * a[j]
			}
		}
		grad[0] += lambda * l.W[0]
		grad[1] += lambda * l.W[1]
		for j, g := range grad {
			if math.Abs(g) > 1e-8 {
				t.Errorf("lambda %v: gradient component %d = %g, want 0 (w %v)", lambda, j, g, l.W)
			}
		}
		for i, xi := range x {
			if l.Sign(xi) != y[i] {
				t.Errorf("lambda %v: w %v misclassifies sample %d of separable classes", lambda, l.W, i)
			}
		}
	}
}

func TestSigmoid(t *testing.T) {
	for _, tc := range []struct{ z, want float64 }{{0, 0.5}, {math.Log(3), 0.75}, {-math.Log(3), 0.25}, {-800, 0}, {800, 1}} {
		if got := Sigmoid(tc.z); math.Abs(got-tc.want) > 1e-15 || math.IsNaN(got) {
			t.Errorf("Sigmoid(%v) = %v, want %v", tc.z, got, tc.want)
		}
	}
}
