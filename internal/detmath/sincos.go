package detmath

import (
	"math"
	"math/bits"
)

// Kernel coefficients of fdlibm's k_sin.c and k_cos.c (Sun Microsystems, 1993): minimax
// polynomials on [-pi/4, pi/4] with error below 2**-58.
const (
	sinS1 = -1.66666666666666324348e-01 // 0xBFC5555555555549
	sinS2 = 8.33333333332248946124e-03  // 0x3F8111111110F8A6
	sinS3 = -1.98412698298579493134e-04 // 0xBF2A01A019C161D5
	sinS4 = 2.75573137070700676789e-06  // 0x3EC71DE357B1FE7D
	sinS5 = -2.50507602534068634195e-08 // 0xBE5AE5E68A2B9CEB
	sinS6 = 1.58969099521155010221e-10  // 0x3DE5D93A5ACFD57C

	cosC1 = 4.16666666666666019037e-02  // 0x3FA555555555554C
	cosC2 = -1.38888888888741095749e-03 // 0xBF56C16C16C15177
	cosC3 = 2.48015872894767294178e-05  // 0x3EFA01A019CB1590
	cosC4 = -2.75573143513906633035e-07 // 0xBE927E4F809C52AD
	cosC5 = 2.08757232129817482790e-09  // 0x3E21EE9EBDB4B1C4
	cosC6 = -1.13596475577881948265e-11 // 0xBDA8FAE9BE8838D4
)

// pi/2 in parts for the Cody-Waite reduction of fdlibm's e_rem_pio2.c: each pio2N has 33
// significant bits, so n*pio2N is exact for n < 2**20, and pio2Nt is the rest of pi/2.
const (
	invPio2 = 6.36619772367581382433e-01 // 0x3FE45F306DC9C883: 2/pi
	pio21   = 1.57079632673412561417e+00 // 0x3FF921FB54400000
	pio21t  = 6.07710050650619224932e-11 // 0x3DD0B4611A626331
	pio22   = 6.07710050630396597660e-11 // 0x3DD0B4611A600000
	pio22t  = 2.02226624879595063154e-21 // 0x3BA3198A2E037073
	pio23   = 2.02226624871116645580e-21 // 0x3BA3198A2E000000
	pio23t  = 8.47842766036889956997e-32 // 0x397B839A252049C1

	pio2Hi = 1.57079632679489655800e+00 // 0x3FF921FB54442D18: pi/2 rounded
	pio2Lo = 6.12323399573676603587e-17 // 0x3C91A62633145C07: pi/2 - pio2Hi

	mediumLimit = 0x1p20 * pio2Hi // the Cody-Waite reduction is used below this
)

// Sincos returns the sine and cosine of x radians.
//
// Special cases: Sincos(±0) = ±0, 1 exactly; Sincos(±Inf) and Sincos(NaN) = NaN, NaN.
//
// Method (fdlibm): x is reduced to r = x - n*pi/2, |r| <= pi/4, kept as a double-double
// r0 + r1; below 2**20*pi/2 (about 1.6e6) with fdlibm's three-stage Cody-Waite reduction
// (e_rem_pio2.c), above with a Payne-Hanek reduction against 1584 bits of 2/pi; then
// fdlibm's degree-13 and degree-14 kernels.
//
// Accuracy holds over the whole finite range. Measured against a math/big reference that
// reduces x with 1500 bits of pi (20,000 arguments a range): worst 0.75 ulp for |x| <= 1.6e6,
// 0.74 ulp for x log-uniform in [1.6e6, 1e300], 0.50 ulp near multiples of pi/2, and 0.49 ulp
// at the float64 closest to a multiple of pi/2 (6381956970095103 * 2**797). math.Sincos
// loses thousands of ulps near multiples of pi/2 (where sin or cos is tiny).
func Sincos(x float64) (sin, cos float64) {
	ax := math.Abs(x)
	switch {
	case ax < 0x1p-27:
		return x, 1 // exact rounding of x - x**3/6 and 1 - x*x/2; keeps the sign of -0
	case ax <= math.Pi/4:
		return kernelSin(x, 0), kernelCos(x, 0)
	case ax > math.MaxFloat64 || x != x:
		return math.NaN(), math.NaN()
	}
	var n int
	var r0, r1 float64
	if ax < mediumLimit {
		n, r0, r1 = reduceMedium(x)
	} else {
		n, r0, r1 = reduceLarge(x)
	}
	s, c := kernelSin(r0, r1), kernelCos(r0, r1)
	switch n & 3 {
	case 0:
		return s, c
	case 1:
		return c, -s
	case 2:
		return -s, -c
	}
	return -c, s
}

