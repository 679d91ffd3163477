package demo

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func compareDemo() lab.Demo {
	params := append(cardParams("", "", lab.DefaultEpochs),
		lab.Param{Name: "methods", Kind: lab.String, Help: "methods, comma-separated: " + strings.Join(lab.MethodNames()[:9], ", ") + ", mark1+FLAW; a learner may end in /ovr, /ovo or /kdisc (default: every learner, and mark1 and mark1-analog for cards)"},
		lab.Param{Name: "keep-going", Kind: lab.Bool, Help: "train every epoch even after one without a correction"},
		lab.Param{Name: "in-order", Kind: lab.Bool, Help: "present the samples in the data's order every epoch (then mark1 and perceptron make the same corrections)"},
		lab.Param{Name: "margin", Kind: lab.Float, Default: "1", Help: "the variable-increment rule's margin b"},
		lab.Param{Name: "eta", Kind: lab.Float, Default: "1", Help: "the perceptron rules' first increment eta(1)"},
		lab.Param{Name: "schedule", Kind: lab.String, Default: "1/k", Help: "the variable-increment rule's eta(k): const, 1/k or 1/sqrt(k)"})
	params[0].Problems, params[1].Problems = true, true
	return lab.Demo{Name: "compare", Help: "learners and the Mark I on the same features, side by side",
		Args: "--data SPEC [--test SPEC] [--methods LIST]", Usage: "--data SPEC [--test SPEC] [--methods LIST] [--epochs N] [machine flags]",
		Params: params, Uses: lab.UsesMachine | lab.UsesCards | lab.UsesWorkers, Run: runCompare}
}

