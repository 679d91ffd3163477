package demo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/problem"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func nonSeparableDemo() lab.Demo {
	return lab.Demo{Name: "nonseparable", Help: "XOR, parity, connectedness: cycles, and the pocket",
		Args: "[--epochs N --cards N]", Usage: "[--epochs N] [--cards N] [--seed N] [--quick] [machine flags]",
		Params: []lab.Param{
			{Name: "epochs", Kind: lab.Int, Default: "100", Min: 2, Max: 100000, Help: "epochs of the perceptron and the pocket", QuickSets: true},
			{Name: "cards", Kind: lab.Int, Default: "400", Min: 2, Max: 20000, Help: "connectedness cards to train on, and as many new ones to test on", QuickSets: true},
		},
		Uses: lab.UsesMachine | lab.UsesWorkers, Quick: lessonQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			return nonSeparableReport(ctx, nonSeparableConfig{Epochs: c.Int("epochs"), Cards: c.Int("cards"), Seed: c.Machine.Seed, Machine: c.Machine,
				Quick: c.Quick, Workers: c.Workers, Progress: c.Progress})
		}}
}

// nonSeparableConfig sets up the demonstration of the perceptron on data no hyperplane
// separates.
type nonSeparableConfig struct {
	Epochs  int            // epochs of each learner
	Cards   int            // connectedness cards for training, and as many for testing
	Seed    uint64         // of the problems and the cards
	Machine machine.Config // the A-units for the connectedness cards
	// Quick runs the quick run: 50 epochs, 200 connectedness cards, with checks (report.Check)
	// that the tests hold.
	Quick    bool
	Workers  int
	Progress func(done, total int)
}

// nsCase is one problem of the demonstration.
type nsCase struct {
	name, what  string
	train, test *learn.Data
}

// nsRun is the perceptron and the pocket on one problem.
type nsRun struct {
	Corrections []int     `json:"corrections"`        // per epoch
	Perceptron  []float64 `json:"perceptron_error"`   // training error of the current weights after each epoch
	Pocket      []float64 `json:"pocket_error"`       // training error of the pocket's weights
	TestP       []float64 `json:"perceptron_test"`    // test error (connectedness)
	TestPocket  []float64 `json:"pocket_test"`        //
	LSQ         float64   `json:"least_squares"`      // training error of least squares
	LSQTest     float64   `json:"least_squares_test"` //
	final       [3]learn.Linear
}

