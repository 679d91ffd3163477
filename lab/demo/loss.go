package demo

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func lossDemo() lab.Demo {
	return lab.Demo{Name: "loss", Help: "mistakes and the perceptron criterion E_P; the rule as SGD on E_P",
		Args: "[--points N --epochs N]", Usage: "[--points N] [--epochs N] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "points", Kind: lab.Int, Default: "40", Min: 2, Max: 1000, Help: "integer samples of each problem", QuickSets: true},
			{Name: "epochs", Kind: lab.Int, Default: "20", Min: 1, Max: 1000, Help: "most epochs of the fixed-increment rule", QuickSets: true},
			seedParam("the problems' seed", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, runs, err := lossReport(ctx, lossConfig{Points: c.Int("points"), Epochs: c.Int("epochs"), Seed: c.Uint("seed")})
			if err != nil || !c.Quick {
				return r, err
			}
			r.Checks = lossChecks(runs)
			r.Notes = append(r.Notes, courseQuickNote)
			return r, nil
		}}
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

// lossUpdate is one update of the fixed-increment rule seen as a step of stochastic gradient
// descent on E_P.
type lossUpdate struct {
	Step, Epoch   int
	Sample        string
	Before, After *big.Rat // E_P before and after
	TermBefore    *big.Rat // the corrected sample's term -y w.x before (>= 0)
	TermAfter     *big.Rat // its -y w.x after: less by eta |x|^2
	Fall          *big.Rat // eta |x|^2
	NewMistakes   []string // samples met before the update and not after
}

// lossEpoch is E_P and the 0-1 loss at an epoch's end.
type lossEpoch struct {
	Epoch, Mistakes, Updates, Rises int
	EP                              *big.Rat
}

// lossRun is the fixed-increment rule on one problem, with its losses.
type lossRun struct {
	Name, What string
	Data       *trace.Data
	Trace      *trace.Trace
	Xs         []exact.Vec
	Ys         []int
	Updates    []lossUpdate
	Epochs     []lossEpoch
}

// rises returns the updates after which E_P was larger than before.
func (r *lossRun) rises() []lossUpdate {
	var out []lossUpdate
	for _, u := range r.Updates {
		if u.After.Cmp(u.Before) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// traceLoss runs the fixed-increment rule (eta 1, bias last, from zero, in order) on d for at
// most epochs, recording E_P and the 0-1 loss before and after every update and at every
// epoch's end.
func traceLoss(ctx context.Context, name, what string, d *trace.Data, epochs int) (*lossRun, error) {
	c := trace.Config{Epochs: epochs}
	t, err := trace.Run(ctx, d, c)
	if err != nil {
		return nil, err
	}
	r := &lossRun{Name: name, What: what, Data: d, Trace: t}
	for _, p := range d.Points {
		r.Xs = append(r.Xs, trace.Last.Augment(p.X))
		r.Ys = append(r.Ys, p.Y)
	}
	epoch := lossEpoch{Epoch: 1}
	for i, s := range t.Steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !s.Met {
			x, y := s.X, s.Y
			u := lossUpdate{Step: s.N, Epoch: s.Epoch, Sample: d.Points[s.Sample].Where,
				Before: criterion(s.Before, r.Xs, r.Ys), After: criterion(s.W, r.Xs, r.Ys),
				TermBefore: new(big.Rat).Neg(s.Signed), Fall: x.Dot(x)}
			u.TermAfter = new(big.Rat).Mul(exact.Int(int64(-y)), s.W.Dot(x))
			for j, xj := range r.Xs {
				before, after := s.Before.Dot(xj).Sign()*r.Ys[j] > 0, s.W.Dot(xj).Sign()*r.Ys[j] > 0
				if before && !after {
					u.NewMistakes = append(u.NewMistakes, d.Points[j].Where)
				}
			}
			r.Updates = append(r.Updates, u)
			epoch.Updates++
			if u.After.Cmp(u.Before) > 0 {
				epoch.Rises++
			}
		}
		if i+1 == len(t.Steps) || t.Steps[i+1].Epoch != s.Epoch {
			epoch.Mistakes, epoch.EP = mistakes(s.W, r.Xs, r.Ys), criterion(s.W, r.Xs, r.Ys)
			r.Epochs = append(r.Epochs, epoch)
			epoch = lossEpoch{Epoch: s.Epoch + 1}
		}
	}
	return r, nil
}

// intProblem draws n integer points of two classes: "separable" uniform on the square
// [-8, 8]^2 labelled by the side of x1 + 2 x2 = 3, kept at least 2 from it in g; "overlapping"
// two round clusters of n/2 around (2, 1) (+1) and (-1, -2) (-1), standard deviation 2.5,
// rounded to integers.
func intProblem(kind string, n int, seed uint64) *trace.Data {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f7373)) // "loss"
	d := &trace.Data{Name: kind}
	add := func(x1, x2 int64, y int) {
		d.Points = append(d.Points, trace.Point{X: exact.Ints(x1, x2), Y: y, Where: fmt.Sprintf("#%d", len(d.Points)+1)})
	}
	switch kind {
	case "separable":
		for len(d.Points) < n {
			x1, x2 := rng.Int64N(17)-8, rng.Int64N(17)-8
			g := x1 + 2*x2 - 3
			switch {
			case g >= 2:
				add(x1, x2, 1)
			case g <= -2:
				add(x1, x2, -1)
			}
		}
	default:
		round := func(v float64) int64 { return int64(math.Round(v)) }
		for i := range n {
			cx, cy, y := 2.0, 1.0, 1
			if i%2 == 1 {
				cx, cy, y = -1, -2, -1
			}
			add(round(cx+float64(2.5*detmath.Normal(rng))), round(cy+float64(2.5*detmath.Normal(rng))), y)
		}
	}
	return d
}

