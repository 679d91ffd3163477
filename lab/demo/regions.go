package demo

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// A scheme's answer for a point no single class wins: Ambiguous(k) when several claim it (or
// the vote ties), NoClass(k) when none does.
func Ambiguous(k int) int { return k }

// NoClass is the answer of a point no classifier claims.
func NoClass(k int) int { return k + 1 }

// Scheme reads K classes from linear discriminants.
type Scheme struct {
	Name, What  string
	Classifiers int
	Decide      func(x []float64) int // a class 0..K-1, Ambiguous(K) or NoClass(K)
}

// trainMulti fits d with a strategy: least squares, or the fixed-increment perceptron in the
// data's order until an epoch without a correction (at most 1,000 epochs).
func trainMulti(d *learn.Data, s learn.Strategy, method string) (*learn.Multi, error) {
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
		if it.Epoch() == 0 {
			break
		}
	}
	return it.Current(), nil
}

// Schemes returns the four ways of reading K classes of the lecture: one-vs-rest by sign with
// K classifiers and with K-1 (the last class is "none of the others"), one-vs-one by vote, and
// K discriminants by argmax.
func Schemes(d *learn.Data, method string) ([]Scheme, error) {
	k := d.K()
	ovr, err := trainMulti(d, learn.OneVsRest, method)
	if err != nil {
		return nil, err
	}
	ovo, err := trainMulti(d, learn.OneVsOne, method)
	if err != nil {
		return nil, err
	}
	kd, err := trainMulti(d, learn.KDiscriminants, method)
	if err != nil {
		return nil, err
	}
	bySign := func(units []learn.Linear, rest int) func(x []float64) int {
		return func(x []float64) int {
			class, n := -1, 0
			for c, u := range units {
				if u.Score(x) > 0 {
					class, n = c, n+1
				}
			}
			switch {
			case n > 1:
				return Ambiguous(k)
			case n == 1:
				return class
			case rest >= 0:
				return rest
			}
			return NoClass(k)
		}
	}
	vote := func(x []float64) int {
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
			return Ambiguous(k)
		}
		return best
	}
	return []Scheme{
		{"one-vs-rest, K", fmt.Sprintf("%d classifiers, class c against the rest; a point is c's when c's alone is positive", k), k, bySign(ovr.Units, -1)},
		{"one-vs-rest, K-1", fmt.Sprintf("%d classifiers for the first %d classes; a point none claims is the last class's", k-1, k-1), k - 1, bySign(ovr.Units[:k-1], k-1)},
		{"one-vs-one", fmt.Sprintf("%d classifiers, one per pair; the class with most votes", len(ovo.Units)), len(ovo.Units), vote},
		{"K discriminants", fmt.Sprintf("%d discriminants trained together; the largest g_k(x) wins", k), k, kd.Predict},
	}, nil
}

// Pinwheel draws k classes of n samples each in the plane: class c's run from the point at
// angle 2 pi c / k on the circle of radius 3 along the tangent, counterclockwise, a uniform
// distance up to 4, plus normal noise of standard deviation 0.3. Each class leans toward the
// next, so that the pairwise boundaries miss the centre in a circle: one-vs-one's vote ties
// in the middle. The classes are named a, b, c, ...
func Pinwheel(k, n int, seed uint64) *learn.Data {
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

// RegionsConfig sets up the multi-class regions.
type RegionsConfig struct {
	Method string // "lsq" (default) or "perceptron"
	K      int    // classes (default 3)
	Seed   uint64 // default 1
	Cells  int    // grid cells a side (default 120)
}

// grid evaluates a scheme on a cells x cells grid over the box.
func grid(s Scheme, cells int, xmin, xmax, ymin, ymax float64) *plot.Regions {
	r := &plot.Regions{Cols: cells, Rows: cells, XMin: xmin, XMax: xmax, YMin: ymin, YMax: ymax, Class: make([]int, cells*cells)}
	for row := range cells {
		y := ymin + float64((ymax-ymin)*(float64(row)+0.5))/float64(cells)
		for c := range cells {
			x := xmin + float64((xmax-xmin)*(float64(c)+0.5))/float64(cells)
			r.Class[row*cells+c] = s.Decide([]float64{x, y})
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

// RegionStats counts a scheme's regions.
type RegionStats struct {
	Scheme                     string
	AmbiguousArea, NoClassArea float64 // fractions of the grid
	Undecided, Errors          int     // training samples in such regions; answered wrongly or not at all
}

// Regions colours the plane by the class each way of reading K classes from two-class (or K)
// linear discriminants answers, with the points no class wins: ambiguous (several classes
// claim it, or the vote ties) and no class (none claims it). One-vs-rest and one-vs-one leave
// such regions; K discriminants with argmax do not, and their regions are convex.
func Regions(c RegionsConfig) (*report.Report, []RegionStats, error) {
	if c.Method == "" {
		c.Method = "lsq"
	}
	if c.K == 0 {
		c.K = 3
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.Cells == 0 {
		c.Cells = 120
	}
	d := Pinwheel(c.K, 30, c.Seed)
	schemes, err := Schemes(d, c.Method)
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
	var stats []RegionStats
	for i, s := range schemes {
		reg := grid(s, c.Cells, xmin, xmax, ymin, ymax)
		reg.Grey, reg.Names = k, names
		st := RegionStats{Scheme: s.Name}
		for _, v := range reg.Class {
			switch v {
			case Ambiguous(k):
				st.AmbiguousArea++
			case NoClass(k):
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
		stats = append(stats, st)
		tab.AddRow(s.Name, s.Classifiers, fmt.Sprintf("%.1f", 100*st.AmbiguousArea), fmt.Sprintf("%.1f", 100*st.NoClassArea), st.Undecided, st.Errors)
		r.Figures = append(r.Figures, &plot.Figure{Name: fmt.Sprintf("regions-%d", i+1), Title: s.Name, XLabel: "x1", YLabel: "x2", Regions: reg,
			Caption: s.What + "; grey: no class wins (light: ambiguous, dark: no class)", Series: classPoints(d)})
	}
	tab.Note = "A training sample in a grey region counts as an error. K discriminants with argmax leave none: every point has a largest g_k."
	r.Tables = append(r.Tables, tab)
	r.Data = stats
	return r, stats, nil
}
