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

func fieldsDemo() lab.Demo {
	return lab.Demo{Name: "fields", Help: "what each R-unit has learned, carried back onto the retina",
		Args: "[--data SPEC]", Usage: "[--data SPEC] [--epochs N] [--quick] [machine flags]",
		Params: cardParams("builtin:leftright", "none", 100),
		Uses:   lab.UsesMachine | lab.UsesCards | lab.UsesWorkers, Quick: lessonQuick,
		Run: cardRun(fieldsReport)}
}

// fieldsReport trains the ideal Mark I on c.Train and shows what each R-unit has learned: its
// weights carried back through the plug-board onto the retina (lab.ReceptiveField), beside
// the mean card of each class as the retina sees it.
func fieldsReport(ctx context.Context, c cardsConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		if err := c.quick("builtin:leftright", "", 100, 1); err != nil {
			return nil, err
		}
	}
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
