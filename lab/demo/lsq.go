package demo

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func lsqDemo() lab.Demo {
	return lab.Demo{Name: "lsq", Help: "least squares alone, exactly: w, fits, residuals, E; ridge",
		Args: "--data FILE | --point X,...,Y ... [--lambda L]", Usage: "--data FILE | --point X1,...,LABEL ... [--lambda L] [--quick]",
		Params: []lab.Param{
			{Name: "data", Kind: lab.String, Help: "a CSV file of samples (features, then a label of +1 or -1, the target), as mark1 lab trace reads", QuickSets: true},
			{Name: "point", Kind: lab.Points, Help: "a sample X1,...,LABEL; repeat for more (instead of --data)", QuickSets: true},
			{Name: "lambda", Kind: lab.String, Default: "0", Help: "the ridge term lambda >= 0 (0, 0.1, 1/10): least squares minimises E + lambda |w|^2, the bias w0 not penalised", QuickSets: true},
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			text := c.String("lambda")
			lambda, err := exact.Parse(text)
			if err != nil || lambda.Sign() < 0 {
				return nil, lab.ParamErrorf("--lambda %s: want a number >= 0", text)
			}
			d, err := samples(c)
			if err != nil {
				return nil, err
			}
			if c.Quick {
				d, lambda = notesFourPoints(), exact.Int(1)
			}
			if d == nil {
				return nil, lab.ParamErrorf("no samples: give --data FILE or --point X1,X2,...,LABEL (repeated)")
			}
			if n := d.Dim(); n > lsqMaxFeatures {
				return nil, lab.ParamErrorf("%s: %d features: the normal equations are solved exactly, for at most %d", d.Name, n, lsqMaxFeatures)
			}
			r, fits, err := lsqReport(ctx, d, lambda)
			if err == nil && c.Quick {
				r.Checks = lsqChecks(fits)
				r.Notes = append(r.Notes, "--quick: the lecture notes' four-point example, X = [[1,5],[2,4],[6,5],[7,4]], t = [1,1,-1,-1], with lambda = 0 and 1, and the checks of it that the tests hold.")
			}
			return r, err
		}}
}

// lsqMaxFeatures is the most features mark1 lab lsq solves for: its normal equations are
// solved in exact rational arithmetic, whose numbers grow with every elimination.
const lsqMaxFeatures = 20

// notesFourPoints is the lecture notes' least-squares example: X = [[1,5],[2,4],[6,5],[7,4]],
// t = [1,1,-1,-1] (w = (-0.4, -0.4), w0 = 3.4).
func notesFourPoints() *trace.Data {
	d, err := trace.Points([]string{"1,5,+1", "2,4,+1", "6,5,-1", "7,4,-1"})
	if err != nil {
		panic(err)
	}
	d.Name = "the lecture notes' four points"
	return d
}

// lsqFitExact is one exact least-squares fit: the normal equations and their solution.
type lsqFitExact struct {
	Lambda *big.Rat
	M      []exact.Vec // A^T A + lambda D, D the identity with a 0 for the bias
	B      exact.Vec   // A^T t
	W      exact.Vec   // (w1, ..., wd, w0), nil when M is singular
	G      exact.Vec   // each sample's g(x) = w.x + w0
	R      exact.Vec   // each sample's residual g(x) - t
	E      *big.Rat    // sum of the squared residuals
	NormSq *big.Rat    // |w|^2, the bias left out
	ATR    exact.Vec   // A^T r: 0 for lambda = 0, -lambda (w, 0) otherwise
	Errors int         // samples whose sign of g(x) is not their label (g(x) = 0 counted wrong)
}

// normalEquations returns A^T A + lambda D and A^T t, A the samples xs with a 1 appended (the
// bias last), D the identity with a 0 for the bias (the bias is not penalised).
func normalEquations(ctx context.Context, xs []exact.Vec, t []*big.Rat, lambda *big.Rat) ([]exact.Vec, exact.Vec, error) {
	d := len(xs[0]) + 1
	a := make([]exact.Vec, d)
	for i := range a {
		a[i] = exact.Zeros(d)
	}
	b := exact.Zeros(d)
	tmp := new(big.Rat)
	for i, x := range xs {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		row := trace.Last.Augment(x)
		for p := range d {
			for q := range d {
				a[p][q].Add(a[p][q], tmp.Mul(row[p], row[q]))
			}
			b[p].Add(b[p], tmp.Mul(row[p], t[i]))
		}
	}
	if lambda != nil {
		for p := range d - 1 {
			a[p][p].Add(a[p][p], lambda)
		}
	}
	return a, b, nil
}