// nonSeparableReport shows the perceptron on problems no hyperplane separates: XOR, 6-bit parity, and
// connectedness after Minsky and Papert (their figure of four strokes and two switches, on
// the retina: raw pixels and through the Mark I's A-units). The perceptron never stops correcting, its training error
// rising and falling from epoch to epoch, while the pocket algorithm keeps the best weights it
// has seen, its error never rising.
func nonSeparableReport(ctx context.Context, c nonSeparableConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		c.Epochs, c.Cards = 50, 200
	}
	xorSpec, _ := problem.Parse(fmt.Sprintf("xor,seed=%d", c.Seed))
	xor, err := xorSpec.Generate()
	if err != nil {
		return nil, err
	}
	parSpec, _ := problem.Parse("parity,d=6")
	parity, err := parSpec.Generate()
	if err != nil {
		return nil, err
	}
	train, err := lab.GenSet(fmt.Sprintf("connected,n=%d,seed=%d", c.Cards, c.Seed))
	if err != nil {
		return nil, err
	}
	test, err := lab.GenSet(fmt.Sprintf("connected,n=%d,seed=%d", c.Cards, c.Seed+1000))
	if err != nil {
		return nil, err
	}
	cases := []nsCase{
		{"xor", "XOR: four clusters of 25 points, " + xorSpec.String(), xor, nil},
		{"parity", "6-bit parity: all 64 bit vectors", parity, nil},
	}
	for _, w := range []string{machine.WiringIdentity, machine.WiringRandom} {
		cfg := c.Machine
		cfg.Wiring = w
		p, err := lab.NewCardDataset(cfg, train, test)
		if err != nil {
			return nil, err
		}
		name, what := "connected-pixels", "connectedness on the retina's 400 pixels (the identity wiring)"
		if w == machine.WiringRandom {
			name, what = "connected-aunits", fmt.Sprintf("connectedness through %d random A-units", p.Train.Dim())
		}
		cases = append(cases, nsCase{name, fmt.Sprintf("%s: Minsky and Papert's figure, four strokes joined at each end by a switch, connected when the switches differ; %d cards to train, %d new ones to test (gen:connected)", what, c.Cards, c.Cards), p.Train, p.Test})
	}
	prog := lab.NewProgress(c.Progress, len(cases))
	runs, err := lab.Parallel(ctx, len(cases), c.Workers, func(int) { prog.Add(1) }, func(ctx context.Context, i int) (nsRun, error) {
		return nonSeparableRun(ctx, cases[i], c.Epochs, c.Seed)
	})
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "nonseparable", Title: "When no hyperplane separates: the perceptron cycles, the pocket keeps its best"}
	r.Summary = "The convergence theorem needs a separating hyperplane. Without one the fixed-increment perceptron never stops: every epoch makes corrections, and its weights wander, so that its training error rises and falls. Gallant's pocket algorithm runs the same perceptron (the same corrections, in the same order) but keeps the weights that have misclassified fewest training samples so far. Least squares is shown for reference. Connectedness is Minsky and Papert's example (Perceptrons, 1969): no diameter-limited perceptron computes it, and it is of no bounded order over all figures. On these cards whether the figure is connected is the exclusive or of two switches at opposite ends of the card: order 2, but out of reach of any unit that sees only cells close together. The Mark I's random units are of bounded order (each sees a few cells) but not diameter-limited."
	r.Condition("learners", fmt.Sprintf("fixed-increment perceptron and pocket (with ratchet), shuffled, %s each; least squares by the pseudo-inverse", english.Count(c.Epochs, "epoch")))
	for _, cs := range cases {
		r.Condition(cs.name, cs.what)
	}
	table := &report.Table{Name: "nonseparable", Title: "Training error (and test error for connectedness)", Columns: []string{"problem", "samples", "features", "epochs with corrections", "perceptron: last epoch", "perceptron: range over the last half", "pocket: final", "pocket error ever rose", "least squares", "test: perceptron", "test: pocket", "test: least squares"}}
	for i, cs := range cases {
		run := runs[i]
		withCorr := 0
		for _, n := range run.Corrections {
			if n > 0 {
				withCorr++
			}
		}
		half := run.Perceptron[len(run.Perceptron)/2:]
		lo, hi := half[0], half[0]
		for _, v := range half {
			lo, hi = min(lo, v), max(hi, v)
		}
		rose := "no"
		for e := 1; e < len(run.Pocket); e++ {
			if run.Pocket[e] > run.Pocket[e-1] {
				rose = "yes"
			}
		}
		tp, tpk, tl := "-", "-", "-"
		if cs.test != nil {
			tp, tpk, tl = report.Pct(run.TestP[len(run.TestP)-1]), report.Pct(run.TestPocket[len(run.TestPocket)-1]), report.Pct(run.LSQTest)
		}
		note := fmt.Sprintf("%s: the perceptron made corrections in every one of the %d epochs, never converging; over the last half its training error wandered between %s and %s, while the pocket kept weights with %s.", cs.name, len(run.Corrections), report.Pct(lo), report.Pct(hi), report.Pct(run.Pocket[len(run.Pocket)-1]))
		if withCorr == len(run.Corrections) && run.LSQ == 0 {
			// No convergence is no proof: least squares' weights separate these samples.
			note = fmt.Sprintf("%s: the perceptron made corrections in every one of the %d epochs, not converging in them, although these %d training samples are separable (least squares' weights answer every one right): the margin is too narrow for so few epochs. Over the last half its training error wandered between %s and %s, while the pocket kept weights with %s.", cs.name, len(run.Corrections), cs.train.Len(), report.Pct(lo), report.Pct(hi), report.Pct(run.Pocket[len(run.Pocket)-1]))
		}
		if withCorr < len(run.Corrections) {
			note = fmt.Sprintf("%s: these %d training samples are separable in %d features: the perceptron converged after %s.", cs.name, cs.train.Len(), cs.train.Dim(), english.Count(withCorr, "epoch"))
		}
		if cs.test != nil {
			te := run.TestP[len(run.TestP)-1]
			note += fmt.Sprintf(" On %d new cards it errs on %s (the pocket %s, least squares %s; guessing errs on 50%%): ", cs.test.Len(), report.Pct(te), report.Pct(run.TestPocket[len(run.TestPocket)-1]), report.Pct(run.LSQTest))
			if te >= 0.4 {
				note += "hardly better than guessing; what it learned is not connectedness."
			} else {
				note += "better than guessing, far worse than on the cards it was trained on. The Mark I's random A-units are not limited in diameter: a unit's plugs may fall near both switches, which Minsky and Papert's local units cannot; with more A-units (--a-units 4096) it does better."
			}
		}
		r.Notes = append(r.Notes, note)
		table.AddRow(cs.name, cs.train.Len(), cs.train.Dim(), fmt.Sprintf("%d of %d", withCorr, len(run.Corrections)), report.Pct(run.Perceptron[len(run.Perceptron)-1]),
			report.Pct(lo)+" to "+report.Pct(hi), report.Pct(run.Pocket[len(run.Pocket)-1]), rose, report.Pct(run.LSQ), tp, tpk, tl)
		fig := &plot.Figure{Name: cs.name, Title: "Training error, " + cs.name, XLabel: "epoch", YLabel: "error", YMin: 0, YMax: 0.75,
			Caption: "the perceptron's current weights (solid) against the pocket's (dashed); least squares as a level"}
		var xs []float64
		for e := range run.Perceptron {
			xs = append(xs, float64(e+1))
		}
		fig.Series = append(fig.Series,
			plot.Series{Name: "perceptron", X: xs, Y: run.Perceptron, Style: 1},
			plot.Series{Name: "pocket", X: xs, Y: run.Pocket, Dashed: true, Style: 2},
			plot.Series{Name: "least squares", X: []float64{1, float64(len(xs))}, Y: []float64{run.LSQ, run.LSQ}, Reference: true})
		if cs.test != nil {
			fig.Title = "Training and test error, " + cs.name
			fig.Caption = "training error (solid) and error on new cards (dashed): the perceptron may come to separate the training cards and still not know connectedness"
			fig.Series = append(fig.Series,
				plot.Series{Name: "perceptron, new cards", X: xs, Y: run.TestP, Style: 1, Dashed: true},
				plot.Series{Name: "pocket, new cards", X: xs, Y: run.TestPocket, Style: 2, Dashed: true})
			fig.Series[1].Dashed = false
		}
		r.Figures = append(r.Figures, fig)
	}
	table.Note = "An epoch with corrections means the perceptron has not converged. The pocket's error never rises, by construction (the ratchet). For connectedness the test columns show whether what was learned carries over to new cards."
	r.Tables = append(r.Tables, table)
	// The XOR plane with the three boundaries.
	x := runs[0]
	fig := &plot.Figure{Name: "xor-boundaries", Title: "XOR: the final boundaries", XLabel: "x1", YLabel: "x2",
		Caption: "no line separates the two classes; the pocket's line misclassifies fewest of the training points"}
	fig.Series = append(fig.Series, classPoints(xor)...)
	for i, name := range []string{"perceptron (last weights)", "pocket", "least squares"} {
		w := x.final[i].W
		fig.Boundaries = append(fig.Boundaries, plot.Boundary{Name: name, W: [3]float64{w[0], w[1], w[2]}, Style: i + 3})
	}
	r.Figures = append(r.Figures, fig)
	if c.Quick {
		quickNote(r, "50 epochs, 200 connectedness cards to train and 200 new ones to test")
		withCorrections := func(run nsRun) float64 {
			n := 0
			for _, k := range run.Corrections {
				if k > 0 {
					n++
				}
			}
			return float64(n) / float64(len(run.Corrections))
		}
		rises := 0.0
		for _, run := range runs {
			for e := 1; e < len(run.Pocket); e++ {
				if run.Pocket[e] > run.Pocket[e-1] {
					rises++
				}
			}
		}
		xr, au, px := runs[0], runs[3], runs[2]
		r.Checks = append(r.Checks,
			report.NewCheck("XOR: epochs with corrections (fraction)", withCorrections(xr), 1, 1, "a perceptron that stops: below 1"),
			report.NewCheck("epochs in which a pocket's training error rose (every problem)", rises, 0, 0, "a pocket without its ratchet: some"),
			report.NewCheck("XOR: the pocket's final training error", xr.Pocket[len(xr.Pocket)-1], 0.2, 0.3, "a pocket that keeps the last weights: up to 0.6"),
			report.NewCheck("XOR: the perceptron's highest training error over the last half", slices.Max(xr.Perceptron[len(xr.Perceptron)/2:]), 0.35, 1, "a perceptron that settles: about 0.25"),
			report.NewCheck("connectedness through 512 A-units: the perceptron's final training error (separable)", au.Perceptron[len(au.Perceptron)-1], 0, 0, "a perceptron that never learns: about 0.5"),
			report.NewCheck("connectedness through 512 A-units: test error", au.TestP[len(au.TestP)-1], 0.2, 0.5, "tested on the training cards: 0"),
			report.NewCheck("connectedness on the pixels: test error", px.TestP[len(px.TestP)-1], 0.35, 0.65, "tested on the training cards: below 0.3"))
	}
	r.Data = map[string]any{"cases": nsNames(cases), "runs": runs}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

