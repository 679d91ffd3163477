package detmath

import "math"

// Constants of fdlibm's e_pow.c (Sun Microsystems, 2004). The "h" parts have their low 32
// bits zero, so that products with other such numbers are exact.
const (
	powL1 = 5.99999999999994648725e-01 // 0x3FE3333333333303: (3/2)(log(x)-2s-2/3 s**3) in s*s
	powL2 = 4.28571428578550184252e-01 // 0x3FDB6DB6DB6FABFF
	powL3 = 3.33333329818377432918e-01 // 0x3FD55555518F264D
	powL4 = 2.72728123808534006489e-01 // 0x3FD17460A91D4101
	powL5 = 2.30660745775561754067e-01 // 0x3FCD864A93C9DB65
	powL6 = 2.06975017800338417784e-01 // 0x3FCA7E284A454EEF

	powLg2  = 6.93147180559945286227e-01  // 0x3FE62E42FEFA39EF: ln2
	powLg2H = 6.93147182464599609375e-01  // 0x3FE62E4300000000
	powLg2L = -1.90465429995776804525e-09 // 0xBE205C610CA86C39
	powOvt  = 8.0085662595372944372e-17   // -(1024-log2(ovfl+.5ulp))

	powCp  = 9.61796693925975554329e-01  // 0x3FEEC709DC3A03FD: 2/(3 ln2)
	powCpH = 9.61796700954437255859e-01  // 0x3FEEC709E0000000
	powCpL = -7.02846165095275826516e-09 // 0xBE3E2FE0145B01F5

	ivln2  = 1.44269504088896338700e+00 // 0x3FF71547652B82FE: 1/ln2
	ivln2H = 1.44269502162933349609e+00 // 0x3FF7154760000000
	ivln2L = 1.92596299112661746887e-08 // 0x3E54AE0BF85DDF44

	dpH1 = 5.84962487220764160156e-01 // 0x3FE2B80340000000: log2(1.5), high part
	dpL1 = 1.35003920212974897128e-08 // 0x3E4CFDEB43CFD006: log2(1.5), low part
)

// Pow returns x**y.
//
// Exact identities: Pow(x, ±0) = 1 and Pow(1, y) = 1 for every x and y (even NaN),
// Pow(x, 1) = x, Pow(±0, y > 0) = ±0 for an odd integer y and +0 otherwise. The other
// special cases are those of math.Pow: Pow(±0, y < 0) = ±Inf or +Inf, Pow(x, ±Inf) = +Inf or
// +0 by whether |x| > 1, Pow(-1, ±Inf) = 1, Pow(+Inf, y) = +Inf or +0, Pow(-Inf, y) =
// Pow(-0, -y), and NaN arguments give NaN. Negative x: Pow(x, y) = ±Pow(-x, y) when y is an
// integer (negative for odd y) and NaN otherwise. Pow(x, 2) = x*x, Pow(x, 0.5) = Sqrt(x) for
// x >= 0, and Pow(x, -1) = 1/x are correctly rounded.
//
// Method (fdlibm's e_pow.c): log2(x) is computed to about 2**-64 relative precision as a sum
// t1 + t2, multiplied by y in simulated double-double arithmetic to n + y', |y'| <= 1/2, and
// x**y = 2**n * 2**y'.
//
// Accuracy, measured against a 320-bit math/big reference (20,000 arguments a range): worst
// 0.77 ulp for x in [0, 1000] and y in (0, 10], the machine's range; worst 0.82 ulp over all
// the ranges tested (x in [1e-3, 1e3] with y in [-10, 10], x in [1e-300, 1e300] with y in
// [-1, 1], x within 1e-4 of 1 with |y| up to 1e6). math.Pow is less accurate: it errs by up
// to 8 ulp in the machine's range and by far more for large |y*log(x)|.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case x != x || y != y:
		return math.NaN()
	}
	yi := intKind(y)
	ax := math.Abs(x)
	switch {
	case math.IsInf(y, 0):
		switch {
		case ax == 1:
			return 1
		case (ax > 1) == (y > 0):
			return math.Inf(1)
		}
		return 0
	case x == 0:
		if y < 0 {
			if yi == 1 {
				return 1 / x // ±Inf with the sign of x
			}
			return math.Inf(1)
		}
		if yi == 1 {
			return x
		}
		return 0
	case math.IsInf(x, 0):
		if x < 0 {
			return Pow(1/x, -y) // -Inf**y = -0**-y
		}
		if y > 0 {
			return math.Inf(1)
		}
		return 0
	}
	sign := 1.0
	if x < 0 {
		switch yi {
		case 0:
			return math.NaN()
		case 1:
			sign = -1
		}
	}
	switch y {
	case 2:
		return float64(x * x)
	case -1:
		return 1 / x
	case 0.5:
		return math.Sqrt(x) // x > 0 here: a negative x with y = 0.5 gave NaN above
	}
	return float64(sign * powAbs(ax, y))
}

// intKind tells whether y is not an integer (0), an odd integer (1) or an even integer (2).
func intKind(y float64) int {
	switch {
	case math.Abs(y) >= 0x1p53:
		return 2 // every float64 this large is an even integer (or infinite)
	case float64(int64(y)) != y:
		return 0
	case int64(y)&1 == 1:
		return 1
	}
	return 2
}

