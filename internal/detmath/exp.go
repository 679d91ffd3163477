package detmath

import "math"

// Coefficients of fdlibm's e_exp.c (Sun Microsystems, 1993/2004): a degree-5 minimax
// polynomial for R(z) = r*(exp(r)+1)/(exp(r)-1) ~ 2 + P1*z + ... + P5*z**5, z = r*r, on
// [0, 0.5*ln2], with error below 2**-59.
const (
	expP1 = 1.66666666666666019037e-01  // 0x3FC555555555553E
	expP2 = -2.77777777770155933842e-03 // 0xBF66C16C16BEBD93
	expP3 = 6.61375632143793436117e-05  // 0x3F11566AAF25DE2C
	expP4 = -1.65339022054652515390e-06 // 0xBEBBBD41C5D26BF1
	expP5 = 4.13813679705723846039e-08  // 0x3E66376972BEA4D0

	ln2Hi  = 6.93147180369123816490e-01 // 0x3FE62E42FEE00000: k*ln2Hi is exact for |k| < 2**11
	ln2Lo  = 1.90821492927058770002e-10 // 0x3DEA39EF35793C76: ln2 - ln2Hi
	invLn2 = 1.44269504088896338700e+00 // 0x3FF71547652B82FE

	expOverflow  = 7.09782712893383973096e+02  // largest x with finite e**x
	expUnderflow = -7.45133219101941108420e+02 // smallest x with nonzero e**x
)

// Exp returns e**x.
//
// Special cases: Exp(+Inf) = +Inf, Exp(-Inf) = 0, Exp(NaN) = NaN; results too large give
// +Inf, results below the smallest subnormal give 0, subnormal results are rounded once.
//
// Method (fdlibm): x = k*ln2 + r with |r| <= ln2/2, r kept as hi - lo; e**r = 1 + r +
// r*c/(2-c) with c = r - r*r*P(r*r); then scaled by 2**k, rounding once.
//
// Accuracy: fdlibm's error analysis bounds the error below 1 ulp. Measured against a 320-bit
// math/big reference (TestAccuracy, 100,000 arguments, with -refn 20000): worst 0.82 ulp, also
// for subnormal results. Within 1 ulp of math.Exp except where math.Exp is the one further
// from the true value: math.Exp's amd64 assembly errs by up to 1.6 ulp and returns +Inf for
// 709.44 < x <= 709.78, where Exp is finite and correct.
func Exp(x float64) float64 {
	switch {
	case x != x:
		return x
	case x > expOverflow:
		return math.Inf(1)
	case x < expUnderflow:
		return 0
	}
	ax := math.Abs(x)
	if ax < 0x1p-28 {
		return 1 + x
	}
	if x == 1 {
		return 2.718281828459045235360 // fdlibm's formula gives 2.7182818284590455, 1 ulp off
	}
	var hi, lo float64
	k := 0
	switch {
	case ax <= 0.5*ln2Hi+0.5*ln2Lo: // |x| <= ln2/2: no reduction
		hi = x
	case ax < 1.5*ln2Hi+1.5*ln2Lo: // k = ±1
		if x > 0 {
			hi, lo, k = x-ln2Hi, ln2Lo, 1
		} else {
			hi, lo, k = x+ln2Hi, -ln2Lo, -1
		}
	default:
		half := 0.5
		if x < 0 {
			half = -0.5
		}
		k = int(float64(invLn2*x) + half) // rounds to nearest: int() truncates toward zero
		t := float64(k)
		hi = x - float64(t*ln2Hi) // t*ln2Hi is exact
		lo = float64(t * ln2Lo)
	}
	r := hi - lo
	z := float64(r * r)
	c := r - float64(z*(expP1+float64(z*(expP2+float64(z*(expP3+float64(z*(expP4+float64(z*expP5)))))))))
	if k == 0 {
		return 1 - (float64(r*c)/(c-2) - r)
	}
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return scaleb(y, k)
}
