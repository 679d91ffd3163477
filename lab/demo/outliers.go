package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/problem"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func outliersDemo() lab.Demo {
	return lab.Demo{Name: "outliers", Help: "outliers pull least squares, not the perceptron or logistic",
		Args: "[--draws N --outliers N]", Usage: "[--draws N] [--outliers N] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "draws", Kind: lab.Int, Default: "20", Min: 1, Max: 10000, Help: "random draws of the data", QuickSets: true},
			{Name: "outliers", Kind: lab.Int, Default: "10", Min: 1, Max: 10000, Help: "outlying samples added", QuickSets: true},
			seedParam("first seed", false),
		},
		Uses: lab.UsesWorkers, Quick: lessonQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			return outliersReport(ctx, outliersConfig{Draws: c.Int("draws"), Outliers: c.Int("outliers"), Seed: c.Uint("seed"),
				Quick: c.Quick, Workers: c.Workers, Progress: c.Progress})
		}}
}

// outliersConfig sets up the least-squares-and-outliers demonstration.
type outliersConfig struct {
	Draws    int    // random draws of the data
	Outliers int    // outlying samples added
	Seed     uint64 // first seed
	// Quick runs the quick run: 5 draws with 10 outliers, with checks (report.Check) that the
	// tests hold.
	Quick    bool
	Workers  int
	Progress func(done, total int)
}

// outlierMethods are the discriminants compared, in order.
var outlierMethods = []string{"least squares", "Fisher (best threshold)", "Fisher (midpoint threshold)", "perceptron", "pocket", "logistic regression"}

// logisticLambda is the penalty on the weights of logistic regression in the outliers
// demonstration: the clusters without outliers are separable, where the likelihood alone has no
// finite maximum.
const logisticLambda = 0.01

// fitOutliers fits every method of outlierMethods to two-class data.
func fitOutliers(d *learn.Data, seed uint64) ([]learn.Linear, error) {
	y := labels(d)
	ls, err := learn.LeastSquaresBinary(d.X, y)
	if err != nil {
		return nil, err
	}
	fb, err := learn.Fisher(d.X, y, learn.BestThreshold)
	if err != nil {
		return nil, err
	}
	fm, err := learn.Fisher(d.X, y, learn.MidpointThreshold)
	if err != nil {
		return nil, err
	}
	p, _, err := learn.Train(d.X, y, learn.Rule{Seed: seed}, 1000)
	if err != nil {
		return nil, err
	}
	pk, err := learn.NewPerceptron(d.X, y, learn.Rule{Seed: seed, Pocket: true})
	if err != nil {
		return nil, err
	}
	for range 200 {
		pk.Epoch()
	}
	lr, err := learn.Logistic(d.X, y, logisticLambda)
	if err != nil {
		return nil, err
	}
	return []learn.Linear{ls, fb, fm, p.Weights(), pk.Best(), lr}, nil
}

