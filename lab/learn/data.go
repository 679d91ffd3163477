package learn

import (
	"errors"
	"fmt"
	"math"
)

// Data is a labelled sample set: X[i] is sample i's features, Y[i] its class, 0..K-1 where K
// is len(Classes).
type Data struct {
	X       [][]float64
	Y       []int
	Classes []string
}

// Len returns the number of samples.
func (d *Data) Len() int { return len(d.X) }

// Dim returns the number of features (0 for no samples).
func (d *Data) Dim() int {
	if len(d.X) == 0 {
		return 0
	}
	return len(d.X[0])
}

// K returns the number of classes.
func (d *Data) K() int { return len(d.Classes) }

// Validate checks that every sample has the same number of features, all finite, and a class
// in 0..K-1, and that there are at least one sample and two classes.
func (d *Data) Validate() error {
	switch {
	case len(d.X) == 0:
		return errors.New("learn: no samples")
	case len(d.Y) != len(d.X):
		return fmt.Errorf("learn: %d samples but %d labels", len(d.X), len(d.Y))
	case len(d.Classes) < 2:
		return fmt.Errorf("learn: %d classes, want at least 2", len(d.Classes))
	}
	dim := len(d.X[0])
	for i, x := range d.X {
		if len(x) != dim {
			return fmt.Errorf("learn: sample %d has %d features, sample 0 has %d", i, len(x), dim)
		}
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("learn: sample %d, feature %d: %v, want a finite number", i, j, v)
			}
		}
		if y := d.Y[i]; y < 0 || y >= len(d.Classes) {
			return fmt.Errorf("learn: sample %d: class %d, want 0..%d", i, y, len(d.Classes)-1)
		}
	}
	return nil
}

// dot returns the augmented product w.(x, 1) = w[:d].x + w[d], each product rounded before it
// is added (no fused multiply-add: the same sum on every architecture).
func dot(w, x []float64) float64 {
	s := w[len(x)]
	for i, v := range x {
		s += float64(w[i] * v)
	}
	return s
}

// axpy adds a*(x, 1) to w.
func axpy(w []float64, a float64, x []float64) {
	for i, v := range x {
		w[i] += float64(a * v)
	}
	w[len(x)] += a
}

// Linear is a two-class linear discriminant g(x) = w.x + w0, its weights W = (w, w0) with the
// bias last.
type Linear struct {
	W []float64
}

// Score returns g(x). x has len(W)-1 features.
func (l Linear) Score(x []float64) float64 { return dot(l.W, x) }

// Sign returns +1 when g(x) > 0, else -1.
func (l Linear) Sign(x []float64) int {
	if l.Score(x) > 0 {
		return 1
	}
	return -1
}

// Norm returns the length of W, bias included (the augmented weight vector).
func (l Linear) Norm() float64 {
	s := 0.0
	for _, v := range l.W {
		s += float64(v * v)
	}
	return math.Sqrt(s)
}

// Classifier answers a class 0..K-1 for a sample.
type Classifier interface {
	Predict(x []float64) int
}

// Errors counts the samples of d that c classifies wrongly.
func Errors(c Classifier, d *Data) int {
	n := 0
	for i, x := range d.X {
		if c.Predict(x) != d.Y[i] {
			n++
		}
	}
	return n
}

// ErrorRate returns Errors(c, d) as a fraction of d's samples (0 for no samples).
func ErrorRate(c Classifier, d *Data) float64 {
	if d.Len() == 0 {
		return 0
	}
	return float64(Errors(c, d)) / float64(d.Len())
}

// Strategy says how a multi-class classifier is made of linear discriminants.
type Strategy int

const (
	// OneVsRest trains one discriminant per class, that class against all the others, and
	// answers the class whose discriminant scores highest.
	OneVsRest Strategy = iota
	// OneVsOne trains one discriminant per pair of classes on that pair's samples, and answers
	// the class with the most votes (ties to the lower class number).
	OneVsOne
	// KDiscriminants trains K discriminants together, g_k(x) = w_k.x + w_k0, and answers the
	// argmax (Duda, Hart and Stork's linear machine; the perceptron rules then correct the
	// wanted class's discriminant up and the strongest wrong one down, Kesler's construction).
	KDiscriminants
)

