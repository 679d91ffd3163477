// Package detmath provides the few transcendental functions and the normal random numbers the
// machine's analog model needs, computed the same way, bit for bit, on every architecture.
//
// # Why it exists
//
// The project promises that the same seed gives the same result, bit for bit, on amd64 and on
// arm64 (a Raspberry Pi). The standard library cannot keep that promise:
//
//   - The Go specification lets the compiler fuse x*y + z into one fused multiply-add (FMA)
//     instruction, which rounds once instead of twice. The arm64 compiler does so; the amd64
//     compiler does too when built with GOAMD64=v3, and does not with the default v1. The same
//     pure-Go expression can therefore give different last bits on two machines.
//   - math.Exp is assembly on amd64 (using FMA instructions when the CPU has them) and on
//     arm64 (a different algorithm), math.Log is assembly on amd64 and pure Go elsewhere, and
//     the pure-Go functions (math.Pow, math.Erfc, math.Sincos, ...) are compiled with fusion on
//     arm64. They differ in the last bits from machine to machine, and are not always accurate
//     either: math.Exp's amd64 assembly errs by up to 1.6 ulp and overflows early, math.Log's
//     mishandles subnormals, math.Pow errs by up to 8 ulp for x**2.2 (see the tests).
//   - rand.NormFloat64's ziggurat does a float32 multiply-add, fused on arm64.
//
// Everything here is pure Go with no assembly, and every floating-point product is rounded by
// an explicit conversion, float64(x*y) + z, unless its only use is as an operand of another
// multiplication, a division or a comparison. The specification guarantees that an explicit
// conversion rounds to the target type, which forbids the fusion; it is needed for a product
// that is assigned, returned or passed on as much as for one added directly, because the
// compiler may fuse across statements and after inlining. TestNoFusibleProducts checks the
// rule on the source. The only math functions called are exact ones (math.Float64bits,
// math.Float64frombits, math.Abs, math.Sqrt, which IEEE 754 requires to be correctly rounded,
// math.IsInf, math.Inf, math.NaN), besides math/bits' integer arithmetic.
//
// scripts/check-fma.sh compiles the module for arm64 and fails if any fused instruction is left
// in shipped code; this package's golden test compares SHA-256 digests of the functions' bit
// patterns with testdata/golden.txt, and passes natively and under qemu-aarch64 (make arm64:
// GOARCH=arm64 CGO_ENABLED=0 go test -exec qemu-aarch64-static ./internal/detmath).
//
// The algorithms are the classic ones of Sun's fdlibm (argument reduction plus minimax
// polynomial or rational approximations), with fdlibm's published coefficients; Normal is a
// 256-layer ziggurat (Marsaglia and Tsang) whose tables are computed at start-up with this
// package's own Exp, Log and Erfc. Accuracy, measured against a 320-bit math/big reference in
// the tests (go test -run Accuracy -v -refn 20000 for the full measurement), is given in each
// function's comment.
package detmath

import "math"

const (
	fracMask = 1<<52 - 1
	expBias  = 1023
)

// scaleb returns y * 2**k for y in [0.5, 4) and k in [-1100, 1100], rounding once. A result
// below the normal range is computed as (y * 2**(k+1000)) * 2**-1000, where the first product
// is exact, so the only rounding is the last one.
func scaleb(y float64, k int) float64 {
	switch {
	case k > 1023:
		y = float64(y * 0x1p1023)
		k -= 1023
		if k > 1023 {
			return math.Inf(1)
		}
	case k < -1021:
		y = float64(y * pow2(k+1000))
		return float64(y * 0x1p-1000)
	}
	return float64(y * pow2(k))
}

// pow2 returns 2**k for k in [-1022, 1023].
func pow2(k int) float64 {
	return math.Float64frombits(uint64(k+expBias) << 52)
}

// hi32 returns the upper 32 bits of x's representation (sign, exponent and 20 fraction bits),
// as fdlibm's GET_HIGH_WORD.
func hi32(x float64) uint32 { return uint32(math.Float64bits(x) >> 32) }

// trunc32 returns x with the low 32 bits of its representation cleared (fdlibm's
// SET_LOW_WORD(x, 0)): x keeps 21 significant bits, so products of two such values are exact.
func trunc32(x float64) float64 {
	return math.Float64frombits(math.Float64bits(x) &^ (1<<32 - 1))
}
