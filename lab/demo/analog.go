package demo

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

// CardsConfig is what the demonstrations on the Mark I itself need: cards to train on, cards
// to test on (optional), the machine, and how long to train.
type CardsConfig struct {
	Train, Test *images.Set
	// Machine is the machine as the command line built it (its flaws, seed, wiring, A-units);
	// the R-units and coding are set per problem (lab.MachineConfig).
	Machine machine.Config
	Epochs  int // default 20
	// Seeds is the number of machines (wirings, spreads, orders) per condition, for the
	// demonstrations that compare conditions (default 3); figures are medians.
	Seeds int
	// Quick runs the demonstration's quick run: its own cards, epochs and machines (Train,
	// Test, Epochs and Seeds are replaced), in seconds, with checks (report.Check) that the
	// tests hold.
	Quick    bool
	Workers  int
	Progress func(done, total int)
}

// quick sets the quick run's cards (by their specs), epochs and machines.
func (c *CardsConfig) quick(train, test string, epochs, seeds int) error {
	load := func(spec string) (*images.Set, error) {
		if name, ok := strings.CutPrefix(spec, "builtin:"); ok {
			return lab.BuiltinSet(name)
		}
		set, err := lab.GenSet(strings.TrimPrefix(spec, "gen:"))
		if set != nil {
			set.Name = spec
		}
		return set, err
	}
	var err error
	if c.Train, err = load(train); err != nil {
		return err
	}
	c.Test = nil
	if test != "" {
		if c.Test, err = load(test); err != nil {
			return err
		}
	}
	c.Epochs, c.Seeds = epochs, seeds
	return nil
}

// quickNote is the note of a demonstration's quick run.
func quickNote(r *report.Report, what string) {
	r.Notes = append(r.Notes, "--quick: "+what+"; the checks below hold its figures in the bands a working machine keeps them in.")
}

func (c *CardsConfig) defaults() {
	if c.Epochs <= 0 {
		c.Epochs = 20
	}
	if c.Machine.RUnits == 0 {
		c.Machine = machine.Default()
	}
	if c.Seeds <= 0 {
		c.Seeds = 3
	}
}

func (c *CardsConfig) conditions(r *report.Report) {
	r.Condition("training cards", fmt.Sprintf("%s: %s, %s", c.Train.Name, english.Count(len(c.Train.Cards), "card"), english.Count(len(c.Train.Classes), "class")))
	if c.Test != nil {
		r.Condition("test cards", fmt.Sprintf("%s: %s", c.Test.Name, english.Count(len(c.Test.Cards), "card")))
	}
}

// Flaws trains the Mark I ideal, then with each analog flaw alone, then with all of them
// (as c.Machine has them), for c.Epochs epochs each, on c.Seeds machines each, and compares
// their learning.
func Flaws(ctx context.Context, c CardsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:ef", "gen:ef,n=200,seed=2,shift=5", 10, 1); err != nil {
			return nil, err
		}
	}
	c.defaults()
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

// curveSeries is a run's training (or test) error after each epoch.
func curveSeries(name string, run lab.Run, test bool, style int) plot.Series {
	s := plot.Series{Name: name, Style: style, Dashed: test}
	for _, p := range run.Curve {
		v := p.TrainError
		if test {
			if p.TestError == nil {
				continue
			}
			v = *p.TestError
		}
		s.X, s.Y = append(s.X, float64(p.Epoch)), append(s.Y, v)
	}
	return s
}

// ForgetConfig sets up the forgetting demonstration.
type ForgetConfig struct {
	CardsConfig
	// Hours are the machine-hours of idling tested (default 1, 10, 100, 1000, 10000).
	Hours []float64
}

// forgetRow is one machine after one idle time.
type forgetRow struct {
	Machine    string   `json:"machine"`
	Hours      float64  `json:"hours"`
	TrainError float64  `json:"train_error"`
	TestError  *float64 `json:"test_error,omitempty"`
	Drift      float64  `json:"pot_drift_rms"` // RMS change of the pot readings, in increments
}

