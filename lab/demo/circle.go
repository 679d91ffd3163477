package demo

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func circleDemo() lab.Demo {
	return lab.Demo{Name: "circle", Help: "a circle made separable by the map (x1^2, x1 x2, x2^2)",
		Args: "[--points N --units N]", Usage: "[--points N] [--units N] [--epochs N] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "points", Kind: lab.Int, Default: "40", Min: 2, Max: 1000, Help: "integer points, half inside the circle and half outside", QuickSets: true},
			{Name: "units", Kind: lab.Int, Default: "100", Min: 1, Max: 1000, Help: "random threshold units on (x1, x2), the plane's A-units", QuickSets: true},
			{Name: "epochs", Kind: lab.Int, Default: "200", Min: 1, Max: trace.MaxPresentations / 1000, Help: "most epochs of the fixed-increment rule on each set of features", QuickSets: true},
			seedParam("the points' and the units' seed", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, runs, err := circleReport(ctx, circleConfig{Points: c.Int("points"), Units: c.Int("units"), Epochs: c.Int("epochs"), Seed: c.Uint("seed")})
			if err == nil && c.Quick {
				r.Checks = circleChecks(runs)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// circleConfig sets up the circle demonstration.
type circleConfig struct {
	Points, Units, Epochs int
	Seed                  uint64
}

// Where the points lie: inside the circle of radius circleIn (+1), outside the one of radius
// circleOut (-1), within [-circleBox, circleBox]^2; none in the ring between.
const (
	circleIn2  = 16 // x1^2 + x2^2 <= 16 inside
	circleOut2 = 36 // x1^2 + x2^2 >= 36 outside
	circleBox  = 8
)

// circlePoints draws n integer points, alternately inside and outside.
func circlePoints(n int, seed uint64) *trace.Data {
	rng := rand.New(rand.NewPCG(seed, 0x63697263)) // "circ"
	d := &trace.Data{Name: "circle"}
	for len(d.Points) < n {
		x1, x2 := rng.Int64N(2*circleBox+1)-circleBox, rng.Int64N(2*circleBox+1)-circleBox
		r2 := x1*x1 + x2*x2
		inside := len(d.Points)%2 == 0
		if inside && r2 <= circleIn2 || !inside && r2 >= circleOut2 {
			y := -1
			if inside {
				y = 1
			}
			d.Points = append(d.Points, trace.Point{X: exact.Ints(x1, x2), Y: y, Where: fmt.Sprintf("#%d", len(d.Points)+1)})
		}
	}
	return d
}

// circleRun is the fixed-increment rule on one set of features of the circle's points.
type circleRun struct {
	Name, Features string
	Data           *trace.Data
	Trace          *trace.Trace
}

// mapped returns the points through f, each point keeping its label and name.
func mapped(d *trace.Data, name string, f func(x exact.Vec) exact.Vec) *trace.Data {
	out := &trace.Data{Name: name}
	for _, p := range d.Points {
		out.Points = append(out.Points, trace.Point{X: f(p.X), Y: p.Y, Where: p.Where})
	}
	return out
}

// quadratic is the explicit map phi(x) = (x1^2, x1 x2, x2^2).
func quadratic(x exact.Vec) exact.Vec {
	sq := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	return exact.Vec{sq(x[0], x[0]), sq(x[0], x[1]), sq(x[1], x[1])}
}

// randomUnits returns k threshold units on the plane, as the Mark I's A-units are on the
// retina: each fires (1) when a.x > c, a an integer direction in [-3, 3]^2 (not zero) and c
// an integer threshold within the points' box, drawn from seed.
func randomUnits(k int, seed uint64) func(x exact.Vec) exact.Vec {
	rng := rand.New(rand.NewPCG(seed, 0x756e697473)) // "units"
	type unit struct{ a1, a2, c int64 }
	units := make([]unit, k)
	for i := range units {
		for units[i].a1 == 0 && units[i].a2 == 0 {
			units[i].a1, units[i].a2 = rng.Int64N(7)-3, rng.Int64N(7)-3
		}
		units[i].c = rng.Int64N(2*3*circleBox+1) - 3*circleBox
	}
	return func(x exact.Vec) exact.Vec {
		out := exact.Zeros(k)
		x1, x2 := x[0].Num().Int64(), x[1].Num().Int64()
		for i, u := range units {
			if u.a1*x1+u.a2*x2 > u.c {
				out[i].SetInt64(1)
			}
		}
		return out
	}
}

// circleReport shows an explicit feature map at work: points inside a circle against points
// outside it are not linearly separable in (x1, x2), and the fixed-increment rule cycles; the
// map (x1^2, x1 x2, x2^2) makes the circle x1^2 + x2^2 = r^2 a plane, and the rule converges.
// Beside it, random threshold units on the plane, as the Mark I's A-units are random threshold
// units on the retina, make the points separable too without knowing the shape.
func circleReport(ctx context.Context, c circleConfig) (*report.Report, []circleRun, error) {
	d := circlePoints(c.Points, c.Seed)
	sets := []struct{ name, features string }{
		{"plane", "(x1, x2)"},
		{"quadratic", "(x1^2, x1 x2, x2^2)"},
		{"random units", fmt.Sprintf("%d random units", c.Units)},
	}
	datas := []*trace.Data{d, mapped(d, "quadratic", quadratic), mapped(d, "random units", randomUnits(c.Units, c.Seed))}
	var runs []circleRun
	for i, s := range sets {
		cfg := trace.Config{Epochs: c.Epochs}
		if err := cfg.Validate(datas[i]); err != nil {
			return nil, nil, &lab.ParamError{Msg: err.Error()}
		}
		t, err := trace.Run(ctx, datas[i], cfg)
		if err != nil {
			return nil, nil, err
		}
		runs = append(runs, circleRun{Name: s.name, Features: s.features, Data: datas[i], Trace: t})
	}
	r := &report.Report{Name: "circle", Title: "A circle made separable by a feature map"}
	r.Summary = "Points inside a circle against points outside it: no line separates them, and the fixed-increment rule cycles on (x1, x2). The explicit map phi(x) = (x1^2, x1 x2, x2^2) turns every circle and ellipse about the origin, a x1^2 + b x1 x2 + c x2^2 = d, into a plane of the three new features: there the rule converges, and its weights are an ellipse in the plane. The Mark I does the same with units nobody designed: random threshold units, each firing on one side of a random line here (on a random set of photocells in the machine), give so many features that the points become separable, without knowing the shape. Everything is exact (integer points)."
	r.Condition("points", fmt.Sprintf("%d integer points in [-%d, %d]^2, alternately inside (x1^2 + x2^2 <= %d, +1) and outside (>= %d, -1), none in the ring between; seed %d", c.Points, circleBox, circleBox, circleIn2, circleOut2, c.Seed))
	r.Condition("rule", fmt.Sprintf("fixed increment, eta 1, bias last, from zero, the points in order, at most %s on each set of features", english.Count(c.Epochs, "epoch")))
	r.Condition("random units", "each fires when a1 x1 + a2 x2 > c, a1 and a2 integers in [-3, 3] (not both 0), c an integer in [-24, 24]")
	tab := &report.Table{Name: "runs", Title: "The rule on three sets of features", Columns: []string{"features", "dimension", "end", "epochs", "updates", "mistakes at the end"}}
	for _, run := range runs {
		t := run.Trace
		end := "every point met"
		switch {
		case t.Repeats >= 0:
			end = fmt.Sprintf("cycles: the weights repeat %s's", epochEnd(t.Repeats))
		case !t.Converged:
			end = "still correcting"
		}
		tab.AddRow(run.Features, run.Data.Dim(), end, len(t.Epochs), t.Updates(), t.Epochs[len(t.Epochs)-1].Mistakes)
	}
	tab.Note = "(x1, x2): the points as they are; (x1^2, x1 x2, x2^2): the explicit map; random units: threshold units on (x1, x2), each firing on one side of its own random line, the plane's A-units. Mistakes at the end: the points the last epoch did not meet. A repeat of the weights at an epoch's end proves that the rule never converges: no plane of those features separates the points."
	r.Tables = append(r.Tables, tab)
	q := runs[1].Trace
	if q.Converged {
		w := q.Final()
		shape := "a conic about the origin, not an ellipse: it meets these points, not the circle's shape"
		disc := new(big.Rat).Sub(new(big.Rat).Mul(w[1], w[1]), new(big.Rat).Mul(exact.Int(4), new(big.Rat).Mul(w[0], w[2])))
		if disc.Sign() < 0 && w[0].Sign() < 0 && w[3].Sign() > 0 {
			shape = "the inside of an ellipse about the origin (w2^2 < 4 w1 w3)"
		}
		r.Notes = append(r.Notes, fmt.Sprintf("On the map the rule ends at w = %s: the points it calls inside are those with %s > 0, %s.", w,
			equationOf(w[:3], w[3], func(i int) string { return []string{"x1^2", "x1 x2", "x2^2"}[i] }), shape))
	}
	r.Figures = append(r.Figures, circleFigure(d, runs[1]))
	data := map[string]any{}
	for _, run := range runs {
		data[run.Name] = map[string]any{"dimension": run.Data.Dim(), "converged": run.Trace.Converged, "repeats_epoch": run.Trace.Repeats,
			"epochs": len(run.Trace.Epochs), "updates": run.Trace.Updates(), "final": run.Trace.Final().Strings()}
	}
	r.Data = data
	return r, runs, nil
}

// circleFigure draws the points and, when the rule on the map converged, its boundary: the
// conic w1 x1^2 + w2 x1 x2 + w3 x2^2 + w0 = 0, drawn by its radius in each direction.
func circleFigure(d *trace.Data, run circleRun) *plot.Figure {
	f := &plot.Figure{Name: "circle", Title: "The points and the boundary the map gives", XLabel: "x1", YLabel: "x2", Equal: true,
		Caption: "the points inside (+1) and outside (-1) the circle; the boundary of the rule's weights on (x1^2, x1 x2, x2^2), drawn back in the plane",
		Series:  classSeries(d)}
	if !run.Trace.Converged {
		return f
	}
	w := run.Trace.Final().Floats()
	curve := plot.Series{Name: "w.phi(x) + w0 = 0", Style: 3}
	for i := 0; i <= 360; i++ {
		th := float64(i) * math.Pi / 180
		cs, sn := math.Cos(th), math.Sin(th)
		// Each product rounded before it is added (no fused multiply-add: the same figure on
		// every architecture).
		q := float64(w[0]*float64(cs*cs)) + float64(w[1]*float64(cs*sn)) + float64(w[2]*float64(sn*sn))
		if q == 0 || -w[3]/q < 0 {
			continue
		}
		rad := math.Sqrt(-w[3] / q)
		curve.X, curve.Y = append(curve.X, float64(rad*cs)), append(curve.Y, float64(rad*sn))
	}
	f.Series = append(f.Series, curve)
	return f
}

// circleChecks checks the circle demonstration: the rule cycles on (x1, x2), converges on the
// map, and on the random units; the map's weights meet every point.
func circleChecks(runs []circleRun) []report.Check {
	plane, quad, units := runs[0].Trace, runs[1].Trace, runs[2].Trace
	met := 0
	w := quad.Final()
	for _, p := range runs[1].Data.Points {
		if s := w.Dot(trace.Last.Augment(p.X)); s.Sign()*p.Y > 0 {
			met++
		}
	}
	return []report.Check{
		report.NewCheck("(x1, x2): the weights repeat an earlier epoch's (1: yes)", holds(plane.Repeats >= 0), 1, 1, "the points separable, or the cycle not found: 0"),
		report.NewCheck("(x1^2, x1 x2, x2^2): converged (1: yes)", holds(quad.Converged), 1, 1, "the map left out: 0"),
		report.NewCheck("(x1^2, x1 x2, x2^2): points the last weights meet, of all", float64(met)/float64(len(runs[1].Data.Points)), 1, 1, "the map left out: about half"),
		report.NewCheck("random threshold units: converged (1: yes)", holds(units.Converged), 1, 1, "too few units, or units that do not fire: 0"),
	}
}
