package playground

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// The criteria of a two-class linear discriminant w on augmented samples x_i with labels y_i,
// score s_i = w.x_i:
//
//	0-1 loss  the samples with y s <= 0 (mistakes, a score of 0 one for either label)
//	E_P       the perceptron criterion: sum over y s <= 0 of -y s (Duda, Hart and Stork's J_p)
//	E_Q       sum over y s <= 0 of s^2 (their J_q)
//	E_R       relaxation with margin b: 1/2 sum over y s <= b of (y s - b)^2 / |x|^2 (their J_r)
//
// exactly (samples computes them in rationals without a common denominator growing per
// sample: the scores' numerators are whole numbers over the weights' and each sample's own
// denominator, and the sums are taken per denominator, then added pairwise), and in floats for
// the history (floatCriteria).

// samples are a session's augmented samples, ready for the criteria: each x_i = X_i / d_i with
// whole X_i, d_i > 0.
type samples struct {
	y     []int
	xs    []exact.Vec  // x_i, exact
	num   [][]*big.Int // X_i
	den   []int        // d_i's index in dens
	dens  []*big.Int   // the distinct d_i
	norm  []int        // |X_i|^2's index in norms
	norms []*big.Int   // the distinct |X_i|^2
	xf    [][3]float64 // x_i as floats
	nf    []float64    // |x_i|^2 as floats
	yf    []float64    // y_i as floats
	scale []float64    // |x_i|, for the floats' test of a score of 0
	dd    []*big.Int   // d_i itself
	xsq   []*big.Int   // |X_i|^2 itself
	// small says that every X_ij is below small in size, num64 holding them.
	small bool
	num64 [][3]int64
}

// newSamples prepares augmented samples xs (three numbers each) with labels ys.
func newSamples(xs []exact.Vec, ys []int) *samples {
	s := &samples{y: ys, xs: xs, small: true}
	denIdx := map[string]int{}
	normIdx := map[string]int{}
	for i, x := range xs {
		d := big.NewInt(1)
		for _, v := range x {
			g := new(big.Int).GCD(nil, nil, d, v.Denom())
			d.Mul(d, new(big.Int).Quo(v.Denom(), g))
		}
		var row []*big.Int
		sq := new(big.Int)
		for _, v := range x {
			n := new(big.Int).Mul(v.Num(), new(big.Int).Quo(d, v.Denom()))
			row = append(row, n)
			sq.Add(sq, new(big.Int).Mul(n, n))
		}
		s.num = append(s.num, row)
		var r64 [3]int64
		for j, n := range row {
			if j < 3 && n.IsInt64() && n.Int64() > -small && n.Int64() < small {
				r64[j] = n.Int64()
			} else {
				s.small = false
			}
		}
		s.num64 = append(s.num64, r64)
		s.dd = append(s.dd, d)
		s.xsq = append(s.xsq, sq)
		key := d.String()
		j, ok := denIdx[key]
		if !ok {
			j = len(s.dens)
			denIdx[key] = j
			s.dens = append(s.dens, d)
		}
		s.den = append(s.den, j)
		key = sq.String()
		j, ok = normIdx[key]
		if !ok {
			j = len(s.norms)
			normIdx[key] = j
			s.norms = append(s.norms, sq)
		}
		s.norm = append(s.norm, j)
		f := x.Floats()
		s.xf = append(s.xf, [3]float64{f[0], f[1], f[2]})
		n2 := float64(f[0]*f[0]) + float64(f[1]*f[1]) + float64(f[2]*f[2])
		s.nf = append(s.nf, n2)
		s.scale = append(s.scale, math.Sqrt(n2))
		s.yf = append(s.yf, float64(ys[i]))
	}
	return s
}

// criteria are the criteria of a two-class discriminant, exactly; er is nil when E_R's terms
// have more than maxERGroups distinct denominators (see exactCriteria).
type criteria struct {
	zeroOne    int
	ep, eq, er *big.Rat
}

// maxERGroups is the most distinct sample lengths |X_i|^2 for which exactCriteria sums E_R
// exactly: each adds its own factor to the sum's denominator, and past a few dozen the
// fraction runs to hundreds of digits that say nothing a float does not.
const maxERGroups = 64

// small is the bound under which the scores' numerators are computed in int64 (|N_j|, |X_ij|
// below it, three products and their sum fit).
const small = 1 << 30

// acc is a sum of whole numbers >= 0 in 192 bits.
type acc [3]uint64

func (a *acc) add(hi, lo uint64) {
	var c uint64
	a[0], c = bits.Add64(a[0], lo, 0)
	a[1], c = bits.Add64(a[1], hi, c)
	a[2] += c
}

func (a *acc) big() *big.Int {
	z := new(big.Int).SetUint64(a[2])
	for _, w := range []uint64{a[1], a[0]} {
		z.Lsh(z, 64).Or(z, new(big.Int).SetUint64(w))
	}
	return z
}

