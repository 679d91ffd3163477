package demo

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func fisherLSQDemo() lab.Demo {
	return lab.Demo{Name: "fisher-lsq", Help: "least squares with targets N/N1, -N/N2 is Fisher's, exactly",
		Args: "[--data FILE | --point X,...,Y ...]", Usage: "[--data FILE | --point X1,...,LABEL ...] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "data", Kind: lab.String, Help: "a CSV file of samples (features, then a label of +1 or -1), as mark1 lab trace reads (default: two classes of " + strconv.Itoa(fisherN1) + " and " + strconv.Itoa(fisherN2) + " integer points)", QuickSets: true},
			{Name: "point", Kind: lab.Points, Help: "a sample X1,...,LABEL; repeat for more (instead of --data)", QuickSets: true},
			seedParam("the seed of the default samples", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			d, err := samples(c)
			if err != nil {
				return nil, err
			}
			r, f, err := fisherLSQReport(ctx, d, c.Uint("seed"))
			if err == nil && c.Quick {
				r.Checks = fisherLSQChecks(f)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// fisherN1 and fisherN2 are the sizes of the two classes of the default samples.
const fisherN1, fisherN2 = 12, 20

// fisherLSQ is Fisher's discriminant and least squares on two classes, exactly.
type fisherLSQ struct {
	N1, N2  int       // samples of class +1 and of class -1
	M1, M2  exact.Vec // the class means
	M       exact.Vec // the mean of all samples
	SW      []exact.Vec
	Fisher  exact.Vec // S_W⁻¹ (m1 - m2)
	Special lsqFit    // targets N/N1 and -N/N2
	Plain   lsqFit    // targets +1 and -1
}

// lsqFit is a least-squares discriminant w.x + w0 with its relation to Fisher's direction.
type lsqFit struct {
	T1, T2 *big.Rat  // the targets of class +1 and of class -1
	W      exact.Vec // the feature weights
	W0     *big.Rat  // the bias
	Ratio  *big.Rat  // w = Ratio * S_W⁻¹(m1 - m2), or nil when not proportional
	AtMean *big.Rat  // -w.m: the bias that puts the threshold at the mean of all samples
}

func mean(xs []exact.Vec) exact.Vec {
	m := exact.Zeros(len(xs[0]))
	for _, x := range xs {
		m.AddScaled(exact.Int(1), x)
	}
	for _, v := range m {
		v.Quo(v, exact.Int(int64(len(xs))))
	}
	return m
}

// lsq solves the normal equations AᵀA (w, w0) = Aᵀt exactly, A the samples with a 1 last.
func lsq(ctx context.Context, xs []exact.Vec, t []*big.Rat) (exact.Vec, error) {
	a, b, err := normalEquations(ctx, xs, t, nil)
	if err != nil {
		return nil, err
	}
	return exact.Solve(a, b)
}

// proportion returns r with w = r f, or nil when w is not a multiple of f.
func proportion(w, f exact.Vec) *big.Rat {
	var r *big.Rat
	for i := range w {
		switch {
		case f[i].Sign() == 0 && w[i].Sign() != 0:
			return nil
		case f[i].Sign() == 0:
			continue
		}
		q := new(big.Rat).Quo(w[i], f[i])
		if r != nil && r.Cmp(q) != 0 {
			return nil
		}
		r = q
	}
	return r
}

// newFisherLSQ computes Fisher's direction and the two least-squares discriminants of d
// (labels +1 and -1) in exact arithmetic.
func newFisherLSQ(ctx context.Context, d *trace.Data) (*fisherLSQ, error) {
	var c1, c2, all []exact.Vec
	for _, p := range d.Points {
		all = append(all, p.X)
		if p.Y == 1 {
			c1 = append(c1, p.X)
		} else {
			c2 = append(c2, p.X)
		}
	}
	if len(c1) == 0 || len(c2) == 0 {
		return nil, errors.New("the samples need both labels, +1 and -1, for Fisher's discriminant")
	}
	f := &fisherLSQ{N1: len(c1), N2: len(c2), M1: mean(c1), M2: mean(c2), M: mean(all)}
	dim := d.Dim()
	f.SW = make([]exact.Vec, dim)
	for i := range f.SW {
		f.SW[i] = exact.Zeros(dim)
	}
	tmp := new(big.Rat)
	for _, p := range d.Points {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := f.M2
		if p.Y == 1 {
			m = f.M1
		}
		diff := p.X.Clone()
		diff.AddScaled(exact.Int(-1), m)
		for a := range dim {
			for b := range dim {
				f.SW[a][b].Add(f.SW[a][b], tmp.Mul(diff[a], diff[b]))
			}
		}
	}
	dm := f.M1.Clone()
	dm.AddScaled(exact.Int(-1), f.M2)
	var err error
	if f.Fisher, err = exact.Solve(f.SW, dm); err != nil {
		return nil, fmt.Errorf("S_W is singular (the classes do not vary in every direction), so Fisher's direction is not defined (%w); mark1 lab lsq solves least squares alone", err)
	}
	n := int64(len(all))
	for _, fit := range []*lsqFit{&f.Special, &f.Plain} {
		if fit == &f.Special {
			fit.T1, fit.T2 = big.NewRat(n, int64(f.N1)), big.NewRat(-n, int64(f.N2))
		} else {
			fit.T1, fit.T2 = exact.Int(1), exact.Int(-1)
		}
		var t []*big.Rat
		for _, p := range d.Points {
			if p.Y == 1 {
				t = append(t, fit.T1)
			} else {
				t = append(t, fit.T2)
			}
		}
		w, err := lsq(ctx, all, t)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("least squares: the samples and a constant are not independent: %w", err)
		}
		fit.W, fit.W0 = w[:dim], w[dim]
		fit.Ratio = proportion(fit.W, f.Fisher)
		fit.AtMean = new(big.Rat).Neg(fit.W.Dot(f.M))
	}
	return f, nil
}

// twoClasses draws two classes of integer points in the plane: n1 around (2, -1) (+1) and n2
// around (-1, 1) (-1), elongated along (1, 1) (standard deviations 2 along it, 0.8 across),
// rounded.
func twoClasses(n1, n2 int, seed uint64) *trace.Data {
	rng := rand.New(rand.NewPCG(seed, 0x66697368)) // "fish"
	d := &trace.Data{Name: "two classes"}
	add := func(cx, cy float64, y int) {
		a, b := float64(2*detmath.Normal(rng)), float64(0.8*detmath.Normal(rng))
		x1, x2 := cx+float64((a-b)*0.7071), cy+float64((a+b)*0.7071)
		d.Points = append(d.Points, trace.Point{X: exact.Ints(roundI(x1), roundI(x2)), Y: y, Where: fmt.Sprintf("#%d", len(d.Points)+1)})
	}
	for i := range max(n1, n2) {
		if i < n1 {
			add(2, -1, 1)
		}
		if i < n2 {
			add(-1, 1, -1)
		}
	}
	return d
}

func roundI(v float64) int64 {
	if v < 0 {
		return -int64(-v + 0.5)
	}
	return int64(v + 0.5)
}

func ratOrNot(r *big.Rat) string {
	if r == nil {
		return "not proportional"
	}
	return exact.Format(r)
}

func rows(m []exact.Vec) string {
	var parts []string
	for _, r := range m {
		parts = append(parts, r.String())
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// fisherLSQReport shows, in exact arithmetic on integer samples, that least squares with
// targets N/N1 for one class and -N/N2 for the other gives Fisher's direction S_W⁻¹(m1 - m2)
// and the bias -w.m that puts the threshold at the mean of all samples (Duda, Hart and Stork,
// 5.8.2; Bishop, 4.1.5); with targets +1 and -1 the direction is still Fisher's, the bias not.
// d nil: two classes of fisherN1 and fisherN2 integer points drawn from seed.
func fisherLSQReport(ctx context.Context, d *trace.Data, seed uint64) (*report.Report, *fisherLSQ, error) {
	if d == nil {
		d = twoClasses(fisherN1, fisherN2, seed)
	}
	f, err := newFisherLSQ(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	r := &report.Report{Name: "fisher-lsq", Title: "Least squares is Fisher's discriminant"}
	r.Summary = "For two classes, least squares with the targets N/N1 for class +1 and -N/N2 for class -1 gives weights along Fisher's direction S_W⁻¹(m1 - m2), and the bias w0 = -w.m that puts the threshold at the mean m of all the samples. Everything here is exact (integer samples, rational arithmetic): the ratio of each weight to Fisher's is the same number. With targets +1 and -1 the direction is still Fisher's, the bias is not -w.m."
	r.Condition("data", fmt.Sprintf("%s: %d samples of class +1 (N1) and %d of class -1 (N2), %d features", d.Name, f.N1, f.N2, d.Dim()))
	tab := &report.Table{Name: "fisher-lsq", Title: "Fisher and least squares, exactly", Columns: []string{"quantity", "value", "about"}}
	approx := func(v exact.Vec) string {
		var parts []string
		for _, f := range v.Floats() {
			parts = append(parts, fmt.Sprintf("%.4g", f))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	one := func(r *big.Rat) string {
		if r == nil {
			return ""
		}
		return fmt.Sprintf("%.4g", exact.Float(r))
	}
	tab.AddRow("m1", f.M1.String(), approx(f.M1))
	tab.AddRow("m2", f.M2.String(), approx(f.M2))
	tab.AddRow("m", f.M.String(), approx(f.M))
	tab.AddRow("S_W", rows(f.SW), "")
	tab.AddRow("Fisher", f.Fisher.String(), approx(f.Fisher))
	for _, fit := range []lsqFit{f.Special, f.Plain} {
		what := fmt.Sprintf("LSQ %s, %s", exact.Format(fit.T1), exact.Format(fit.T2))
		tab.AddRow(what+": w", fit.W.String(), approx(fit.W))
		tab.AddRow(what+": w/Fisher", ratOrNot(fit.Ratio), one(fit.Ratio))
		tab.AddRow(what+": w0", exact.Format(fit.W0), one(fit.W0))
		tab.AddRow(what+": -w.m", exact.Format(fit.AtMean), one(fit.AtMean))
	}
	tab.Note = fmt.Sprintf("m1, m2: the class means; m: the mean of all samples; S_W: the within-class scatter, by rows; Fisher: S_W⁻¹(m1 - m2). LSQ a, b: least squares with targets a for class +1 and b for class -1, here N/N1 = %s and -N/N2 = %s (N = %d), then +1 and -1; w/Fisher: the one number every weight of w is times Fisher's (the direction is Fisher's, exactly); -w.m: the bias that puts the threshold at m.", exact.Format(f.Special.T1), exact.Format(f.Special.T2), f.N1+f.N2)
	r.Tables = append(r.Tables, tab)
	if d.Dim() == 2 {
		fig := &plot.Figure{Name: "boundaries", Title: "Least squares' boundaries and Fisher's direction", XLabel: "x1", YLabel: "x2", Equal: true,
			Caption: "the samples; least squares' boundary with targets N/N1 and -N/N2 (through the mean of all samples, normal to Fisher's direction) and with targets +1 and -1 (parallel to it); Fisher's direction drawn from the mean",
			Series:  classSeries(d)}
		m := f.M.Floats()
		fw := f.Fisher.Floats()
		span := 0.0
		for _, p := range d.Points {
			for i, v := range p.X.Floats() {
				span = max(span, v-m[i], m[i]-v)
			}
		}
		norm := float64(fw[0]*fw[0]) + float64(fw[1]*fw[1])
		scale := span / 2 / sqrtF(norm)
		fig.Series = append(fig.Series,
			plot.Series{Name: "m, the mean", X: []float64{m[0]}, Y: []float64{m[1]}, Points: true, Style: 7},
			plot.Series{Name: "Fisher's direction", X: []float64{m[0], m[0] + float64(scale*fw[0])}, Y: []float64{m[1], m[1] + float64(scale*fw[1])}, Arrow: true, Style: 4})
		for i, fit := range []lsqFit{f.Special, f.Plain} {
			w := fit.W.Floats()
			fig.Boundaries = append(fig.Boundaries, plot.Boundary{Name: fmt.Sprintf("least squares, targets %s, %s", exact.Format(fit.T1), exact.Format(fit.T2)),
				W: [3]float64{w[0], w[1], exact.Float(fit.W0)}, Style: 3 + 2*i, Solid: i == 0})
		}
		r.Figures = append(r.Figures, fig)
	}
	r.Figures = append(r.Figures, projectionFigure(d, f))
	fit := func(l lsqFit) map[string]any {
		return map[string]any{"targets": []string{exact.Format(l.T1), exact.Format(l.T2)}, "w": l.W.Strings(), "w0": exact.Format(l.W0),
			"ratio_to_fisher": ratOrNot(l.Ratio), "minus_w_dot_m": exact.Format(l.AtMean)}
	}
	r.Data = map[string]any{"n1": f.N1, "n2": f.N2, "m1": f.M1.Strings(), "m2": f.M2.Strings(), "m": f.M.Strings(),
		"fisher": f.Fisher.Strings(), "special": fit(f.Special), "plain": fit(f.Plain)}
	return r, f, nil
}

// fisherLSQChecks checks that least squares with the targets N/N1 and -N/N2 gives Fisher's
// direction and the bias -w.m, and with +1 and -1 Fisher's direction and another bias.
func fisherLSQChecks(f *fisherLSQ) []report.Check {
	off := func(l lsqFit) float64 { return exact.Float(new(big.Rat).Sub(l.W0, l.AtMean)) }
	d := off(f.Plain)
	return []report.Check{
		report.NewCheck("targets N/N1, -N/N2: every weight the same multiple of Fisher's (1: yes)", holds(f.Special.Ratio != nil), 1, 1, "not Fisher's direction: 0"),
		report.NewCheck("targets N/N1, -N/N2: w0 minus -w.m", off(f.Special), 0, 0, "the threshold not at the mean of all samples: not 0"),
		report.NewCheck("targets +1, -1: every weight the same multiple of Fisher's (1: yes)", holds(f.Plain.Ratio != nil), 1, 1, "not Fisher's direction: 0"),
		report.NewCheck(fmt.Sprintf("targets +1, -1: |w0 minus -w.m| (classes of %d and %d)", fisherN1, fisherN2), max(d, -d), 0.01, 10, "the targets mixed up, the bias at the mean: 0"),
	}
}

// projectionFigure draws Fisher's view of the data: each class's projections onto Fisher's
// unit direction, p = f.x/|f|, as a histogram (a step outline of the counts in equal bins), and
// the thresholds of the two least-squares discriminants on that axis (both are multiples of f:
// w = r f, so w.x + w0 = 0 where p = -w0/(r |f|)).
func projectionFigure(d *trace.Data, f *fisherLSQ) *plot.Figure {
	fw := f.Fisher.Floats()
	norm := 0.0
	for _, v := range fw {
		norm += float64(v * v) // each product rounded: no fused multiply-add
	}
	norm = sqrtF(norm)
	proj := func(x exact.Vec) float64 {
		s := 0.0
		for i, v := range x.Floats() {
			s += float64(fw[i] * v)
		}
		return s / norm
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var ps []float64
	for _, p := range d.Points {
		v := proj(p.X)
		ps = append(ps, v)
		lo, hi = min(lo, v), max(hi, v)
	}
	const bins = 12
	width := (hi - lo) / bins
	if width == 0 {
		width = 1
	}
	counts := [2][bins]float64{}
	for i, p := range d.Points {
		b := min(int((ps[i]-lo)/width), bins-1)
		c := 0
		if p.Y == -1 {
			c = 1
		}
		counts[c][b]++
	}
	most := 0.0
	fig := &plot.Figure{Name: "projections", Title: "Fisher's view: the two classes projected onto his direction", XLabel: "p = f.x / |f|, f = S_W⁻¹(m1 - m2)", YLabel: "samples"}
	for c, name := range []string{"class +1", "class -1"} {
		s := plot.Series{Name: name, Style: 2 - c}
		for b := range bins {
			x0, x1 := lo+float64(float64(b)*width), lo+float64(float64(b+1)*width)
			s.X = append(s.X, x0, x0, x1, x1)
			s.Y = append(s.Y, 0, counts[c][b], counts[c][b], 0)
			most = max(most, counts[c][b])
		}
		fig.Series = append(fig.Series, s)
	}
	var marks []string
	for i, fit := range []lsqFit{f.Special, f.Plain} {
		if fit.Ratio == nil || fit.Ratio.Sign() == 0 {
			continue
		}
		t := -exact.Float(fit.W0) / exact.Float(fit.Ratio) / norm
		what := fmt.Sprintf("threshold of least squares, targets %s, %s", exact.Format(fit.T1), exact.Format(fit.T2))
		fig.Series = append(fig.Series, plot.Series{Name: what, X: []float64{t, t}, Y: []float64{0, most}, Dashed: true, Style: 3 + 2*i})
		marks = append(marks, fmt.Sprintf("%.4g", t))
	}
	fig.Caption = fmt.Sprintf("each class's projections onto Fisher's unit direction, counted in %d equal bins, and the thresholds of the two least-squares discriminants on that axis (at %s); the projected mean of all samples is %.4g", bins, english.List(marks), proj(f.M))
	return fig
}
