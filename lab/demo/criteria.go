package demo

import (
	"fmt"
	"math"
	"math/big"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// The four criteria of a linear discriminant the lecture notes compare (Duda, Hart and Stork
// 5.5-5.6), for augmented weights w on augmented samples xs with labels ys, in exact
// arithmetic:
//
//   - the 0-1 loss: the number of mistakes, y w.x <= 0 (mistakes);
//   - the perceptron criterion E_P = sum over the mistakes of -y w.x (DHS's J_p; criterion);
//   - E_Q = sum over the mistakes of (w.x)^2 (DHS's J_q): smooth, but its minimum w = 0 is on
//     the boundary of the solution region, and long samples dominate it;
//   - E_R = 1/2 sum over the samples with y w.x <= b of (y w.x - b)^2 / |x|^2 (DHS's J_r, the
//     relaxation criterion with margin b > 0): smooth, zero exactly where every sample is met
//     with y w.x > b, and w = 0 is no longer a minimum.

// criteria are the four criteria at one w.
type criteria struct {
	Mistakes   int
	EP, EQ, ER *big.Rat
}

// allCriteria computes the four criteria of w on xs and ys, E_R with the margin b.
func allCriteria(w exact.Vec, xs []exact.Vec, ys []int, b *big.Rat) criteria {
	c := criteria{EP: new(big.Rat), EQ: new(big.Rat), ER: new(big.Rat)}
	half := big.NewRat(1, 2)
	for i, x := range xs {
		s := w.Dot(x)
		m := new(big.Rat).Mul(s, exact.Int(int64(ys[i]))) // y w.x
		if m.Sign() <= 0 {
			c.Mistakes++
			c.EP.Sub(c.EP, m)
			c.EQ.Add(c.EQ, new(big.Rat).Mul(s, s))
		}
		if m.Cmp(b) <= 0 {
			d := new(big.Rat).Sub(m, b)
			d.Mul(d, d)
			d.Quo(d, x.Dot(x))
			c.ER.Add(c.ER, d.Mul(d, half))
		}
	}
	return c
}

// mistakes returns the 0-1 loss of augmented weights w on augmented samples xs with labels ys:
// the number of samples with y w.x <= 0.
func mistakes(w exact.Vec, xs []exact.Vec, ys []int) int {
	n := 0
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			n++
		}
	}
	return n
}

// criterion returns the perceptron criterion E_P(w) = sum over the samples with y w.x <= 0 of
// -y w.x (Duda, Hart and Stork's J_p; Bishop's E_P): zero when every sample is met, and
// otherwise how far the mistakes lie on the wrong side, in units of w.
func criterion(w exact.Vec, xs []exact.Vec, ys []int) *big.Rat {
	e := new(big.Rat)
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			e.Sub(e, s.Mul(s, exact.Int(int64(ys[i]))))
		}
	}
	return e
}

// gradient returns E_P's gradient at w where the set of mistakes does not change: minus the
// sum of y x over the samples with y w.x <= 0. The batch rule moves w by -eta times it.
func gradient(w exact.Vec, xs []exact.Vec, ys []int) exact.Vec {
	g := exact.Zeros(len(w))
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			g.AddScaled(exact.Int(int64(-ys[i])), x)
		}
	}
	return g
}

// approx writes a criterion's value for the text: exactly when short, else to 5 significant
// digits ("≈ 12.346"); the JSON data keep it exact.
func approx(r *big.Rat) string {
	if s := exact.Format(r); len(s) <= 9 {
		return s
	}
	return fmt.Sprintf("≈ %.5g", exact.Float(r))
}

// bias line: the weights w(t) = (w1, w2, t) of the rule's last weights with the bias t moving.
func biasLine(run *lossRun) (w exact.Vec, lo, hi float64) {
	w = run.Trace.Final()
	// The kinks: where a sample's score w1 x1 + w2 x2 + t crosses 0.
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range run.Xs {
		k := -exact.Float(new(big.Rat).Add(new(big.Rat).Mul(w[0], x[0]), new(big.Rat).Mul(w[1], x[1])))
		lo, hi = min(lo, k), max(hi, k)
	}
	return w, math.Floor(lo) - 2, math.Ceil(hi) + 2
}

