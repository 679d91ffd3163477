package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/english"
)

// The figures as the reports write them: percentages, medians with their ranges, counts with
// commas, and the words that say how many machines a figure sums up.

// NewCheck returns the check of a quick run's figure: what it is, its value, the band lo to
// hi a working machine keeps it in, and what a broken machine gives instead.
func NewCheck(what string, value, lo, hi float64, broken string) Check {
	return Check{What: what, Value: value, Min: lo, Max: hi, Broken: broken}
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

// Pct formats a fraction as a percentage: "97.5%", "-" for NaN.
func Pct(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", float64(100*f))
}

// Spread formats the median and range of fractions as percentages: "97.5% (95.0-99.0%)", one
// percentage when they are all the same, "-" for none.
func Spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	if slices.Min(v) == slices.Max(v) {
		return Pct(v[0])
	}
	return fmt.Sprintf("%s (%s-%s)", Pct(Median(v)), strings.TrimSuffix(Pct(slices.Min(v)), "%"), Pct(slices.Max(v)))
}

// Counts formats the median and range of counts: "12 (9-15)", one count when they are all the
// same, "never" for an infinity, "-" for none.
func Counts(v []float64) string {
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

// Thousands writes n with commas between its thousands (12,345).
func Thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Collect returns f of each element of v: the figures of a set of runs, for Median or Spread.
func Collect[T any](v []T, f func(T) float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}
