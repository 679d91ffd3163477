package learn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// and is the AND function on two bits: the lecture notes' first perceptron example.
var (
	andX = [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	andY = []int{-1, -1, -1, 1}
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func nearSlice(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i], tol) {
			return false
		}
	}
	return true
}

// TestPerceptronByHand follows the fixed-increment perceptron on AND, samples in order, from
// zero weights, as worked by hand: the corrections of each epoch and the final weights.
func TestPerceptronByHand(t *testing.T) {
	tests := []struct {
		name   string
		rule   Rule
		epochs []int
		w      []float64
	}{
		// Online: a sample with y*g <= 0 adds y*(x, 1) at once.
		{"online", Rule{Order: InOrder}, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}, []float64{3, 2, -4}},
		// Batch: the misclassified samples of a pass are summed and added at its end.
		{"batch", Rule{Order: InOrder, Batch: true}, []int{4, 1, 2, 1, 1, 2, 1, 2, 1, 0}, []float64{2, 2, -3}},
		// A constant increment from zero only scales the weights.
		{"eta 0.5", Rule{Order: InOrder, Eta: 0.5}, []int{2, 3, 3, 2, 2, 3, 2, 1, 0}, []float64{1.5, 1, -2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPerceptron(andX, andY, tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for range 20 {
				n := p.Epoch()
				got = append(got, n)
				if n == 0 {
					break
				}
			}
			if !slices.Equal(got, tt.epochs) || !slices.Equal(p.Weights().W, tt.w) {
				t.Errorf("%s: corrections per epoch %v, weights %v; want %v, %v", tt.name, got, p.Weights().W, tt.epochs, tt.w)
			}
			sum := 0
			for _, n := range tt.epochs {
				sum += n
			}
			if p.Corrections() != sum || p.Epochs() != len(tt.epochs) {
				t.Errorf("%s: %d corrections in %d epochs, want %d in %d", tt.name, p.Corrections(), p.Epochs(), sum, len(tt.epochs))
			}
		})
	}
}

// TestVariableIncrementByHand: margin b = 1, eta(k) = 1/k, on x = 1 (+1) and x = -1 (-1):
//
//	k=1: w=(0,0), sample +1: g=0 <= 1, w += 1*(1,1) = (1,1)
//	k=2: sample -1: g=0, y*g = 0 <= 1, w += -1/2*(-1,1) = (1.5,0.5)
//	epoch 2: sample +1: g=2 > 1; sample -1: g=-1, y*g = 1 <= 1, k=3: w += -1/3*(-1,1) = (11/6, 1/6)
//	epoch 3: g(+1) = 2, y*g(-1) = 5/3: no correction.
func TestVariableIncrementByHand(t *testing.T) {
	p, err := NewPerceptron([][]float64{{1}, {-1}}, []int{1, -1}, Rule{Order: InOrder, Margin: 1, Schedule: InverseK})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for range 5 {
		n := p.Epoch()
		got = append(got, n)
		if n == 0 {
			break
		}
	}
	if !slices.Equal(got, []int{2, 1, 0}) || !nearSlice(p.Weights().W, []float64{11.0 / 6, 1.0 / 6}, 1e-15) {
		t.Fatalf("corrections %v, weights %v; want [2 1 0], [11/6 1/6]", got, p.Weights().W)
	}
}

// TestVariableIncrementMargin: converged with margin b, every sample clears it.
func TestVariableIncrementMargin(t *testing.T) {
	x, y := separable(rand.New(rand.NewPCG(3, 4)), 60, 5, 0.2)
	for _, s := range []Schedule{Constant, InverseK, InverseSqrtK} {
		p, ok, err := Train(x, y, Rule{Margin: 0.5, Schedule: s, Seed: 1}, 100000)
		if err != nil || !ok {
			t.Fatalf("schedule %v: converged %v, %v", s, ok, err)
		}
		w := p.Weights()
		for i := range x {
			if g := float64(y[i]) * w.Score(x[i]); g <= 0.5 {
				t.Fatalf("schedule %v: sample %d has y*g = %v <= b", s, i, g)
			}
		}
	}
}

// separable draws n samples in [-1,1]^d labelled by a random hyperplane, keeping only those at
// least margin from it.
func separable(rng *rand.Rand, n, d int, margin float64) ([][]float64, []int) {
	w := make([]float64, d)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	norm := math.Sqrt(dotPlain(w, w))
	var x [][]float64
	var y []int
	for len(x) < n {
		v := make([]float64, d)
		for i := range v {
			v[i] = 2*rng.Float64() - 1
		}
		g := (dotPlain(w, v) + 0.1) / norm
		if math.Abs(g) < margin {
			continue
		}
		x = append(x, v)
		y = append(y, map[bool]int{true: 1, false: -1}[g > 0])
	}
	return x, y
}