// powAbs returns ax**y for finite ax > 0, ax != 1, and finite y != 0.
func powAbs(ax, y float64) float64 {
	var t1, t2 float64 // log2(ax) = t1 + t2, t1 with 21 significant bits
	iy := hi32(y) & 0x7fffffff
	ix := hi32(ax)
	yNeg := y < 0
	if iy > 0x41e00000 { // |y| > 2**31
		// The result over- or underflows unless ax is within 2**-20 of 1.
		if ix < 0x3fefffff || iy > 0x43f00000 && ix <= 0x3fefffff {
			if yNeg {
				return math.Inf(1)
			}
			return 0
		}
		if ix > 0x3ff00000 || iy > 0x43f00000 {
			if yNeg {
				return 0
			}
			return math.Inf(1)
		}
		// log2(ax) from log(1+t) = t - t**2/2 + t**3/3 - t**4/4, t = ax-1 with 20 trailing zeros.
		t := ax - 1
		w := float64(float64(t*t) * (0.5 - float64(t*(0.3333333333333333333333-float64(t*0.25)))))
		u := float64(ivln2H * t)
		v := float64(t*ivln2L) - float64(w*ivln2)
		t1 = trunc32(u + v)
		t2 = v - (t1 - u)
	} else {
		n := 0
		if ix < 0x00100000 { // subnormal
			ax = float64(ax * 0x1p53)
			n -= 53
			ix = hi32(ax)
		}
		n += int(ix>>20) - 0x3ff
		j := ix & 0x000fffff
		ix = j | 0x3ff00000 // ax scaled to [1, 2)
		k := uint32(0)      // 0: reduce around 1; 1: reduce around 1.5
		switch {
		case j <= 0x3988e: // ax < sqrt(3/2)
		case j < 0xbb67a: // ax < sqrt(3)
			k = 1
		default: // use ax/2 in [sqrt(3)/2, 1)
			n++
			ix -= 0x00100000
		}
		ax = math.Float64frombits(uint64(ix)<<32 | math.Float64bits(ax)&(1<<32-1))
		bp, dpH, dpL := 1.0, 0.0, 0.0
		if k == 1 {
			bp, dpH, dpL = 1.5, dpH1, dpL1
		}
		// ss = sh + sl = (ax-bp)/(ax+bp), with sh of 21 bits.
		u := ax - bp
		v := 1 / (ax + bp)
		ss := float64(u * v)
		sh := trunc32(ss)
		th := math.Float64frombits(uint64((ix>>1|0x20000000)+0x00080000+k<<18) << 32) // high part of ax+bp
		tl := ax - (th - bp)
		sl := float64(v * ((u - float64(sh*th)) - float64(sh*tl)))
		// log(ax/bp) = 2ss + (2/3)ss**3 + ...: r is the part beyond 2ss + (2/3)ss**3.
		s2 := float64(ss * ss)
		r := float64(float64(s2*s2) * (powL1 + float64(s2*(powL2+float64(s2*(powL3+float64(s2*(powL4+float64(s2*(powL5+float64(s2*powL6)))))))))))
		r += float64(sl * (sh + ss))
		s2 = float64(sh * sh)
		th = trunc32(3 + s2 + r)
		tl = r - ((th - 3) - s2)
		// u + v = ss*(3 + s2 + r)
		u = float64(sh * th)
		v = float64(sl*th) + float64(tl*ss)
		ph := trunc32(u + v)
		pl := v - (ph - u)
		// log2(ax) = (ss + ...)*2/(3 ln2) = n + dpH + zh + zl
		zh := float64(powCpH * ph)
		zl := float64(powCpL*ph) + float64(pl*powCp) + dpL
		t := float64(n)
		t1 = trunc32(((zh + zl) + dpH) + t)
		t2 = zl - (((t1 - t) - dpH) - zh)
	}

	// y*log2(ax) = ph + pl, with y split as y1 + (y-y1) so that y1*t1 is exact.
	y1 := trunc32(y)
	pl := float64((y-y1)*t1) + float64(y*t2)
	ph := float64(y1 * t1)
	z := pl + ph
	zb := math.Float64bits(z)
	j := uint32(zb >> 32)
	lo := uint32(zb)
	switch {
	case int32(j) >= 0x40900000: // z >= 1024
		if j != 0x40900000 || lo != 0 || pl+powOvt > z-ph {
			return math.Inf(1)
		}
	case j&0x7fffffff >= 0x4090cc00: // z <= -1075
		if j != 0xc090cc00 || lo != 0 || pl <= z-ph {
			return 0
		}
	}

	// 2**(ph+pl) = 2**n * 2**(ph'+pl) with n = nearest integer to z.
	i := j & 0x7fffffff
	n := 0
	if i > 0x3fe00000 { // |z| > 0.5
		e := int(i>>20) - 0x3ff
		m := i + 0x00100000>>(e+1) // |z| + 0.5, in the high word
		e = int(m>>20) - 0x3ff
		t := math.Float64frombits(uint64(m&^(0x000fffff>>e)) << 32) // its integer part
		n = int((m&0x000fffff | 0x00100000) >> (20 - e))
		if int32(j) < 0 {
			n = -n
			t = -t
		}
		ph -= t
	}
	t := trunc32(pl + ph)
	u := float64(t * powLg2H)
	v := float64((pl-(t-ph))*powLg2) + float64(t*powLg2L)
	z = u + v
	w := v - (z - u)
	t = float64(z * z)
	c := z - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
	r := float64(z*c)/(c-2) - (w + float64(z*w))
	z = 1 - (r - z)
	return scaleb(z, n)
}
