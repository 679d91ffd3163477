package demo

import (
	"context"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// TestCircle: the points lie where they should, half inside; the map is (x1^2, x1 x2, x2^2);
// the rule cycles on the plane and converges on the map, whose weights meet every point (checked
// here again in floating point), and on random threshold units.
func TestCircle(t *testing.T) {
	if got := quadratic(exact.Ints(2, -3)).String(); got != "(4, -6, 9)" {
		t.Errorf("phi(2, -3) = %s, want (4, -6, 9)", got)
	}
	_, runs, err := circleReport(context.Background(), circleConfig{Points: 40, Units: 100, Epochs: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	inside := 0
	for _, p := range runs[0].Data.Points {
		x := p.X.Floats()
		r2 := x[0]*x[0] + x[1]*x[1]
		switch {
		case p.Y == 1 && r2 <= circleIn2:
			inside++
		case p.Y == -1 && r2 >= circleOut2:
		default:
			t.Errorf("%s at %v labelled %+d", p.Where, x, p.Y)
		}
	}
	if inside != 20 {
		t.Errorf("%d points inside of 40", inside)
	}
	if plane := runs[0].Trace; plane.Converged || plane.Repeats < 0 {
		t.Errorf("(x1, x2): converged %v, repeats %d: want a cycle", plane.Converged, plane.Repeats)
	}
	q := runs[1].Trace
	if !q.Converged {
		t.Fatal("the map: not converged")
	}
	w := q.Final().Floats()
	for _, p := range runs[0].Data.Points {
		x := p.X.Floats()
		g := w[0]*x[0]*x[0] + w[1]*x[0]*x[1] + w[2]*x[1]*x[1] + w[3]
		if g*float64(p.Y) <= 0 {
			t.Errorf("%s at %v: g = %v, label %+d", p.Where, x, g, p.Y)
		}
	}
	if !runs[2].Trace.Converged || runs[2].Data.Dim() != 100 {
		t.Errorf("random units: converged %v, %d features", runs[2].Trace.Converged, runs[2].Data.Dim())
	}
}

// TestCircleOut: the report's tables and figures have names of their own (--out writes each
// to NAME.csv).
func TestCircleOut(t *testing.T) {
	r, _, err := circleReport(context.Background(), circleConfig{Points: 10, Units: 5, Epochs: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tab := range r.Tables {
		names[tab.Name] = true
	}
	for _, f := range r.Figures {
		if names[f.Name] {
			t.Errorf("a table and a figure named %q", f.Name)
		}
	}
}