func dotPlain(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestLeastSquaresByHand: the lecture notes' example, X = [[1,5],[2,4],[6,5],[7,4]],
// t = [1,1,-1,-1], solved by hand through the normal equations: w = (-0.4, -0.4), w0 = 3.4.
func TestLeastSquaresByHand(t *testing.T) {
	x := [][]float64{{1, 5}, {2, 4}, {6, 5}, {7, 4}}
	l, err := LeastSquares(x, []float64{1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	if !nearSlice(l.W, []float64{-0.4, -0.4, 3.4}, 1e-12) {
		t.Fatalf("weights %v, want [-0.4 -0.4 3.4]", l.W)
	}
	// The residual is orthogonal to the columns of A (the normal equations).
	a := augmented(x)
	var r mat.VecDense
	r.MulVec(a, mat.NewVecDense(3, l.W))
	r.SubVec(&r, mat.NewVecDense(4, []float64{1, 1, -1, -1}))
	var atr mat.VecDense
	atr.MulVec(a.T(), &r)
	if mat.Norm(&atr, 2) > 1e-12 {
		t.Fatalf("A^T r = %v, want 0", mat.Formatted(&atr))
	}
}

// TestLeastSquaresMinimumNorm: with more features than samples (and a duplicated feature) the
// pseudo-inverse gives the solution of least norm, which fits the targets exactly: numpy's
// pinv gives the same weights (np.linalg.pinv(A) @ t).
func TestLeastSquaresMinimumNorm(t *testing.T) {
	x := [][]float64{{1, 1, 0}, {0, 0, 1}}
	l, err := LeastSquares(x, []float64{1, -1})
	if err != nil {
		t.Fatal(err)
	}
	// numpy: [ 0.6  0.6 -0.8 -0.2]
	if !nearSlice(l.W, []float64{0.6, 0.6, -0.8, -0.2}, 1e-12) {
		t.Fatalf("weights %v, want [0.6 0.6 -0.8 -0.2]", l.W)
	}
}

// TestLeastSquaresMulti: the K discriminants of targets +1/-1 answer as those of one-hot 1/0
// targets (an affine change of the targets moves every discriminant alike).
func TestLeastSquaresMulti(t *testing.T) {
	d := blobs(rand.New(rand.NewPCG(5, 6)), 3, 30)
	m, err := LeastSquaresMulti(d, KDiscriminants)
	if err != nil {
		t.Fatal(err)
	}
	var onehot []Linear
	for c := range 3 {
		tc := make([]float64, d.Len())
		for i, y := range d.Y {
			if y == c {
				tc[i] = 1
			}
		}
		l, err := LeastSquares(d.X, tc)
		if err != nil {
			t.Fatal(err)
		}
		onehot = append(onehot, l)
	}
	for _, x := range d.X {
		if m.Predict(x) != argmax(onehot, x) {
			t.Fatalf("sample %v: +1/-1 targets answer %d, one-hot %d", x, m.Predict(x), argmax(onehot, x))
		}
	}
	if e := ErrorRate(m, d); e > 0.1 {
		t.Fatalf("least squares on three blobs: error %v", e)
	}
}

// blobs draws n samples around each of k centres on a circle of radius 3, sigma 0.6.
func blobs(rng *rand.Rand, k, n int) *Data {
	d := &Data{}
	for c := range k {
		d.Classes = append(d.Classes, string(rune('a'+c)))
		a := 2 * math.Pi * float64(c) / float64(k)
		for range n {
			d.X = append(d.X, []float64{3*math.Cos(a) + 0.6*rng.NormFloat64(), 3*math.Sin(a) + 0.6*rng.NormFloat64()})
			d.Y = append(d.Y, c)
		}
	}
	return d
}

// TestFisherDirection: w is proportional to S_W^-1 (m+ - m-), computed here with an explicit
// inverse; the midpoint threshold lies halfway between the projected means; the best threshold
// misclassifies no more than the midpoint.
func TestFisherDirection(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var x [][]float64
	var y []int
	for i := range 80 {
		c := 1
		if i%2 == 0 {
			c = -1
		}
		x = append(x, []float64{float64(c) + rng.NormFloat64(), 0.5*float64(c) + 2*rng.NormFloat64(), rng.NormFloat64() + 0.3*rng.NormFloat64()})
		y = append(y, c)
	}
	mid, err := Fisher(x, y, MidpointThreshold)
	if err != nil {
		t.Fatal(err)
	}
	best, err := Fisher(x, y, BestThreshold)
	if err != nil {
		t.Fatal(err)
	}
	// The textbook formula, explicitly.
	mp, mn := mat.NewVecDense(3, nil), mat.NewVecDense(3, nil)
	for i, v := range x {
		if y[i] == 1 {
			mp.AddVec(mp, mat.NewVecDense(3, v))
		} else {
			mn.AddVec(mn, mat.NewVecDense(3, v))
		}
	}
	mp.ScaleVec(1.0/40, mp)
	mn.ScaleVec(1.0/40, mn)
	sw := mat.NewDense(3, 3, nil)
	for i, v := range x {
		m := mn
		if y[i] == 1 {
			m = mp
		}
		var c mat.VecDense
		c.SubVec(mat.NewVecDense(3, v), m)
		var o mat.Dense
		o.Outer(1, &c, &c)
		sw.Add(sw, &o)
	}
	var inv mat.Dense
	if err := inv.Inverse(sw); err != nil {
		t.Fatal(err)
	}
	var diff, want mat.VecDense
	diff.SubVec(mp, mn)
	want.MulVec(&inv, &diff)
	w := mat.NewVecDense(3, mid.W[:3])
	cos := mat.Dot(w, &want) / (mat.Norm(w, 2) * mat.Norm(&want, 2))
	if !near(cos, 1, 1e-12) {
		t.Fatalf("Fisher direction %v is not along S_W^-1 (m+ - m-) = %v (cos %v)", mid.W[:3], mat.Formatted(want.T()), cos)
	}
	if !slices.Equal(mid.W[:3], best.W[:3]) {
		t.Fatal("the threshold rule changed the direction")
	}
	if g := mid.Score(mp.RawVector().Data) + mid.Score(mn.RawVector().Data); !near(g, 0, 1e-12) {
		t.Fatalf("midpoint: g(m+) + g(m-) = %v, want 0", g)
	}
	errs := func(l Linear) int {
		n := 0
		for i, v := range x {
			if l.Sign(v) != y[i] {
				n++
			}
		}
		return n
	}
	if errs(best) > errs(mid) {
		t.Fatalf("best threshold: %d errors, midpoint %d", errs(best), errs(mid))
	}
}

// TestBestCut checks the threshold search on small projections.
func TestBestCut(t *testing.T) {
	tests := []struct {
		p    []float64
		y    []int
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []int{-1, -1, 1, 1}, 2.5},
		{[]float64{4, 3, 2, 1}, []int{1, 1, -1, -1}, 2.5},
		{[]float64{1, 2, 3}, []int{1, 1, 1}, 0},           // all +1: below everything
		{[]float64{1, 2, 3}, []int{-1, -1, -1}, 4},        // all -1: above everything
		{[]float64{1, 1, 2, 2}, []int{-1, 1, -1, 1}, 0},   // no cut between equal values: 2 errors at best, the first
		{[]float64{1, 2, 3, 4}, []int{-1, 1, -1, 1}, 1.5}, // 1 error at 1.5 and at 3.5: the first
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.p, tt.y), func(t *testing.T) {
			if got := bestCut(tt.p, tt.y); got != tt.want {
				t.Errorf("bestCut(%v, %v) = %v, want %v", tt.p, tt.y, got, tt.want)
			}
		})
	}
}

