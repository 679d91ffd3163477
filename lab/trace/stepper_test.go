package trace

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// TestRate: eta(k) of each schedule, exact; 1/sqrt(k) exact at squares and rounded to 6
// significant digits elsewhere.
func TestRate(t *testing.T) {
	half := big.NewRat(1, 2)
	tests := []struct {
		s    Schedule
		eta  *big.Rat
		k    int
		want string
	}{
		{Constant, nil, 7, "1"},
		{Constant, half, 3, "0.5"},
		{InverseK, nil, 3, "1/3"},
		{InverseK, half, 4, "0.125"},
		{InverseSqrtK, nil, 4, "0.5"},
		{InverseSqrtK, half, 9, "1/6"},
		{InverseSqrtK, nil, 2, "0.707107"},
		{InverseSqrtK, nil, 3, "0.57735"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%v/%d", tt.s, tt.eta, tt.k), func(t *testing.T) {
			if got := exact.Format((Config{Schedule: tt.s, Eta: tt.eta}).Rate(tt.k)); got != tt.want {
				t.Errorf("eta(%d) = %s, want %s", tt.k, got, tt.want)
			}
		})
	}
}

// TestSchedules: the k-th update moves w by eta(k) y x, online and batch, and a schedule that
// is not constant does not stop the trace at repeated weights.
func TestSchedules(t *testing.T) {
	xor, err := Points([]string{"0,0,-1", "0,1,1", "1,0,1", "1,1,-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []Rule{Fixed, Batch} {
		for _, s := range []Schedule{Constant, InverseK, InverseSqrtK} {
			t.Run(rule.String()+"/"+s.String(), func(t *testing.T) {
				c := Config{Rule: rule, Schedule: s, Epochs: 12}
				tr, err := Run(context.Background(), xor, c)
				if err != nil {
					t.Fatal(err)
				}
				k := 0
				check := func(before, after, sum exact.Vec, what string) {
					k++
					want := before.Clone()
					want.AddScaled(c.Rate(k), sum)
					if !want.Equal(after) {
						t.Fatalf("%s: update %d: %s to %s, want %s (eta %s)", what, k, before, after, want, exact.Format(c.Rate(k)))
					}
				}
				for _, st := range tr.Steps {
					if st.Met || rule == Batch {
						continue
					}
					yx := st.X.Clone()
					yx.AddScaled(exact.Int(int64(st.Y-1)), st.X) // y x
					check(st.Before, st.W, yx, fmt.Sprintf("step %d", st.N))
					if st.Eta == nil || st.Eta.Cmp(c.Rate(k)) != 0 {
						t.Fatalf("step %d: eta %v, want %s", st.N, st.Eta, exact.Format(c.Rate(k)))
					}
				}
				if rule == Batch {
					w := tr.Start
					for _, e := range tr.Epochs {
						if e.Mistakes > 0 {
							k++
							want := w.Clone()
							want.AddScaled(exact.Int(1), e.Sum)
							if !want.Equal(e.W) {
								t.Fatalf("epoch %d: %s + %s is not %s", e.Epoch, w, e.Sum, e.W)
							}
						}
						w = e.W
					}
				}
				if cycles := tr.Repeats >= 0; cycles != (s == Constant) {
					t.Errorf("repeats %d with schedule %s", tr.Repeats, s)
				}
			})
		}
	}
}

// TestPocket: on samples no line separates, the ratchet pockets only weights that meet more
// samples than the pocket's, every pocketed weight vector had a longer run than the pocket's, and the pocket
// ends meeting at least as many samples as the initial weights; without the ratchet the run
// alone decides.
func TestPocket(t *testing.T) {
	// 30 points labelled by the side of x1 + x2 = 1, every fifth label flipped.
	var pts []string
	for i := range 30 {
		x1, x2 := (i*7)%11-5, (i*5)%13-6
		y := 1
		if x1+x2 <= 1 {
			y = -1
		}
		if i%5 == 0 {
			y = -y
		}
		pts = append(pts, fmt.Sprintf("%d,%d,%d", x1, x2, y))
	}
	d, err := Points(pts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Pocket{PocketRun, PocketRatchet} {
		t.Run(p.String(), func(t *testing.T) {
			s, err := NewStepper(d, Config{Pocket: p, Epochs: 30})
			if err != nil {
				t.Fatal(err)
			}
			_, misses := s.Pocket()
			start, pocketed := misses, 0
			for !s.Done() {
				st, _ := s.Next()
				w, m := s.Pocket()
				switch {
				case st.Pocketed && !w.Equal(st.W):
					t.Fatalf("step %d: pocketed, but the pocket holds %s, not %s", st.N, w, st.W)
				case st.Pocketed:
					pocketed++
					if m != s.Misses(st.W) {
						t.Fatalf("step %d: pocket misses %d, the weights miss %d", st.N, m, s.Misses(st.W))
					}
				}
				if p == PocketRatchet && (m > misses || st.Pocketed && m == misses) {
					t.Fatalf("step %d: the ratchet pocketed weights no better: %d misses, then %d", st.N, misses, m)
				}
				misses = m
			}
			if pocketed == 0 {
				t.Error("nothing pocketed")
			}
			if p == PocketRatchet && misses > start {
				t.Errorf("pocket ends missing %d, the start missed %d", misses, start)
			}
		})
	}
}
