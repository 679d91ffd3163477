package demo

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func maskingDemo() lab.Demo {
	return lab.Demo{Name: "masking", Help: "least squares never answers the middle of three classes",
		Args: "[--n N --noise S]", Usage: "[--n N] [--middle N] [--noise S] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "n", Kind: lab.Int, Default: "30", Min: 2, Max: 10000, Help: "samples of the low and the high class", QuickSets: true},
			{Name: "middle", Kind: lab.Int, Default: "20", Min: 2, Max: 10000, Help: "samples of the middle class", QuickSets: true},
			{Name: "noise", Kind: lab.Float, Default: "0.7", Min: 0, MinOpen: true, Max: 10, Want: "want 0 < S <= 10", Help: "the classes' standard deviation", QuickSets: true},
			seedParam("the samples' seed", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, methods, err := maskingReport(ctx, maskingConfig{N: c.Int("n"), Middle: c.Int("middle"), Noise: c.Float("noise"), Seed: c.Uint("seed")})
			if err == nil && c.Quick {
				r.Checks = maskingChecks(methods)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// maskingData draws three classes around points on the diagonal, (-3, -3), (0, 0) and (3, 3), n
// samples each but middle for the middle class, with normal noise of standard deviation
// noise: the middle class lies between the others.
func maskingData(n, middle int, noise float64, seed uint64) *learn.Data {
	rng := rand.New(rand.NewPCG(seed, 0x6d61736b)) // "mask"
	d := &learn.Data{Classes: []string{"low", "middle", "high"}}
	for i := range max(n, middle) {
		for c := range 3 {
			if (c == 1 && i >= middle) || (c != 1 && i >= n) {
				continue
			}
			m := float64(3 * (c - 1))
			d.X = append(d.X, []float64{m + float64(noise*detmath.Normal(rng)), m + float64(noise*detmath.Normal(rng))})
			d.Y = append(d.Y, c)
		}
	}
	return d
}

// maskingMethod is one way of fitting the three classes, with what it answers.
type maskingMethod struct {
	Name     string
	Model    *learn.Multi
	Assigned []int // training samples answered as each class
	Errors   int
	Area     []float64 // fraction of the grid answered as each class
}

// maskingConfig sets up the masking demonstration.
type maskingConfig struct {
	N      int // samples of the low and high classes
	Middle int // samples of the middle class
	Noise  float64
	Seed   uint64
}

// maskingReport shows least squares masking a class: three classes in a row, fitted by least squares
// with K discriminants (one-hot targets), by the perceptron's K-class machine and by Fisher's
// discriminant for K classes. Least squares fits each class's indicator by a plane; the middle
// class's indicator is high in the middle and low on both sides, and the best plane for it is
// nearly flat, below one of the others everywhere: the middle class is never answered. The
// perceptron and Fisher answer it.
func maskingReport(ctx context.Context, c maskingConfig) (*report.Report, []maskingMethod, error) {
	d := maskingData(c.N, c.Middle, c.Noise, c.Seed)
	lsq, err := learn.LeastSquaresMulti(d, learn.KDiscriminants)
	if err != nil {
		return nil, nil, err
	}
	it, err := learn.NewIterative(d, learn.Rule{Order: learn.InOrder}, learn.KDiscriminants)
	if err != nil {
		return nil, nil, err
	}
	epochs := 0
	for epochs < 1000 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		epochs++
		if it.Epoch() == 0 {
			break
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	fisher, err := learn.FisherMulti(d)
	if err != nil {
		return nil, nil, err
	}
	methods := []maskingMethod{
		{Name: "least squares", Model: lsq},
		{Name: "perceptron, K-class machine", Model: it.Current()},
		{Name: "Fisher, K classes", Model: fisher},
	}
	xmin, xmax, ymin, ymax := extent(d)
	r := &report.Report{Name: "masking", Title: "Least squares masks a class"}
	r.Summary = "Three classes in a row. Least squares fits each class's indicator (1 in the class, 0 elsewhere) by a plane; the middle class's indicator rises and falls again along the row, and the plane that fits it best is almost flat, below the low class's plane on one side and the high class's on the other: the middle class is never the largest, never answered. The perceptron's K-class machine corrects mistakes until there are none; Fisher's discriminant projects onto the directions that separate the class means best and answers the nearest mean. Both answer the middle class."
	r.Condition("data", fmt.Sprintf("3 classes around (-3, -3), (0, 0) and (3, 3): %d, %d and %d samples, standard deviation %g; seed %d", c.N, c.Middle, c.N, c.Noise, c.Seed))
	r.Condition("methods", fmt.Sprintf("least squares with 3 discriminants fitted together (targets +1 for the class and -1 for the others; one-hot targets give the same argmax); the fixed-increment perceptron's K-class machine (Kesler's construction), in the data's order, %d epochs until one without a correction; Fisher's discriminant for 3 classes (the 2 directions of S_W⁻¹S_B, the nearest projected mean)", epochs))
	tab := &report.Table{Name: "masking", Title: "Who answers what", Columns: []string{"method", "answered low", "answered middle", "answered high", "training errors", "plot answered middle (%)"}}
	for i := range methods {
		m := &methods[i]
		m.Assigned = make([]int, 3)
		for j, x := range d.X {
			a := m.Model.Predict(x)
			m.Assigned[a]++
			if a != d.Y[j] {
				m.Errors++
			}
		}
		reg := RegionGrid(m.Model.Predict, 120, xmin, xmax, ymin, ymax)
		m.Area = make([]float64, 3)
		for _, v := range reg.Class {
			m.Area[v]++
		}
		for k := range m.Area {
			m.Area[k] /= float64(len(reg.Class))
		}
		reg.Names = []string{"low", "middle", "high"}
		tab.AddRow(m.Name, m.Assigned[0], m.Assigned[1], m.Assigned[2], m.Errors, fmt.Sprintf("%.1f", 100*m.Area[1]))
		r.Figures = append(r.Figures, &plot.Figure{Name: fmt.Sprintf("masking-%d", i+1), Title: m.Name + ": the classes answered", XLabel: "x1", YLabel: "x2",
			Regions: reg, Series: classPoints(d), Caption: "the plane coloured by the class answered, with the training samples"})
	}
	tab.Note = fmt.Sprintf("The training samples: %d low, %d middle, %d high. Least squares' middle plane is flat along the row, at a height set by the middle class's share of the samples; the other two cross at the height their share sets. With equal classes it ties with them at best, and which side wins a sliver is chance; with the middle class smaller it is never on top.", c.N, c.Middle, c.N)
	r.Tables = append(r.Tables, tab)
	// Least squares' three discriminants along the diagonal x = (t, t).
	var ts []float64
	gs := make([][]float64, 3)
	for i := 0; i <= 200; i++ {
		t := -6 + float64(12*float64(i))/200
		ts = append(ts, t)
		for k, u := range lsq.Units {
			gs[k] = append(gs[k], u.Score([]float64{t, t}))
		}
	}
	fig := &plot.Figure{Name: "lsq-along-the-row", Title: "Least squares: the three discriminants along the row x1 = x2 = t", XLabel: "t", YLabel: "g_k(t, t)",
		Caption: "each class's fitted plane along the diagonal: the middle class's is nearly flat and never on top"}
	for k, g := range gs {
		fig.Series = append(fig.Series, plot.Series{Name: "g for " + d.Classes[k], X: ts, Y: g, Style: k + 1})
	}
	r.Figures = append(r.Figures, fig)
	data := map[string]any{}
	for _, m := range methods {
		data[m.Name] = map[string]any{"assigned": m.Assigned, "errors": m.Errors, "area": m.Area}
	}
	r.Data = data
	return r, methods, nil
}

// maskingChecks checks that least squares masks the middle class (default sizes: 20 of 80
// samples) while the perceptron's K-class machine and Fisher for K classes answer it.
func maskingChecks(methods []maskingMethod) []report.Check {
	out := []report.Check{
		report.NewCheck("least squares: middle samples answered middle", float64(methods[0].Assigned[1]), 0, 0, "no masking (the middle class as large as the others, or not least squares): several"),
		report.NewCheck("least squares: the plot answered middle (%)", 100*methods[0].Area[1], 0, 0, "no masking: a band across the row"),
	}
	for _, m := range methods[1:] {
		out = append(out, report.NewCheck(m.Name+": middle samples answered middle (of 20)", float64(m.Assigned[1]), 18, 20, "a method that masks too: 0"))
	}
	return out
}