// TestPocket: on XOR, the perceptron never stops correcting, while the pocket's training
// errors never grow from the zero weights' and, with the samples shuffled (Gallant's
// condition), reach the best a line can do (one of four). In a fixed order the perceptron
// cycles through weights that never earn a long enough run.
func TestPocket(t *testing.T) {
	x := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	y := []int{-1, 1, 1, -1}
	for _, r := range []Rule{{Pocket: true, Seed: 1}, {Pocket: true, Order: InOrder}, {Pocket: true, Batch: true}} {
		p, err := NewPerceptron(x, y, r)
		if err != nil {
			t.Fatal(err)
		}
		start := p.PocketErrors()
		if start != 2 { // zero weights answer -1 everywhere
			t.Fatalf("pocket starts with %d errors, want 2", start)
		}
		last := start
		for range 200 {
			if p.Epoch() == 0 {
				t.Fatal("the perceptron converged on XOR")
			}
			e := p.PocketErrors()
			if e > last {
				t.Fatalf("%+v: pocket errors grew from %d to %d", r, last, e)
			}
			if got := p.errors(p.Best().W); got != e {
				t.Fatalf("pocket claims %d errors, its weights make %d", e, got)
			}
			last = e
		}
		if last > 1 && r.Order == Shuffle && !r.Batch {
			t.Fatalf("%+v: pocket ended with %d errors, want 1", r, last)
		}
	}
}

// TestIterativeOneVsRest: the one-vs-rest learners in lockstep are K independent perceptrons
// seeing the samples in the same order.
func TestIterativeOneVsRest(t *testing.T) {
	d := blobs(rand.New(rand.NewPCG(9, 10)), 4, 20)
	r := Rule{Seed: 3}
	it, err := NewIterative(d, r, OneVsRest)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		it.Epoch()
	}
	for c := range 4 {
		y := make([]int, d.Len())
		for i, v := range d.Y {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		p, err := NewPerceptron(d.X, y, r)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			p.Epoch()
		}
		if !slices.Equal(p.Weights().W, it.Current().Units[c].W) {
			t.Fatalf("class %d: lockstep weights %v, alone %v", c, it.Current().Units[c].W, p.Weights().W)
		}
	}
}