func nsNames(cs []nsCase) []string {
	var n []string
	for _, c := range cs {
		n = append(n, c.name)
	}
	return n
}

// labels returns the +1/-1 labels of two-class data (class 1 is +1).
func labels(d *learn.Data) []int {
	y := make([]int, d.Len())
	for i, c := range d.Y {
		y[i] = 2*c - 1
	}
	return y
}

// binaryError is the error rate of one discriminant on two-class data.
func binaryError(l learn.Linear, d *learn.Data) float64 {
	if d == nil || d.Len() == 0 {
		return 0
	}
	wrong := 0
	for i, x := range d.X {
		if (l.Score(x) > 0) != (d.Y[i] == 1) {
			wrong++
		}
	}
	return float64(wrong) / float64(d.Len())
}

func nonSeparableRun(ctx context.Context, cs nsCase, epochs int, seed uint64) (nsRun, error) {
	y := labels(cs.train)
	perc, err := learn.NewPerceptron(cs.train.X, y, learn.Rule{Seed: seed})
	if err != nil {
		return nsRun{}, err
	}
	pocket, err := learn.NewPerceptron(cs.train.X, y, learn.Rule{Seed: seed, Pocket: true})
	if err != nil {
		return nsRun{}, err
	}
	var run nsRun
	for range epochs {
		if err := ctx.Err(); err != nil {
			return run, err
		}
		run.Corrections = append(run.Corrections, perc.Epoch())
		pocket.Epoch()
		run.Perceptron = append(run.Perceptron, binaryError(perc.Weights(), cs.train))
		run.Pocket = append(run.Pocket, binaryError(pocket.Best(), cs.train))
		if cs.test != nil {
			run.TestP = append(run.TestP, binaryError(perc.Weights(), cs.test))
			run.TestPocket = append(run.TestPocket, binaryError(pocket.Best(), cs.test))
		}
	}
	ls, err := learn.LeastSquaresBinary(cs.train.X, y)
	if err != nil {
		return run, err
	}
	run.LSQ, run.LSQTest = binaryError(ls, cs.train), binaryError(ls, cs.test)
	run.final = [3]learn.Linear{perc.Weights(), pocket.Best(), ls}
	return run, nil
}