// lossConfig sets up the loss view.
type lossConfig struct {
	Points int // samples of each problem
	Epochs int // most epochs
	Seed   uint64
}

// lossReport shows the losses of the perceptron: the 0-1 loss (the number of mistakes: piecewise
// constant, its gradient zero wherever it has one), the perceptron criterion E_P (piecewise
// linear, its gradient minus the sum of the mistakes' y x), and the fixed-increment rule as
// stochastic gradient descent on E_P: each update lowers the corrected sample's term by
// eta |x|^2, but may raise E_P, when it turns other samples into mistakes or deepens theirs.
func lossReport(ctx context.Context, c lossConfig) (*report.Report, []*lossRun, error) {
	r := &report.Report{Name: "loss", Title: "The perceptron's losses: mistakes and the perceptron criterion"}
	r.Summary = "The 0-1 loss counts the mistakes (y w.x <= 0): it is piecewise constant in w, so its gradient is zero wherever it exists and says nothing of where to go. The perceptron criterion E_P(w) = -sum over the mistakes of y w.x is piecewise linear; where the mistakes stay the same its gradient is -sum y x over them, and the fixed-increment rule, w <- w + y x for one mistake, is stochastic gradient descent on it, one sample's term at a time. Everything is exact (integer samples)."
	r.Condition("problems", fmt.Sprintf("%d integer points each: separable (uniform on [-8, 8]^2, labelled by the side of x1 + 2 x2 = 3, kept where |x1 + 2 x2 - 3| >= 2) and overlapping (two clusters around (2, 1) and (-1, -2), standard deviation 2.5, rounded); seed %d", c.Points, c.Seed))
	r.Condition("rule", fmt.Sprintf("fixed increment, eta 1, bias last, from zero, the samples in order, at most %s", english.Count(c.Epochs, "epoch")))
	var runs []*lossRun
	for _, p := range []struct{ kind, what string }{{"separable", "separable"}, {"overlapping", "overlapping"}} {
		run, err := traceLoss(ctx, p.kind, p.what, intProblem(p.kind, c.Points, c.Seed), c.Epochs)
		if err != nil {
			return nil, nil, err
		}
		runs = append(runs, run)
	}
	sum := &report.Table{Name: "losses", Title: "What the rule did", Columns: []string{"problem", "updates", "updates that raised E_P", "epochs", "end", "mistakes at the end", "E_P at the end"}}
	for _, run := range runs {
		t := run.Trace
		end := "every sample met"
		switch {
		case t.Repeats >= 0:
			end = fmt.Sprintf("the weights repeat epoch %d's", t.Repeats)
		case !t.Converged:
			end = "still correcting"
		}
		last := run.Epochs[len(run.Epochs)-1]
		sum.AddRow(run.Name, len(run.Updates), len(run.rises()), len(run.Epochs), end, last.Mistakes, exact.Format(last.EP))
	}
	sum.Note = "E_P counts how far the mistakes lie on the wrong side: every update lowers the corrected sample's own term, by |x|^2, yet the sum can rise."
	r.Tables = append(r.Tables, sum)
	for _, run := range runs {
		ep := &report.Table{Name: "table-epochs-" + run.Name, Title: fmt.Sprintf("%s: each epoch's end", run.Name), Columns: []string{"epoch", "mistakes (0-1 loss)", "E_P", "updates", "updates that raised E_P"}}
		for _, e := range run.Epochs {
			ep.AddRow(e.Epoch, e.Mistakes, exact.Format(e.EP), e.Updates, e.Rises)
		}
		r.Tables = append(r.Tables, ep)
	}
	for _, run := range runs {
		rises := run.rises()
		if len(rises) == 0 {
			continue
		}
		// E_P(0) = 0 (every score is 0): the first update always raises it. The table shows
		// the rises after it.
		if rises[0].Before.Sign() == 0 && run.Trace.Start.Equal(exact.Zeros(len(run.Trace.Start))) && rises[0].Step == run.Updates[0].Step {
			rises = rises[1:]
		}
		if len(rises) == 0 {
			continue
		}
		tab := &report.Table{Name: "rises-" + run.Name, Title: fmt.Sprintf("%s: the first updates that raised E_P (after the first update)", run.Name),
			Columns: []string{"step", "sample", "its -y w.x before", "after", "fall |x|^2", "E_P before", "E_P after", "samples it made mistakes"}}
		for _, u := range rises[:min(len(rises), 4)] {
			made := "none"
			if len(u.NewMistakes) > 0 {
				made = english.List(u.NewMistakes)
			}
			tab.AddRow(u.Step, u.Sample, exact.Format(u.TermBefore), exact.Format(u.TermAfter), exact.Format(u.Fall), exact.Format(u.Before), exact.Format(u.After), made)
		}
		tab.Note = "The corrected sample's -y w.x falls by exactly |x|^2: below 0 it is met and leaves E_P, else it stays a mistake with a smaller term. E_P rises when the step turns other samples into mistakes, or pushes mistakes already made further to the wrong side, by more. (The first update always raises E_P: at w = 0 every score is 0 and E_P(0) = 0, a minimum where nothing is learned.)"
		r.Tables = append(r.Tables, tab)
	}
	// The gradient, checked: where no sample scores 0, E_P is linear nearby, and its change
	// for a small step along each axis is the gradient's component.
	grad := &report.Table{Name: "gradient", Title: "E_P's gradient, two ways", Columns: []string{"problem", "w", "-sum of y x over the mistakes", "(E_P(w + h e_j) - E_P(w)) / h, h = 1/1000"}}
	for _, run := range runs {
		u, ok := run.offBoundary()
		if !ok {
			continue
		}
		w := run.Trace.Steps[u.Step-1].W
		g := gradient(w, run.Xs, run.Ys)
		h := big.NewRat(1, 1000)
		fd := make(exact.Vec, len(w))
		e0 := criterion(w, run.Xs, run.Ys)
		for j := range fd {
			wj := w.Clone()
			wj[j].Add(wj[j], h)
			fd[j] = new(big.Rat).Quo(new(big.Rat).Sub(criterion(wj, run.Xs, run.Ys), e0), h)
		}
		grad.AddRow(run.Name, fmt.Sprintf("%s after step %d", w, u.Step), g.String(), fd.String())
	}
	grad.Note = "Where no sample lies on the boundary, E_P is linear nearby and its gradient is minus the mistakes' sum of y x: the batch rule steps by -eta times it, the fixed-increment rule by one sample's part of it. (At w = 0 every sample scores 0 and E_P has no gradient: the table takes the first weights of an update with no score of 0.)"
	r.Tables = append(r.Tables, grad)
	for _, run := range runs {
		r.Figures = append(r.Figures, lineFigure(run), epochFigure(run), updateFigure(run))
	}
	data := map[string]any{}
	for _, run := range runs {
		var eps []map[string]any
		for _, e := range run.Epochs {
			eps = append(eps, map[string]any{"epoch": e.Epoch, "mistakes": e.Mistakes, "E_P": exact.Format(e.EP), "updates": e.Updates, "rises": e.Rises})
		}
		var ups []map[string]any
		for _, u := range run.Updates {
			ups = append(ups, map[string]any{"step": u.Step, "sample": u.Sample, "E_P_before": exact.Format(u.Before), "E_P_after": exact.Format(u.After),
				"term_before": exact.Format(u.TermBefore), "term_after": exact.Format(u.TermAfter)})
		}
		data[run.Name] = map[string]any{"epochs": eps, "updates": ups, "final": run.Trace.Final().Strings()}
	}
	r.Data = data
	return r, runs, nil
}

