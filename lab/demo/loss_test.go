package demo

import (
	"context"
	"math/big"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// TestCriterionByHand: the 0-1 loss, E_P, E_P's gradient, E_Q and E_R on three points, worked
// by hand.
func TestCriterionByHand(t *testing.T) {
	d := points(t, "1,2,+1", "2,0,-1", "-1,1,+1")
	var xs []exact.Vec
	var ys []int
	for _, p := range d.Points {
		xs, ys = append(xs, trace.Last.Augment(p.X)), append(ys, p.Y)
	}
	// w = (1, 0, 0): scores 1, 2, -1; y w.x = 1, -2, -1: two mistakes, E_P = 2 + 1.
	w := exact.Ints(1, 0, 0)
	if e, m := exact.Format(criterion(w, xs, ys)), mistakes(w, xs, ys); e != "3" || m != 2 {
		t.Errorf("E_P %s, mistakes %d; want 3 and 2", e, m)
	}
	// Its gradient: -(y2 x2 + y3 x3) = -(-(2, 0, 1) + (-1, 1, 1)) = (3, -1, 0).
	if g := gradient(w, xs, ys); g.String() != "(3, -1, 0)" {
		t.Errorf("gradient %s", g)
	}
	// w = 0: every sample a mistake, E_P = 0.
	if e, m := exact.Format(criterion(exact.Zeros(3), xs, ys)), mistakes(exact.Zeros(3), xs, ys); e != "0" || m != 3 {
		t.Errorf("at 0: E_P %s, mistakes %d", e, m)
	}
	// E_Q at w = (1, 0, 0): the mistakes score 2 and -1, 4 + 1 = 5. E_R with b = 1: the samples
	// with y w.x <= 1 are all three (1, -2, -1), with |x|^2 = 6, 5 and 3:
	// 1/2 ((1 - 1)^2/6 + (-2 - 1)^2/5 + (-1 - 1)^2/3) = 1/2 (9/5 + 4/3) = 47/30. At w = 0 every
	// y w.x is 0: E_Q = 0, and E_R = 1/2 (1/6 + 1/5 + 1/3) = 7/20, not its least value.
	for _, tc := range []struct {
		w          exact.Vec
		m          int
		ep, eq, er string
	}{
		{w, 2, "3", "5", "47/30"},
		{exact.Zeros(3), 3, "0", "0", "0.35"},
		{exact.Ints(-1, 2, 0), 0, "0", "0", "0"}, // y w.x = 3, 2, 3: all beyond b = 1
	} {
		c := allCriteria(tc.w, xs, ys, exact.Int(1))
		if c.Mistakes != tc.m || exact.Format(c.EP) != tc.ep || exact.Format(c.EQ) != tc.eq || exact.Format(c.ER) != tc.er {
			t.Errorf("w = %s: mistakes %d, E_P %s, E_Q %s, E_R %s; want %d, %s, %s, %s", tc.w, c.Mistakes, exact.Format(c.EP), exact.Format(c.EQ), exact.Format(c.ER), tc.m, tc.ep, tc.eq, tc.er)
		}
	}
}

// TestLossRuns: on both problems E_P at each epoch's end is the sum, computed here again in
// floating point, of -y w.x over the mistakes; each update lowers the corrected sample's term
// by exactly |x|^2; and E_P rises after some updates (not only the first, from w = 0).
func TestLossRuns(t *testing.T) {
	for _, kind := range []string{"separable", "overlapping"} {
		t.Run(kind, func(t *testing.T) {
			run, err := traceLoss(context.Background(), kind, kind, intProblem(kind, 40, 1), 20, exact.Int(1))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range run.Epochs {
				// The weights at the epoch's end.
				var w []float64
				for _, s := range run.Trace.Steps {
					if s.Epoch == e.Epoch {
						w = s.W.Floats()
					}
				}
				ep, mistakes := 0.0, 0
				for _, p := range run.Data.Points {
					x := p.X.Floats()
					if m := float64(p.Y) * (w[0]*x[0] + w[1]*x[1] + w[2]); m <= 0 {
						ep -= m
						mistakes++
					}
				}
				if exact.Float(e.EP) != ep || e.Mistakes != mistakes {
					t.Errorf("%s epoch %d: E_P %s and %d mistakes, want %v and %d", kind, e.Epoch, exact.Format(e.EP), e.Mistakes, ep, mistakes)
				}
			}
			rises := 0
			for i, u := range run.Updates {
				fall := new(big.Rat).Sub(u.TermBefore, u.TermAfter)
				if fall.Cmp(u.Fall) != 0 || u.Fall.Sign() <= 0 || u.TermBefore.Sign() < 0 {
					t.Errorf("%s step %d: the term goes from %s to %s, want a fall of |x|^2 = %s", kind, u.Step, exact.Format(u.TermBefore), exact.Format(u.TermAfter), exact.Format(u.Fall))
				}
				if i > 0 && u.After.Cmp(u.Before) > 0 {
					rises++
				}
			}
			if rises == 0 {
				t.Errorf("%s: E_P never rose after an update but the first", kind)
			}
			switch t0 := run.Trace; kind {
			case "separable":
				if !t0.Converged || run.Epochs[len(run.Epochs)-1].EP.Sign() != 0 {
					t.Errorf("separable: converged %v", t0.Converged)
				}
			default:
				if t0.Converged || t0.Repeats < 0 {
					t.Errorf("overlapping: converged %v, repeats %d: want the weights to cycle", t0.Converged, t0.Repeats)
				}
			}
		})
	}
}
