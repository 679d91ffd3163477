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
	return lab.Demo{Name: "loss", Help: "the 0-1 loss, E_P, E_Q and E_R; the rule as SGD on E_P",
		Args: "[--points N --epochs N --margin B]", Usage: "[--points N] [--epochs N] [--margin B] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "points", Kind: lab.Int, Default: "40", Min: 2, Max: 1000, Help: "integer samples of each problem", QuickSets: true},
			{Name: "epochs", Kind: lab.Int, Default: "20", Min: 1, Max: 1000, Help: "most epochs of the fixed-increment rule", QuickSets: true},
			{Name: "margin", Kind: lab.String, Default: "1", Help: "the margin b > 0 of the relaxation criterion E_R (a number such as 1, 0.5 or 1/2)", QuickSets: true},
			seedParam("the problems' seed", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			text := c.String("margin")
			b, err := exact.Parse(text)
			if err != nil || b.Sign() <= 0 {
				return nil, lab.ParamErrorf("--margin %s: want a number > 0", text)
			}
			r, runs, err := lossReport(ctx, lossConfig{Points: c.Int("points"), Epochs: c.Int("epochs"), Margin: b, Seed: c.Uint("seed")})
			if err != nil || !c.Quick {
				return r, err
			}
			r.Checks = lossChecks(runs)
			r.Notes = append(r.Notes, courseQuickNote)
			return r, nil
		}}
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