// offBoundary returns the first update after which no sample scores 0 (where E_P is
// differentiable).
func (r *lossRun) offBoundary() (lossUpdate, bool) {
	for _, u := range r.Updates {
		w := r.Trace.Steps[u.Step-1].W
		zero := false
		for _, x := range r.Xs {
			zero = zero || w.Dot(x).Sign() == 0
		}
		if !zero {
			return u, true
		}
	}
	return lossUpdate{}, false
}

// lineFigure draws both losses along the line through the final weights on which only the
// bias changes: w(t) = (w1, w2, t).
func lineFigure(run *lossRun) *plot.Figure {
	w := run.Trace.Final()
	// The kinks: where a sample's score w1 x1 + w2 x2 + t crosses 0.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range run.Xs {
		k := -exact.Float(new(big.Rat).Add(new(big.Rat).Mul(w[0], x[0]), new(big.Rat).Mul(w[1], x[1])))
		lo, hi = min(lo, k), max(hi, k)
	}
	lo, hi = math.Floor(lo)-2, math.Ceil(hi)+2
	var ts, zo, ep []float64
	maxEP := 0.0
	steps := 400
	for i := 0; i <= steps; i++ {
		t := new(big.Rat).Add(new(big.Rat).SetFloat64(lo), new(big.Rat).Mul(big.NewRat(int64(i), int64(steps)), new(big.Rat).SetFloat64(hi-lo)))
		wt := exact.Vec{w[0], w[1], t}
		ts = append(ts, exact.Float(t))
		zo = append(zo, float64(mistakes(wt, run.Xs, run.Ys))/float64(len(run.Xs)))
		e := exact.Float(criterion(wt, run.Xs, run.Ys))
		ep = append(ep, e)
		maxEP = max(maxEP, e)
	}
	for i := range ep {
		ep[i] /= maxEP
	}
	return &plot.Figure{Name: "line-" + run.Name, Title: fmt.Sprintf("%s: the losses along a line through weight space", run.Name),
		XLabel: fmt.Sprintf("bias t of w = (%s, %s, t)", exact.Format(w[0]), exact.Format(w[1])), YLabel: "loss (scaled)", YMin: -0.02, YMax: 1.02,
		Caption: fmt.Sprintf("the 0-1 loss (mistakes / %d) and E_P (over its largest here, %.4g) as the bias of the rule's last weights %s moves; the dashed line is the rule's own bias", len(run.Xs), maxEP, w),
		Series: []plot.Series{
			{Name: "0-1 loss: mistakes / n", X: ts, Y: zo, Style: 1},
			{Name: "E_P / its largest", X: ts, Y: ep, Style: 3},
			{Name: "the rule's bias", X: []float64{exact.Float(w[2]), exact.Float(w[2])}, Y: []float64{0, 1}, Reference: true},
		}}
}

