package learn

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// augmented returns the n x (d+1) matrix of the samples with a column of ones last.
func augmented(x [][]float64) *mat.Dense {
	n, d := len(x), len(x[0])
	a := mat.NewDense(n, d+1, nil)
	for i, row := range x {
		copy(a.RawRowView(i), row)
		a.Set(i, d, 1)
	}
	return a
}

// pinvSolve returns pinv(A) T, the minimum-norm least-squares solution W of A W = T, for the
// n x m matrix A and the n x c targets T. It works on the Gram matrix of A's smaller side
// (pinv(A) = pinv(AᵀA)Aᵀ = Aᵀpinv(AAᵀ)) through its eigen-decomposition, treating eigenvalues
// below m*n*eps times the largest as zero: singular values of A below about sqrt(m*n*eps) ~ 1e-6
// of the largest count as zero.
func pinvSolve(a *mat.Dense, t *mat.Dense) (*mat.Dense, error) {
	n, m := a.Dims()
	var w mat.Dense
	if m <= n {
		var g mat.SymDense
		g.SymOuterK(1, a.T())
		var atb mat.Dense
		atb.Mul(a.T(), t)
		p, err := pinvSym(&g, n*m)
		if err != nil {
			return nil, err
		}
		w.Mul(p, &atb)
		return &w, nil
	}
	var g mat.SymDense
	g.SymOuterK(1, a)
	p, err := pinvSym(&g, n*m)
	if err != nil {
		return nil, err
	}
	var pt mat.Dense
	pt.Mul(p, t)
	w.Mul(a.T(), &pt)
	return &w, nil
}

// pinvSym returns the pseudo-inverse of the symmetric positive semi-definite g, eigenvalues
// below size*eps times the largest taken as zero.
func pinvSym(g *mat.SymDense, size int) (*mat.Dense, error) {
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		return nil, errors.New("learn: eigen-decomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := slices.Max(vals)
	tol := top * float64(size) * 0x1p-52
	r, _ := g.Dims()
	scaled := mat.NewDense(r, r, nil)
	for j, l := range vals {
		if l <= tol || l <= 0 {
			continue
		}
		for i := range r {
			scaled.Set(i, j, vecs.At(i, j)/l)
		}
	}
	var p mat.Dense
	p.Mul(scaled, vecs.T())
	return &p, nil
}

// LeastSquares returns the least-squares discriminant for samples x and targets t: the weights
// W = pinv(A) t, A the augmented samples (bias column last), which minimise |A W - t|^2 and,
// among the minimisers, |W|. With targets +1 and -1 it is the least-squares classifier.
func LeastSquares(x [][]float64, t []float64) (Linear, error) {
	if len(x) == 0 || len(x) != len(t) {
		return Linear{}, fmt.Errorf("learn: %d samples and %d targets", len(x), len(t))
	}
	w, err := pinvSolve(augmented(x), mat.NewDense(len(t), 1, slices.Clone(t)))
	if err != nil {
		return Linear{}, err
	}
	return Linear{W: mat.Col(nil, 0, w)}, nil
}

// LeastSquaresBinary is LeastSquares with targets y (+1 or -1).
func LeastSquaresBinary(x [][]float64, y []int) (Linear, error) {
	t := make([]float64, len(y))
	for i, v := range y {
		t[i] = float64(v)
	}
	return LeastSquares(x, t)
}

// LeastSquaresMulti fits a least-squares classifier to d with strategy s. OneVsRest and
// KDiscriminants solve for all K discriminants at once with one pseudo-inverse, targets +1 for
// the class and -1 for the others (one-hot 1 and 0 targets give the same argmax); OneVsOne fits
// each pair on its samples.
func LeastSquaresMulti(d *Data, s Strategy) (*Multi, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if d.K() == 2 || s == OneVsOne {
		return FitMulti(d, s, LeastSquaresBinary)
	}
	k := d.K()
	t := mat.NewDense(d.Len(), k, nil)
	for i, c := range d.Y {
		for j := range k {
			t.Set(i, j, -1)
		}
		t.Set(i, c, 1)
	}
	w, err := pinvSolve(augmented(d.X), t)
	if err != nil {
		return nil, err
	}
	m := &Multi{Strategy: s, K: k}
	for j := range k {
		m.Units = append(m.Units, Linear{W: mat.Col(nil, j, w)})
	}
	return m, nil
}

// Threshold says how Fisher places the discriminant's bias on the projection.
type Threshold int

const (
	// BestThreshold puts it where the fewest training samples are misclassified (the middle
	// of the best gap between consecutive projections; the first such gap from the bottom).
	BestThreshold Threshold = iota
	// MidpointThreshold puts it halfway between the projected class means.
	MidpointThreshold
)

// Fisher returns Fisher's linear discriminant of samples x with labels y (+1 or -1): the
// direction w = pinv(S_W)(m+ - m-), S_W the within-class scatter (the sum over both classes of
// (x - m)(x - m)ᵀ, m the class's mean), which maximises the ratio of the squared distance
// between the projected means to the projected within-class scatter; then the bias by th. w
// points toward the +1 class. The pseudo-inverse is taken through the Gram matrix of the
// smaller side, as LeastSquares does.
func Fisher(x [][]float64, y []int, th Threshold) (Linear, error) {
	if len(x) == 0 || len(x) != len(y) {
		return Linear{}, fmt.Errorf("learn: %d samples and %d labels", len(x), len(y))
	}
	d := len(x[0])
	mp, mn := make([]float64, d), make([]float64, d)
	np, nn := 0, 0
	for i, v := range x {
		switch y[i] {
		case 1:
			np++
			for j, f := range v {
				mp[j] += f
			}
		case -1:
			nn++
			for j, f := range v {
				mn[j] += f
			}
		default:
			return Linear{}, fmt.Errorf("learn: label %d of sample %d, want +1 or -1", y[i], i)
		}
	}
	if np == 0 || nn == 0 {
		return Linear{}, errors.New("learn: Fisher needs samples of both classes")
	}
	for j := range d {
		mp[j] /= float64(np)
		mn[j] /= float64(nn)
	}
	// S_W = BᵀB, B the centred samples; pinv(BᵀB) = pinv(B) pinv(B)ᵀ.
	b := mat.NewDense(len(x), d, nil)
	for i, v := range x {
		m := mn
		if y[i] == 1 {
			m = mp
		}
		row := b.RawRowView(i)
		for j, f := range v {
			row[j] = f - m[j]
		}
	}
	diff := make([]float64, d)
	for j := range d {
		diff[j] = mp[j] - mn[j]
	}
	w, err := scatterSolve(b, diff)
	if err != nil {
		return Linear{}, err
	}
	if !slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) {
		// The class means differ only where the classes do not vary: project on the
		// difference of the means instead.
		w = diff
	}
	l := Linear{W: make([]float64, d+1)}
	copy(l.W, w)
	switch th {
	case MidpointThreshold:
		l.W[d] = -float64(l.Score(mp)+l.Score(mn)) / 2
	default:
		proj := make([]float64, len(x))
		for i, v := range x {
			proj[i] = l.Score(v)
		}
		l.W[d] = -bestCut(proj, y)
	}
	return l, nil
}