// kernelSin returns sin(x+y) for |x| <= pi/4 and |y| tiny beside x (fdlibm's __kernel_sin).
func kernelSin(x, y float64) float64 {
	z := float64(x * x)
	w := float64(z * z)
	r := sinS2 + float64(z*(sinS3+float64(z*sinS4))) + float64(float64(z*w)*(sinS5+float64(z*sinS6)))
	v := float64(z * x)
	if y == 0 {
		return x + float64(v*(sinS1+float64(z*r)))
	}
	return x - ((float64(z*(float64(0.5*y)-float64(v*r))) - y) - float64(v*sinS1))
}

// kernelCos returns cos(x+y) for |x| <= pi/4 and |y| tiny beside x (fdlibm's __kernel_cos).
func kernelCos(x, y float64) float64 {
	z := float64(x * x)
	w := float64(z * z)
	r := float64(z*(cosC1+float64(z*(cosC2+float64(z*cosC3))))) +
		float64(float64(w*w)*(cosC4+float64(z*(cosC5+float64(z*cosC6)))))
	hz := float64(0.5 * z)
	w = 1 - hz
	return w + (((1 - w) - hz) + (float64(z*r) - float64(x*y)))
}

// reduceMedium returns n and r0 + r1 = x - n*pi/2 for |x| < 2**20*pi/2 (fdlibm's
// __ieee754_rem_pio2, medium case): up to three Cody-Waite steps, the later ones only when
// cancellation has eaten the bits the earlier ones provide.
func reduceMedium(x float64) (n int, r0, r1 float64) {
	fn := (float64(x*invPio2) + 0x1.8p52) - 0x1.8p52 // x*2/pi rounded to an integer
	n = int(fn)
	r := x - float64(fn*pio21) // exact
	w := float64(fn * pio21t)
	r0 = r - w
	ex := int(math.Float64bits(x)>>52) & 0x7ff
	if ex-int(math.Float64bits(r0)>>52&0x7ff) > 16 { // second step, good to 118 bits
		t := r
		w = float64(fn * pio22)
		r = t - w
		w = float64(fn*pio22t) - ((t - r) - w)
		r0 = r - w
		if ex-int(math.Float64bits(r0)>>52&0x7ff) > 49 { // third step, 151 bits
			t = r
			w = float64(fn * pio23)
			r = t - w
			w = float64(fn*pio23t) - ((t - r) - w)
			r0 = r - w
		}
	}
	r1 = (r - r0) - w
	return n, r0, r1
}

// twoOverPi holds the first 1584 bits of the fraction of 2/pi, 24 bits an entry: the table
// ipio2 of fdlibm's k_rem_pio2.c. twoOverPiWords packs them into 64-bit words at init.
var twoOverPi = [66]uint32{
	0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62,
	0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7, 0x246E3A,
	0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
	0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41,
	0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8,
	0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
	0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5,
	0xF17B3D, 0x0739F7, 0x8A5292, 0xEA6BFB, 0x5FB11F, 0x8D5D08,
	0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
	0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880,
	0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
}

var twoOverPiWords = func() (w [25]uint64) {
	for i, v := range twoOverPi {
		for b := 0; b < 24; b++ {
			if v>>(23-b)&1 == 1 {
				pos := 24*i + b // bit 2**-(pos+1) of 2/pi
				w[pos/64] |= 1 << (63 - pos%64)
			}
		}
	}
	return w
}()

// bits192 returns bits p+1 ... p+192 of the fraction of 2/pi (bit i weighing 2**-i) as
// three words, most significant first.
func bits192(p int) (a, b, c uint64) {
	word := func(i int) uint64 { // bits 64*i+1 ... 64*i+64 shifted by p%64
		if i >= len(twoOverPiWords) {
			return 0
		}
		return twoOverPiWords[i]
	}
	q, s := p/64, uint(p%64)
	w0, w1, w2, w3 := word(q), word(q+1), word(q+2), word(q+3)
	if s == 0 {
		return w0, w1, w2
	}
	return w0<<s | w1>>(64-s), w1<<s | w2>>(64-s), w2<<s | w3>>(64-s)
}

