package demo

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// Mistakes returns the 0-1 loss of augmented weights w on augmented samples xs with labels ys:
// the number of samples with y w.x <= 0.
func Mistakes(w exact.Vec, xs []exact.Vec, ys []int) int {
	n := 0
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			n++
		}
	}
	return n
}

// Criterion returns the perceptron criterion E_P(w) = sum over the samples with y w.x <= 0 of
// -y w.x (Duda, Hart and Stork's J_p; Bishop's E_P): zero when every sample is met, and
// otherwise how far the mistakes lie on the wrong side, in units of w.
func Criterion(w exact.Vec, xs []exact.Vec, ys []int) *big.Rat {
	e := new(big.Rat)
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			e.Sub(e, s.Mul(s, exact.Int(int64(ys[i]))))
		}
	}
	return e
}

// Gradient returns E_P's gradient at w where the set of mistakes does not change: minus the
// sum of y x over the samples with y w.x <= 0. The batch rule moves w by -eta times it.
func Gradient(w exact.Vec, xs []exact.Vec, ys []int) exact.Vec {
	g := exact.Zeros(len(w))
	for i, x := range xs {
		if s := w.Dot(x); s.Sign()*ys[i] <= 0 {
			g.AddScaled(exact.Int(int64(-ys[i])), x)
		}
	}
	return g
}

// LossUpdate is one update of the fixed-increment rule seen as a step of stochastic gradient
// descent on E_P.
type LossUpdate struct {
	Step, Epoch   int
	Sample        string
	Before, After *big.Rat // E_P before and after
	TermBefore    *big.Rat // the corrected sample's term -y w.x before (>= 0)
	TermAfter     *big.Rat // its -y w.x after: less by eta |x|^2
	Fall          *big.Rat // eta |x|^2
	NewMistakes   []string // samples met before the update and not after
}

// LossEpoch is E_P and the 0-1 loss at an epoch's end.
type LossEpoch struct {
	Epoch, Mistakes, Updates, Rises int
	EP                              *big.Rat
}

// LossRun is the fixed-increment rule on one problem, with its losses.
type LossRun struct {
	Name, What string
	Data       *trace.Data
	Trace      *trace.Trace
	Xs         []exact.Vec
	Ys         []int
	Updates    []LossUpdate
	Epochs     []LossEpoch
}

