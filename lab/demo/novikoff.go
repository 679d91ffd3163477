package demo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
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

func novikoffDemo() lab.Demo {
	return lab.Demo{Name: "novikoff", Help: "the convergence theorem: corrections against R^2/gamma^2",
		Args: "[--problems N --dim D --points N --margin G]", Usage: "[--problems N] [--dim D] [--points N] [--margin G] [--no-cards] [--quick]",
		Params: []lab.Param{
			{Name: "problems", Kind: lab.Int, Default: "200", Min: 1, Max: 100000, Help: "random separable problems", QuickSets: true},
			{Name: "dim", Kind: lab.Int, Default: "10", Min: 1, Max: 1000, Help: "features of each problem", QuickSets: true},
			{Name: "points", Kind: lab.Int, Default: "100", Min: 2, Max: 100000, Help: "samples of each problem", QuickSets: true},
			{Name: "margin", Kind: lab.Float, Default: "0.05", Min: 0, MinOpen: true, Max: 0.5, MaxOpen: true, Want: "want 0 < G < 0.5", Help: "least distance of a sample from the planted hyperplane, 0 < G < 0.5", QuickSets: true},
			{Name: "no-cards", Kind: lab.Bool, Help: "leave out the Mark I's own problems (the built-in two-class sets through its A-units)", QuickSets: true},
		},
		Uses: lab.UsesMachine | lab.UsesWorkers, Quick: lessonQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			return novikoffReport(ctx, novikoffConfig{Problems: c.Int("problems"), Dim: c.Int("dim"), Points: c.Int("points"), Margin: c.Float("margin"),
				Seed: c.Machine.Seed, Cards: !c.Bool("no-cards"), Machine: c.Machine, Quick: c.Quick, Workers: c.Workers, Progress: c.Progress})
		}}
}

// novikoffConfig sets up the convergence-theorem demonstration.
type novikoffConfig struct {
	Problems int     // random separable problems
	Dim      int     // their features
	Points   int     // their samples
	Margin   float64 // least distance of a sample from the planted plane
	Seed     uint64  // first seed
	// Cards adds the Mark I's own problems: the built-in two-class sets through its A-units,
	// trained by the ideal machine itself.
	Cards   bool
	Machine machine.Config // the machine for Cards
	// Quick runs the quick run: 50 problems of 50 points in 10 dimensions, margin 0.05, and the
	// Mark I's own problems, with checks (report.Check) that the tests hold.
	Quick    bool
	Workers  int
	Progress func(done, total int)
}

// novikoffRow is one problem's count against its bound.
type novikoffRow struct {
	Name        string  `json:"name"`
	Samples     int     `json:"samples"`
	Features    int     `json:"features"`
	Corrections int     `json:"corrections"`
	Epochs      int     `json:"epochs"`
	Converged   bool    `json:"converged"`
	R           float64 `json:"r"`
	Gamma       float64 `json:"gamma"` // 0 when no separating weights were found
	Bound       float64 `json:"bound"` // R^2/gamma^2, +Inf when gamma is 0
}

