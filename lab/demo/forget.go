package demo

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func forgetDemo() lab.Demo {
	hours := lab.Param{Name: "hours", Kind: lab.Floats, Default: "1,10,100,1000,10000", Min: 0, Max: machine.MaxIdle / 3600,
		Want: fmt.Sprintf("want 0 to %.0f", machine.MaxIdle/3600), Help: "machine-hours of idling to test, comma-separated", QuickSets: true}
	return lab.Demo{Name: "forget", Help: "a trained machine left idle for machine-hours forgets",
		Args: "[--data SPEC --test SPEC --hours LIST]", Usage: "[--data SPEC] [--test SPEC] [--hours LIST] [--quick] [machine flags]",
		Params: append(cardParams("builtin:letters", "gen:letters,n=520,seed=2,shift=4", 100), hours),
		Uses:   lab.UsesMachine | lab.UsesCards | lab.UsesWorkers, Quick: lessonQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			cc, err := newCardsConfig(c)
			if err != nil {
				return nil, err
			}
			return forgetReport(ctx, forgetConfig{cardsConfig: cc, Hours: c.Floats("hours")})
		}}
}

// forgetConfig sets up the forgetting demonstration.
type forgetConfig struct {
	cardsConfig
	// Hours are the machine-hours of idling tested.
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

// forgetReport trains the Mark I, then lets it stand idle, switched on with no cards, for
// machine-hours (machine.Idle: the wipers creep, the racks warm, the cells rest), and
// measures what it has forgotten: its errors and how far its pots have moved. Machines with
// every flaw, with only the wiper's or the track's drift, and ideal.
func forgetReport(ctx context.Context, c forgetConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:ef", "", 100, 1); err != nil {
			return nil, err
		}
		c.Hours = []float64{100, 10000}
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
