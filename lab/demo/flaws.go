package demo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func flawsDemo() lab.Demo {
	return lab.Demo{Name: "flaws", Help: "the Mark I ideal, with each analog flaw alone, with all",
		Args: "[--data SPEC --test SPEC --epochs N]", Usage: "[--data SPEC] [--test SPEC] [--epochs N] [--quick] [machine flags]",
		Params: cardParams("builtin:letters", "gen:letters,n=520,seed=2,shift=4", 20),
		Uses:   lab.UsesMachine | lab.UsesCards | lab.UsesWorkers, Quick: lessonQuick,
		Run: cardRun(flawsReport)}
}

// flawsReport trains the Mark I ideal, then with each analog flaw alone, then with all of them
// (as c.Machine has them), for c.Epochs epochs each, on c.Seeds machines each, and compares
// their learning.
func flawsReport(ctx context.Context, c cardsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:ef", "gen:ef,n=200,seed=2,shift=5", 10, 1); err != nil {
			return nil, err
		}
	}
	names := []string{"mark1"}
	for _, f := range machine.Flaws() {
		names = append(names, "mark1+"+f.Name)
	}
	names = append(names, "mark1-analog")
	var methods []lab.Method
	for _, n := range names {
		m, err := lab.ParseMethod(n)
		if err != nil {
			return nil, err
		}
		methods = append(methods, m)
	}
	// One comparison per seed, each running the conditions in parallel.
	prog := lab.NewProgress(c.Progress, c.Seeds*len(methods)*c.Epochs)
	bySeed := make([][]lab.Run, c.Seeds)
	for k := range c.Seeds {
		cfg := c.Machine
		cfg.Seed = c.Machine.Seed + uint64(k)
		p, err := lab.NewMachineDataset(cfg, c.Train, c.Test)
		if err != nil {
			return nil, err
		}
		done := 0
		runs, err := lab.Compare(ctx, p, methods, lab.Options{Epochs: c.Epochs, KeepGoing: true, Workers: c.Workers, Progress: func(d, _ int) {
			prog.Add(d - done)
			done = d
		}})
		if err != nil {
			return nil, err
		}
		bySeed[k] = runs
	}
	r := &report.Report{Name: "flaws", Title: "What the analog machine does to learning: the flaws one at a time"}
	r.Summary = "The same Mark I (same wiring, same order of cards) trained ideal, then with one analog flaw at a time at its default strength, then with every flaw on. A flaw that changes nothing alone either acts only together with others (mark1 config says which) or needs more training to show (the end stops)."
	c.conditions(r)
	cfg, _ := lab.MachineConfig(c.Machine, len(c.Train.Classes), "all")
	r.Condition("machine", lab.DescribeMachine(cfg))
	r.Condition("machines per condition", report.PerCondition(c.Seeds, c.Machine.Seed, ": wiring, spreads, noise, order"))
	r.Condition("training", fmt.Sprintf("alpha rule, %s each (an epoch is %s)", english.Count(c.Epochs, "epoch"), english.Count(len(c.Train.Cards), "presentation")))
	hasTest := c.Test != nil
	finalOf := func(run lab.Run) float64 {
		if run.TestError != nil {
			return *run.TestError
		}
		return run.TrainError
	}
	table := &report.Table{Name: "flaws", Title: "Errors after training" + report.MedianOf(c.Seeds, " (median of the machines)"), Columns: []string{"machine", "training error", "test error", "corrections", "test error minus ideal (points)", "note"}}
	bars := &plot.Figure{Name: "test-error", Title: "Error on the test cards after training" + report.MedianOf(c.Seeds, " (median)"), YLabel: "test error",
		Caption: "the ideal machine, each flaw alone, and every flaw on"}
	if !hasTest {
		bars.Title, bars.YLabel = "Error on the training cards after training"+report.MedianOf(c.Seeds, " (median)"), "training error"
		table.Columns = []string{"machine", "training error", "corrections", "note"} // no test cards, no test columns
	}
	type delta struct {
		i int
		d float64
	}
	var deltas []delta
	noEffect := false
	idealFinal := report.Median(report.Collect(bySeed, func(rs []lab.Run) float64 { return finalOf(rs[0]) }))
	for i := range methods {
		at := func(rs []lab.Run) lab.Run { return rs[i] }
		runs := make([]lab.Run, c.Seeds)
		for k := range bySeed {
			runs[k] = at(bySeed[k])
		}
		label := flawLabel(names[i])
		final := report.Median(report.Collect(runs, finalOf))
		te, diff := "-", "-"
		if hasTest {
			te = report.Spread(report.Collect(runs, func(r lab.Run) float64 { return *r.TestError }))
			diff = fmt.Sprintf("%+.1f", float64(100*(final-idealFinal)))
		}
		note := ""
		if i > 0 {
			same := true
			for k := range bySeed {
				same = same && sameRun(bySeed[k][i], bySeed[k][0])
			}
			if same {
				note, noEffect = "no effect here", true
			}
		}
		train, corrections := report.Spread(report.Collect(runs, func(r lab.Run) float64 { return r.TrainError })), report.Counts(report.Collect(runs, func(r lab.Run) float64 { return float64(r.Corrections) }))
		if hasTest {
			table.AddRow(label, train, te, corrections, diff, note)
		} else {
			table.AddRow(label, train, corrections, note)
		}
		bars.Bars = append(bars.Bars, plot.Bar{Label: label, Value: final})
		if i > 0 && i < len(methods)-1 {
			deltas = append(deltas, delta{i, final - idealFinal})
		}
	}
	table.Note = report.MediansNote(c.Seeds, "machine") + " Each machine's errors are of a copy evaluated after the last epoch (an analog machine's answers carry noise, so the same machine evaluated twice may differ by a card or two). Differences of a point or two are within what the seeds alone change."
	if noEffect {
		table.Note += " \"No effect here\": the same corrections and errors as the ideal machine, epoch by epoch."
	}
	r.Tables = append(r.Tables, table)
	// Curves: ideal, every flaw, and the four single flaws that change the final error most.
	slices.SortStableFunc(deltas, func(a, b delta) int {
		switch {
		case math.Abs(a.d) > math.Abs(b.d):
			return -1
		case math.Abs(a.d) < math.Abs(b.d):
			return 1
		}
		return 0
	})
	show := []int{0, len(methods) - 1}
	for _, d := range deltas[:min(4, len(deltas))] {
		show = append(show, d.i)
	}
	curves := &plot.Figure{Name: "learning-curves", Title: "Training error after each epoch" + report.MedianOf(c.Seeds, " (median)"), XLabel: "epoch", YLabel: "training error",
		Caption: "the ideal machine, every flaw on, and the four single flaws that change the final error most"}
	testCurves := &plot.Figure{Name: "test-curves", Title: "Test error after each epoch" + report.MedianOf(c.Seeds, " (median)"), XLabel: "epoch", YLabel: "test error", Caption: curves.Caption}
	for k, i := range show {
		runs := make([]lab.Run, c.Seeds)
		for s := range bySeed {
			runs[s] = bySeed[s][i]
		}
		curves.Series = append(curves.Series, medianRunCurve(flawLabel(names[i]), runs, false, k+1))
		if hasTest {
			s := medianRunCurve(flawLabel(names[i]), runs, true, k+1)
			s.Dashed = false
			testCurves.Series = append(testCurves.Series, s)
		}
	}
	r.Figures = append(r.Figures, curves)
	if hasTest {
		r.Figures = append(r.Figures, testCurves)
	}
	r.Figures = append(r.Figures, bars)
	if c.Quick {
		quickNote(r, "E and F, builtin:ef, tested on 200 new cards within 5 px (gen:ef,n=200,seed=2,shift=5), 10 epochs, one machine")
		last := len(methods) - 1
		differs := 1.0
		if sameRun(bySeed[0][last], bySeed[0][0]) {
			differs = 0
		}
		noEffect := 0.0
		for i := 1; i < last; i++ {
			if sameRun(bySeed[0][i], bySeed[0][0]) {
				noEffect++
			}
		}
		r.Checks = append(r.Checks,
			report.NewCheck("ideal machine: training error after 10 epochs", bySeed[0][0].TrainError, 0, 0, "a machine that never learns: about 0.5"),
			report.NewCheck("ideal machine: test error", finalOf(bySeed[0][0]), 0, 0.2, "about 0.5"),
			report.NewCheck("every flaw on: test error", finalOf(bySeed[0][last]), 0, 0.3, "about 0.5"),
			report.NewCheck("every flaw on learns otherwise than the ideal machine (1 yes, 0 no)", differs, 1, 1, "flaws not applied: 0"),
			report.NewCheck("single flaws with no effect here (gamma alone among them)", noEffect, 1, float64(last-2), "flaws not applied: all of them"))
	}
	r.Data = map[string]any{"conditions": names, "runs_by_seed": bySeed}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// sameRun reports whether two runs made the same corrections and errors every epoch.
func sameRun(a, b lab.Run) bool {
	if len(a.Curve) != len(b.Curve) {
		return false
	}
	for i := range a.Curve {
		p, q := a.Curve[i], b.Curve[i]
		if p.Corrections != q.Corrections || p.TrainError != q.TrainError || (p.TestError == nil) != (q.TestError == nil) || (p.TestError != nil && *p.TestError != *q.TestError) {
			return false
		}
	}
	return true
}

func flawLabel(method string) string {
	switch method {
	case "mark1":
		return "ideal"
	case "mark1-analog":
		return "every flaw"
	}
	return method[len("mark1+"):]
}