// fitLSQ solves least squares with the ridge term lambda on xs and targets t exactly. A
// singular system leaves W nil.
func fitLSQ(ctx context.Context, xs []exact.Vec, t []*big.Rat, lambda *big.Rat) (*lsqFitExact, error) {
	m, b, err := normalEquations(ctx, xs, t, lambda)
	if err != nil {
		return nil, err
	}
	f := &lsqFitExact{Lambda: lambda, M: m, B: b}
	w, err := exact.Solve(m, b)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if errors.Is(err, exact.ErrSingular) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f.W, f.E, f.ATR = w, new(big.Rat), exact.Zeros(len(w))
	f.NormSq = w[:len(w)-1].Dot(w[:len(w)-1])
	for i, x := range xs {
		row := trace.Last.Augment(x)
		g := w.Dot(row)
		r := new(big.Rat).Sub(g, t[i])
		f.G, f.R = append(f.G, g), append(f.R, r)
		f.E.Add(f.E, new(big.Rat).Mul(r, r))
		f.ATR.AddScaled(r, row)
		if g.Sign()*t[i].Sign() <= 0 {
			f.Errors++
		}
	}
	return f, nil
}

// objective returns E + lambda |w|^2, what the fit minimises.
func (f *lsqFitExact) objective() *big.Rat {
	return new(big.Rat).Add(f.E, new(big.Rat).Mul(f.Lambda, f.NormSq))
}

// lsqReport solves least squares on a student's samples exactly, targets their labels, with
// the ridge term lambda (and, when lambda > 0, without it too, for comparison): the normal
// equations, w, every sample's fitted value and residual, and E.
func lsqReport(ctx context.Context, d *trace.Data, lambda *big.Rat) (*report.Report, []*lsqFitExact, error) {
	var xs []exact.Vec
	var t []*big.Rat
	for _, p := range d.Points {
		xs, t = append(xs, p.X), append(t, exact.Int(int64(p.Y)))
	}
	lambdas := []*big.Rat{new(big.Rat)}
	if lambda.Sign() > 0 {
		lambdas = append(lambdas, lambda)
	}
	var fits []*lsqFitExact
	for _, l := range lambdas {
		f, err := fitLSQ(ctx, xs, t, l)
		if err != nil {
			return nil, nil, err
		}
		fits = append(fits, f)
	}
	main := fits[len(fits)-1]
	if main.W == nil {
		return nil, nil, errors.New("least squares: the normal equations A^T A w = A^T t are singular (the features and the constant 1 are not independent over these samples): give --lambda > 0 for the ridge solution")
	}
	dim := d.Dim()
	r := &report.Report{Name: "lsq", Title: "Least squares, exactly"}
	r.Summary = "Least squares fits g(x) = w.x + w0 to the targets t, here the labels +1 and -1, by minimising E = sum of (g(x) - t)^2 over the samples; with the ridge term it minimises E + lambda |w|^2. The minimum solves the normal equations (A^T A + lambda D)(w, w0) = A^T t: A holds the samples with a 1 last, D is the identity with a 0 for the bias, which is not penalised. Everything is exact (rational arithmetic): the numbers are those worked by hand."
	r.Condition("data", fmt.Sprintf("%s: %d samples, %d features; the targets are the labels", d.Name, len(d.Points), dim))
	r.Condition("lambda", exact.Format(lambda)+" (the bias w0 is not penalised)")
	names := make([]string, 0, dim+1)
	for i := range dim {
		names = append(names, fmt.Sprintf("w%d", i+1))
	}
	names = append(names, "w0")
	ne := &report.Table{Name: "normal-equations", Title: fmt.Sprintf("The normal equations, lambda = %s", exact.Format(lambda)),
		Columns: []string{"row", "A^T A + lambda D, times (" + strings.Join(names, ", ") + ")", "= A^T t"}}
	for i := range main.M {
		ne.AddRow(i+1, main.M[i].String(), exact.Format(main.B[i]))
	}
	ne.Note = "Row j sums, over the samples, a_j times the sample's row of A (a_j its j-th entry, the 1 last), and adds lambda on the weights' diagonal, not the bias's; its right side sums a_j t."
	r.Tables = append(r.Tables, ne)
	sol := &report.Table{Name: "solution", Title: "The solution", Columns: []string{"lambda", "(" + strings.Join(names, ", ") + ")", "|w|^2", "E", "E + lambda |w|^2", "training errors"}}
	for _, f := range fits {
		if f.W == nil {
			sol.AddRow(exact.Format(f.Lambda), "singular: no unique solution", "-", "-", "-", "-")
			continue
		}
		sol.AddRow(exact.Format(f.Lambda), f.W.String(), exact.Format(f.NormSq), exact.Format(f.E), exact.Format(f.objective()), f.Errors)
	}
	sol.Note = "|w|^2 leaves out the bias. E is the sum of the squared residuals; a training error is a sample whose g(x) has not its label's sign (0 counted wrong)."
	if lambda.Sign() > 0 {
		sol.Note += " The ridge term shrinks w: |w|^2 falls and E rises, and E + lambda |w|^2 is the least there is for that lambda."
	} else {
		sol.Columns = slices.Delete(sol.Columns, 4, 5)
		sol.Rows[0] = slices.Delete(sol.Rows[0], 4, 5)
	}
	r.Tables = append(r.Tables, sol)
	per := &report.Table{Name: "samples", Title: fmt.Sprintf("Each sample, lambda = %s", exact.Format(lambda)), Columns: []string{"sample", "x", "t", "g(x)", "g(x) - t", "(g(x) - t)^2"}}
	for i, p := range d.Points {
		per.AddRow(p.Where, p.X.String(), signed(p.Y), exact.Format(main.G[i]), exact.Format(main.R[i]), exact.Format(new(big.Rat).Mul(main.R[i], main.R[i])))
	}
	per.Note = fmt.Sprintf("E = %s, the sum of the last column. A^T r = %s: ", exact.Format(main.E), main.ATR)
	if lambda.Sign() == 0 {
		per.Note += "the residuals are orthogonal to every column of A, which is what the normal equations say."
	} else {
		per.Note += "-lambda (w, 0): the normal equations with the ridge term, A^T (A w - t) + lambda D w = 0."
	}
	r.Tables = append(r.Tables, per)
	if dim == 2 {
		fig := &plot.Figure{Name: "boundaries", Title: "Least squares' boundary g(x) = 0", XLabel: "x1", YLabel: "x2", Equal: true,
			Caption: "the samples and the boundary w.x + w0 = 0 of each fit", Series: classSeries(d)}
		for i, f := range fits {
			if f.W == nil || f.W[0].Sign() == 0 && f.W[1].Sign() == 0 {
				continue
			}
			w := f.W.Floats()
			fig.Boundaries = append(fig.Boundaries, plot.Boundary{Name: "lambda = " + exact.Format(f.Lambda), W: [3]float64{w[0], w[1], w[2]}, Style: 3 + 2*i, Solid: f == main})
		}
		r.Figures = append(r.Figures, fig)
	}
	var data []map[string]any
	for _, f := range fits {
		m := map[string]any{"lambda": exact.Format(f.Lambda)}
		if f.W != nil {
			m["w"], m["E"], m["norm_sq"], m["fitted"], m["residuals"], m["errors"] = f.W.Strings(), exact.Format(f.E), exact.Format(f.NormSq), f.G.Strings(), f.R.Strings(), f.Errors
		}
		data = append(data, m)
	}
	r.Data = data
	return r, fits, nil
}