// exactCriteria returns the criteria of w (three numbers) with E_R's margin b.
func (s *samples) exactCriteria(w exact.Vec, b *big.Rat) criteria {
	// w = N / D, N whole.
	D := big.NewInt(1)
	for _, v := range w {
		g := new(big.Int).GCD(nil, nil, D, v.Denom())
		D.Mul(D, new(big.Int).Quo(v.Denom(), g))
	}
	N := make([]*big.Int, len(w))
	fast := s.small
	var n64 [3]int64
	for j, v := range w {
		N[j] = new(big.Int).Mul(v.Num(), new(big.Int).Quo(D, v.Denom()))
		if !N[j].IsInt64() || N[j].Int64() <= -small || N[j].Int64() >= small {
			fast = false
		} else {
			n64[j] = N[j].Int64()
		}
	}
	withER := len(s.norms) <= maxERGroups
	bn, bd := b.Num(), b.Denom()
	bZero := b.Sign() == 0
	epAcc := make([]acc, len(s.dens))
	eqAcc := make([]acc, len(s.dens))
	epBig, eqBig := bigs(len(s.dens)), bigs(len(s.dens)) // the sums of the slow path
	var erAcc []acc
	var erBig []*big.Int
	if withER {
		erAcc, erBig = make([]acc, len(s.norms)), bigs(len(s.norms))
	}
	var c criteria
	p, t, u := new(big.Int), new(big.Int), new(big.Int)
	bnD := new(big.Int).Mul(bn, D)
	for i, row := range s.num {
		var yp int64 // y P_i, when fast
		if fast {
			x := s.num64[i]
			yp = n64[0]*x[0] + n64[1]*x[1] + n64[2]*x[2]
			if s.y[i] < 0 {
				yp = -yp
			}
		} else {
			p.SetInt64(0)
			for j, x := range row {
				p.Add(p, t.Mul(N[j], x))
			}
			if s.y[i] < 0 {
				p.Neg(p) // p = y P_i
			}
		}
		mistake := fast && yp <= 0 || !fast && p.Sign() <= 0
		if mistake {
			c.zeroOne++
			g := s.den[i]
			if fast {
				m := uint64(-yp)
				hi, lo := bits.Mul64(m, m)
				epAcc[g].add(0, m)
				eqAcc[g].add(hi, lo)
			} else {
				epBig[g].Sub(epBig[g], p)
				eqBig[g].Add(eqBig[g], t.Mul(p, p))
			}
		}
		if !withER {
			continue
		}
		// y s <= b: y P bd <= bn D d; the term (y P bd - bn D d)^2.
		switch {
		case bZero && fast:
			if mistake {
				m := uint64(-yp)
				hi, lo := bits.Mul64(m, m)
				erAcc[s.norm[i]].add(hi, lo)
			}
		default:
			if fast {
				p.SetInt64(yp)
			}
			t.Mul(p, bd)
			u.Mul(bnD, s.dd[i])
			if t.Cmp(u) <= 0 {
				t.Sub(t, u)
				erBig[s.norm[i]].Add(erBig[s.norm[i]], u.Mul(t, t))
			}
		}
	}
	D2 := new(big.Int).Mul(D, D)
	var ep, eq, er []*big.Rat
	for g := range epAcc {
		if sum := epAcc[g].big(); sum.Add(sum, epBig[g]).Sign() != 0 {
			ep = append(ep, new(big.Rat).SetFrac(sum, new(big.Int).Mul(D, s.dens[g])))
		}
		if sum := eqAcc[g].big(); sum.Add(sum, eqBig[g]).Sign() != 0 {
			dg2 := new(big.Int).Mul(s.dens[g], s.dens[g])
			eq = append(eq, new(big.Rat).SetFrac(sum, dg2.Mul(dg2, D2)))
		}
	}
	c.ep, c.eq = pairSum(ep), pairSum(eq)
	if withER {
		bd2D2 := new(big.Int).Mul(bd, bd)
		bd2D2.Mul(bd2D2, D2)
		bd2D2.Lsh(bd2D2, 1) // the 1/2
		for g := range erAcc {
			sum := erAcc[g].big()
			sum.Add(sum, erBig[g])
			if sum.Sign() != 0 {
				er = append(er, new(big.Rat).SetFrac(sum, new(big.Int).Mul(bd2D2, s.norms[g])))
			}
		}
		c.er = pairSum(er)
	}
	return c
}

func bigs(n int) []*big.Int {
	v := make([]*big.Int, n)
	for i := range v {
		v[i] = new(big.Int)
	}
	return v
}

// pairSum adds rationals pairwise, so that the sums' denominators grow evenly (their lowest
// common multiples), not one long sum's.
func pairSum(v []*big.Rat) *big.Rat {
	if len(v) == 0 {
		return new(big.Rat)
	}
	for len(v) > 1 {
		n := 0
		for i := 0; i < len(v); i += 2 {
			if i+1 < len(v) {
				v[n] = new(big.Rat).Add(v[i], v[i+1])
			} else {
				v[n] = v[i]
			}
			n++
		}
		v = v[:n]
	}
	return v[0]
}

// floatCriteria are the criteria in floats, for the history and the line through weight space.
type floatCriteria struct {
	zeroOne    int
	ep, eq, er float64
}

// floatCriteria returns the criteria of w (as floats; wx the exact weights, for a score too
// near 0 to judge in floats) with E_R's margin b.
func (s *samples) floatCriteria(wf [3]float64, wx exact.Vec, b float64) floatCriteria {
	var c floatCriteria
	wn := math.Sqrt(float64(wf[0]*wf[0]) + float64(wf[1]*wf[1]) + float64(wf[2]*wf[2]))
	for i, x := range s.xf {
		sc := float64(wf[0]*x[0]) + float64(wf[1]*x[1]) + float64(wf[2]*x[2])
		ys := float64(s.yf[i] * sc)
		mistake := ys <= 0
		if math.Abs(sc) <= 1e-9*wn*s.scale[i] && wx != nil {
			// Rounding may have moved a score of 0: decide it exactly.
			exactScore := wx.Dot(s.xs[i])
			mistake = exactScore.Sign()*s.y[i] <= 0
			if exactScore.Sign() == 0 {
				sc, ys = 0, 0
			}
		}
		if mistake {
			c.zeroOne++
			c.ep -= ys
			c.eq += float64(sc * sc)
		}
		if ys <= b {
			d := ys - b
			c.er += float64(d*d) / s.nf[i]
		}
	}
	c.er /= 2
	return c
}
