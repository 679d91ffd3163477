package detmath

import (
	"fmt"
	"math"
	"testing"
)

var (
	inf    = math.Inf(1)
	nan    = math.NaN()
	negZ   = math.Copysign(0, -1)
	minSub = math.SmallestNonzeroFloat64
)

// same reports whether a and b are the same float64, telling -0 from +0 and any NaN equal.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

func TestSpecial(t *testing.T) {
	type c1 struct{ x, want float64 }
	// Each case runs as TestSpecial/Exp/x=0, ... TestSpecial/Pow/x=2,y=0.
	check1 := func(name string, f func(float64) float64, cases []c1) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(fmt.Sprintf("x=%v", c.x), func(t *testing.T) {
					if got := f(c.x); !same(got, c.want) {
						t.Errorf("%s(%v) = %v, want %v", name, c.x, got, c.want)
					}
				})
			}
		})
	}
	check1("Exp", Exp, []c1{
		{0, 1}, {negZ, 1}, {1, math.E}, {inf, inf}, {-inf, 0}, {nan, nan},
		{709.79, inf}, {math.Nextafter(expOverflow, inf), inf}, {expOverflow, 1.7976931348622732e+308},
		{-745.14, 0}, {-745.13, minSub}, {-1000, 0}, {1000, inf},
		{0x1p-30, 1 + 0x1p-30}, {-0x1p-60, 1},
	})
	check1("Log", Log, []c1{
		{1, 0}, {0, -inf}, {negZ, -inf}, {-1, nan}, {-inf, nan}, {inf, inf}, {nan, nan},
		{math.E, 1}, {2, math.Ln2}, {0.5, -math.Ln2}, {minSub, -1074 * math.Ln2},
		{0x1p-1022, -1022 * math.Ln2}, {0x1p1023, 1023 * math.Ln2},
	})
	check1("Erfc", Erfc, []c1{
		{0, 1}, {negZ, 1}, {inf, 0}, {-inf, 2}, {nan, nan}, {28, 0}, {1e300, 0}, {-6, 2}, {-1e300, 2},
		{0x1p-60, 1}, {-0x1p-60, 1},
	})

	type c2 struct{ x, y, want float64 }
	t.Run("Pow", func(t *testing.T) {
		for _, c := range []c2{
			{2, 0, 1}, {nan, 0, 1}, {nan, negZ, 1}, {1, nan, 1}, {1, inf, 1}, {1, 1e300, 1},
			{0.3, 1, 0.3}, {nan, 1, nan}, {1000, 1, 1000}, {2, nan, nan}, {nan, 2, nan},
			{0, 2.5, 0}, {0, 3, 0}, {negZ, 3, negZ}, {negZ, 2.5, 0}, {negZ, 2, 0}, {0, 1e-300, 0},
			{0, -3, inf}, {negZ, -3, -inf}, {negZ, -2, inf}, {0, -0.5, inf}, {0, inf, 0}, {0, -inf, inf},
			{-1, inf, 1}, {-1, -inf, 1}, {2, inf, inf}, {2, -inf, 0}, {0.5, inf, 0}, {0.5, -inf, inf},
			{-2, inf, inf}, {inf, 0.5, inf}, {inf, -0.5, 0}, {-inf, 3, -inf}, {-inf, 2, inf}, {-inf, -3, negZ},
			{-inf, -2, 0}, {-2, 0.5, nan}, {-8, 1.0 / 3, nan}, {-2, 3, -8}, {-2, -3, -0.125}, {-2, 2, 4},
			{2, 10, 1024}, {10, 2, 100}, {3, 3, 27}, {1000, 0.5, math.Sqrt(1000)}, {4, -1, 0.25},
			{2, 1024, inf}, {2, -1075, 0}, {2, -1074, minSub}, {2, 1023, 0x1p1023}, {0.5, 1074, minSub},
			{10, 308, 1e308}, {10, -4, 1e-4}, {1 + 0x1p-52, 1e300, inf}, {1 - 0x1p-53, 1e300, 0},
		} {
			t.Run(fmt.Sprintf("x=%v,y=%v", c.x, c.y), func(t *testing.T) {
				if got := Pow(c.x, c.y); !same(got, c.want) {
					t.Errorf("Pow(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
				}
			})
		}
	})

	t.Run("Sincos", func(t *testing.T) {
		for _, c := range []struct{ x, sin, cos float64 }{
			{0, 0, 1}, {negZ, negZ, 1}, {inf, nan, nan}, {-inf, nan, nan}, {nan, nan, nan},
			{1e-300, 1e-300, 1}, {-0x1p-30, -0x1p-30, 1}, {minSub, minSub, 1},
		} {
			t.Run(fmt.Sprintf("x=%v", c.x), func(t *testing.T) {
				if s, co := Sincos(c.x); !same(s, c.sin) || !same(co, c.cos) {
					t.Errorf("Sincos(%v) = %v, %v, want %v, %v", c.x, s, co, c.sin, c.cos)
				}
			})
		}
	})
}

// TestExactIdentities checks the identities the machine relies on over many arguments.
func TestExactIdentities(t *testing.T) {
	// The 10,001 points of the grid are one group: the first broken identity ends it.
	t.Run("grid", func(t *testing.T) {
		for i := 0; i <= 10000; i++ {
			x := float64(i) / 10 // [0, 1000]
			y := float64(i)/1000 + 1e-3
			if Pow(x, 1) != x || Pow(x, 0) != 1 || Pow(1, y) != 1 || Pow(0, y) != 0 {
				t.Fatalf("identity broken at x=%v y=%v: %v %v %v %v", x, y, Pow(x, 1), Pow(x, 0), Pow(1, y), Pow(0, y))
			}
		}
	})
	// Integer powers of small integers are exact, as fdlibm promises.
	for b := 2.0; b <= 30; b++ {
		t.Run(fmt.Sprintf("base=%v", b), func(t *testing.T) {
			want := 1.0
			for n := 1; n <= 10; n++ {
				want *= b
				if want < 0x1p53 && Pow(b, float64(n)) != want {
					t.Errorf("Pow(%v, %d) = %v, want %v", b, n, Pow(b, float64(n)), want)
				}
			}
		})
	}
}