var strategyNames = [...]string{OneVsRest: "ovr", OneVsOne: "ovo", KDiscriminants: "kdisc"}

// String returns the strategy's short name: ovr, ovo or kdisc.
func (s Strategy) String() string {
	if s >= 0 && int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// ParseStrategy reads a strategy's short name: ovr, ovo or kdisc.
func ParseStrategy(s string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == s {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("learn: unknown strategy %q (want ovr, ovo or kdisc)", s)
}

// Multi is a classifier made of linear discriminants. With K = 2 it holds one discriminant,
// positive for class 1, whatever the strategy.
type Multi struct {
	Strategy Strategy
	K        int
	// Units are the discriminants: one per class (OneVsRest, KDiscriminants), one per pair
	// (OneVsOne), or one for two classes.
	Units []Linear
	// Pairs gives, for OneVsOne, the classes of each unit: Units[u] is positive for Pairs[u][1]
	// and negative for Pairs[u][0].
	Pairs [][2]int
}

// Predict returns the class of x. With two classes it reads the one discriminant's sign (a
// score of 0 answers class 0). One-vs-one counts the pairwise votes (a score of 0 votes for the
// pair's first class) and answers the class with the most, the lowest-numbered of those tied.
// One-vs-rest and K discriminants answer the largest score, the lowest-numbered class on a tie.
func (m *Multi) Predict(x []float64) int {
	if m.K == 2 {
		if m.Units[0].Score(x) > 0 {
			return 1
		}
		return 0
	}
	if m.Strategy == OneVsOne {
		votes := make([]int, m.K)
		for u, p := range m.Pairs {
			if m.Units[u].Score(x) > 0 {
				votes[p[1]]++
			} else {
				votes[p[0]]++
			}
		}
		best := 0
		for k, v := range votes {
			if v > votes[best] {
				best = k
			}
		}
		return best
	}
	return argmax(m.Units, x)
}

// argmax returns the unit scoring x highest, the first one on a tie.
func argmax(units []Linear, x []float64) int {
	best, bestScore := 0, math.Inf(-1)
	for k, u := range units {
		if s := u.Score(x); s > bestScore {
			best, bestScore = k, s
		}
	}
	return best
}

// pairs lists the pairs of classes i < j.
func pairs(k int) [][2]int {
	var p [][2]int
	for i := range k {
		for j := i + 1; j < k; j++ {
			p = append(p, [2]int{i, j})
		}
	}
	return p
}

// binaryTask is one two-class problem of a multi-class strategy: the samples it takes (nil for
// all) and their labels, +1 or -1.
type binaryTask struct {
	idx []int
	y   []int
}

// tasks splits d into the two-class problems of the strategy (one for two classes).
func tasks(d *Data, s Strategy) ([]binaryTask, [][2]int) {
	k := d.K()
	label := func(pos func(int) bool) []int {
		y := make([]int, d.Len())
		for i, c := range d.Y {
			y[i] = -1
			if pos(c) {
				y[i] = 1
			}
		}
		return y
	}
	switch {
	case k == 2:
		return []binaryTask{{y: label(func(c int) bool { return c == 1 })}}, nil
	case s == OneVsOne:
		ps := pairs(k)
		var ts []binaryTask
		for _, p := range ps {
			var t binaryTask
			for i, c := range d.Y {
				if c == p[0] || c == p[1] {
					y := -1
					if c == p[1] {
						y = 1
					}
					t.idx = append(t.idx, i)
					t.y = append(t.y, y)
				}
			}
			ts = append(ts, t)
		}
		return ts, ps
	}
	ts := make([]binaryTask, k)
	for c := range k {
		ts[c] = binaryTask{y: label(func(cc int) bool { return cc == c })}
	}
	return ts, nil
}

// samples returns the task's samples of d.
func (t binaryTask) samples(d *Data) [][]float64 {
	if t.idx == nil {
		return d.X
	}
	x := make([][]float64, len(t.idx))
	for i, j := range t.idx {
		x[i] = d.X[j]
	}
	return x
}