// runCompare runs the methods on the cards' features or on a problem of features.
func runCompare(ctx context.Context, c lab.Config) (*report.Report, error) {
	sched, err := learn.ParseSchedule(c.String("schedule"))
	if err != nil {
		return nil, lab.ParamErrorf("--schedule: %s", strings.TrimPrefix(err.Error(), "learn: "))
	}
	margin, eta := c.Float("margin"), c.Float("eta")
	if !(margin >= 0) || !(eta > 0) || margin > 1e12 || eta > 1e12 {
		return nil, lab.ParamErrorf("--margin %v, --eta %v: want margin >= 0 and eta > 0", margin, eta)
	}
	var p *lab.Dataset
	if train := c.Problem("data"); train != nil {
		test := c.String("test")
		if test != "" && c.Problem("test") == nil {
			return nil, lab.ParamErrorf("--test: a problem of features is tested on a problem (problem:NAME,seed=...)")
		}
		p = &lab.Dataset{Name: c.String("data"), Train: train, Test: c.Problem("test")}
		if p.Test != nil && (p.Test.Dim() != train.Dim() || p.Test.K() != train.K()) {
			return nil, lab.ParamErrorf("--test %s: %d features and %d classes, the training problem has %d and %d", test, p.Test.Dim(), p.Test.K(), train.Dim(), train.K())
		}
	} else {
		if c.Problem("test") != nil {
			return nil, lab.ParamErrorf("--test %s: cards are tested on cards, not on a problem of features", c.String("test"))
		}
		train, test := c.Cards("data"), c.Cards("test")
		if err := testClasses(c, train, test); err != nil {
			return nil, err
		}
		// The learners work on the A-unit states of every card, one float64 each.
		board, err := machine.BuildBoard(c.Machine)
		if err != nil {
			return nil, err
		}
		cards := len(train.Cards)
		if test != nil {
			cards += len(test.Cards)
		}
		if c.Reserve != nil {
			if err := c.Reserve("the A-unit features", int64(cards)*int64(board.Len())*8); err != nil {
				return nil, err
			}
		}
		if p, err = lab.NewCardDataset(c.Machine, train, test); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	list := c.String("methods")
	if list == "" {
		list = "perceptron,batch,variable,pocket,lsq,fisher"
		if p.Config != nil {
			list += ",mark1,mark1-analog"
		}
	}
	ms, err := lab.ParseMethods(list)
	if err != nil {
		return nil, lab.ParamErrorf("--methods: %s", strings.TrimPrefix(err.Error(), "lab: "))
	}
	for _, m := range ms {
		if m.Rule == "mark1" && p.Config == nil {
			return nil, lab.ParamErrorf("--methods %s: the Mark I learns cards, not a problem of features", m.Name)
		}
	}
	// The learners shuffle with the machine's seed, or 1 for a problem of features.
	seed := uint64(1)
	if p.Config != nil {
		seed = p.Config.Seed
	}
	o := lab.Options{Epochs: c.Int("epochs"), KeepGoing: c.Bool("keep-going"), Seed: seed, InOrder: c.Bool("in-order"), Eta: eta, Margin: margin, Schedule: sched,
		Workers: c.Workers, Progress: c.Progress}
	runs, err := lab.Compare(ctx, p, ms, o)
	if err != nil {
		return nil, err
	}
	return compareReport(p, runs, o), nil
}

// compareReport makes the report of lab.Compare's runs on p: a table of each method's
// errors, corrections and time, the learning curves, and, for a problem of two features, each
// learner's decision boundary (two classes) or regions (more).
func compareReport(p *lab.Dataset, runs []lab.Run, o lab.Options) *report.Report {
	r := &report.Report{Name: "compare", Title: "Methods compared on " + p.Name}
	r.Summary = "Each method learns the same training samples; the learners work on the features (the ideal machine's A-unit states for cards), the mark1 methods train the Mark I itself on the cards. Errors are fractions of the samples misclassified; a correction is one update of one discriminant (one R-unit)."
	r.Condition("training", fmt.Sprintf("%s: %s, %s, %s", p.Name, english.Count(p.Train.Len(), "sample"), english.Count(p.Train.Dim(), "feature"), english.Count(p.Train.K(), "class")))
	if p.Test != nil {
		name := "test samples"
		if p.TestCards != nil {
			name = p.TestCards.Name
		}
		r.Condition("test", fmt.Sprintf("%s: %s", name, english.Count(p.Test.Len(), "sample")))
	}
	if p.Config != nil {
		r.Condition("machine", fmt.Sprintf("%s wiring, %s, seed %d", p.Config.Wiring, english.Count(p.Train.Dim(), "A-unit"), p.Config.Seed))
	}
	// What each run is: its rule, and whether it is a closed form or the analog machine.
	var closed, iterative, variable []string
	for _, run := range runs {
		m, _ := lab.ParseMethod(run.Method)
		switch {
		case run.ClosedForm():
			closed = append(closed, run.Method)
		default:
			iterative = append(iterative, run.Method)
		}
		if m.Rule == "variable" {
			variable = append(variable, run.Method)
		}
	}
	if len(iterative) > 0 {
		order := "shuffled each epoch (from the seed)"
		if o.InOrder {
			order = "in the data's order every epoch (mark1 and perceptron then make the same corrections)"
		}
		r.Condition("epochs", fmt.Sprintf("at most %d, stopping after an epoch without a correction unless --keep-going; samples %s", max(o.Epochs, 1), order))
	}
	if len(variable) > 0 {
		r.Condition("variable increment", fmt.Sprintf("margin b = %g, eta(k) = %s", o.Margin, etaText(o.Eta, o.Schedule)))
	}
	table := &report.Table{Name: "runs", Title: "Results", Columns: []string{"method", "training error", "test error", "corrections", "epochs", "converged", "seconds"}}
	train := &plot.Figure{Name: "training-error", Title: "Training error after each epoch", XLabel: "epoch", YLabel: "training error",
		Caption: "closed forms (least squares, Fisher) are levels"}
	test := &plot.Figure{Name: "test-error", Title: "Test error after each epoch", XLabel: "epoch", YLabel: "test error"}
	maxEpoch := 1
	for _, run := range runs {
		maxEpoch = max(maxEpoch, run.Epochs)
	}
	for i, run := range runs {
		te := "-"
		if run.TestError != nil {
			te = report.Pct(*run.TestError)
		}
		epochs, converged := fmt.Sprint(run.Epochs), fmt.Sprint(run.Converged)
		if run.ClosedForm() {
			epochs, converged = "-", "-"
		}
		table.AddRow(run.Method, report.Pct(run.TrainError), te, run.Corrections, epochs, converged, fmt.Sprintf("%.2g", run.Seconds))
		if run.Epochs == 0 {
			train.Series = append(train.Series, plot.Series{Name: run.Method, X: []float64{1, float64(maxEpoch)}, Y: []float64{run.TrainError, run.TrainError}, Dashed: true, Style: i + 1})
			if run.TestError != nil {
				test.Series = append(test.Series, plot.Series{Name: run.Method, X: []float64{1, float64(maxEpoch)}, Y: []float64{*run.TestError, *run.TestError}, Dashed: true, Style: i + 1})
			}
			continue
		}
		train.Series = append(train.Series, curveSeries(run.Method, run, false, i+1))
		if run.TestError != nil {
			s := curveSeries(run.Method, run, true, i+1)
			s.Dashed = false
			test.Series = append(test.Series, s)
		}
	}
	table.Note = compareNote(runs, closed, iterative, variable)
	r.Tables = append(r.Tables, table)
	r.Figures = append(r.Figures, train)
	if p.Test != nil {
		r.Figures = append(r.Figures, test)
	}
	if p.Train.Dim() == 2 {
		r.Figures = append(r.Figures, boundaryFigures(p, runs)...)
	}
	r.Data = runs
	return r
}

// compareNote explains the table of runs: what "converged" means and of which methods, why a
// method may correct with no training error or err after a clean epoch, and the seconds.
func compareNote(runs []lab.Run, closed, iterative, variable []string) string {
	var notes []string
	if len(iterative) > 0 {
		notes = append(notes, "Converged: the last epoch made no correction.")
	}
	if len(closed) > 0 {
		verb := "is a closed form"
		if len(closed) > 1 {
			verb = "are closed forms"
		}
		notes = append(notes, fmt.Sprintf("%s %s, computed at once: no epochs, nothing to converge (-).", english.List(closed), verb))
	}
	if len(variable) > 0 {
		notes = append(notes, fmt.Sprintf("%s corrects every sample within the margin b of its boundary, right or wrong: it may make corrections with no training error.", english.List(variable)))
	}
	for _, run := range runs {
		m, _ := lab.ParseMethod(run.Method)
		// The ideal machine answers the same every time: a clean epoch leaves no card wrong.
		if m.Rule != "mark1" || m.Flaws == "none" || !run.Converged || run.TrainError == 0 {
			continue
		}
		notes = append(notes, fmt.Sprintf("%s: its last epoch made no correction, yet %s of the training cards come out wrong when shown again: the analog machine answers each presentation afresh (its photocells' noise, their after-image of the card before, its pots' drift), so a card near the threshold can fall either way (the ideal mark1 answers the same every time).", run.Method, report.Pct(run.TrainError)))
	}
	notes = append(notes, "The seconds are wall time on this computer: the one column that changes from run to run.")
	return strings.Join(notes, " ")
}

// etaText writes eta(k) = Eta * f(k) as a formula: "1", "1/k", "0.5/sqrt(k)".
func etaText(eta float64, s learn.Schedule) string {
	if eta <= 0 {
		eta = 1
	}
	e := fmt.Sprintf("%g", eta)
	switch s {
	case learn.InverseK:
		return e + "/k"
	case learn.InverseSqrtK:
		return e + "/sqrt(k)"
	}
	return e + " (constant)"
}

// boundaryFigures draws two-feature problems: every learner's boundary on one plot for two
// classes, or each learner's class regions for more.
func boundaryFigures(p *lab.Dataset, runs []lab.Run) []*plot.Figure {
	var out []*plot.Figure
	if p.Train.K() == 2 {
		f := &plot.Figure{Name: "boundaries", Title: "Decision boundaries", XLabel: "x1", YLabel: "x2", Caption: "the training samples and each learner's line g(x) = 0"}
		f.Series = classPoints(p.Train)
		for i, run := range runs {
			m, ok := run.Classifier.(*learn.Multi)
			if !ok || len(m.Units) != 1 {
				continue
			}
			w := m.Units[0].W
			f.Boundaries = append(f.Boundaries, plot.Boundary{Name: run.Method, W: [3]float64{w[0], w[1], w[2]}, Style: i + 3})
		}
		return append(out, f)
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, x := range p.Train.X {
		xmin, xmax, ymin, ymax = min(xmin, x[0]), max(xmax, x[0]), min(ymin, x[1]), max(ymax, x[1])
	}
	padX, padY := float64((xmax-xmin)*0.08), float64((ymax-ymin)*0.08)
	xmin, xmax, ymin, ymax = xmin-padX, xmax+padX, ymin-padY, ymax+padY
	const n = 80
	for _, run := range runs {
		if run.Classifier == nil {
			continue
		}
		reg := &plot.Regions{Cols: n, Rows: n, XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax}
		for row := range n {
			y := ymin + float64((ymax-ymin)*(float64(row)+0.5))/n
			for col := range n {
				x := xmin + float64((xmax-xmin)*(float64(col)+0.5))/n
				reg.Class = append(reg.Class, run.Classifier.Predict([]float64{x, y}))
			}
		}
		f := &plot.Figure{Name: "regions-" + fileName(run.Method), Title: "Class regions: " + run.Method, XLabel: "x1", YLabel: "x2", Regions: reg,
			Caption: "the plane coloured by the class the learner answers, with the training samples"}
		f.Series = classPoints(p.Train)
		out = append(out, f)
	}
	return out
}

// fileName turns a method's name into a file name stem.
func fileName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			b[i] = '-'
		}
	}
	return string(b)
}
