// Package experiment reproduces the Mark I Perceptron's reported experiments on the emulator,
// each beside the figure history reports (see Historical), with its source named and whether
// it is primary, secondary or assumed. The lab's demonstrations of the lecture notes' ideas are
// package lab/demo.
//
// Each experiment is a lab.Demo, run as every demonstration of package lab/demo is, with the
// same signature (func(ctx, lab.Config)) and parameters --seed, --seeds and (figure4) --lit,
// and its record beside it (Experiment). It returns a report.Report: its conditions, the
// record beside the measured figure with the gap explained, tables, and figures (learning
// curves, receptive fields). Runs over seeds and conditions go on all cores (lab.Parallel) and
// give the same numbers every time; each stops with its context's error when the context ends.
package experiment

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// settings are the knobs every historical experiment shares, read from its lab.Config.
type settings struct {
	// Seed is the first seed: condition runs use Seed, Seed+1, ... for their machines and
	// cards.
	Seed uint64
	// Seeds is the number of machines (wirings, spreads, card draws) per condition; 0 is the
	// experiment's own number. Figures are medians over them.
	Seeds int
	// Quick uses fewer cards and seeds: a first look in seconds (and the tests), not the
	// record's conditions; the report says so.
	Quick bool
	// Workers bounds the runs at once (0: one per core).
	Workers int
	// Progress, when not nil, is told the jobs done out of the total, one call at a time.
	Progress func(done, total int)
}

func newSettings(c lab.Config) settings {
	return settings{Seed: c.Uint("seed"), Seeds: c.Int("seeds"), Quick: c.Quick, Workers: c.Workers, Progress: c.Progress}
}

func (s settings) seed() uint64 { return s.Seed }

func (s settings) seeds(def, quick int) int {
	switch {
	case s.Seeds > 0:
		return s.Seeds
	case s.Quick:
		return quick
	}
	return def
}

// Experiment is one historical experiment: a run of the lab (its Help is the experiment's
// title) with the record it stands beside.
type Experiment struct {
	lab.Demo
	// Record is the figure history reports, briefly; Source names where, and Kind how near the
	// source stands to the event (report.Primary, ...).
	Record, Source, Kind string
}

// params are the parameters every experiment takes.
func params() []lab.Param {
	return []lab.Param{
		{Name: "seed", Kind: lab.Uint, Default: "1", Min: 1, Want: "seeds start at 1", Help: "first seed: the conditions' machines and cards use SEED, SEED+1, ..."},
		{Name: "seeds", Kind: lab.Int, Default: "0", Min: 0, Max: 1000, Help: "machines per condition (0: the experiment's own number)"},
	}
}

// quick is the experiments' quick run.
var quick = &lab.Quick{Help: "fewer cards, epochs and machines: a first look in seconds, not the record's conditions"}

// Historical lists the historical experiments, in the order of the record.
func Historical() []Experiment {
	lit := lab.Param{Name: "lit", Kind: lab.Float, Default: "0.5", Min: 0, MinOpen: true, Max: 1, MaxOpen: true, Want: "want a fraction between 0 and 1",
		Help: "fraction of the retina lit in the random patterns (Rosenblatt's R), 0 < R < 1"}
	es := []struct {
		name, title, record, source, kind string
		run                               func(context.Context, lab.Config) (*report.Report, error)
	}{
		{"letters", "Letters of one typeface, then a second typeface added", "errorless after 40 exposures per letter; 85% correct with a second typeface added", "ONR Digital Computer Newsletter, July 1960; US Navy photograph caption, 1960; both cited, not read here", report.Unverified, Letters},
		{"squares-circles", "Squares against circles", "99.8% with 500 A-units (not the Mark I's 512) and 10,000 training images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, SquaresCircles},
		{"square-diamond", "A square against a diamond", "100% with 1,000 A-units (not the Mark I's 512) and 60 images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, SquareDiamond},
		{"ef", "E against F", "over 80% with 1,000 A-units (not the Mark I's 512) and 60 images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, EF},
		{"xe", "X against E", "no figure", "no source found", report.Unverified, XE},
		{"leftright", "Cards marked left or right (IBM 704 simulation, July 1958)", "learned after about 50 trials", "New York Times, 8 July 1958", report.Primary, LeftRight},
		{"figure4", "Rosenblatt 1958, figure 4: how often an A-unit fires", "P_a against R, the proportion of the retina illuminated, in three panels", "Rosenblatt, Psychological Review, 1958", report.Primary, Figure4},
	}
	var out []Experiment
	for _, e := range es {
		d := lab.Demo{Name: e.name, Help: e.title, Usage: "[--seed N] [--seeds N] [--quick] [--json] [--out DIR]", Params: params(),
			Uses: lab.UsesWorkers, Quick: quick, Run: withChecks(e.run)}
		if e.name == "figure4" {
			d.Params = append(d.Params, lit)
		}
		out = append(out, Experiment{Demo: d, Record: e.record, Source: e.source, Kind: e.kind})
	}
	return out
}

// withChecks refuses a first seed too large to count the conditions up from, and makes run's
// report say when it was a --quick run, if it does not already.
func withChecks(run func(context.Context, lab.Config) (*report.Report, error)) func(context.Context, lab.Config) (*report.Report, error) {
	return func(ctx context.Context, c lab.Config) (*report.Report, error) {
		if c.Uint("seed") > math.MaxUint64-1000 {
			return nil, lab.ParamErrorf("--seed: too large (the conditions count up from it)")
		}
		r, err := run(ctx, c)
		if r == nil || !c.Quick {
			return r, err
		}
		for _, n := range r.Notes {
			if strings.Contains(n, "--quick") {
				return r, err
			}
		}
		r.Notes = append(r.Notes, "--quick: fewer cards, epochs or machines than the full run; the figures are a first look, not the conditions of the figures reported.")
		return r, err
	}
}

// Find returns the historical experiment of that name.
func Find(name string) (Experiment, bool) {
	for _, e := range Historical() {
		if e.Name == name {
			return e, true
		}
	}
	return Experiment{}, false
}

// subset returns the cards of set at the indices, as a new set.
func subset(set *images.Set, name string, idx []int) *images.Set {
	out := &images.Set{Name: name, Classes: set.Classes}
	for _, i := range idx {
		out.Cards = append(out.Cards, set.Cards[i])
	}
	return out
}

// timed runs f and records its wall time in the report.
func timed(f func() (*report.Report, error)) (*report.Report, error) {
	start := time.Now()
	r, err := f()
	if r != nil {
		r.Seconds = time.Since(start).Seconds()
	}
	return r, err
}

var inf = math.Inf(1)

// epochsOrInf returns an errorless epoch as a number, +Inf for none (0).
func epochsOrInf(errorless int) float64 {
	if errorless == 0 {
		return inf
	}
	return float64(errorless)
}

// genKind describes a generated kind of cards.
func genKind(name string) (string, bool) {
	for _, k := range gen.Kinds() {
		if k.Name == name {
			return k.Doc, true
		}
	}
	return "", false
}

// firstZero returns the 1-based index of the first zero in v, or 0 if none.
func firstZero(v []int) int {
	for i, x := range v {
		if x == 0 {
			return i + 1
		}
	}
	return 0
}
