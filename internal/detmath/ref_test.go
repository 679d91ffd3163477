package detmath

// A slow, simple, high-precision reference for the accuracy tests, built on math/big with
// series that converge on their own: nothing here is shared with the code under test.

import (
	"math"
	"math/big"
	"sync"
)

const refPrec = 320 // bits of the reference computations

func bf(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

func bnew() *big.Float { return new(big.Float).SetPrec(refPrec) }

// refAtanhInv returns atanh(1/n) = sum 1/((2k+1) n**(2k+1)) at precision prec.
func refAtanhInv(n int64, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec)
	pw := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), new(big.Float).SetPrec(prec).SetInt64(n))
	n2 := new(big.Float).SetPrec(prec).SetInt64(n * n)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)-8)
	for k := int64(0); ; k++ {
		term := new(big.Float).SetPrec(prec).Quo(pw, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
		sum.Add(sum, term)
		if term.Cmp(eps) < 0 {
			return sum
		}
		pw.Quo(pw, n2)
	}
}

// refAtanInv returns atan(1/n) = sum (-1)**k/((2k+1) n**(2k+1)) at precision prec.
func refAtanInv(n int64, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec)
	pw := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), new(big.Float).SetPrec(prec).SetInt64(n))
	n2 := new(big.Float).SetPrec(prec).SetInt64(n * n)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(prec)-8)
	for k := int64(0); ; k++ {
		term := new(big.Float).SetPrec(prec).Quo(pw, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		if term.Cmp(eps) < 0 {
			return sum
		}
		pw.Quo(pw, n2)
	}
}

var refConst = sync.OnceValues(func() (ln2, pi *big.Float) {
	ln2 = refAtanhInv(3, refPrec+20)
	ln2.Add(ln2, ln2) // ln 2 = 2 atanh(1/3)
	// Machin: pi = 16 atan(1/5) - 4 atan(1/239), with enough bits to reduce x near 2**1024.
	const piPrec = 1500
	a := refAtanInv(5, piPrec)
	b := refAtanInv(239, piPrec)
	pi = new(big.Float).SetPrec(piPrec).Mul(a, big.NewFloat(16))
	pi.Sub(pi, new(big.Float).SetPrec(piPrec).Mul(b, big.NewFloat(4)))
	return ln2, pi
})

// refExp returns e**x.
func refExp(x *big.Float) *big.Float {
	ln2, _ := refConst()
	q := bnew().Quo(x, ln2)
	kf, _ := q.Float64()
	k := math.Round(kf)
	r := bnew().Sub(x, bnew().Mul(ln2, bf(k)))
	const halvings = 12
	r.SetMantExp(r, -halvings)
	// Taylor series of e**r - 1, |r| < 2**-12.
	sum, term := bnew(), bf(1)
	for n := 1; n < 60; n++ {
		term.Mul(term, r)
		term.Quo(term, bf(float64(n)))
		sum.Add(sum, term)
	}
	for range halvings { // e**2r - 1 = (e**r - 1)(e**r + 1)
		sum.Mul(sum, bnew().Add(sum, bf(2)))
	}
	sum.Add(sum, bf(1))
	return sum.SetMantExp(sum, int(k))
}

// refLog returns log(x) for x > 0.
func refLog(x float64) *big.Float {
	ln2, _ := refConst()
	m, e := math.Frexp(x) // m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	// log m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172
	s := bnew().Quo(bnew().Sub(bf(m), bf(1)), bnew().Add(bf(m), bf(1)))
	s2 := bnew().Mul(s, s)
	sum, pw := bnew(), bnew().Set(s)
	for k := 0; k < 220; k++ {
		sum.Add(sum, bnew().Quo(pw, bf(float64(2*k+1))))
		pw.Mul(pw, s2)
	}
	sum.Add(sum, sum)
	return sum.Add(sum, bnew().Mul(ln2, bf(float64(e))))
}

