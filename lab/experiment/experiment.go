// Package experiment reproduces the Mark I Perceptron's reported experiments on the emulator,
// each beside the figure history reports (see Historical), and holds the lab's
// demonstrations of the lecture notes' ideas: the perceptron convergence theorem, the
// perceptron cycling on data no line separates while the pocket keeps its best, least squares
// and outliers, the analog machine's flaws one at a time, forgetting, why random A-units help,
// and what each R-unit has learned.
//
// Every experiment returns a report.Report: its conditions, the record beside the measured
// figure with the gap explained, tables, and figures (learning curves, decision boundaries,
// receptive fields). Runs over seeds and conditions go on all cores (lab.Parallel) and give
// the same numbers every time.
package experiment

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
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

// progress counts jobs done for Settings.Progress.
type progress struct {
	mu          sync.Mutex
	done, total int
	f           func(done, total int)
}

func newProgress(f func(int, int), total int) *progress { return &progress{total: total, f: f} }

func (p *progress) add(n int) {
	if p == nil || p.f == nil {
		return
	}
	p.mu.Lock()
	p.done += n
	p.f(min(p.done, p.total), p.total)
	p.mu.Unlock()
}

// genSet draws a generated set.
func genSet(spec string) (*images.Set, error) {
	s, err := gen.Parse(spec)
	if err != nil {
		return nil, err
	}
	return gen.Generate(s)
}

// subset returns the cards of set at the indices, as a new set.
func subset(set *images.Set, name string, idx []int) *images.Set {
	out := &images.Set{Name: name, Classes: set.Classes}
	for _, i := range idx {
		out.Cards = append(out.Cards, set.Cards[i])
	}
	return out
}

func loadBuiltin(name string) (*images.Set, error) {
	s, err := builtin.Load(name)
	if err != nil {
		return nil, err
	}
	s.Name = "builtin:" + name
	return s, nil
}

// median returns the median of v (the mean of the middle two for an even count), NaN for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// pct formats a fraction as a percentage.
func pct(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", float64(100*f))
}

// spread formats the median and range of fractions as percentages: "97.5% (95.0-99.0%)".
func spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	if slices.Min(v) == slices.Max(v) {
		return pct(v[0])
	}
	return fmt.Sprintf("%s (%s-%s)", pct(median(v)), strings.TrimSuffix(pct(slices.Min(v)), "%"), pct(slices.Max(v)))
}

// mediansNote begins a table's note: how its figures sum up the n machines (wirings, ...) of
// each condition, what naming one of them.
func mediansNote(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("One %s per condition: its own figures, no medians or ranges (--seeds 3 or more gives them).", what)
	}
	return fmt.Sprintf("Medians over the %s, ranges in brackets.", english.Count(n, what))
}

// medianOf returns s, the words that say a figure is a median, when there are n > 1 machines to
// take it over, and "" for one.
func medianOf(n int, s string) string {
	if n == 1 {
		return ""
	}
	return s
}

// perCondition says how many machines each condition has and their seeds, with what the seed
// draws: "3 (seeds 1-3: wiring, noise); figures are medians", "1 (seed 1: wiring, noise)".
func perCondition(n int, first uint64, draws string) string {
	s := fmt.Sprintf("%d (%s", n, english.Span("seed", first, n))
	if draws != "" {
		s += draws
	}
	s += ")"
	if n > 1 {
		s += "; figures are medians"
	}
	return s
}

// describeMachine says what a machine configuration is, for the conditions.
func describeMachine(c machine.Config) string {
	flaws := "every analog flaw on"
	if c.IsIdeal() {
		flaws = "ideal (no analog flaw)"
	}
	rule := c.Rule.String() + " rule"
	if c.Rule == machine.Alpha {
		// The 1958 paper's alpha system gains on every reinforcement; the machine's is the 1962 one.
		rule = "alpha rule (error correction, its 1962 sense)"
	}
	return fmt.Sprintf("%s A-units (x, y, theta) = (%d, %d, %d), %s, %s, %s", thousands(c.MarkI.AUnits), c.MarkI.Exc, c.MarkI.Inh, c.MarkI.Theta, english.Count(c.RUnits, "R-unit"), rule, flaws)
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

// evalPoint is an evaluation of a copy of the machine after an epoch: the error rate on each
// deck evaluated.
type evalPoint struct {
	Epoch int       `json:"epoch"`
	Err   []float64 `json:"error"`
}

// everyEpoch evaluates after every epoch.
func everyEpoch(int) bool { return true }

// logEpochs evaluates after every epoch up to 20, then every 5th up to 100, every 20th after
// (and at the epochs listed): enough for curves on a logarithmic axis, at a fraction of the
// cost (a machine's copy is not free).
func logEpochs(also ...int) func(int) bool {
	return func(e int) bool {
		for _, a := range also {
			if e == a {
				return true
			}
		}
		return e <= 20 || (e <= 100 && e%5 == 0) || e%20 == 0
	}
}

// trainCurve trains m on deck for at most maxEpochs, stopping after the first errorless epoch
// unless keepGoing, and after each epoch evalAt accepts (and the last) evaluates m on each of
// eval in turn (lab.Evaluate: a copy of an analog machine). It returns the mistakes made while training in each epoch, and the
// evaluations.
func trainCurve(ctx context.Context, m *machine.Machine, deck *machine.Deck, maxEpochs int, keepGoing bool, evalAt func(int) bool, eval ...*machine.Deck) (mistakes []int, evals []evalPoint, err error) {
	for e := 1; e <= maxEpochs; e++ {
		st := m.Epoch(deck, func(int) bool { return ctx.Err() == nil })
		if st.Stopped {
			return nil, nil, ctx.Err()
		}
		mistakes = append(mistakes, st.Mistakes)
		last := e == maxEpochs || (st.Mistakes == 0 && !keepGoing)
		if len(eval) > 0 && (last || evalAt(e)) {
			res, err := lab.Evaluate(m, eval...)
			if err != nil {
				return nil, nil, err
			}
			pt := evalPoint{Epoch: e}
			for _, r := range res {
				pt.Err = append(pt.Err, float64(r.Cards-r.Correct)/float64(r.Cards))
			}
			evals = append(evals, pt)
		}
		if last {
			break
		}
	}
	return mistakes, evals, m.Err()
}

// errAt returns the error on deck i of the last evaluation at or before epoch e (the machine
// stays as it is once training stops), or of the first one.
func errAt(evals []evalPoint, e, i int) float64 {
	v := evals[0].Err[i]
	for _, p := range evals {
		if p.Epoch > e {
			break
		}
		v = p.Err[i]
	}
	return v
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
