package learn

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// FisherMulti returns Fisher's linear discriminant for K classes (Duda, Hart and Stork, 3.8.3;
// Bishop, 4.1.6) as K linear discriminants: the samples are projected onto the at most K-1
// directions W that maximise the between-class scatter S_B = sum_k N_k (m_k - m)(m_k - m)ᵀ
// against the within-class scatter S_W = sum_k sum_{x in k} (x - m_k)(x - m_k)ᵀ (the leading
// solutions of S_B w = lambda S_W w, scaled so that Wᵀ S_W W = I), and a sample goes to the
// class whose projected mean is nearest: g_k(x) = (W m'_k).x - |m'_k|^2 / 2 with m'_k = Wᵀ m_k,
// the argmax of which is the nearest mean. S_W's pseudo-inverse square root is used where it
// is singular (directions in which no class varies). With two classes it is one discriminant,
// along S_W⁻¹(m_1 - m_0), its threshold midway between the projected means.
func FisherMulti(d *Data) (*Multi, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	k, dim := d.K(), d.Dim()
	means := make([][]float64, k)
	counts := make([]int, k)
	all := make([]float64, dim)
	for c := range means {
		means[c] = make([]float64, dim)
	}
	for i, x := range d.X {
		c := d.Y[i]
		counts[c]++
		for j, v := range x {
			means[c][j] += v
			all[j] += v
		}
	}
	for c := range means {
		if counts[c] == 0 {
			return nil, fmt.Errorf("learn: class %q has no samples", d.Classes[c])
		}
		for j := range dim {
			means[c][j] /= float64(counts[c])
		}
	}
	for j := range dim {
		all[j] /= float64(d.Len())
	}
	sw := mat.NewSymDense(dim, nil)
	for i, x := range d.X {
		m := means[d.Y[i]]
		for a := range dim {
			for b := a; b < dim; b++ {
				sw.SetSym(a, b, sw.At(a, b)+float64((x[a]-m[a])*(x[b]-m[b])))
			}
		}
	}
	sb := mat.NewSymDense(dim, nil)
	for c, m := range means {
		n := float64(counts[c])
		for a := range dim {
			for b := a; b < dim; b++ {
				sb.SetSym(a, b, sb.At(a, b)+float64(n*float64((m[a]-all[a])*(m[b]-all[b]))))
			}
		}
	}
	// S_W^(-1/2), pseudo: eigenvalues below dim*eps of the largest count as zero.
	var eig mat.EigenSym
	if !eig.Factorize(sw, true) {
		return nil, errors.New("learn: eigen-decomposition of S_W failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := slices.Max(vals)
	if top <= 0 {
		return nil, errors.New("learn: no class varies: S_W is zero")
	}
	isqrt := mat.NewDense(dim, dim, nil)
	for j, l := range vals {
		if l <= top*float64(dim)*0x1p-52 {
			continue
		}
		s := 1 / math.Sqrt(l)
		for i := range dim {
			isqrt.Set(i, j, vecs.At(i, j)*s)
		}
	}
	var whiten mat.Dense // V D^(-1/2) Vᵀ
	whiten.Mul(isqrt, vecs.T())
	var m1, m2 mat.Dense
	m1.Mul(&whiten, sb)
	m2.Mul(&m1, &whiten)
	ms := mat.NewSymDense(dim, nil)
	for a := range dim {
		for b := a; b < dim; b++ {
			ms.SetSym(a, b, (m2.At(a, b)+m2.At(b, a))/2)
		}
	}
	var eb mat.EigenSym
	if !eb.Factorize(ms, true) {
		return nil, errors.New("learn: eigen-decomposition of the whitened S_B failed")
	}
	bv := eb.Values(nil)
	var bvec mat.Dense
	eb.VectorsTo(&bvec)
	order := make([]int, dim)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return bv[order[a]] > bv[order[b]] })
	keep := min(k-1, dim)
	w := mat.NewDense(dim, keep, nil) // the directions, as columns: whiten times the eigenvectors
	for c := range keep {
		for i := range dim {
			s := 0.0
			for j := range dim {
				s += float64(whiten.At(i, j) * bvec.At(j, order[c]))
			}
			w.Set(i, c, s)
		}
	}
	out := &Multi{Strategy: KDiscriminants, K: k}
	for c := range k {
		pm := make([]float64, keep) // Wᵀ m_c
		for q := range keep {
			for i := range dim {
				pm[q] += float64(w.At(i, q) * means[c][i])
			}
		}
		l := Linear{W: make([]float64, dim+1)}
		norm := 0.0
		for q, v := range pm {
			norm += float64(v * v)
			for i := range dim {
				l.W[i] += float64(w.At(i, q) * v)
			}
		}
		l.W[dim] = -norm / 2
		out.Units = append(out.Units, l)
	}
	if k == 2 {
		// One discriminant, positive for class 1: g_1 - g_0.
		u := Linear{W: make([]float64, dim+1)}
		for i := range u.W {
			u.W[i] = out.Units[1].W[i] - out.Units[0].W[i]
		}
		out.Units = []Linear{u}
	}
	return out, nil
}