// TestIterativeStrategies: on separable blobs every strategy reaches zero training errors, and
// the K-discriminant pocket never gets worse.
func TestIterativeStrategies(t *testing.T) {
	d := blobs(rand.New(rand.NewPCG(11, 12)), 3, 30)
	for _, s := range []Strategy{OneVsRest, OneVsOne, KDiscriminants} {
		for _, r := range []Rule{{Seed: 1}, {Seed: 1, Batch: true}, {Seed: 1, Pocket: true}, {Seed: 1, Margin: 1, Schedule: InverseSqrtK}} {
			it, err := NewIterative(d, r, s)
			if err != nil {
				t.Fatal(err)
			}
			last := d.Len()
			for range 300 {
				if it.Epoch() == 0 {
					break
				}
				if r.Pocket && s == KDiscriminants {
					e := Errors(it.Best(), d)
					if e > last {
						t.Fatalf("%v %+v: pocket errors grew from %d to %d", s, r, last, e)
					}
					last = e
				}
			}
			if e := Errors(it.Best(), d); e != 0 {
				t.Errorf("%v %+v: %d training errors after 300 epochs", s, r, e)
			}
		}
	}
}

// TestNovikoff: on random separable problems the perceptron's corrections never exceed R^2 /
// gamma^2 for the margin of the best separating weights MaxMargin finds; on AND the largest
// margin is 1/sqrt(17), from w = (2, 2, -3).
func TestNovikoff(t *testing.T) {
	w, g, ok, err := MaxMargin(andX, andY, 10000, 1e-9)
	if err != nil || !ok {
		t.Fatalf("AND: separable %v, %v", ok, err)
	}
	if !near(g, 1/math.Sqrt(17), 1e-6) || !nearSlice(w.W, []float64{2, 2, -3}, 1e-4) {
		t.Fatalf("AND: margin %v with %v, want 1/sqrt(17) = %v with [2 2 -3]", g, w.W, 1/math.Sqrt(17))
	}
	if b := NovikoffBound(Radius(andX), g); !near(b, 51, 1e-4) {
		t.Fatalf("AND: bound %v, want 3*17 = 51", b)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for i := range 50 {
		x, y := separable(rng, 40, 4, 0.05)
		p, conv, err := Train(x, y, Rule{Seed: uint64(i)}, 100000)
		if err != nil || !conv {
			t.Fatalf("problem %d: converged %v, %v", i, conv, err)
		}
		_, g, ok, err := MaxMargin(x, y, 20000, 1e-6)
		if err != nil || !ok {
			t.Fatalf("problem %d: no separating weights found", i)
		}
		if bound := NovikoffBound(Radius(x), g); float64(p.Corrections()) > bound {
			t.Fatalf("problem %d: %d corrections > bound %v", i, p.Corrections(), bound)
		}
	}
	// XOR is not separable: no weights separate it.
	_, _, ok, err = MaxMargin(andX, []int{-1, 1, 1, -1}, 2000, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Fatal("MaxMargin separated XOR")
	}
}

func TestParse(t *testing.T) {
	for _, s := range []Strategy{OneVsRest, OneVsOne, KDiscriminants} {
		if got, err := ParseStrategy(s.String()); err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []Schedule{Constant, InverseK, InverseSqrtK} {
		if got, err := ParseSchedule(s.String()); err != nil || got != s {
			t.Errorf("ParseSchedule(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseStrategy("all"); err == nil {
		t.Error("ParseStrategy(all): no error")
	}
	if _, err := ParseSchedule("exp"); err == nil {
		t.Error("ParseSchedule(exp): no error")
	}
}

func TestValidate(t *testing.T) {
	bad := []Data{
		{},
		{X: [][]float64{{1}}, Y: []int{0}, Classes: []string{"a"}},
		{X: [][]float64{{1}, {1, 2}}, Y: []int{0, 1}, Classes: []string{"a", "b"}},
		{X: [][]float64{{math.NaN()}}, Y: []int{0}, Classes: []string{"a", "b"}},
		{X: [][]float64{{1}}, Y: []int{2}, Classes: []string{"a", "b"}},
		{X: [][]float64{{1}}, Y: []int{}, Classes: []string{"a", "b"}},
	}
	for i, d := range bad {
		if err := d.Validate(); err == nil {
			t.Errorf("case %d: no error", i)
		}
	}
	for _, r := range []Rule{{Eta: -1}, {Eta: math.Inf(1)}, {Margin: math.NaN()}, {Schedule: 7}, {Order: 3}} {
		if err := r.Validate(); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
}