// novikoffReport shows the perceptron convergence theorem at work: on data a hyperplane separates,
// the fixed-increment perceptron started from zero makes at most R^2/gamma^2 corrections, R
// the radius of the augmented samples and gamma the margin of any separating solution (here
// the largest margin found, learn.MaxMargin). It counts the corrections on many random
// problems and, with Cards, those of the ideal Mark I on the built-in two-class sets through
// its A-units.
func novikoffReport(ctx context.Context, c novikoffConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		c.Problems, c.Points, c.Dim, c.Margin, c.Cards = 50, 50, 10, 0.05, true
	}
	cardSets := []string{"ef", "xe", "square-diamond", "squares-circles", "leftright"}
	total := c.Problems
	if c.Cards {
		total += len(cardSets)
	}
	prog := lab.NewProgress(c.Progress, total)
	rows, err := lab.Parallel(ctx, total, c.Workers, func(int) { prog.Add(1) }, func(ctx context.Context, i int) (novikoffRow, error) {
		if i >= c.Problems {
			return novikoffCards(ctx, c.Machine, cardSets[i-c.Problems])
		}
		seed := c.Seed + uint64(i)
		x, y := problem.Separable(rand.New(rand.NewPCG(seed, 0x6e6f76)), c.Points, c.Dim, c.Margin)
		p, ok, err := learn.Train(x, y, learn.Rule{Seed: seed}, 1_000_000)
		if err != nil {
			return novikoffRow{}, err
		}
		row := novikoffRow{Name: fmt.Sprintf("random %d", i+1), Samples: len(x), Features: c.Dim, Corrections: p.Corrections(), Epochs: p.Epochs(), Converged: ok, R: learn.Radius(x)}
		row.Gamma, row.Bound = separatingMargin(x, y, p)
		return row, nil
	})
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "novikoff", Title: "The perceptron convergence theorem at work"}
	r.Summary = "On samples that a hyperplane separates with margin gamma (the least distance of an augmented sample (x, 1) from it), the fixed-increment perceptron started from zero weights makes at most R^2/gamma^2 corrections, R the length of the longest augmented sample (Novikoff 1962). The bound needs a separating solution: the one used here is the largest-margin one found by coordinate ascent on the hard-margin dual (any separating solution gives a valid bound; the best gives the tightest)."
	r.Condition("random problems", fmt.Sprintf("%d, each %d samples uniform in [-1,1]^%d labelled by a random hyperplane, samples nearer it than %g dropped (%s)", c.Problems, c.Points, c.Dim, c.Margin, english.Span("seed", c.Seed, c.Problems)))
	r.Condition("perceptron", "fixed increment 1, from zero weights, samples shuffled each epoch, until an epoch without a correction")
	if c.Cards {
		mc, _ := lab.MachineConfig(c.Machine, 2, "none")
		r.Condition("the Mark I's problems", "the built-in two-class sets through the A-units of the Mark I: "+lab.DescribeMachine(mc)+"; the machine itself is trained (its alpha rule is the perceptron)")
	}
	var ratios, xs, ys []float64
	within := 0
	for _, row := range rows[:c.Problems] {
		if row.Gamma > 0 {
			ratios = append(ratios, float64(row.Corrections)/row.Bound)
			xs, ys = append(xs, row.Bound), append(ys, float64(row.Corrections))
			if float64(row.Corrections) <= row.Bound {
				within++
			}
		}
	}
	sum := &report.Table{Name: "summary", Title: "Corrections against the bound, random problems", Columns: []string{"problems", "with a separating solution found", "corrections within the bound", "corrections / bound: median", "largest", "smallest"}}
	if len(ratios) > 0 {
		sum.AddRow(c.Problems, len(ratios), within, report.Median(ratios), slices.Max(ratios), slices.Min(ratios))
	} else {
		sum.AddRow(c.Problems, 0, 0, "-", "-", "-")
	}
	sum.Note = "The theorem guarantees corrections <= bound on every separable problem; a count above it would be a bug. In practice the perceptron needs far fewer corrections than the worst case the bound allows."
	r.Tables = append(r.Tables, sum)
	all := &report.Table{Name: "problems", Title: "Every problem", Columns: []string{"problem", "samples", "features", "R", "gamma", "bound R^2/gamma^2", "corrections", "epochs"}}
	for _, row := range rows {
		g, b := "none found", "-"
		if row.Gamma > 0 {
			g, b = fmt.Sprintf("%.4g", row.Gamma), fmt.Sprintf("%.4g", row.Bound)
		}
		conv := fmt.Sprint(row.Epochs)
		if !row.Converged {
			conv += " (not converged)"
		}
		all.AddRow(row.Name, row.Samples, row.Features, row.R, g, b, row.Corrections, conv)
	}
	if c.Cards {
		cards := &report.Table{Name: "mark1", Title: "The Mark I's own problems: corrections of the ideal machine against the bound", Columns: all.Columns, Note: "The features are the A-unit states (0 or 1) of the default Mark I for the 60 built-in cards; a set whose A-unit features no hyperplane separates has no bound."}
		cards.Rows = all.Rows[c.Problems:]
		all.Rows = all.Rows[:c.Problems]
		r.Tables = append(r.Tables, cards)
		for _, row := range rows[c.Problems:] {
			if row.Gamma > 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: %s, bound %.0f (%.2f%% of it).", row.Name, english.Count(row.Corrections, "correction"), row.Bound, float64(100*float64(row.Corrections)/row.Bound)))
			}
		}
	}
	r.Tables = append(r.Tables, all)
	fig := &plot.Figure{Name: "bound", Title: "Corrections against Novikoff's bound", XLabel: "bound R^2/gamma^2", YLabel: "corrections", LogX: true, LogY: true,
		Caption: "each point is one random problem (and, as triangles, the Mark I's own problems); every point lies below the line corrections = bound",
		Series:  []plot.Series{{Name: "random problems", X: xs, Y: ys, Points: true, Style: 1}}}
	if c.Cards {
		var cx, cy []float64
		for _, row := range rows[c.Problems:] {
			if row.Gamma > 0 {
				cx, cy = append(cx, row.Bound), append(cy, float64(row.Corrections))
			}
		}
		fig.Series = append(fig.Series, plot.Series{Name: "the Mark I's problems", X: cx, Y: cy, Points: true, Style: 3})
	}
	lo, hi := math.Inf(1), 0.0
	for _, s := range fig.Series {
		for i := range s.X {
			lo, hi = min(lo, s.Y[i], s.X[i]), max(hi, s.X[i], s.Y[i])
		}
	}
	if hi > 0 {
		lo = max(lo, 1)
		fig.Series = append(fig.Series, plot.Series{Name: "corrections = bound", X: []float64{lo, hi}, Y: []float64{lo, hi}, Reference: true})
	}
	r.Figures = append(r.Figures, fig)
	if c.Quick {
		quickNote(r, "50 random problems of 50 points in 10 dimensions, margin 0.05, and the Mark I's own problems")
		converged, cardsWithin, cardsBound := 0, 0, 0
		for _, row := range rows[:c.Problems] {
			if row.Converged {
				converged++
			}
		}
		for _, row := range rows[c.Problems:] {
			if row.Gamma > 0 {
				cardsBound++
				if float64(row.Corrections) <= row.Bound && row.Corrections > 0 {
					cardsWithin++
				}
			}
		}
		medianRatio := 0.0
		if len(ratios) > 0 {
			medianRatio = report.Median(ratios)
		}
		r.Checks = append(r.Checks,
			report.NewCheck("random problems that converged (fraction)", float64(converged)/float64(c.Problems), 1, 1, "a perceptron that never learns: 0"),
			report.NewCheck("random problems within the bound (fraction of those with one)", float64(within)/float64(max(len(ratios), 1)), 1, 1, "a bound too small, or a count too large: below 1"),
			report.NewCheck("corrections / bound, median", medianRatio, 0.02, 0.5, "no corrections counted: 0; a bound of R/gamma: above 1"),
			report.NewCheck("the Mark I's problems with a bound, its machine within it and correcting", float64(cardsWithin), float64(cardsBound), float64(cardsBound), "a machine that never learns: 0 corrections, never within"),
			report.NewCheck("the Mark I's problems with a bound", float64(cardsBound), 4, 5, "features that separate nothing: 0"))
	}
	r.Data = rows
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// separatingMargin returns the margin and bound of the best separating weights found: the
// largest-margin search's, or the perceptron's own final weights if those separate better.
func separatingMargin(x [][]float64, y []int, p *learn.Perceptron) (float64, float64) {
	_, g, ok, _ := learn.MaxMargin(x, y, 20000, 1e-6)
	if !ok {
		g = 0
	}
	if p != nil {
		g = max(g, learn.Margin(p.Weights(), x, y))
	}
	if g <= 0 {
		return 0, math.Inf(1)
	}
	return g, learn.NovikoffBound(learn.Radius(x), g)
}