// Forget trains the Mark I, then lets it stand idle, switched on with no cards, for
// machine-hours (machine.Idle: the wipers creep, the racks warm, the cells rest), and
// measures what it has forgotten: its errors and how far its pots have moved. Machines with
// every flaw, with only the wiper's or the track's drift, and ideal.
func Forget(ctx context.Context, c ForgetConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:ef", "", 100, 1); err != nil {
			return nil, err
		}
		c.Hours = []float64{100, 10000}
	}
	c.defaults()
	if len(c.Hours) == 0 {
		c.Hours = []float64{1, 10, 100, 1000, 10000}
	}
	for _, h := range c.Hours {
		if !(h >= 0) || float64(h*3600) > machine.MaxIdle || math.IsInf(h, 0) {
			return nil, fmt.Errorf("experiment: idle %v hours: want 0 to %.0f", h, machine.MaxIdle/3600)
		}
	}
	kinds := []struct{ name, flaws string }{{"every flaw", "all"}, {"wiper drift alone", "wiper_drift"}, {"track drift alone", "track_drift"}, {"ideal", "none"}}
	prog := lab.NewProgress(c.Progress, len(kinds))
	rows, err := lab.Parallel(ctx, len(kinds), c.Workers, func(int) { prog.Add(1) }, func(ctx context.Context, k int) ([]forgetRow, error) {
		cfg, err := lab.MachineConfig(c.Machine, len(c.Train.Classes), kinds[k].flaws)
		if err != nil {
			return nil, err
		}
		m, err := machine.New(cfg, c.Train.Classes)
		if err != nil {
			return nil, err
		}
		deck, err := m.Prepare(c.Train)
		if err != nil {
			return nil, err
		}
		decks := []*machine.Deck{deck}
		if c.Test != nil {
			td, err := m.Prepare(c.Test)
			if err != nil {
				return nil, err
			}
			decks = append(decks, td)
		}
		if _, _, err := lab.TrainCurve(ctx, m, deck, c.Epochs, false, func(int) bool { return false }); err != nil {
			return nil, err
		}
		before := potReadings(m)
		var out []forgetRow
		for _, h := range append([]float64{0}, c.Hours...) {
			idle, err := m.Clone()
			if err != nil {
				return nil, err
			}
			if err := idle.Idle(float64(h * 3600)); err != nil {
				return nil, err
			}
			res, err := lab.Evaluate(idle, decks...)
			if err != nil {
				return nil, err
			}
			row := forgetRow{Machine: kinds[k].name, Hours: h, TrainError: errorRate(res[0]), Drift: rmsDiff(before, potReadings(idle))}
			if len(res) > 1 {
				te := errorRate(res[1])
				row.TestError = &te
			}
			out = append(out, row)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "forget", Title: "Forgetting: a trained Mark I left standing"}
	r.Summary = "The motor-driven potentiometers hold their settings with the power off, but switched on they creep: the emulator's wipers and tracks drift with machine time. Each machine is trained, then copies of it stand idle for so many machine-hours (no cards shown) before they are tested."
	c.conditions(r)
	r.Condition("machines", "the Mark I with every flaw on, with only the wiper's drift, with only the track's drift, and ideal (no drift)")
	r.Condition("training", fmt.Sprintf("alpha rule, until an errorless epoch or %s", english.Count(c.Epochs, "epoch")))
	var hours []string
	for _, h := range c.Hours {
		hours = append(hours, hoursText(h))
	}
	r.Condition("idle", fmt.Sprintf("%s machine-hours (a presentation is 3 s, the original's pace as assumed; 10,000 hours is over a year)", english.List(hours)))
	table := &report.Table{Name: "forget", Title: "Errors and pot drift after idling", Columns: []string{"machine", "hours idle", "training error", "test error", "pot drift (RMS, increments)"}}
	errFig := &plot.Figure{Name: "forgetting", Title: "Error after idling", XLabel: "machine-hours idle", YLabel: "error", LogX: true,
		Caption: "the error of each machine after standing idle (log axis); each machine was trained on its own, and its error before idling is in the table (0 hours)"}
	driftFig := &plot.Figure{Name: "drift", Title: "How far the pots have moved", XLabel: "machine-hours idle", YLabel: "RMS change of the pot readings (increments)", LogX: true, LogY: true,
		Caption: "root mean square over every pot of the change in its reading since training ended"}
	for k, rs := range rows {
		s := plot.Series{Name: kinds[k].name, Style: k + 1}
		d := plot.Series{Name: kinds[k].name, Style: k + 1}
		for _, row := range rs {
			te := "-"
			v := row.TrainError
			if row.TestError != nil {
				te, v = report.Pct(*row.TestError), *row.TestError
			}
			table.AddRow(row.Machine, strconv.FormatFloat(row.Hours, 'f', -1, 64), report.Pct(row.TrainError), te, row.Drift)
			if row.Hours > 0 {
				s.X, s.Y = append(s.X, row.Hours), append(s.Y, v)
				d.X, d.Y = append(d.X, row.Hours), append(d.Y, row.Drift)
			}
		}
		errFig.Series = append(errFig.Series, s)
		driftFig.Series = append(driftFig.Series, d)
	}
	if c.Test != nil {
		errFig.YLabel = "test error"
	}
	table.Note = "The ideal machine's pots do not drift; its rows show the errors any drift is measured against. The track's drift changes a whole rack's gain as it warms up (mark1 config): it scales an R-unit's sum, so it can move a decision only between R-units (with a single R-unit, never); it does not show in the pots' readings."
	r.Tables = append(r.Tables, table)
	r.Figures = append(r.Figures, errFig, driftFig)
	if c.Quick {
		quickNote(r, "E and F, builtin:ef, trained until errorless (at most 100 epochs), idle 100 and 10,000 hours")
		all, ideal := rows[0], rows[3]
		r.Checks = append(r.Checks,
			report.NewCheck("every flaw: training error before idling", all[0].TrainError, 0, 0.05, "a machine that never learns: about 0.5"),
			report.NewCheck("every flaw: pot drift after 100 hours (RMS, increments)", all[1].Drift, 0.1, 2, "no drift: 0"),
			report.NewCheck("every flaw: pot drift after 10,000 hours (RMS, increments)", all[2].Drift, 2, 20, "no drift: 0"),
			report.NewCheck("every flaw: training error after 10,000 hours", all[2].TrainError, 0.05, 0.5, "no forgetting: as before idling"),
			report.NewCheck("ideal machine: pot drift after 10,000 hours", ideal[2].Drift, 0, 0, "an ideal machine that drifts: above 0"))
	}
	r.Data = rows
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// hoursText writes a number of hours for people: "10,000", "0.5".
func hoursText(h float64) string {
	if h == math.Trunc(h) && math.Abs(h) < 1e15 {
		return report.Thousands(int(h))
	}
	return strconv.FormatFloat(h, 'g', -1, 64)
}

func errorRate(r machine.Result) float64 {
	if r.Cards == 0 {
		return 0
	}
	return float64(r.Cards-r.Correct) / float64(r.Cards)
}

// potReadings returns every R-unit's pot readings, one after the other.
func potReadings(m *machine.Machine) []float64 {
	var out []float64
	for r := range m.RUnits() {
		out = m.Weights(out, r)
	}
	return out
}

func rmsDiff(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += float64(d * d)
	}
	return math.Sqrt(s / float64(len(a)))
}
