package report

import (
	"math"
	"testing"
)

// The figures as the reports write them.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ name, got, want string }{
		{"pct", Pct(0.975), "97.5%"}, {"pct NaN", Pct(math.NaN()), "-"},
		{"spread", Spread([]float64{0.95, 0.99, 0.975}), "97.5% (95.0-99.0%)"}, {"spread equal", Spread([]float64{0.5, 0.5}), "50.0%"}, {"spread none", Spread(nil), "-"},
		{"counts", Counts([]float64{9, 15, 12}), "12 (9-15)"}, {"counts never", Counts([]float64{3, math.Inf(1)}), "never (3-never)"}, {"counts none", Counts(nil), "-"},
		{"thousands", Thousands(1234567), "1,234,567"}, {"hundreds", Thousands(999), "999"},
		{"median of one", MedianOf(1, " (median)"), ""}, {"median of three", MedianOf(3, " (median)"), " (median)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("%q, want %q", c.got, c.want)
			}
		})
	}
	for _, c := range []struct {
		name string
		v    []float64
		want float64
	}{{"odd", []float64{3, 1, 2}, 2}, {"even", []float64{4, 1, 3, 2}, 2.5}, {"one", []float64{7}, 7}} {
		t.Run("median "+c.name, func(t *testing.T) {
			if got := Median(c.v); got != c.want {
				t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
			}
		})
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Mean(nil)) || Mean([]float64{1, 2, 6}) != 3 {
		t.Errorf("Median(nil) %v, Mean(nil) %v, Mean(1,2,6) %v", Median(nil), Mean(nil), Mean([]float64{1, 2, 6}))
	}
}