// lsqChecks checks the quick run on the lecture notes' four points: without the ridge term
// the weights are the notes' (-0.4, -0.4, 3.4), the residuals orthogonal to A's columns; with
// lambda = 1 the weights shrink, E rises, and A^T r is -lambda (w, 0).
func lsqChecks(fits []*lsqFitExact) []report.Check {
	plain, ridge := fits[0], fits[len(fits)-1]
	want := exact.Vec{big.NewRat(-2, 5), big.NewRat(-2, 5), big.NewRat(17, 5)}
	off := func(a, b exact.Vec) float64 {
		worst := 0.0
		for i := range a {
			d := exact.Float(new(big.Rat).Sub(a[i], b[i]))
			worst = max(worst, d, -d)
		}
		return worst
	}
	minusLW := exact.Zeros(len(ridge.W))
	for i := range len(ridge.W) - 1 {
		minusLW[i].Mul(ridge.W[i], new(big.Rat).Neg(ridge.Lambda))
	}
	return []report.Check{
		report.NewCheck("lambda 0: largest difference from the notes' (-0.4, -0.4, 3.4)", off(plain.W, want), 0, 0, "another solution, or the bias penalised: not 0"),
		report.NewCheck("lambda 0: largest entry of A^T r (the residual orthogonal to A's columns)", off(plain.ATR, exact.Zeros(3)), 0, 0, "not the least-squares solution: not 0"),
		report.NewCheck("lambda 1: |w|^2 over lambda 0's", exact.Float(ridge.NormSq)/exact.Float(plain.NormSq), 0.01, 0.99, "the ridge term left out: 1"),
		report.NewCheck("lambda 1: E minus lambda 0's", exact.Float(new(big.Rat).Sub(ridge.E, plain.E)), 1e-6, 4, "the ridge term left out: 0"),
		report.NewCheck("lambda 1: largest difference of A^T r from -lambda (w, 0)", off(ridge.ATR, minusLW), 0, 0, "the bias penalised, or another solution: not 0"),
	}
}
