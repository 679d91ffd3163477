package demo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

// cardParams are the parameters of a demonstration on the Mark I itself: the cards to train
// on and to test on, with their defaults, and how long to train.
func cardParams(data, test string, epochs int) []lab.Param {
	return []lab.Param{
		{Name: "data", Kind: lab.Cards, Default: data, Required: true, Help: "cards to train on: builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder", QuickSets: true},
		{Name: "test", Kind: lab.Cards, Default: test, DefaultWith: "data", Help: "cards to test on (same forms; \"none\" for none; the default only goes with the default --data)", QuickSets: true},
		{Name: "epochs", Kind: lab.Int, Default: strconv.Itoa(epochs), Min: 1, Max: 100000, Help: "most epochs of training", QuickSets: true},
		{Name: "seeds", Kind: lab.Int, Default: "3", Min: 1, Max: 1000, Help: "machines per condition, seeds SEED, SEED+1, ... (flaws, aunits); figures are medians", QuickSets: true},
	}
}

// cardRun runs a demonstration on the Mark I itself with the cards the host loaded (none for
// the quick run, which loads its own).
func cardRun(run func(context.Context, cardsConfig) (*report.Report, error)) func(context.Context, lab.Config) (*report.Report, error) {
	return func(ctx context.Context, c lab.Config) (*report.Report, error) {
		cc, err := newCardsConfig(c)
		if err != nil {
			return nil, err
		}
		return run(ctx, cc)
	}
}

// newCardsConfig reads a demonstration's cards and training from its settings.
func newCardsConfig(c lab.Config) (cardsConfig, error) {
	cc := cardsConfig{Machine: c.Machine, Epochs: c.Int("epochs"), Seeds: c.Int("seeds"), Quick: c.Quick, Workers: c.Workers, Progress: c.Progress}
	if c.Quick {
		return cc, nil
	}
	cc.Train, cc.Test = c.Cards("data"), c.Cards("test")
	return cc, testClasses(c, cc.Train, cc.Test)
}

// testClasses refuses test cards of a class the training cards do not have.
func testClasses(c lab.Config, train, test *images.Set) error {
	if test == nil {
		return nil
	}
	var unknown []string
	for _, cl := range test.Classes {
		if !slices.Contains(train.Classes, cl) {
			unknown = append(unknown, strconv.Quote(cl))
		}
	}
	if len(unknown) > 0 {
		return lab.ParamErrorf("--test %s: classes %s are not among the training classes of --data %s", c.String("test"), english.Brief(unknown), c.String("data"))
	}
	return nil
}

// cardsConfig is what the demonstrations on the Mark I itself need: cards to train on, cards
// to test on (optional), the machine, and how long to train.
type cardsConfig struct {
	Train, Test *images.Set
	// Machine is the machine as the command line built it (its flaws, seed, wiring, A-units);
	// the R-units and coding are set per problem (lab.MachineConfig).
	Machine machine.Config
	Epochs  int
	// Seeds is the number of machines (wirings, spreads, orders) per condition, for the
	// demonstrations that compare conditions; figures are medians.
	Seeds int
	// Quick runs the demonstration's quick run: its own cards, epochs and machines (Train,
	// Test, Epochs and Seeds are replaced), in seconds, with checks (report.Check) that the
	// tests hold.
	Quick    bool
	Workers  int
	Progress func(done, total int)
}

// quick sets the quick run's cards (by their specs), epochs and machines.
func (c *cardsConfig) quick(train, test string, epochs, seeds int) error {
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

func (c *cardsConfig) conditions(r *report.Report) {
	r.Condition("training cards", fmt.Sprintf("%s: %s, %s", c.Train.Name, english.Count(len(c.Train.Cards), "card"), english.Count(len(c.Train.Classes), "class")))
	if c.Test != nil {
		r.Condition("test cards", fmt.Sprintf("%s: %s", c.Test.Name, english.Count(len(c.Test.Cards), "card")))
	}
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
