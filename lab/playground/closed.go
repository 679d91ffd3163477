package playground

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// The closed forms, exactly, for two classes:
//
// Least squares with ridge lambda: w = (X'X + lambda I')^-1 X'y, X the augmented samples,
// y their labels +1 and -1, and I' the identity but for the bias, which is not penalised (as
// the lecture notes leave it out: a penalised bias would pull the boundary toward the origin).
// lambda = 0 is plain least squares.
//
// Fisher: the direction S_W^-1 (m1 - m2) (m1 the mean of the +1 samples, m2 of the -1,
// S_W the within-class scatter) with the bias that puts the boundary through the mean m of
// all samples, -w.m: the discriminant mark1 lab fisher-lsq shows least squares with targets
// N/N1 and -N/N2 to be (the same boundary).

// solve returns the closed form's weights, in the bias's order.
func (s *Session) solve() (exact.Vec, error) {
	var w exact.Vec // (w1, w2, w0)
	var err error
	if s.set.method == "lsq" {
		var ts []*big.Rat
		var xs []exact.Vec
		for _, p := range s.set.points {
			xs = append(xs, p.x)
			ts = append(ts, exact.Int(int64(p.y)))
		}
		w, err = ridge(xs, ts, s.set.lambda)
		if err != nil {
			return nil, err
		}
	} else if w, err = fisher(s.set.points); err != nil {
		return nil, err
	}
	if s.set.tc.Bias == trace.First {
		return exact.Vec{w[2], w[0], w[1]}, nil
	}
	return w, nil
}

// ridge returns (w1, ..., wd, w0) minimising |X w - t|^2 + lambda |w1..wd|^2.
func ridge(xs []exact.Vec, ts []*big.Rat, lambda *big.Rat) (exact.Vec, error) {
	d := len(xs[0]) + 1
	a := make([]exact.Vec, d)
	for i := range a {
		a[i] = exact.Zeros(d)
	}
	b := exact.Zeros(d)
	t := new(big.Rat)
	for i, x := range xs {
		row := trace.Last.Augment(x)
		for p := range d {
			for q := range d {
				a[p][q].Add(a[p][q], t.Mul(row[p], row[q]))
			}
			b[p].Add(b[p], t.Mul(row[p], ts[i]))
		}
	}
	for p := range d - 1 {
		a[p][p].Add(a[p][p], lambda)
	}
	w, err := exact.Solve(a, b)
	if err != nil {
		if lambda.Sign() == 0 {
			return nil, errors.New("least squares: the samples and a constant are not independent (all on a line?): give lambda > 0")
		}
		return nil, fmt.Errorf("least squares: %w", err)
	}
	return w, nil
}

// fisher returns Fisher's discriminant (w1, w2, w0) of two-class points, its bias at the mean
// of all samples.
func fisher(points []point) (exact.Vec, error) {
	var c1, c2, all []exact.Vec
	for _, p := range points {
		all = append(all, p.x)
		if p.y == 1 {
			c1 = append(c1, p.x)
		} else {
			c2 = append(c2, p.x)
		}
	}
	if len(c1) == 0 || len(c2) == 0 {
		return nil, errors.New("fisher: the samples need both labels, +1 and -1")
	}
	m1, m2, m := mean(c1), mean(c2), mean(all)
	dim := len(m)
	sw := make([]exact.Vec, dim)
	for i := range sw {
		sw[i] = exact.Zeros(dim)
	}
	t := new(big.Rat)
	for _, p := range points {
		mk := m2
		if p.y == 1 {
			mk = m1
		}
		diff := p.x.Clone()
		diff.AddScaled(exact.Int(-1), mk)
		for a := range dim {
			for b := range dim {
				sw[a][b].Add(sw[a][b], t.Mul(diff[a], diff[b]))
			}
		}
	}
	dm := m1.Clone()
	dm.AddScaled(exact.Int(-1), m2)
	w, err := exact.Solve(sw, dm)
	if err != nil {
		return nil, errors.New("fisher: S_W is singular (the classes do not vary in every direction)")
	}
	return append(w, new(big.Rat).Neg(w.Dot(m))), nil
}

func mean(xs []exact.Vec) exact.Vec {
	m := exact.Zeros(len(xs[0]))
	for _, x := range xs {
		m.AddScaled(exact.Int(1), x)
	}
	for _, v := range m {
		v.Quo(v, exact.Int(int64(len(xs))))
	}
	return m
}
