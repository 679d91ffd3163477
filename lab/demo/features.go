package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// AUnitsConfig sets up the comparison of features: pixels against random A-units.
type AUnitsConfig struct {
	CardsConfig
	// Counts are the numbers of random A-units compared with the pixels (default 512, 4096).
	Counts []int
}

// aunitsRun is one wiring's run.
type aunitsRun struct {
	Features string  `json:"features"`
	Seed     uint64  `json:"seed"`
	Run      lab.Run `json:"run"`
}

// AUnits shows why random A-units help: the ideal Mark I (the perceptron) trained on the
// retina's pixels (the identity wiring), then on random A-units, 512 and 4,096 by default.
func AUnits(ctx context.Context, c AUnitsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("gen:squares-circles,n=300", "gen:squares-circles,n=300,seed=2", 10, 1); err != nil {
			return nil, err
		}
		c.Counts = []int{512}
	}
	c.defaults()
	if len(c.Counts) == 0 {
		c.Counts = []int{512, 4096}
	}
	type feat struct {
		name string
		cfg  func(machine.Config) machine.Config
	}
	feats := []feat{{"pixels (identity wiring, 400)", func(m machine.Config) machine.Config { m.Wiring = machine.WiringIdentity; return m }}}
	for _, n := range c.Counts {
		feats = append(feats, feat{fmt.Sprintf("%d random A-units", n), func(m machine.Config) machine.Config {
			m.Wiring = machine.WiringRandom
			return lab.WithAUnits(m, n)
		}})
	}
	jobs := len(feats) * c.Seeds
	prog := lab.NewProgress(c.Progress, jobs*c.Epochs)
	mark1, _ := lab.ParseMethod("mark1")
	runs, err := lab.Parallel(ctx, jobs, c.Workers, nil, func(ctx context.Context, j int) (aunitsRun, error) {
		f := feats[j/c.Seeds]
		cfg := f.cfg(c.Machine)
		cfg.Seed = c.Machine.Seed + uint64(j%c.Seeds)
		if err := cfg.MarkI.Validate(); err != nil {
			return aunitsRun{}, err
		}
		p, err := lab.NewMachineDataset(cfg, c.Train, c.Test)
		if err != nil {
			return aunitsRun{}, err
		}
		done := 0
		rs, err := lab.Compare(ctx, p, []lab.Method{mark1}, lab.Options{Epochs: c.Epochs, KeepGoing: true, Workers: 1, Progress: func(d, _ int) {
			prog.Add(d - done)
			done = d
		}})
		if err != nil {
			return aunitsRun{}, err
		}
		return aunitsRun{f.name, cfg.Seed, rs[0]}, nil
	})
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "aunits", Title: "Why random A-units help: pixels, 512 and 4,096 A-units"}
	r.Summary = "A perceptron on the pixels draws one hyperplane in the space of the 400 cells: it can only weigh cells, one by one. Random A-units are threshold units on small random sets of cells; they map the cards into a space of many more features where a hyperplane can cut what it could not cut in the pixels (Cover's theorem: n samples in general position in d dimensions are separable by a hyperplane with certainty when n <= d+1). The ideal Mark I (its alpha rule is the perceptron) is trained on each."
	c.conditions(r)
	r.Condition("machine", fmt.Sprintf("ideal; the pixels through the identity wiring, or random (x, y, theta) = (%d, %d, %d) A-units", c.Machine.MarkI.Exc, c.Machine.MarkI.Inh, c.Machine.MarkI.Theta))
	r.Condition("training", fmt.Sprintf("alpha rule, %s", english.Count(c.Epochs, "epoch")))
	wirings := fmt.Sprintf("%d (%s", c.Seeds, english.Span("seed", c.Machine.Seed, c.Seeds))
	if c.Seeds > 1 {
		wirings += "; the identity wiring is the same every time, only the order of cards changes"
	}
	r.Condition("wirings per feature set", wirings+")")
	table := &report.Table{Name: "aunits", Title: "Errors after training" + report.MedianOf(c.Seeds, " (median of the wirings)"), Columns: []string{"features", "training error", "test error", "converged", "corrections"}}
	fig := &plot.Figure{Name: "learning-curves", Title: "Training (solid) and test (dashed) error" + report.MedianOf(c.Seeds, ", median of the wirings"), XLabel: "epoch", YLabel: "error"}
	for fi, f := range feats {
		rs := runs[fi*c.Seeds : (fi+1)*c.Seeds]
		tr := report.Collect(rs, func(a aunitsRun) float64 { return a.Run.TrainError })
		var te []float64
		conv := 0
		for _, a := range rs {
			if a.Run.TestError != nil {
				te = append(te, *a.Run.TestError)
			}
			if a.Run.Converged {
				conv++
			}
		}
		table.AddRow(f.name, report.Spread(tr), report.Spread(te), fmt.Sprintf("%d of %d", conv, len(rs)), report.Counts(report.Collect(rs, func(a aunitsRun) float64 { return float64(a.Run.Corrections) })))
		var lr []lab.Run
		for _, a := range rs {
			lr = append(lr, a.Run)
		}
		fig.Series = append(fig.Series, medianRunCurve(f.name, lr, false, fi+1))
		if len(te) > 0 {
			fig.Series = append(fig.Series, medianRunCurve(f.name+", test", lr, true, fi+1))
		}
	}
	table.Note = report.MediansNote(c.Seeds, "wiring") + " \"Converged\": an epoch without a correction, the training cards separated."
	r.Tables = append(r.Tables, table)
	r.Figures = append(r.Figures, fig)
	if c.Quick {
		quickNote(r, "squares and circles, 300 cards to train and 300 new ones to test, 10 epochs, the pixels against 512 A-units, one wiring")
		pix, au := runs[0].Run, runs[1].Run
		r.Checks = append(r.Checks,
			report.NewCheck("pixels: training error after 10 epochs (not separable)", pix.TrainError, 0.02, 0.3, "a machine that never learns: about 0.5"),
			report.NewCheck("512 A-units: training error (separated)", au.TrainError, 0, 0.01, "about 0.5"),
			report.NewCheck("512 A-units: test error", *au.TestError, 0, 0.15, "about 0.5"),
			report.NewCheck("test error, pixels minus 512 A-units", *pix.TestError-*au.TestError, 0.03, 0.5, "the same features both times: 0"))
	}
	r.Data = runs
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// medianRunCurve is the median over runs of the training (or test) error after each epoch.
func medianRunCurve(name string, runs []lab.Run, test bool, style int) plot.Series {
	s := plot.Series{Name: name, Style: style, Dashed: test}
	n := 0
	for _, r := range runs {
		n = max(n, len(r.Curve))
	}
	for e := range n {
		var v []float64
		for _, r := range runs {
			p := r.Curve[min(e, len(r.Curve)-1)]
			switch {
			case !test:
				v = append(v, p.TrainError)
			case p.TestError != nil:
				v = append(v, *p.TestError)
			}
		}
		if len(v) > 0 {
			s.X, s.Y = append(s.X, float64(e+1)), append(s.Y, report.Median(v))
		}
	}
	return s
}

