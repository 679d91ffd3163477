package detmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// checkMonotone walks n steps from x0, step by step, and reports the first place where f
// moves against dir (-1: non-increasing, +1: non-decreasing).
func checkMonotone(t *testing.T, name string, f func(float64) float64, x0 float64, n int, step func(float64) float64, dir float64) {
	t.Helper()
	x, prev := x0, f(x0)
	for i := 0; i < n; i++ {
		nx := step(x)
		v := f(nx)
		if (v-prev)*dir < 0 {
			t.Errorf("%s is not monotone: %s(%v) = %v, %s(%v) = %v", name, name, x, prev, name, nx, v)
			return
		}
		x, prev = nx, v
	}
}

func up(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

// TestErfcMonotone checks that Erfc never increases: on a grid of step 2**-16 over its whole
// non-trivial range, float by float across the joints between its approximations, and float
// by float in windows at random places. The Gaussian blur integrates pixel weights as
// differences of Erfc, which must never be negative.
func TestErfcMonotone(t *testing.T) {
	checkMonotone(t, "Erfc", Erfc, -6.5, int(34.5*(1<<16)), func(x float64) float64 { return x + 0x1p-16 }, -1)
	joints := []float64{0x1p-56, 0.25, 0.84375, 1.25, 1 / 0.35, 6, 28}
	for _, j := range joints {
		for _, s := range []float64{1, -1} {
			t.Run(fmt.Sprintf("joint=%v", s*j), func(t *testing.T) {
				x0 := s * j
				for range 50000 {
					x0 = math.Nextafter(x0, math.Inf(-1))
				}
				checkMonotone(t, "Erfc", Erfc, x0, 100000, up, -1)
			})
		}
	}
	// The 200 random windows are one group: they draw from one generator in turn.
	t.Run("random-windows", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(11, 12))
		for range 200 {
			checkMonotone(t, "Erfc", Erfc, float64(rng.Float64()*34)-6, 2000, up, -1)
		}
	})
}

// TestExpLogMonotone checks Exp and Log on grids and float by float in random windows.
func TestExpLogMonotone(t *testing.T) {
	checkMonotone(t, "Exp", Exp, -746, 1456*(1<<10), func(x float64) float64 { return x + 0x1p-10 }, 1)
	checkMonotone(t, "Log", Log, 0x1p-1074, 2046*(1<<8), func(x float64) float64 { return x * (1 + 0x1p-8) }, 1)
	// The 200 random windows of each are one group: they draw from one generator in turn.
	t.Run("random-windows", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(13, 14))
		for range 200 {
			checkMonotone(t, "Exp", Exp, float64(rng.Float64()*1450)-745, 2000, up, 1)
			checkMonotone(t, "Log", Log, math.Float64frombits(rng.Uint64N(0x7fe0000000000000)), 2000, up, 1)
		}
	})
}
