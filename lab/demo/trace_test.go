package demo

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func points(t *testing.T, specs ...string) *trace.Data {
	t.Helper()
	d, err := trace.Points(specs)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestTraceReport: the report's table is the trace, integers written as integers, the batch
// rule's epoch ends shown; the JSON holds every number exactly.
func TestTraceReport(t *testing.T) {
	d := points(t, "1,2,+1", "2,0,-1", "-1,1,1")
	r, err := traceReport(context.Background(), d, trace.Config{Rule: trace.Batch})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(text.String()), " ")
	for _, want := range []string{
		"1 1 --point 1 (1, 2, 1) +1 0 0 no (0, 0, 0)",
		"1 epoch's end adds (-2, 3, 1) (-2, 3, 1)",
		"4 2 --point 1 (1, 2, 1) +1 5 5 yes (-2, 3, 1)",
		"Every sample met in epoch 2: w = (-2, 3, 1), after 1 update.",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), ".0") {
		t.Errorf("an integer written with a point:\n%s", text.String())
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Data traceData `json:"data"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if got := j.Data.Steps[3]; got.Score != "5" || strings.Join(got.W, " ") != "-2 3 1" || !got.Met || got.Sample != "--point 1" {
		t.Errorf("step 4 in JSON: %+v", got)
	}
	if strings.Join(j.Data.Epochs[0].Sum, " ") != "-2 3 1" || !j.Data.Converged {
		t.Errorf("JSON: %+v", j.Data)
	}
	// Fractions: 1/3 stays 1/3, 1/2 is 0.5.
	r, err = traceReport(context.Background(), d, trace.Config{Bias: trace.First, Eta: exact.Int(1), Init: exact.Vec{exact.Int(0), exact.Int(0), mustRat(t, "1/3")}})
	if err != nil {
		t.Fatal(err)
	}
	if s := r.Data.(traceData).Steps[0]; s.Score != "2/3" { // (1, 1, 2).(0, 0, 1/3)
		t.Errorf("step 1: %+v", s)
	}
}

func mustRat(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, err := exact.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGeometry: w is drawn normal to the boundary from the boundary's point nearest the
// origin, which is -w0/|w| from it; each sample's distance segment ends on the boundary and is
// g(x)/|w| long; projection less the boundary's place is the distance.
func TestGeometry(t *testing.T) {
	d := points(t, "3,2,+1", "1,0,-1", "0,1,-1", "2,3,+1", "2,0,-1")
	w := exact.Ints(2, 3, -5) // bias last: 2 x1 + 3 x2 - 5
	g, err := newPlaneGeometry(d, w, trace.Last)
	if err != nil {
		t.Fatal(err)
	}
	if exact.Format(g.NormSq) != "13" || exact.Format(g.Points[4].G) != "-1" || exact.Format(g.Points[0].WX) != "12" {
		t.Fatalf("%+v", g)
	}
	if o := g.origin(); math.Abs(o-5/math.Sqrt(13)) > 1e-12 {
		t.Errorf("origin distance %v, want 5/sqrt(13)", o)
	}
	// Bias first gives the same geometry.
	g1, err := newPlaneGeometry(d, exact.Ints(-5, 2, 3), trace.First)
	if err != nil || g1.W.String() != g.W.String() || g1.W0.Cmp(g.W0) != 0 {
		t.Errorf("bias first: %+v, %v", g1, err)
	}
	f := geometryFigure(d, g)
	onLine := func(x, y float64) float64 { return 2*x + 3*y - 5 }
	seen := map[string]bool{}
	for _, s := range f.Series {
		switch {
		case s.Arrow: // w from the foot point, along (2, 3)
			seen["w"] = true
			if v := onLine(s.X[0], s.Y[0]); math.Abs(v) > 1e-12 {
				t.Errorf("w starts off the boundary: g = %v", v)
			}
			dx, dy := s.X[1]-s.X[0], s.Y[1]-s.Y[0]
			if along := dx*(-3) + dy*2; math.Abs(along) > 1e-12 || dx*2+dy*3 <= 0 {
				t.Errorf("w drawn as (%v, %v): not along (2, 3)", dx, dy)
			}
			if r := math.Hypot(s.X[0], s.Y[0]); math.Abs(r-5/math.Sqrt(13)) > 1e-12 {
				t.Errorf("the foot point is %v from the origin", r)
			}
		case s.Dashed: // a distance segment
			seen["distances"] = true
			if v := onLine(s.X[1], s.Y[1]); math.Abs(v) > 1e-12 {
				t.Errorf("a distance segment ends off the boundary: g = %v", v)
			}
			l := math.Hypot(s.X[1]-s.X[0], s.Y[1]-s.Y[0])
			if want := math.Abs(onLine(s.X[0], s.Y[0])) / math.Sqrt(13); math.Abs(l-want) > 1e-12 {
				t.Errorf("a distance segment %v long, want |g|/|w| = %v", l, want)
			}
		case strings.HasPrefix(s.Name, "projections"):
			seen["projections"] = true
			for i, p := range g.Points {
				proj := math.Hypot(s.X[i], s.Y[i]) * math.Copysign(1, s.X[i]*2+s.Y[i]*3)
				if dist := exact.Float(p.G) / math.Sqrt(13); math.Abs(proj-g.origin()-dist) > 1e-12 {
					t.Errorf("%s: projection %v less %v is not the distance %v", p.Sample, proj, g.origin(), dist)
				}
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("drawn: %v", seen)
	}
	if _, err := newPlaneGeometry(d, exact.Ints(0, 0, 1), trace.Last); err == nil || !strings.Contains(err.Error(), "no boundary") {
		t.Errorf("w = 0: %v", err)
	}
}
