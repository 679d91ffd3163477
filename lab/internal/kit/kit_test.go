package kit

import (
	"math"
	"testing"
)

// The figures as the reports write them.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Pct(0.975), "97.5%"}, {Pct(math.NaN()), "-"},
		{Spread([]float64{0.95, 0.99, 0.975}), "97.5% (95.0-99.0%)"}, {Spread([]float64{0.5, 0.5}), "50.0%"}, {Spread(nil), "-"},
		{OrDash(nil), "-"}, {Thousands(1234567), "1,234,567"}, {Thousands(999), "999"},
		{MedianOf(1, " (median)"), ""}, {MedianOf(3, " (median)"), " (median)"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		v    []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{7}, 7}} {
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Mean(nil)) || Mean([]float64{1, 2, 6}) != 3 {
		t.Errorf("Median(nil) %v, Mean(nil) %v, Mean(1,2,6) %v", Median(nil), Mean(nil), Mean([]float64{1, 2, 6}))
	}
}

// A nil Progress counts nothing; a Progress reports the count, never past the total.
func TestProgress(t *testing.T) {
	var nilp *Progress
	nilp.Add(1)
	var got [][2]int
	p := NewProgress(func(d, n int) { got = append(got, [2]int{d, n}) }, 3)
	p.Add(2)
	p.Add(2)
	if len(got) != 2 || got[0] != [2]int{2, 3} || got[1] != [2]int{3, 3} {
		t.Errorf("reports %v", got)
	}
}