// refPow returns x**y for x > 0.
func refPow(x, y float64) *big.Float {
	return refExp(bnew().Mul(refLog(x), bf(y)))
}

// refSincos returns sin x and cos x.
func refSincos(x float64) (s, c *big.Float) {
	_, pi := refConst()
	prec := pi.Prec()
	halfPi := new(big.Float).SetPrec(prec).Quo(pi, big.NewFloat(2))
	xb := new(big.Float).SetPrec(prec).SetFloat64(x)
	q := new(big.Float).SetPrec(prec).Quo(xb, halfPi)
	// n = round(q), exactly, as a big.Int
	q.Add(q, big.NewFloat(0.5))
	n, _ := q.Int(nil)
	if q.Sign() < 0 && !q.IsInt() {
		n.Sub(n, big.NewInt(1)) // Int truncates toward zero: floor for negatives
	}
	nf := new(big.Float).SetPrec(prec).SetInt(n)
	r := new(big.Float).SetPrec(prec).Sub(xb, nf.Mul(nf, halfPi))
	r.SetPrec(refPrec)
	r2 := bnew().Mul(r, r)
	// Taylor series, |r| <= pi/4.
	sn, cs := bnew(), bnew()
	term := bnew().Set(r) // r**(2k+1)/(2k+1)!
	ct := bf(1)           // r**2k/(2k)!
	for k := 0; k < 60; k++ {
		if k%2 == 0 {
			sn.Add(sn, term)
			cs.Add(cs, ct)
		} else {
			sn.Sub(sn, term)
			cs.Sub(cs, ct)
		}
		term.Mul(term, r2)
		term.Quo(term, bf(float64((2*k+2)*(2*k+3))))
		ct.Mul(ct, r2)
		ct.Quo(ct, bf(float64((2*k+1)*(2*k+2))))
	}
	switch new(big.Int).And(n, big.NewInt(3)).Int64() {
	case 0:
		return sn, cs
	case 1:
		return cs, sn.Neg(sn)
	case 2:
		return sn.Neg(sn), cs.Neg(cs)
	}
	return cs.Neg(cs), sn
}

// refErfc returns erfc(x).
func refErfc(x float64) *big.Float {
	if x < 0 {
		return bnew().Sub(bf(2), refErfc(-x))
	}
	_, pi := refConst()
	sqrtPi := bnew().Sqrt(bnew().Set(pi))
	xb := bf(x)
	ex := refExp(bnew().Neg(bnew().Mul(xb, xb))) // e**-x*x
	if x < 3 {
		// erf x = 2/sqrt(pi) e**-x*x sum 2**n x**(2n+1)/(1*3*...*(2n+1)): positive terms.
		x2 := bnew().Mul(xb, xb)
		sum, term := bnew(), bnew().Set(xb)
		for n := 1; n < 400; n++ {
			sum.Add(sum, term)
			term.Mul(term, x2)
			term.Mul(term, bf(2))
			term.Quo(term, bf(float64(2*n+1)))
		}
		erf := bnew().Mul(sum, ex)
		erf.Mul(erf, bf(2))
		erf.Quo(erf, sqrtPi)
		return erf.Sub(bf(1), erf)
	}
	// Continued fraction: erfc x = e**-x*x/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
	const depth = 600
	t := bf(x)
	for k := depth; k >= 1; k-- {
		t = bnew().Add(xb, bnew().Quo(bf(float64(k)/2), t))
	}
	r := bnew().Quo(ex, sqrtPi)
	return r.Quo(r, t)
}

// ulpErr returns |got - want| in units of the last place of want, as a float64 rounded to the
// nearest float64 would have it (subnormal spacing below 2**-1022).
func ulpErr(got float64, want *big.Float) float64 {
	if want.Sign() == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	e := want.MantExp(nil) // |want| in [2**(e-1), 2**e)
	ulpExp := max(e-53, -1074)
	d := bnew().Sub(bf(got), want)
	d.SetMantExp(d, -ulpExp)
	v, _ := d.Float64()
	return math.Abs(v)
}