// Rises returns the updates after which E_P was larger than before.
func (r *LossRun) Rises() []LossUpdate {
	var out []LossUpdate
	for _, u := range r.Updates {
		if u.After.Cmp(u.Before) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// RunLoss runs the fixed-increment rule (eta 1, bias last, from zero, in order) on d for at
// most epochs, recording E_P and the 0-1 loss before and after every update and at every
// epoch's end.
func RunLoss(name, what string, d *trace.Data, epochs int) (*LossRun, error) {
	c := trace.Config{Epochs: epochs}
	t, err := trace.Run(d, c)
	if err != nil {
		return nil, err
	}
	r := &LossRun{Name: name, What: what, Data: d, Trace: t}
	for _, p := range d.Points {
		r.Xs = append(r.Xs, trace.Last.Augment(p.X))
		r.Ys = append(r.Ys, p.Y)
	}
	epoch := LossEpoch{Epoch: 1}
	for i, s := range t.Steps {
		if !s.Met {
			x, y := s.X, s.Y
			u := LossUpdate{Step: s.N, Epoch: s.Epoch, Sample: d.Points[s.Sample].Where,
				Before: Criterion(s.Before, r.Xs, r.Ys), After: Criterion(s.W, r.Xs, r.Ys),
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
			epoch.Mistakes, epoch.EP = Mistakes(s.W, r.Xs, r.Ys), Criterion(s.W, r.Xs, r.Ys)
			r.Epochs = append(r.Epochs, epoch)
			epoch = LossEpoch{Epoch: s.Epoch + 1}
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

// LossConfig sets up the loss view.
type LossConfig struct {
	Points int    // samples of each problem (default 40)
	Epochs int    // most epochs (default 20)
	Seed   uint64 // default 1
}

// Loss shows the losses of the perceptron: the 0-1 loss (the number of mistakes: piecewise
// constant, its gradient zero wherever it has one), the perceptron criterion E_P (piecewise
// linear, its gradient minus the sum of the mistakes' y x), and the fixed-increment rule as
// stochastic gradient descent on E_P: each update lowers the corrected sample's term by
// eta |x|^2, but may raise E_P, when it turns other samples into mistakes or deepens theirs.
func Loss(c LossConfig) (*report.Report, error) {
	if c.Points == 0 {
		c.Points = 40
	}
	if c.Epochs == 0 {
		c.Epochs = 20
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	r := &report.Report{Name: "loss", Title: "The perceptron's losses: mistakes and the perceptron criterion"}
	r.Summary = "The 0-1 loss counts the mistakes (y w.x <= 0): it is piecewise constant in w, so its gradient is zero wherever it exists and says nothing of where to go. The perceptron criterion E_P(w) = -sum over the mistakes of y w.x is piecewise linear; where the mistakes stay the same its gradient is -sum y x over them, and the fixed-increment rule, w <- w + y x for one mistake, is stochastic gradient descent on it, one sample's term at a time. Everything is exact (integer samples)."
	r.Condition("problems", fmt.Sprintf("%d integer points each: separable (uniform on [-8, 8]^2, labelled by the side of x1 + 2 x2 = 3, kept where |x1 + 2 x2 - 3| >= 2) and overlapping (two clusters around (2, 1) and (-1, -2), standard deviation 2.5, rounded); seed %d", c.Points, c.Seed))
	r.Condition("rule", fmt.Sprintf("fixed increment, eta 1, bias last, from zero, the samples in order, at most %s", english.Count(c.Epochs, "epoch")))
	var runs []*LossRun
	for _, p := range []struct{ kind, what string }{{"separable", "separable"}, {"overlapping", "overlapping"}} {
		run, err := RunLoss(p.kind, p.what, intProblem(p.kind, c.Points, c.Seed), c.Epochs)
		if err != nil {
			return nil, err
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
		sum.AddRow(run.Name, len(run.Updates), len(run.Rises()), len(run.Epochs), end, last.Mistakes, exact.Format(last.EP))
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
		rises := run.Rises()
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
		g := Gradient(w, run.Xs, run.Ys)
		h := big.NewRat(1, 1000)
		fd := make(exact.Vec, len(w))
		e0 := Criterion(w, run.Xs, run.Ys)
		for j := range fd {
			wj := w.Clone()
			wj[j].Add(wj[j], h)
			fd[j] = new(big.Rat).Quo(new(big.Rat).Sub(Criterion(wj, run.Xs, run.Ys), e0), h)
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
	return r, nil
}

// offBoundary returns the first update after which no sample scores 0 (where E_P is
// differentiable).
func (r *LossRun) offBoundary() (LossUpdate, bool) {
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
	return LossUpdate{}, false
}

// lineFigure draws both losses along the line through the final weights on which only the
// bias changes: w(t) = (w1, w2, t).
func lineFigure(run *LossRun) *plot.Figure {
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
		zo = append(zo, float64(Mistakes(wt, run.Xs, run.Ys))/float64(len(run.Xs)))
		e := exact.Float(Criterion(wt, run.Xs, run.Ys))
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
func epochFigure(run *LossRun) *plot.Figure {
	// Epoch 0: the start.
	w0 := run.Trace.Start
	xs := []float64{0}
	zo := []float64{float64(Mistakes(w0, run.Xs, run.Ys)) / float64(len(run.Xs))}
	ep := []float64{exact.Float(Criterion(w0, run.Xs, run.Ys))}
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
func updateFigure(run *LossRun) *plot.Figure {
	line := plot.Series{Name: "E_P after the update", Style: 3}
	rise := plot.Series{Name: "an update that raised E_P", Points: true, Style: 1}
	line.X, line.Y = []float64{0}, []float64{exact.Float(Criterion(run.Trace.Start, run.Xs, run.Ys))}
	for i, u := range run.Updates {
		line.X, line.Y = append(line.X, float64(i+1)), append(line.Y, exact.Float(u.After))
		if u.After.Cmp(u.Before) > 0 {
			rise.X, rise.Y = append(rise.X, float64(i+1)), append(rise.Y, exact.Float(u.After))
		}
	}
	return &plot.Figure{Name: "updates-" + run.Name, Title: fmt.Sprintf("%s: E_P after each update", run.Name), XLabel: "update", YLabel: "E_P",
		Caption: "the perceptron criterion after each of the rule's updates: stochastic gradient descent, not descent", Series: []plot.Series{line, rise}}
}
