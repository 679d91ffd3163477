package learn

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Sigmoid is the logistic function 1/(1 + e^-z): logistic regression's probability of class +1
// at the score z = g(x).
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Logistic fits logistic regression to two classes (labels +1 and -1): the discriminant
// g(x) = w.x + w0 read as log-odds, P(y = +1 | x) = Sigmoid(g(x)), maximising the likelihood
// of the labels with the penalty lambda/2 |w|^2 on the weights (the bias w0 is not penalised).
// It minimises sum over the samples of log(1 + exp(-y g(x))) + lambda/2 |w|^2 by Newton's
// method (iteratively reweighted least squares) from zero weights: deterministic, no seed. On
// separable classes the likelihood has no finite maximum without the penalty (the weights grow
// for ever); Logistic then returns an error naming lambda.
func Logistic(x [][]float64, y []int, lambda float64) (Linear, error) {
	if len(x) == 0 || len(x) != len(y) {
		return Linear{}, fmt.Errorf("learn: logistic regression on %d samples and %d labels", len(x), len(y))
	}
	if lambda < 0 || math.IsNaN(lambda) {
		return Linear{}, fmt.Errorf("learn: logistic regression: lambda %v, want >= 0", lambda)
	}
	a := augmented(x)
	n, m := a.Dims()
	w := make([]float64, m)
	const (
		maxSteps = 100
		tol      = 1e-10
	)
	for range maxSteps {
		grad := make([]float64, m)
		h := mat.NewSymDense(m, nil)
		// Every product is rounded before it is added (float64(a*b) + c): no fused
		// multiply-add, the same weights on every architecture.
		for i := range n {
			row := a.RawRowView(i)
			yi := float64(y[i])
			g := dot(w, x[i])
			p := Sigmoid(float64(-yi * g)) // the derivative of log(1 + e^-yg) is -y p
			s := float64(Sigmoid(g) * Sigmoid(-g))
			yp := float64(yi * p)
			for j := range m {
				grad[j] -= float64(yp * row[j])
				sj := float64(s * row[j])
				for k := j; k < m; k++ {
					h.SetSym(j, k, h.At(j, k)+float64(sj*row[k]))
				}
			}
		}
		for j := range m - 1 {
			grad[j] += float64(lambda * w[j])
			h.SetSym(j, j, h.At(j, j)+lambda)
		}
		var chol mat.Cholesky
		if !chol.Factorize(h) {
			return Linear{}, errNoMaximum
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, mat.NewVecDense(m, grad)); err != nil {
			return Linear{}, fmt.Errorf("learn: logistic regression: %w", err)
		}
		largest := 0.0
		for j := range m {
			w[j] -= step.AtVec(j)
			largest = max(largest, math.Abs(step.AtVec(j)))
		}
		if largest < tol*(1+maxAbs(w)) {
			return Linear{W: w}, nil
		}
	}
	return Linear{}, errNoMaximum
}

// errNoMaximum is Logistic's error when Newton's method does not settle: the likelihood has no
// finite maximum (separable classes: the weights grow for ever) or no single one (features
// that are not independent).
var errNoMaximum = errors.New("learn: logistic regression: no finite maximum (separable classes, or features not independent): give lambda > 0")

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}
