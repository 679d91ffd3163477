// Package experiment reproduces the Mark I Perceptron's reported experiments on the emulator,
// each beside the figure history reports (see Historical), with its source named and whether
// it is primary, secondary or assumed. The lab's demonstrations of the lecture notes' ideas are
// package lab/demo.
//
// Every experiment returns a report.Report: its conditions, the record beside the measured
// figure with the gap explained, tables, and figures (learning curves, receptive fields).
// Runs over seeds and conditions go on all cores (lab.Parallel) and give the same numbers
// every time.
package experiment

import (
	"context"
	"math"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// Settings are the knobs every historical experiment shares.
type Settings struct {
	// Seed is the first seed: condition runs use Seed, Seed+1, ... for their machines and
	// cards (default 1).
	Seed uint64
	// Seeds is the number of machines (wirings, spreads, card draws) per condition; 0 is the
	// experiment's own number. Figures are medians over them.
	Seeds int
	// Quick uses fewer cards and seeds: a first look in seconds (and the tests), not the
	// record's conditions; the report says so.
	Quick bool
	// Lit is the fraction of the retina lit in figure 4's random patterns, Rosenblatt's R
	// (0: 0.5).
	Lit float64
	// Workers bounds the runs at once (0: one per core).
	Workers int
	// Progress, when not nil, is told the jobs done out of the total, one call at a time.
	Progress func(done, total int)
}

func (s Settings) seed() uint64 {
	if s.Seed == 0 {
		return 1
	}
	return s.Seed
}

func (s Settings) seeds(def, quick int) int {
	switch {
	case s.Seeds > 0:
		return s.Seeds
	case s.Quick:
		return quick
	}
	return def
}

// Experiment is one historical experiment.
type Experiment struct {
	Name  string
	Title string
	// Record is the figure history reports, briefly; Source names where, and Kind how near the
	// source stands to the event (report.Primary, ...).
	Record, Source, Kind string
	Run                  func(ctx context.Context, s Settings) (*report.Report, error)
}

// Historical lists the historical experiments, in the order of the record.
func Historical() []Experiment {
	es := []Experiment{
		{"letters", "Letters of one typeface, then a second typeface added", "errorless after 40 exposures per letter; 85% correct with a second typeface added", "ONR Digital Computer Newsletter, July 1960; US Navy photograph caption, 1960", report.Primary, Letters},
		{"squares-circles", "Squares against circles", "99.8% with 500 A-units (not the Mark I's 512) and 10,000 training images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, SquaresCircles},
		{"square-diamond", "A square against a diamond", "100% with 1,000 A-units (not the Mark I's 512) and 60 images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, SquareDiamond},
		{"ef", "E against F", "over 80% with 1,000 A-units (not the Mark I's 512) and 60 images", "Wikipedia, \"Mark I Perceptron\"", report.Tertiary, EF},
		{"xe", "X against E", "no figure", "no source found", report.Unverified, XE},
		{"leftright", "Cards marked left or right (the IBM 704 simulation, July 1958)", "learned after about 50 trials", "New York Times, 8 July 1958", report.Primary, LeftRight},
		{"figure4", "Rosenblatt 1958, figure 4: how often an A-unit fires", "P_a against R, the proportion of the retina illuminated, in three panels", "Rosenblatt, Psychological Review, 1958", report.Primary, Figure4},
	}
	for i := range es {
		es[i].Run = withQuickNote(es[i].Run)
	}
	return es
}

// withQuickNote makes run's report say when it was a --quick run, if it does not already.
func withQuickNote(run func(context.Context, Settings) (*report.Report, error)) func(context.Context, Settings) (*report.Report, error) {
	return func(ctx context.Context, s Settings) (*report.Report, error) {
		r, err := run(ctx, s)
		if r == nil || !s.Quick {
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
