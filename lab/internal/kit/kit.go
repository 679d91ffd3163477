// Package kit holds what the lab's historical experiments (lab/experiment) and its lessons
// (lab/lesson) share: medians and percentages as the reports write them, the range checks of
// the quick runs, training with a learning curve, and the built-in and generated card sets.
package kit

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// Check is one figure of a quick run and the band a working machine keeps it in (see
// report.Check); broken says what a broken machine gives instead.
func Check(what string, value, lo, hi float64, broken string) report.Check {
	return report.Check{What: what, Value: value, Min: lo, Max: hi, Broken: broken}
}

// Progress counts jobs done for Settings.Progress.
type Progress struct {
	mu          sync.Mutex
	done, total int
	f           func(done, total int)
}

// NewProgress returns a Progress of total jobs that reports to f (nil: to nothing).
func NewProgress(f func(int, int), total int) *Progress { return &Progress{total: total, f: f} }

// Add counts n more jobs done and reports the count; it is safe for concurrent use, and a
// nil Progress does nothing.
func (p *Progress) Add(n int) {
	if p == nil || p.f == nil {
		return
	}
	p.mu.Lock()
	p.done += n
	p.f(min(p.done, p.total), p.total)
	p.mu.Unlock()
}

// GenSet draws a generated set.
func GenSet(spec string) (*images.Set, error) {
	s, err := gen.Parse(spec)
	if err != nil {
		return nil, err
	}
	return gen.Generate(s)
}

// LoadBuiltin loads a built-in set, named "builtin:NAME" as the reports write it.
func LoadBuiltin(name string) (*images.Set, error) {
	s, err := builtin.Load(name)
	if err != nil {
		return nil, err
	}
	s.Name = "builtin:" + name
	return s, nil
}

// Median returns the median of v (the mean of the middle two for an even count), NaN for none.
func Median(v []float64) float64 {
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

// Mean returns the mean of v (NaN for none).
func Mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// Pct formats a fraction as a percentage.
func Pct(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", float64(100*f))
}

// Spread formats the median and range of fractions as percentages: "97.5% (95.0-99.0%)".
func Spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	if slices.Min(v) == slices.Max(v) {
		return Pct(v[0])
	}
	return fmt.Sprintf("%s (%s-%s)", Pct(Median(v)), strings.TrimSuffix(Pct(slices.Min(v)), "%"), Pct(slices.Max(v)))
}

// MediansNote begins a table's note: how its figures sum up the n machines (wirings, ...) of
// each condition, what naming one of them.
func MediansNote(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("One %s per condition: its own figures, no medians or ranges (--seeds 3 or more gives them).", what)
	}
	return fmt.Sprintf("Medians over the %s, ranges in brackets.", english.Count(n, what))
}

// MedianOf returns s, the words that say a figure is a median, when there are n > 1 machines to
// take it over, and "" for one.
func MedianOf(n int, s string) string {
	if n == 1 {
		return ""
	}
	return s
}

// PerCondition says how many machines each condition has and their seeds, with what the seed
// draws: "3 (seeds 1-3: wiring, noise); figures are medians", "1 (seed 1: wiring, noise)".
func PerCondition(n int, first uint64, draws string) string {
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

// DescribeMachine says what a machine configuration is, for the conditions.
func DescribeMachine(c machine.Config) string {
	flaws := "every analog flaw on"
	if c.IsIdeal() {
		flaws = "ideal (no analog flaw)"
	}
	rule := c.Rule.String() + " rule"
	if c.Rule == machine.Alpha {
		// The 1958 paper's alpha system gains on every reinforcement; the machine's is the 1962 one.
		rule = "alpha rule (error correction, its 1962 sense)"
	}
	return fmt.Sprintf("%s A-units (x, y, theta) = (%d, %d, %d), %s, %s, %s", Thousands(c.MarkI.AUnits), c.MarkI.Exc, c.MarkI.Inh, c.MarkI.Theta, english.Count(c.RUnits, "R-unit"), rule, flaws)
}

// EvalPoint is an evaluation of a copy of the machine after an epoch: the error rate on each
// deck evaluated.
type EvalPoint struct {
	Epoch int       `json:"epoch"`
	Err   []float64 `json:"error"`
}

// EveryEpoch evaluates after every epoch.
func EveryEpoch(int) bool { return true }

// LogEpochs evaluates after every epoch up to 20, then every 5th up to 100, every 20th after
// (and at the epochs listed): enough for curves on a logarithmic axis, at a fraction of the
// cost (a machine's copy is not free).
func LogEpochs(also ...int) func(int) bool {
	return func(e int) bool {
		for _, a := range also {
			if e == a {
				return true
			}
		}
		return e <= 20 || (e <= 100 && e%5 == 0) || e%20 == 0
	}
}

// TrainCurve trains m on deck for at most maxEpochs, stopping after the first errorless epoch
// unless keepGoing, and after each epoch evalAt accepts (and the last) evaluates m on each of
// eval in turn (lab.Evaluate: a copy of an analog machine). It returns the mistakes made while training in each epoch, and the
// evaluations.
func TrainCurve(ctx context.Context, m *machine.Machine, deck *machine.Deck, maxEpochs int, keepGoing bool, evalAt func(int) bool, eval ...*machine.Deck) (mistakes []int, evals []EvalPoint, err error) {
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
			pt := EvalPoint{Epoch: e}
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

// ErrAt returns the error on deck i of the last evaluation at or before epoch e (the machine
// stays as it is once training stops), or of the first one.
func ErrAt(evals []EvalPoint, e, i int) float64 {
	v := evals[0].Err[i]
	for _, p := range evals {
		if p.Epoch > e {
			break
		}
		v = p.Err[i]
	}
	return v
}

// Count formats the median and range of counts ("never" for infinities).
func Count(v []float64) string {
	f := func(x float64) string {
		if math.IsInf(x, 1) {
			return "never"
		}
		return fmt.Sprintf("%.0f", x)
	}
	if len(v) == 0 {
		return "-"
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == hi {
		return f(lo)
	}
	return fmt.Sprintf("%s (%s-%s)", f(Median(v)), f(lo), f(hi))
}

// OrDash is Spread of v, "-" for none.
func OrDash(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	return Spread(v)
}

// WithAUnits returns cfg with n A-units on the random board (the fan-out limit following, as
// the command line's --a-units does).
func WithAUnits(cfg machine.Config, n int) machine.Config {
	cfg.MarkI.AUnits = n
	cfg.MarkI.FanOut = patchboard.FanOutFor(n)
	return cfg
}

// Thousands writes n with commas between its thousands (12,345).
func Thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Collect returns f of each element of v.
func Collect[T any](v []T, f func(T) float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}