// Fields trains the ideal Mark I on c.Train and shows what each R-unit has learned: its
// weights carried back through the plug-board onto the retina (lab.ReceptiveField), beside
// the mean card of each class as the retina sees it.
func Fields(ctx context.Context, c CardsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:leftright", "", 100, 1); err != nil {
			return nil, err
		}
	}
	c.defaults()
	p, err := lab.NewMachineDataset(c.Machine, c.Train, c.Test)
	if err != nil {
		return nil, err
	}
	mark1, _ := lab.ParseMethod("mark1")
	runs, err := lab.Compare(ctx, p, []lab.Method{mark1}, lab.Options{Epochs: c.Epochs, Workers: 1, Progress: c.Progress})
	if err != nil {
		return nil, err
	}
	run := runs[0]
	m := run.Machine
	board := m.Board()
	r := &report.Report{Name: "fields", Title: "What each R-unit has learned"}
	r.Summary = "An R-unit's weights are over the A-units, not the cells. Carried back through the plug-board, each cell gets the weights of the A-units it feeds, with the sign of its plug: red cells, when lit, push the R-unit on; blue ones push it off. With the identity wiring this is the weight of each pixel."
	c.conditions(r)
	r.Condition("machine", fmt.Sprintf("ideal, %s wiring, %s, seed %d; %s, %s coding", c.Machine.Wiring, english.Count(m.AUnits(), "A-unit"), c.Machine.Seed, english.Count(m.RUnits(), "R-unit"), m.Coding()))
	r.Condition("training", fmt.Sprintf("alpha rule, until an errorless epoch or %s: %s, training error %s", english.Count(c.Epochs, "epoch"), english.Count(run.Epochs, "epoch"), report.Pct(run.TrainError)))
	fields := &plot.Figure{Name: "receptive-fields", Title: "Receptive fields of the R-units (red: lit pushes on; blue: lit pushes off)"}
	table := &report.Table{Name: "fields", Title: "The R-units", Columns: []string{"R-unit", "on for", "off for", "bias", "largest cell", "smallest cell"}}
	codes := m.Codes()
	for u := range m.RUnits() {
		w := m.Weights(nil, u)
		f, err := lab.ReceptiveField(board, w)
		if err != nil {
			return nil, err
		}
		var on, off []string
		for k, code := range codes {
			switch code[u] {
			case 1:
				on = append(on, m.Classes()[k])
			case -1:
				off = append(off, m.Classes()[k])
			}
		}
		lo, hi := f[0], f[0]
		for _, v := range f {
			lo, hi = min(lo, v), max(hi, v)
		}
		title := fmt.Sprintf("R%d: on for %s", u, briefList(on))
		if len(on) == 1 && len(off) == 1 {
			title = fmt.Sprintf("R%d: %s on, %s off", u, on[0], off[0])
		}
		fields.Grids = append(fields.Grids, plot.Grid{Title: title, Rows: retina.Rows, Cols: retina.Cols, Values: f})
		table.AddRow(fmt.Sprintf("R%d", u), briefList(on), briefList(off), w[len(w)-1], hi, lo)
	}
	means := &plot.Figure{Name: "class-means", Title: "The mean card of each class on the ideal retina (red: how often a cell is lit)"}
	sums := make([][]float64, len(c.Train.Classes))
	counts := make([]int, len(c.Train.Classes))
	idc := c.Machine
	idc.Wiring = machine.WiringIdentity
	idc.Board = nil
	pix, err := lab.Features(idc, nil, c.Train)
	if err != nil {
		return nil, err
	}
	for i, x := range pix.X {
		k := pix.Y[i]
		if sums[k] == nil {
			sums[k] = make([]float64, retina.N)
		}
		for s, v := range x {
			sums[k][s] += v
		}
		counts[k]++
	}
	for k, s := range sums {
		for i := range s {
			s[i] /= float64(counts[k])
		}
		means.Grids = append(means.Grids, plot.Grid{Title: pix.Classes[k], Rows: retina.Rows, Cols: retina.Cols, Values: s})
	}
	r.Tables = append(r.Tables, table)
	r.Figures = append(r.Figures, fields, means)
	if c.Quick {
		quickNote(r, "left against right, builtin:leftright, trained until errorless (at most 100 epochs)")
		f, err := lab.ReceptiveField(board, m.Weights(nil, 0))
		if err != nil {
			return nil, err
		}
		left, right := 0.0, 0.0
		for i, v := range f {
			if i%retina.Cols < retina.Cols/2 {
				left += v
			} else {
				right += v
			}
		}
		r.Checks = append(r.Checks,
			report.NewCheck("training error", run.TrainError, 0, 0, "a machine that never learns: about 0.5"),
			report.NewCheck("R0 (right on): mean field of the right half minus the left half", (right-left)/float64(len(f)/2), 0.2, 50, "no learning, or the field carried back wrong: 0 or below"))
	}
	r.Data = map[string]any{"run": run}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// briefList joins up to four names, then says how many more.
func briefList(s []string) string {
	switch {
	case len(s) == 0:
		return "-"
	case len(s) <= 4:
		return strings.Join(s, " ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(s[:3], " "), len(s)-3)
}