// epochFigure draws both losses at each epoch's end.
func epochFigure(run *lossRun) *plot.Figure {
	// Epoch 0: the start.
	w0 := run.Trace.Start
	xs := []float64{0}
	zo := []float64{float64(mistakes(w0, run.Xs, run.Ys)) / float64(len(run.Xs))}
	ep := []float64{exact.Float(criterion(w0, run.Xs, run.Ys))}
	maxEP := ep[0]
	for _, e := range run.Epochs {
		xs = append(xs, float64(e.Epoch))
		zo = append(zo, float64(e.Mistakes)/float64(len(run.Xs)))
		v := exact.Float(e.EP)
		ep = append(ep, v)
		maxEP = max(maxEP, v)
	}
	if maxEP > 0 {
		for i := range ep {
			ep[i] /= maxEP
		}
	}
	return &plot.Figure{Name: "curve-epochs-" + run.Name, Title: fmt.Sprintf("%s: the losses at each epoch's end", run.Name), XLabel: "epoch", YLabel: "loss (scaled)",
		YMin: -0.02, YMax: 1.02, Caption: fmt.Sprintf("the 0-1 loss (mistakes / %d) and E_P (over its largest, %.4g) after each epoch, from the start (epoch 0: w = 0, every sample a mistake, E_P = 0)", len(run.Xs), maxEP),
		Series: []plot.Series{{Name: "0-1 loss: mistakes / n", X: xs, Y: zo, Style: 1}, {Name: "E_P / its largest", X: xs, Y: ep, Style: 3}}}
}