// novikoffCards trains the ideal Mark I with one R-unit on a built-in two-class set until an
// epoch without a correction, and computes the bound from its A-unit features.
func novikoffCards(ctx context.Context, base machine.Config, name string) (novikoffRow, error) {
	set, err := lab.BuiltinSet(name)
	if err != nil {
		return novikoffRow{}, err
	}
	cfg, err := lab.MachineConfig(base, len(set.Classes), "none")
	if err != nil {
		return novikoffRow{}, err
	}
	m, err := machine.New(cfg, set.Classes)
	if err != nil {
		return novikoffRow{}, err
	}
	deck, err := m.Prepare(set)
	if err != nil {
		return novikoffRow{}, err
	}
	row := novikoffRow{Name: set.Name, Samples: deck.Len(), Features: m.AUnits()}
	for row.Epochs < 10000 {
		st := m.Epoch(deck, func(int) bool { return ctx.Err() == nil })
		if st.Stopped {
			return row, ctx.Err()
		}
		row.Epochs++
		row.Corrections += st.Corrections
		if st.Corrections == 0 {
			row.Converged = true
			break
		}
	}
	d, err := lab.Features(base, set.Classes, set)
	if err != nil {
		return row, err
	}
	y := make([]int, d.Len())
	for i, c := range d.Y {
		y[i] = 2*c - 1
	}
	row.R = learn.Radius(d.X)
	row.Gamma, row.Bound = separatingMargin(d.X, y, nil)
	if row.Converged {
		// The machine's own weights separate the samples too.
		w := learn.Linear{W: m.Weights(nil, 0)}
		if g := learn.Margin(w, d.X, y); g > row.Gamma {
			row.Gamma, row.Bound = g, learn.NovikoffBound(row.R, g)
		}
	}
	return row, nil
}
