package learn

import (
	"fmt"
	"math"
)

// Radius returns R, the length of the longest augmented sample (x, 1).
func Radius(x [][]float64) float64 {
	r := 0.0
	for _, v := range x {
		s := 1.0
		for _, f := range v {
			s += float64(f * f)
		}
		r = max(r, s)
	}
	return math.Sqrt(r)
}

// Margin returns gamma, the least signed distance of the augmented samples from the hyperplane
// through the origin normal to l's weights: min over i of y_i l.W.(x_i, 1) / |l.W|. It is
// positive exactly when l separates the samples; 0 for zero weights.
func Margin(l Linear, x [][]float64, y []int) float64 {
	n := l.Norm()
	if n == 0 || len(x) == 0 {
		return 0
	}
	g := math.Inf(1)
	for i, v := range x {
		g = min(g, float64(float64(y[i])*l.Score(v)))
	}
	return g / n
}

// NovikoffBound returns R^2/gamma^2, the perceptron convergence theorem's bound on the number of
// corrections the fixed-increment perceptron makes from zero weights on samples of radius R
// that a unit weight vector separates with margin gamma (Novikoff 1962; augmented samples, so
// the bias is learned too). It is +Inf for gamma <= 0.
func NovikoffBound(r, gamma float64) float64 {
	if gamma <= 0 {
		return math.Inf(1)
	}
	return float64(r*r) / float64(gamma*gamma)
}

// MaxMargin looks for the separating weights of largest margin (the hard-margin support
// vector machine on the augmented samples, bias included in the norm, which is the margin
// Novikoff's bound uses) by coordinate ascent on its dual: maximise sum(a) - |sum a_i y_i
// (x_i, 1)|^2 / 2 over a >= 0, visiting the samples in order, until no Karush-Kuhn-Tucker
// condition is violated by more than tol or passes sweeps have been made. It returns the
// weights, their margin (see Margin) and whether they separate the samples. On data that is
// not linearly separable the dual is unbounded and the weights never separate; on separable
// data the margin found approaches the largest from below, so the bound it gives is always a
// valid one.
func MaxMargin(x [][]float64, y []int, passes int, tol float64) (Linear, float64, bool, error) {
	if len(x) == 0 || len(x) != len(y) {
		return Linear{}, 0, false, fmt.Errorf("learn: %d samples and %d labels", len(x), len(y))
	}
	d := len(x[0])
	w := make([]float64, d+1)
	alpha := make([]float64, len(x))
	q := make([]float64, len(x))
	for i, v := range x {
		s := 1.0
		for _, f := range v {
			s += float64(f * f)
		}
		q[i] = s
	}
	for range passes {
		worst := 0.0
		for i, v := range x {
			yi := float64(y[i])
			g := float64(yi*dot(w, v)) - 1 // the dual gradient is -g
			// Projected gradient: at a = 0 only a positive step counts.
			if viol := -g; alpha[i] > 0 {
				worst = max(worst, math.Abs(viol))
			} else if viol > 0 {
				worst = max(worst, viol)
			}
			a := max(0, alpha[i]-g/q[i])
			if delta := a - alpha[i]; delta != 0 {
				axpy(w, float64(delta*yi), v)
				alpha[i] = a
			}
		}
		if worst <= tol {
			break
		}
	}
	l := Linear{W: w}
	m := Margin(l, x, y)
	return l, m, m > 0, nil
}