// lineTable gives the four criteria at nine points of the bias line.
func lineTable(run *lossRun, b *big.Rat) *report.Table {
	w, lo, hi := biasLine(run)
	tab := &report.Table{Name: "criteria-line-" + run.Name, Title: fmt.Sprintf("%s: the four criteria along w = (%s, %s, t)", run.Name, exact.Format(w[0]), exact.Format(w[1])),
		Columns: []string{"t", "mistakes", "E_P", "E_Q", "E_R"}}
	step := math.Max(1, math.Round((hi-lo)/8))
	mid := math.Round(exact.Float(w[2]))
	for k := -4; k <= 4; k++ {
		t := exact.Int(int64(mid + float64(float64(k)*step)))
		c := allCriteria(exact.Vec{w[0], w[1], t}, run.Xs, run.Ys, b)
		tab.AddRow(exact.Format(t), c.Mistakes, approx(c.EP), approx(c.EQ), approx(c.ER))
	}
	tab.Note = fmt.Sprintf("The rule's last weights with the bias t moved, t = %s being the rule's own. The 0-1 loss steps; E_P is piecewise linear, E_Q piecewise quadratic, both 0 where every sample is met; E_R (margin b = %s) is 0 only where every sample has y w.x > b. Long values are rounded (≈); the JSON data hold them exactly.", exact.Format(w[2]), exact.Format(b))
	return tab
}

// lineFigure draws the four criteria along the line through the final weights on which only
// the bias changes: w(t) = (w1, w2, t).
func lineFigure(run *lossRun, b *big.Rat) *plot.Figure {
	w, lo, hi := biasLine(run)
	var ts []float64
	ys := make([][]float64, 4)
	largest := make([]float64, 4)
	steps := 400
	for i := 0; i <= steps; i++ {
		t := new(big.Rat).Add(new(big.Rat).SetFloat64(lo), new(big.Rat).Mul(big.NewRat(int64(i), int64(steps)), new(big.Rat).SetFloat64(hi-lo)))
		c := allCriteria(exact.Vec{w[0], w[1], t}, run.Xs, run.Ys, b)
		ts = append(ts, exact.Float(t))
		for k, v := range []float64{float64(c.Mistakes), exact.Float(c.EP), exact.Float(c.EQ), exact.Float(c.ER)} {
			ys[k] = append(ys[k], v)
			largest[k] = max(largest[k], v)
		}
	}
	for k := range ys {
		for i := range ys[k] {
			if largest[k] > 0 {
				ys[k][i] /= largest[k]
			}
		}
	}
	return &plot.Figure{Name: "line-" + run.Name, Title: fmt.Sprintf("%s: the criteria along a line through weight space", run.Name),
		XLabel: fmt.Sprintf("bias t of w = (%s, %s, t)", exact.Format(w[0]), exact.Format(w[1])), YLabel: "criterion (over its largest here)", YMin: -0.02, YMax: 1.02,
		Caption: fmt.Sprintf("the 0-1 loss (mistakes / %d), E_P, E_Q and E_R (margin %s), each over its largest here (%.4g, %.4g and %.4g), as the bias of the rule's last weights %s moves; the dashed line is the rule's own bias", len(run.Xs), exact.Format(b), largest[1], largest[2], largest[3], w),
		Series: []plot.Series{
			{Name: "0-1 loss: mistakes / n", X: ts, Y: ys[0], Style: 1},
			{Name: "E_P / its largest", X: ts, Y: ys[1], Style: 3},
			{Name: "E_Q / its largest", X: ts, Y: ys[2], Style: 4},
			{Name: "E_R / its largest", X: ts, Y: ys[3], Style: 5},
			{Name: "the rule's bias", X: []float64{exact.Float(w[2]), exact.Float(w[2])}, Y: []float64{0, 1}, Reference: true},
		}}
}

// pointsTable lists a problem's samples as mark1 lab trace --data reads them (x1, x2, label):
// --out writes it as NAME.csv, a file to give back with --data.
func pointsTable(run *lossRun) *report.Table {
	t := &report.Table{Name: "points-" + run.Name, Title: fmt.Sprintf("%s: the samples", run.Name), Columns: []string{"x1", "x2", "label"}}
	for _, p := range run.Data.Points {
		t.AddRow(exact.Format(p.X[0]), exact.Format(p.X[1]), signed(p.Y))
	}
	t.Note = fmt.Sprintf("In order, #1 first. --out writes them as points-%s.csv, which mark1 lab trace --data reads.", run.Name)
	return t
}