// lossEpoch is the criteria at an epoch's end.
type lossEpoch struct {
	Epoch, Mistakes, Updates, Rises int
	EP, EQ, ER                      *big.Rat
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
	Margin     *big.Rat // E_R's margin b
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
func traceLoss(ctx context.Context, name, what string, d *trace.Data, epochs int, b *big.Rat) (*lossRun, error) {
	c := trace.Config{Epochs: epochs}
	t, err := trace.Run(ctx, d, c)
	if err != nil {
		return nil, err
	}
	r := &lossRun{Name: name, What: what, Data: d, Trace: t, Margin: b}
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
			c := allCriteria(s.W, r.Xs, r.Ys, b)
			epoch.Mistakes, epoch.EP, epoch.EQ, epoch.ER = c.Mistakes, c.EP, c.EQ, c.ER
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
	Points int      // samples of each problem
	Epochs int      // most epochs
	Margin *big.Rat // E_R's margin b > 0
	Seed   uint64
}

// lossReport shows the losses of the perceptron: the 0-1 loss (the number of mistakes: piecewise
// constant, its gradient zero wherever it has one), the perceptron criterion E_P (piecewise
// linear, its gradient minus the sum of the mistakes' y x), and the fixed-increment rule as
// stochastic gradient descent on E_P: each update lowers the corrected sample's term by
// eta |x|^2, but may raise E_P, when it turns other samples into mistakes or deepens theirs.
func lossReport(ctx context.Context, c lossConfig) (*report.Report, []*lossRun, error) {
	r := &report.Report{Name: "loss", Title: "The perceptron's losses: mistakes and the perceptron criterion"}
	r.Summary = "The 0-1 loss counts the mistakes (y w.x <= 0): it is piecewise constant in w, so its gradient is zero wherever it exists and says nothing of where to go. The perceptron criterion E_P(w) = -sum over the mistakes of y w.x is piecewise linear; where the mistakes stay the same its gradient is -sum y x over them, and the fixed-increment rule, w <- w + y x for one mistake, is stochastic gradient descent on it, one sample's term at a time. Two more criteria of the lecture notes (Duda, Hart and Stork's J_q and J_r) stand beside them: E_Q = sum over the mistakes of (w.x)^2, smooth but smallest at w = 0 too, and the relaxation criterion E_R = 1/2 sum over the samples with y w.x <= b of (y w.x - b)^2/|x|^2, with a margin b > 0, which w = 0 does not minimise. Everything is exact (integer samples)."
	r.Condition("problems", fmt.Sprintf("%d integer points each: separable (uniform on [-8, 8]^2, labelled by the side of x1 + 2 x2 = 3, kept where |x1 + 2 x2 - 3| >= 2) and overlapping (two clusters around (2, 1) and (-1, -2), standard deviation 2.5, rounded); seed %d", c.Points, c.Seed))
	r.Condition("rule", fmt.Sprintf("fixed increment, eta 1, bias last, from zero, the samples in order, at most %s", english.Count(c.Epochs, "epoch")))
	r.Condition("E_R's margin", fmt.Sprintf("b = %s; |x| is the augmented sample's length, the 1 included", exact.Format(c.Margin)))
	var runs []*lossRun
	for _, p := range []struct{ kind, what string }{{"separable", "separable"}, {"overlapping", "overlapping"}} {
		run, err := traceLoss(ctx, p.kind, p.what, intProblem(p.kind, c.Points, c.Seed), c.Epochs, c.Margin)
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
		ep := &report.Table{Name: "table-epochs-" + run.Name, Title: fmt.Sprintf("%s: each epoch's end", run.Name), Columns: []string{"epoch", "mistakes (0-1 loss)", "E_P", "E_Q", "E_R", "updates", "updates that raised E_P"}}
		for _, e := range run.Epochs {
			ep.AddRow(e.Epoch, e.Mistakes, exact.Format(e.EP), approx(e.EQ), approx(e.ER), e.Updates, e.Rises)
		}
		r.Tables = append(r.Tables, ep)
	}
	for _, run := range runs {
		rises := run.rises()
		if len(rises) == 0 {
			continue
		}
		// E_P(0) = 0 (every score is 0), its least value: the first update never lowers it (it
		// raises it unless no sample is left on the wrong side). The table shows
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
		tab.Note = "The corrected sample's -y w.x falls by exactly |x|^2: below 0 it is met and leaves E_P, else it stays a mistake with a smaller term. E_P rises when the step turns other samples into mistakes, or pushes mistakes already made further to the wrong side, by more. (The first update from w = 0 never lowers E_P: there every score is 0 and E_P(0) = 0, its least value, a minimum where nothing is learned. It raises it unless no sample is left on the wrong side.)"
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
		r.Tables = append(r.Tables, lineTable(run, c.Margin))
	}
	for _, run := range runs {
		r.Tables = append(r.Tables, pointsTable(run))
	}
	for _, run := range runs {
		r.Figures = append(r.Figures, lineFigure(run, c.Margin), epochFigure(run), updateFigure(run))
	}
	data := map[string]any{}
	for _, run := range runs {
		var eps []map[string]any
		for _, e := range run.Epochs {
			eps = append(eps, map[string]any{"epoch": e.Epoch, "mistakes": e.Mistakes, "E_P": exact.Format(e.EP), "E_Q": exact.Format(e.EQ), "E_R": exact.Format(e.ER), "updates": e.Updates, "rises": e.Rises})
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
// lowers the corrected sample's term by |x|^2, E_P's gradient equal to its difference
// quotients, E_Q zero where every sample is met, and E_R above zero at w = 0.
func lossChecks(runs []*lossRun) []report.Check {
	sep, over := runs[0], runs[1]
	erZero := math.Inf(1)
	for _, run := range runs {
		erZero = min(erZero, exact.Float(allCriteria(exact.Zeros(3), run.Xs, run.Ys, run.Margin).ER))
	}
	rises, wrongFall := 0, 0
	gradOff := 0.0
	for _, run := range runs {
		// The first update from zero never lowers E_P (E_P(0) = 0, its least value): count
		// the rises of the others.
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
		report.NewCheck("separable problem: E_Q at the end of the run", exact.Float(sep.Epochs[len(sep.Epochs)-1].EQ), 0, 0, "E_Q summed over every sample, not the mistakes: above 0"),
		report.NewCheck("E_R at w = 0, the smaller of the two problems' (w = 0 is not its minimum)", erZero, 1e-9, 1e9, "E_R without its margin b: 0"),
	}
}
