package demo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func aunitsDemo() lab.Demo {
	counts := lab.Param{Name: "counts", Kind: lab.Floats, Default: "512,4096", Min: 1, Max: 65536, Whole: true,
		Want: "want whole numbers of A-units, 1..65536", Help: "numbers of random A-units to set against the pixels, comma-separated", QuickSets: true}
	return lab.Demo{Name: "aunits", Help: "why random A-units help: pixels against 512 and 4,096 A-units",
		Args: "[--data SPEC --test SPEC --counts LIST]", Usage: "[--data SPEC] [--test SPEC] [--counts LIST] [--quick] [machine flags]",
		Params: append(cardParams("gen:squares-circles,n=1000", "gen:squares-circles,n=1000,seed=2", 30), counts),
		Uses:   lab.UsesMachine | lab.UsesCards | lab.UsesWorkers, Quick: lessonQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			cc, err := newCardsConfig(c)
			if err != nil {
				return nil, err
			}
			if slices.Contains(c.MachineSet, "wiring") || slices.Contains(c.MachineSet, "a-units") {
				return nil, lab.ParamErrorf("--wiring and --a-units: this demo sets the wiring itself (pixels, then --counts A-units)")
			}
			var ns []int
			for _, f := range c.Floats("counts") {
				ns = append(ns, int(f))
			}
			return aunitsReport(ctx, aunitsConfig{cardsConfig: cc, Counts: ns})
		}}
}

// aunitsConfig sets up the comparison of features: pixels against random A-units.
type aunitsConfig struct {
	cardsConfig
	// Counts are the numbers of random A-units compared with the pixels.
	Counts []int
}

// aunitsRun is one wiring's run.
type aunitsRun struct {
	Features string  `json:"features"`
	Seed     uint64  `json:"seed"`
	Run      lab.Run `json:"run"`
}

// aunitsReport shows why random A-units help: the ideal Mark I (the perceptron) trained on the
// retina's pixels (the identity wiring), then on random A-units, 512 and 4,096 by default.
func aunitsReport(ctx context.Context, c aunitsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("gen:squares-circles,n=300", "gen:squares-circles,n=300,seed=2", 10, 1); err != nil {
			return nil, err
		}
		c.Counts = []int{512}
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