// scatterSolve returns pinv(BᵀB) v for the n x d matrix B.
func scatterSolve(b *mat.Dense, v []float64) ([]float64, error) {
	n, d := b.Dims()
	vv := mat.NewVecDense(d, slices.Clone(v))
	var out mat.VecDense
	if d <= n {
		var g mat.SymDense
		g.SymOuterK(1, b.T())
		p, err := pinvSym(&g, n*d)
		if err != nil {
			return nil, err
		}
		out.MulVec(p, vv)
		return out.RawVector().Data, nil
	}
	// pinv(BᵀB) = Bᵀ pinv(BBᵀ)^2 B.
	var g mat.SymDense
	g.SymOuterK(1, b)
	p, err := pinvSym(&g, n*d)
	if err != nil {
		return nil, err
	}
	var t1, t2, t3 mat.VecDense
	t1.MulVec(b, vv)
	t2.MulVec(p, &t1)
	t3.MulVec(p, &t2)
	out.MulVec(b.T(), &t3)
	return out.RawVector().Data, nil
}

// bestCut returns the cut c on the projections p that misclassifies the fewest samples when
// p > c answers +1: the middle of the first best gap between consecutive distinct projections
// (or just below the smallest, or above the largest, if those are best).
func bestCut(p []float64, y []int) float64 {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	// Cut below everything: every -1 sample is wrong.
	errs := 0
	for _, v := range y {
		if v == -1 {
			errs++
		}
	}
	best, bestCut := errs, p[idx[0]]-1
	for k := 0; k < len(idx); k++ {
		// Move sample idx[k] below the cut.
		if y[idx[k]] == -1 {
			errs--
		} else {
			errs++
		}
		if k+1 < len(idx) && p[idx[k+1]] == p[idx[k]] {
			continue // no cut between equal projections
		}
		cut := p[idx[k]] + 1
		if k+1 < len(idx) {
			cut = float64((p[idx[k]] + p[idx[k+1]]) / 2)
		}
		if errs < best {
			best, bestCut = errs, cut
		}
	}
	if math.IsInf(bestCut, 0) || math.IsNaN(bestCut) {
		return 0
	}
	return bestCut
}

// FitMulti builds a multi-class classifier for d from a two-class fit: one discriminant for two
// classes, else one per class (OneVsRest) or per pair (OneVsOne). KDiscriminants needs a
// method that fits the K discriminants together (LeastSquaresMulti, the perceptron rules);
// with a two-class fit it is refused.
func FitMulti(d *Data, s Strategy, fit func(x [][]float64, y []int) (Linear, error)) (*Multi, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if s == KDiscriminants && d.K() > 2 {
		return nil, errors.New("learn: K discriminants need a method that fits them together; use ovr or ovo")
	}
	ts, ps := tasks(d, s)
	m := &Multi{Strategy: s, K: d.K(), Pairs: ps}
	for _, t := range ts {
		l, err := fit(t.samples(d), t.y)
		if err != nil {
			return nil, err
		}
		m.Units = append(m.Units, l)
	}
	return m, nil
}