// updateFigure draws E_P after every update, the rises marked.
func updateFigure(run *lossRun) *plot.Figure {
	line := plot.Series{Name: "E_P after the update", Style: 3}
	rise := plot.Series{Name: "an update that raised E_P", Points: true, Style: 1}
	line.X, line.Y = []float64{0}, []float64{exact.Float(criterion(run.Trace.Start, run.Xs, run.Ys))}
	for i, u := range run.Updates {
		line.X, line.Y = append(line.X, float64(i+1)), append(line.Y, exact.Float(u.After))
		if u.After.Cmp(u.Before) > 0 {
			rise.X, rise.Y = append(rise.X, float64(i+1)), append(rise.Y, exact.Float(u.After))
		}
	}
	return &plot.Figure{Name: "updates-" + run.Name, Title: fmt.Sprintf("%s: E_P after each update", run.Name), XLabel: "update", YLabel: "E_P",
		Caption: "the perceptron criterion after each of the rule's updates: stochastic gradient descent, not descent", Series: []plot.Series{line, rise}}
}

// lossChecks checks the loss demonstration's effect on its two problems: the separable
// problem learned, the overlapping one cycling, E_P rising after some updates although each
// lowers the corrected sample's term by |x|^2, and E_P's gradient equal to its difference
// quotients.
func lossChecks(runs []*lossRun) []report.Check {
	sep, over := runs[0], runs[1]
	rises, wrongFall := 0, 0
	gradOff := 0.0
	for _, run := range runs {
		// The first update from zero always raises E_P (E_P(0) = 0): count the others.
		for i, u := range run.rises() {
			if i > 0 || u.Before.Sign() != 0 {
				rises++
			}
		}
		for _, u := range run.Updates {
			if new(big.Rat).Sub(u.TermBefore, u.TermAfter).Cmp(u.Fall) != 0 {
				wrongFall++
			}
		}
		if u, ok := run.offBoundary(); ok {
			w := run.Trace.Steps[u.Step-1].W
			g := gradient(w, run.Xs, run.Ys)
			h := big.NewRat(1, 1000)
			e0 := criterion(w, run.Xs, run.Ys)
			for j := range w {
				wj := w.Clone()
				wj[j].Add(wj[j], h)
				fd := new(big.Rat).Quo(new(big.Rat).Sub(criterion(wj, run.Xs, run.Ys), e0), h)
				d := exact.Float(new(big.Rat).Sub(fd, g[j]))
				gradOff = max(gradOff, d, -d)
			}
		} else {
			gradOff = 1e9
		}
	}
	return []report.Check{
		report.NewCheck("separable problem: mistakes at the end of the run", float64(sep.Epochs[len(sep.Epochs)-1].Mistakes), 0, 0, "a rule that does not correct: about half the samples"),
		report.NewCheck("overlapping problem: the weights repeat an earlier epoch's (1: yes)", holds(over.Trace.Repeats >= 0), 1, 1, "the cycle not found: 0"),
		report.NewCheck("updates after the first that raised E_P, both problems", float64(rises), 1, 1000, "E_P not computed, or only the corrected sample's term: 0"),
		report.NewCheck("updates whose corrected sample's term did not fall by exactly |x|^2", float64(wrongFall), 0, 0, "a rule that steps otherwise than by y x: most of them"),
		report.NewCheck("E_P's gradient: largest difference between minus the mistakes' sum of y x and the difference quotient", gradOff, 0, 0, "E_P or its gradient computed wrongly: not 0"),
	}
}
