package detmath

import "math"

// Coefficients of fdlibm's e_log.c (Sun Microsystems, 1993): a minimax polynomial for
// R(s) = (log(1+f) - 2s)/s, s = f/(2+f), in s*s on [0, 0.1716], with error below 2**-58.45.
const (
	lg1 = 6.666666666666735130e-01 // 0x3FE5555555555593
	lg2 = 3.999999999940941908e-01 // 0x3FD999999997FA04
	lg3 = 2.857142874366239149e-01 // 0x3FD2492494229359
	lg4 = 2.222219843214978396e-01 // 0x3FCC71C51D8E78AF
	lg5 = 1.818357216161805012e-01 // 0x3FC7466496CB03DE
	lg6 = 1.531383769920937332e-01 // 0x3FC39A09D078C69F
	lg7 = 1.479819860511658591e-01 // 0x3FC2F112DF3E5244
)

// Log returns the natural logarithm of x.
//
// Special cases: Log(+Inf) = +Inf, Log(±0) = -Inf, Log(x < 0) = NaN, Log(NaN) = NaN,
// Log(1) = 0. Subnormal x is handled.
//
// Method (fdlibm): x = 2**k * (1+f) with sqrt(2)/2 < 1+f < sqrt(2); log(1+f) = f - (f*f/2 -
// s*(f*f/2 + R)) with s = f/(2+f) and R a polynomial in s*s; log(x) = k*ln2 + log(1+f) with
// ln2 split in two parts.
//
// Accuracy: fdlibm's error analysis bounds the error below 1 ulp. Measured against a 320-bit
// math/big reference (80,000 arguments, including random bit patterns over all positive
// floats): worst 0.78 ulp. Within 1 ulp of math.Log for normal x; math.Log's amd64 assembly
// is wrong for subnormal x (it gives -709.06 for Log(6.2e-310), the true value being -711.98).
func Log(x float64) float64 {
	switch {
	case x != x || x == math.Inf(1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	k := 0
	if x < 0x1p-1022 { // subnormal: scale into the normal range
		x = float64(x * 0x1p54)
		k = -54
	}
	b := math.Float64bits(x)
	k += int(b>>52) - expBias
	// Normalize the significand m = 1+f into [sqrt(2)/2, sqrt(2)): m and k are adjusted so
	// that m >= sqrt(2) is halved. 0x6a09e667f3bcd is the fraction of sqrt(2).
	frac := b & fracMask
	if frac >= 0x6a09e667f3bcd {
		k++
		b = frac | (expBias-1)<<52 // m/2 in [sqrt(2)/2, 1)
	} else {
		b = frac | expBias<<52
	}
	f := math.Float64frombits(b) - 1 // exact
	dk := float64(k)
	if f == 0 {
		if k == 0 {
			return 0
		}
		return float64(dk*ln2Hi) + float64(dk*ln2Lo)
	}
	if math.Abs(f) < 0x1p-20 {
		r := float64(float64(f*f) * (0.5 - float64(0.33333333333333333*f)))
		if k == 0 {
			return f - r
		}
		return float64(dk*ln2Hi) - ((r - float64(dk*ln2Lo)) - f)
	}
	s := f / (2 + f)
	z := float64(s * s)
	w := float64(z * z)
	t1 := float64(w * (lg2 + float64(w*(lg4+float64(w*lg6)))))
	t2 := float64(z * (lg1 + float64(w*(lg3+float64(w*(lg5+float64(w*lg7)))))))
	r := t2 + t1
	hfsq := float64(float64(0.5*f) * f)
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+r)))
	}
	return float64(dk*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(dk*ln2Lo))) - f)
}