// reduceLarge returns n mod 4 and r0 + r1 = x - n*pi/2, |r0| <= pi/4, for |x| >= 2**20*pi/2
// (Payne-Hanek): x = m*2**e with m a 53-bit integer; the product of m with 192 bits of 2/pi,
// starting where the bits before contribute only multiples of 4, gives x*2/pi mod 4 as a
// fixed-point number with at least 130 fraction bits, exact up to 2**-137.
func reduceLarge(x float64) (n int, r0, r1 float64) {
	b := math.Float64bits(x)
	m := b&fracMask | 1<<52
	e := int(b>>52&0x7ff) - 1075 // |x| = m * 2**e, e >= -32 here
	p := max(e-2, 0)
	t0, t1, t2 := bits192(p)
	// P = m * T, 256 bits in four words; x*2/pi = P * 2**(e-p-192).
	h2, l2 := bits.Mul64(m, t2)
	h1, l1 := bits.Mul64(m, t1)
	h0, l0 := bits.Mul64(m, t0)
	w3 := l2
	w2, c := bits.Add64(l1, h2, 0)
	w1, c := bits.Add64(l0, h1, c)
	w0 := h0 + c
	// Shift left so that the units digit and the 2s digit of x*2/pi are the top two bits.
	sh := uint(254 - (192 + p - e)) // between 30 and 64 (a shift by 64 moves whole words)
	w0 = w0<<sh | w1>>(64-sh)
	w1 = w1<<sh | w2>>(64-sh)
	w2 = w2<<sh | w3>>(64-sh)
	n = int(w0 >> 62)
	w0 &^= 3 << 62
	neg := false
	if w0>>61 == 1 { // fraction >= 1/2: round n up and take the fraction minus 1
		n++
		neg = true
		var br uint64
		w2, br = bits.Sub64(0, w2, 0)
		w1, br = bits.Sub64(0, w1, br)
		w0, _ = bits.Sub64(0, w0, br)
		w0 &^= 3 << 62
	}
	// The fraction, below 1, is w0 (bit k weighing 2**(k-62)), w1, w2. Normalize it to a
	// 128-bit mantissa hi:lo with the top bit set.
	lz := bits.LeadingZeros64(w0)
	if lz == 64 {
		w0, w1, w2 = w1, w2, 0
		lz = 64 + bits.LeadingZeros64(w0)
		if lz == 128 { // cannot happen for a float64: x is never this close to n*pi/2
			return n & 3, 0, 0
		}
	}
	s := uint(lz % 64)
	hi, lo := w0, w1
	if s != 0 {
		hi, lo = w0<<s|w1>>(64-s), w1<<s|w2>>(64-s)
	}
	// The fraction's leading bit weighs 2**(1-lz): fraction = hi*2**(-lz-62) + lo*2**(-lz-126),
	// as a double-double f0 + f1 (f0 exact, f1 rounded).
	f0 := float64(float64(hi>>11) * pow2(-lz-51))
	f1 := float64(float64(hi&0x7ff<<53|lo>>11) * pow2(-lz-115))
	// y = f * pi/2 in double-double arithmetic.
	p0, e0 := twoProd(f0, pio2Hi)
	e0 = e0 + (float64(f0*pio2Lo) + float64(f1*pio2Hi))
	r0 = p0 + e0
	r1 = e0 - (r0 - p0)
	if neg {
		r0, r1 = -r0, -r1
	}
	if x < 0 {
		return -n & 3, -r0, -r1
	}
	return n & 3, r0, r1
}

// twoProd returns p = a*b rounded and e with p + e = a*b exactly (Dekker's algorithm with
// Veltkamp's splitting, which needs no fused multiply-add; a and b must be far from overflow).
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	ah, al := split(a)
	bh, bl := split(b)
	e = ((float64(ah*bh) - p) + float64(ah*bl) + float64(al*bh)) + float64(al*bl)
	return p, e
}

// split returns hi + lo = a with hi holding the top 26 bits of a's significand.
func split(a float64) (hi, lo float64) {
	c := float64((0x1p27 + 1) * a)
	hi = c - (c - a)
	return hi, a - hi
}
