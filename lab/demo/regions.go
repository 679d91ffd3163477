package demo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func regionsDemo() lab.Demo {
	return lab.Demo{Name: "regions", Help: "one-vs-rest, one-vs-one, K discriminants: who answers where",
		Args: "[--method lsq|perceptron --classes K]", Usage: "[--method lsq|perceptron] [--classes K] [--seed N] [--quick]",
		Params: []lab.Param{
			{Name: "method", Kind: lab.String, Default: "lsq", Choices: []string{"lsq", "perceptron"}, Want: "want lsq or perceptron", Help: "how the discriminants are fitted: lsq (least squares) or perceptron (fixed increment)", QuickSets: true},
			{Name: "classes", Kind: lab.Int, Default: "3", Min: 3, Max: 8, Help: "classes: blobs on a circle", QuickSets: true},
			seedParam("the blobs' seed", true),
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, stats, err := regionsReport(ctx, regionsConfig{Method: c.String("method"), K: c.Int("classes"), Seed: c.Uint("seed"), Cells: regionCells})
			if err == nil && c.Quick {
				r.Checks = regionsChecks(stats)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// A scheme's answer for a point no single class wins: ambiguous(k) when several claim it (or
// the vote ties), noClass(k) when none does.
func ambiguous(k int) int { return k }

// noClass is the answer of a point no classifier claims.
func noClass(k int) int { return k + 1 }

// scheme reads K classes from linear discriminants.
type scheme struct {
	Name, What  string
	Classifiers int
	Decide      func(x []float64) int // a class 0..K-1, ambiguous(K) or noClass(K)
}

// trainMulti fits d with a strategy: least squares, or the fixed-increment perceptron in the
// data's order until an epoch without a correction (at most 1,000 epochs).
func trainMulti(ctx context.Context, d *learn.Data, s learn.Strategy, method string) (*learn.Multi, error) {
	if method == "lsq" {
		if s == learn.OneVsOne {
			return learn.FitMulti(d, s, learn.LeastSquaresBinary)
		}
		if s == learn.KDiscriminants {
			return learn.LeastSquaresMulti(d, s)
		}
		return learn.FitMulti(d, s, learn.LeastSquaresBinary)
	}
	it, err := learn.NewIterative(d, learn.Rule{Order: learn.InOrder}, s)
	if err != nil {
		return nil, err
	}
	for range 1000 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if it.Epoch() == 0 {
			break
		}
	}
	return it.Current(), nil
}

// regionSchemes returns the four ways of reading K classes of the lecture: one-vs-rest by sign with
// K classifiers and with K-1 (the last class is "none of the others"), one-vs-one by vote, and
// K discriminants by argmax; and one-vs-rest with K-1 classifiers once for each class left out
// (the one that takes what none claims).
func regionSchemes(ctx context.Context, d *learn.Data, method string) ([]scheme, []scheme, error) {
	k := d.K()
	ovr, err := trainMulti(ctx, d, learn.OneVsRest, method)
	if err != nil {
		return nil, nil, err
	}
	ovo, err := trainMulti(ctx, d, learn.OneVsOne, method)
	if err != nil {
		return nil, nil, err
	}
	kd, err := trainMulti(ctx, d, learn.KDiscriminants, method)
	if err != nil {
		return nil, nil, err
	}
	// leaveOut is one-vs-rest with the classifier of class rest left out.
	leaveOut := func(rest int) func(x []float64) int {
		var units []learn.Linear
		var classes []int
		for c := range k {
			if c != rest {
				units, classes = append(units, ovr.Units[c]), append(classes, c)
			}
		}
		return bySign(units, classes, k, rest)
	}
	var left []scheme
	for c := range k {
		left = append(left, scheme{fmt.Sprintf("class %s left out", d.Classes[c]), fmt.Sprintf("%d classifiers; a point none claims is class %s's", k-1, d.Classes[c]), k - 1, leaveOut(c)})
	}
	return []scheme{
		{"one-vs-rest, K", fmt.Sprintf("%d classifiers, class c against the rest; a point is c's when c's alone is positive", k), k, bySign(ovr.Units, nil, k, -1)},
		{"one-vs-rest, K-1", fmt.Sprintf("%d classifiers for the first %d classes; a point none claims is the last class's", k-1, k-1), k - 1, leaveOut(k - 1)},
		{"one-vs-one", fmt.Sprintf("%d classifiers, one per pair; the class with most votes", len(ovo.Units)), len(ovo.Units), vote(ovo)},
		{"K discriminants", fmt.Sprintf("%d discriminants trained together; the largest g_k(x) wins", k), k, kd.Predict},
	}, left, nil
}

// bySign reads K classes from two-class discriminants by their signs, one per class (units[i]
// is class classes[i]'s, or class i's when classes is nil): a point is class c's when c's
// alone is positive, ambiguous when several are, and rest's (or no class's, for rest < 0)
// when none is.
func bySign(units []learn.Linear, classes []int, k, rest int) func(x []float64) int {
	return func(x []float64) int {
		class, n := -1, 0
		for i, u := range units {
			if u.Score(x) > 0 {
				class, n = i, n+1
				if classes != nil {
					class = classes[i]
				}
			}
		}
		switch {
		case n > 1:
			return ambiguous(k)
		case n == 1:
			return class
		case rest >= 0:
			return rest
		}
		return noClass(k)
	}
}

// vote reads K classes from one-vs-one's pairwise discriminants: the class with most votes,
// ambiguous on a tie.
func vote(ovo *learn.Multi) func(x []float64) int {
	k := ovo.K
	return func(x []float64) int {
		votes := make([]int, k)
		for u, p := range ovo.Pairs {
			if ovo.Units[u].Score(x) > 0 {
				votes[p[1]]++
			} else {
				votes[p[0]]++
			}
		}
		best, tie := 0, false
		for c := 1; c < k; c++ {
			switch {
			case votes[c] > votes[best]:
				best, tie = c, false
			case votes[c] == votes[best]:
				tie = true
			}
		}
		if tie {
			return ambiguous(k)
		}
		return best
	}
}

// Decider returns how mark1 lab regions reads the classes of a classifier of K > 2 classes
// made of linear discriminants, by its strategy: one-vs-rest by the signs of its K
// discriminants, one-vs-one by the vote (a tie undecided), K discriminants by the largest.
// The answer is a class 0..K-1, K when several classes claim the point (or the vote ties),
// K+1 when none does.
func Decider(m *learn.Multi) func(x []float64) int {
	switch {
	case m.K > 2 && m.Strategy == learn.OneVsRest:
		return bySign(m.Units, nil, m.K, -1)
	case m.K > 2 && m.Strategy == learn.OneVsOne:
		return vote(m)
	}
	return m.Predict
}

// pinwheel draws k classes of n samples each in the plane: class c's run from the point at
// angle 2 pi c / k on the circle of radius 3 along the tangent, counterclockwise, a uniform
// distance up to 4, plus normal noise of standard deviation 0.3. Each class leans toward the
// next, so that the pairwise boundaries miss the centre in a circle: one-vs-one's vote ties
// in the middle. The classes are named a, b, c, ...
func pinwheel(k, n int, seed uint64) *learn.Data {
	rng := rand.New(rand.NewPCG(seed, 0x70696e77)) // "pinw"
	d := &learn.Data{}
	for c := range k {
		d.Classes = append(d.Classes, string(rune('a'+c)))
	}
	for range n {
		for c := range k {
			sin, cos := detmath.Sincos(float64(2*math.Pi*float64(c)) / float64(k))
			t := float64(4 * rng.Float64())
			x := float64(3*cos) - float64(t*sin) + float64(0.3*detmath.Normal(rng))
			y := float64(3*sin) + float64(t*cos) + float64(0.3*detmath.Normal(rng))
			d.X = append(d.X, []float64{x, y})
			d.Y = append(d.Y, c)
		}
	}
	return d
}

// regionsConfig sets up the multi-class regions.
type regionsConfig struct {
	Method string // "lsq" or "perceptron"
	K      int    // classes
	Seed   uint64
	Cells  int // grid cells a side
}

// regionCells is the grid's cells a side in the demonstration.
const regionCells = 120

// RegionGrid evaluates decide (a Decider) on a cells x cells grid over the box, at each
// cell's centre, as mark1 lab regions draws its regions.
func RegionGrid(decide func(x []float64) int, cells int, xmin, xmax, ymin, ymax float64) *plot.Regions {
	r := &plot.Regions{Cols: cells, Rows: cells, XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax, Class: make([]int, cells*cells)}
	for row := range cells {
		y := ymin + float64((ymax-ymin)*(float64(row)+0.5))/float64(cells)
		for c := range cells {
			x := xmin + float64((xmax-xmin)*(float64(c)+0.5))/float64(cells)
			r.Class[row*cells+c] = decide([]float64{x, y})
		}
	}
	return r
}

// classPoints returns each class's samples as a scatter series.
func classPoints(d *learn.Data) []plot.Series {
	out := make([]plot.Series, d.K())
	for c := range out {
		out[c] = plot.Series{Name: "class " + d.Classes[c], Points: true, Style: c + 1}
	}
	for i, x := range d.X {
		s := &out[d.Y[i]]
		s.X, s.Y = append(s.X, x[0]), append(s.Y, x[1])
	}
	return out
}

// extent returns the data's box, padded by a tenth.
func extent(d *learn.Data) (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = d.X[0][0], d.X[0][0], d.X[0][1], d.X[0][1]
	for _, x := range d.X {
		xmin, xmax, ymin, ymax = min(xmin, x[0]), max(xmax, x[0]), min(ymin, x[1]), max(ymax, x[1])
	}
	px, py := (xmax-xmin)/10, (ymax-ymin)/10
	return xmin - px, xmax + px, ymin - py, ymax + py
}

// regionStats counts a scheme's regions.
type regionStats struct {
	Scheme                     string
	AmbiguousArea, NoClassArea float64 // fractions of the grid
	Undecided, Errors          int     // training samples in such regions; answered wrongly or not at all
}

// regionsReport colours the plane by the class each way of reading K classes from two-class (or K)
// linear discriminants answers, with the points no class wins: ambiguous (several classes
// claim it, or the vote ties) and no class (none claims it). One-vs-rest and one-vs-one leave
// such regions; K discriminants with argmax do not, and their regions are convex.
func regionsReport(ctx context.Context, c regionsConfig) (*report.Report, []regionStats, error) {
	d := pinwheel(c.K, 30, c.Seed)
	schemes, leftOut, err := regionSchemes(ctx, d, c.Method)
	if err != nil {
		return nil, nil, err
	}
	method := "least squares (targets +1 and -1; the K discriminants fitted together, +1 for the class and -1 for the others)"
	if c.Method == "perceptron" {
		method = "the fixed-increment perceptron, in the data's order, until an epoch without a correction (the K discriminants: Kesler's construction)"
	}
	r := &report.Report{Name: "regions", Title: "Many classes from linear discriminants: who answers where"}
	r.Summary = "Two-class discriminants read by sign leave parts of the plane to no class, or to several: one-vs-rest with K classifiers has both, with K-1 the last class takes what none claims but two may still claim a point, and one-vs-one's vote can tie. K discriminants with argmax answer everywhere, and each class's region is convex (an intersection of half-planes g_k > g_j)."
	r.Condition("data", fmt.Sprintf("a pinwheel of %s, 30 samples each: class c's samples run from the point at angle 360c/K degrees on the circle of radius 3 along the circle's tangent, counterclockwise, up to 4 away, with noise of standard deviation 0.3; seed %d", english.Count(c.K, "class"), c.Seed))
	r.Condition("discriminants", method)
	xmin, xmax, ymin, ymax := extent(d)
	r.Condition("grid", fmt.Sprintf("%d x %d points over [%.3g, %.3g] x [%.3g, %.3g]", c.Cells, c.Cells, xmin, xmax, ymin, ymax))
	k := d.K()
	names := append(append([]string(nil), d.Classes...), "ambiguous", "no class")
	for i := range k {
		names[i] = "class " + names[i]
	}
	tab := &report.Table{Name: "regions", Title: "Where no class wins", Columns: []string{"scheme", "classifiers", "ambiguous (% of the plot)", "no class (% of the plot)", "training samples undecided", "training errors"}}
	var stats []regionStats
	for i, s := range schemes {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		reg := RegionGrid(s.Decide, c.Cells, xmin, xmax, ymin, ymax)
		reg.Grey, reg.Names = k, names
		st := schemeStats(s, d, reg)
		stats = append(stats, st)
		tab.AddRow(s.Name, s.Classifiers, fmt.Sprintf("%.1f", 100*st.AmbiguousArea), fmt.Sprintf("%.1f", 100*st.NoClassArea), st.Undecided, st.Errors)
		r.Figures = append(r.Figures, &plot.Figure{Name: fmt.Sprintf("regions-%d", i+1), Title: s.Name, XLabel: "x1", YLabel: "x2", Regions: reg,
			Caption: s.What + "; grey: no class wins (light: ambiguous, dark: no class)", Series: classPoints(d)})
	}
	tab.Note = "A training sample in a grey region counts as an error. K discriminants with argmax leave none: every point has a largest g_k."
	r.Tables = append(r.Tables, tab)
	left := &report.Table{Name: "left-out", Title: "One-vs-rest with K-1 classifiers: which class is left out", Columns: []string{"class left out", "ambiguous (% of the plot)", "training errors"}}
	for _, s := range leftOut {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		st := schemeStats(s, d, RegionGrid(s.Decide, c.Cells, xmin, xmax, ymin, ymax))
		left.AddRow(strings.TrimSuffix(s.Name, " left out"), fmt.Sprintf("%.1f", 100*st.AmbiguousArea), st.Errors)
	}
	left.Note = "The class left out takes every point no classifier claims, so nothing is left to no class; what stays ambiguous, two classifiers claiming a point, depends on which class it is. The table above leaves out the last."
	r.Tables = append(r.Tables, left)
	r.Data = stats
	return r, stats, nil
}

// schemeStats measures a scheme's grid: the parts of the plot ambiguous and no class's, and
// its training samples undecided and wrong.
func schemeStats(s scheme, d *learn.Data, reg *plot.Regions) regionStats {
	k := d.K()
	st := regionStats{Scheme: s.Name}
	for _, v := range reg.Class {
		switch v {
		case ambiguous(k):
			st.AmbiguousArea++
		case noClass(k):
			st.NoClassArea++
		}
	}
	st.AmbiguousArea /= float64(len(reg.Class))
	st.NoClassArea /= float64(len(reg.Class))
	for j, x := range d.X {
		a := s.Decide(x)
		if a >= k {
			st.Undecided++
		}
		if a != d.Y[j] {
			st.Errors++
		}
	}
	return st
}

// regionsChecks checks what the regions demonstration shows (fitted by least squares): one-vs-rest
// with K classifiers leaves ambiguous and unclaimed parts of the plot, one-vs-one's vote ties in
// the middle, and K discriminants answer every point, every training sample right.
func regionsChecks(stats []regionStats) []report.Check {
	by := map[string]regionStats{}
	for _, s := range stats {
		by[s.Scheme] = s
	}
	ovr, ovo, kd := by["one-vs-rest, K"], by["one-vs-one"], by["K discriminants"]
	return []report.Check{
		report.NewCheck("one-vs-rest, K: ambiguous (% of the plot)", 100*ovr.AmbiguousArea, 5, 40, "signs read as an argmax, no region ambiguous: 0"),
		report.NewCheck("one-vs-rest, K: no class (% of the plot)", 100*ovr.NoClassArea, 1, 20, "signs read as an argmax: 0"),
		report.NewCheck("one-vs-one: tied votes (% of the plot)", 100*ovo.AmbiguousArea, 0.5, 10, "ties broken, or votes read as an argmax: 0"),
		report.NewCheck("K discriminants: undecided (% of the plot)", 100*(kd.AmbiguousArea+kd.NoClassArea), 0, 0, "the discriminants read by sign: above 0"),
		report.NewCheck("K discriminants: training errors", float64(kd.Errors), 0, 0, "discriminants not fitted: about two thirds of the samples"),
	}
}