// outliersReport shows least squares failing on outliers where the perceptron and Fisher's
// discriminant do not: two clusters, then the same clusters with extra samples of one class
// far behind it, on the right side of any sensible boundary. Least squares wants every sample's
// score near its target, so the far samples, whose scores are far beyond it, drag its boundary
// toward them; the perceptron only corrects mistakes, and Fisher's direction hardly moves (the
// outliers lie along it), its threshold set on the training errors.
func outliersReport(ctx context.Context, c outliersConfig) (*report.Report, error) {
	start := time.Now()
	if c.Quick {
		c.Draws, c.Outliers = 5, 10
	}
	type draw struct {
		Base     [][2]float64 `json:"errors"` // per method: errors without outliers, with outliers (on the ordinary samples)
		plain    *learn.Data
		with     *learn.Data
		fitPlain []learn.Linear
		fitWith  []learn.Linear
	}
	prog := lab.NewProgress(c.Progress, c.Draws)
	draws, err := lab.Parallel(ctx, c.Draws, c.Workers, func(int) { prog.Add(1) }, func(ctx context.Context, i int) (draw, error) {
		seed := c.Seed + uint64(i)
		var out draw
		for k, n := range []int{0, c.Outliers} {
			s, err := problem.Parse(fmt.Sprintf("outliers,outliers=%d,seed=%d", n, seed))
			if err != nil {
				return out, err
			}
			d, err := s.Generate()
			if err != nil {
				return out, err
			}
			fits, err := fitOutliers(d, seed)
			if err != nil {
				return out, err
			}
			if k == 0 {
				out.plain, out.fitPlain = d, fits
			} else {
				out.with, out.fitWith = d, fits
			}
		}
		// Errors on the ordinary samples (the outliers are the last ones of the second set).
		ordinary := out.plain
		for m := range outlierMethods {
			out.Base = append(out.Base, [2]float64{binaryError(out.fitPlain[m], ordinary), binaryError(out.fitWith[m], ordinary)})
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	s0, _ := problem.Parse("outliers")
	r := &report.Report{Name: "outliers", Title: "Least squares and outliers"}
	r.Summary = "Two clusters a line separates, then the same clusters with a group of extra samples of one class placed far behind it, where any sensible boundary already puts them. The errors are counted on the ordinary samples, the same in both cases."
	r.Condition("data", fmt.Sprintf("%s: class +1 around (-1, 1) and class -1 around (1, -1), %d each, standard deviation %g; then %d outliers of class -1 around (6, -6)", s0, s0.N, s0.Noise, c.Outliers))
	figs := "the figures show the first"
	if c.Draws == 1 {
		figs = "the figures show it"
	}
	r.Condition("draws", fmt.Sprintf("%d (%s); %s", c.Draws, english.Span("seed", c.Seed, c.Draws), figs))
	r.Condition("methods", "least squares (pseudo-inverse, targets +1/-1); Fisher's direction with the threshold that misclassifies fewest training samples, or midway between the projected class means; the perceptron until it converges (at most 1,000 epochs); the pocket after 200 epochs; logistic regression (Newton's method, the penalty 0.01/2 |w|^2 on the weights)")
	table := &report.Table{Name: "outliers", Title: "Error on the ordinary samples, mean over the draws", Columns: []string{"method", "without outliers", "with outliers", "draws made worse by the outliers"}}
	for m, name := range outlierMethods {
		var before, after []float64
		worse := 0
		for _, d := range draws {
			before, after = append(before, d.Base[m][0]), append(after, d.Base[m][1])
			if d.Base[m][1] > d.Base[m][0] {
				worse++
			}
		}
		table.AddRow(name, report.Pct(report.Mean(before)), report.Pct(report.Mean(after)), fmt.Sprintf("%d of %d", worse, len(draws)))
	}
	table.Note = "Least squares asks every sample's score to be near its target, +1 or -1: an outlier far on the right side has a score far beyond -1, and pulling it back costs the boundary. The perceptron corrects only mistakes; Fisher's direction barely turns (the outliers lie along it) and its threshold is set where the training errors are fewest. Fisher's midpoint threshold moves with the class mean the outliers drag. Logistic regression, least squares' probabilistic counterpart, pays almost nothing for a sample far on its right side: it stays."
	r.Tables = append(r.Tables, table)
	first := draws[0]
	r.Tables = append(r.Tables, probabilityTable(first.fitWith[0], first.fitWith[5], c.Outliers))
	for k, d := range []*learn.Data{first.plain, first.with} {
		fits := first.fitPlain
		name, title := "without", "Without outliers"
		if k == 1 {
			fits, name, title = first.fitWith, "with", fmt.Sprintf("With %d outliers", c.Outliers)
		}
		fig := &plot.Figure{Name: "boundaries-" + name, Title: title + ": the boundaries", XLabel: "x1", YLabel: "x2",
			Caption: "the samples of the first draw and each method's boundary"}
		fig.Series = classPoints(d)
		for m, l := range fits {
			fig.Boundaries = append(fig.Boundaries, plot.Boundary{Name: outlierMethods[m], W: [3]float64{l.W[0], l.W[1], l.W[2]}, Style: m + 3})
		}
		r.Figures = append(r.Figures, fig)
	}
	data := make([][][2]float64, len(draws))
	for i, d := range draws {
		data[i] = d.Base
	}
	if c.Quick {
		quickNote(r, "5 draws, 10 outliers")
		meanOf := func(m, k int) float64 {
			return report.Mean(report.Collect(draws, func(d draw) float64 { return d.Base[m][k] }))
		}
		r.Checks = append(r.Checks,
			report.NewCheck("least squares: error on the ordinary samples, with outliers minus without (mean)", meanOf(0, 1)-meanOf(0, 0), 0.01, 0.2, "outliers left out, or a fit that ignores them: 0"),
			report.NewCheck("the perceptron with outliers: error on the ordinary samples (mean)", meanOf(3, 1), 0, 0.01, "a perceptron that never learns: about 0.5"),
			report.NewCheck("Fisher, best threshold, with outliers (mean)", meanOf(1, 1), 0, 0.02, "a threshold at the midpoint: about 0.1"),
			report.NewCheck("Fisher, midpoint threshold, with outliers (mean)", meanOf(2, 1), 0.03, 0.3, "no outliers: about 0"),
			report.NewCheck("logistic regression with outliers (mean)", meanOf(5, 1), 0, 0.01, "least squares' loss in its place: about 0.03"))
	}
	r.Data = map[string]any{"methods": outlierMethods, "errors_per_draw": data}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// probabilityTable reads the first draw's fits with outliers at a few points: least squares'
// score, which fits targets +1 and -1 and says nothing of how sure it is, against logistic
// regression's probability of class +1.
func probabilityTable(ls, lr learn.Linear, outliers int) *report.Table {
	t := &report.Table{Name: "probabilities", Title: fmt.Sprintf("What the scores say, first draw with %d outliers", outliers),
		Columns: []string{"point", "x", "least squares g(x)", "logistic g(x)", "logistic P(+1 | x)"}}
	for _, p := range []struct {
		what string
		x    []float64
	}{{"class +1's centre", []float64{-1, 1}}, {"midway", []float64{0, 0}}, {"class -1's centre", []float64{1, -1}}, {"the outliers' centre", []float64{6, -6}}} {
		t.AddRow(p.what, fmt.Sprintf("(%g, %g)", p.x[0], p.x[1]), ls.Score(p.x), lr.Score(p.x), learn.Sigmoid(lr.Score(p.x)))
	}
	t.Note = "Least squares asks every score to be its target, +1 or -1: a line right for the clusters scores the outliers far below -1, and least squares turns it until their scores come near -1, ordinary samples crossing. Logistic regression reads its score as log-odds, P(+1 | x) = 1/(1 + e^-g(x)): a sample far on its own side costs it almost nothing, so the outliers barely move it, and its probability says how sure it is."
	return t
}
