package detmath

import (
	"math"
	"math/rand/v2"
)

// The ziggurat of Marsaglia and Tsang ("The ziggurat method for generating random variables",
// J. Stat. Softw. 5(8), 2000) with 256 layers of equal area v under f(x) = exp(-x*x/2),
// x >= 0. Layer 0 is the base: the rectangle [0, zigR] x [0, f(zigR)] plus the tail beyond
// zigR, drawn as a rectangle of width v/f(zigR). Layer i = 1..255 is the rectangle of width
// x[i] between heights f(x[i]) and f(x[i-1]), with x[255] = zigR > x[254] > ... > x[1] and
// f(x[0]) = 1: every point of it left of x[i-1] lies under the curve.
const (
	zigLayers = 256
	zigR      = 3.6541528853610088 // Marsaglia and Tsang's base edge for 256 layers
)

// zig holds the tables, computed at start-up with this package's Exp, Log, Erfc and
// math.Sqrt (exact), so they are the same on every machine.
var zig = *newZiggurat()

type ziggurat struct {
	k [zigLayers]uint64  // accept at once when the 53-bit j < k[i]
	w [zigLayers]float64 // x = j * w[i]
	f [zigLayers]float64 // f(x[i]); f[0] = 1
	v float64            // area of each layer
}

func newZiggurat() *ziggurat {
	z := new(ziggurat)
	fr := Exp(float64(-0.5*zigR) * zigR)
	// Area of the base: rectangle plus tail, the tail being sqrt(pi/2)*erfc(r/sqrt(2)).
	v := float64(zigR*fr) + float64(1.2533141373155002512*Erfc(float64(zigR*0.70710678118654752440)))
	z.v = v
	var x [zigLayers]float64
	x[zigLayers-1] = zigR
	for i := zigLayers - 2; i >= 1; i-- {
		xi := x[i+1]
		x[i] = math.Sqrt(float64(-2 * Log(v/xi+Exp(float64(float64(-0.5*xi)*xi)))))
	}
	const two53 = 1 << 53
	q := v / fr // the base's virtual width
	z.w[0] = q / two53
	z.k[0] = uint64(zigR / q * two53)
	z.f[0] = 1
	for i := 1; i < zigLayers; i++ {
		z.w[i] = x[i] / two53
		z.k[i] = uint64(x[i-1] / x[i] * two53) // x[0] = 0: layer 1 has no sure part
		z.f[i] = Exp(float64(float64(-0.5*x[i]) * x[i]))
	}
	return z
}

// Normal returns a standard normal random number (mean 0, variance 1) drawn from r.
//
// The result is a fixed function of the values r.Uint64 returns; Normal calls r.Uint64 and no
// other method of r, so the same seed gives the same numbers on every machine.
//
// The ziggurat has 256 layers of equal area v under f(x) = exp(-x*x/2): a base (layer 0) whose
// tail starts at r = 3.6541528853610088, and rectangles i = 1..255 of widths x[i], x[255] = r,
// with f(x[0]) = 1. Each try takes one value u: its low 8 bits choose the layer i, bit 8 the
// sign, and its top 53 bits j the abscissa x = j*w[i] (w[i] = x[i]*2**-53, the layer's width
// scaled; w[0] = v/f(r)*2**-53); x is accepted at once when j < k[i] = floor(x[i-1]/x[i]*2**53)
// (for the base, k[0] = floor(r/(v/f(r))*2**53)). About 98.5% of tries end there. A try that
// lands in a layer's edge (i > 0) takes a second value u2 and accepts x when f[i] +
// (u2>>11)*2**-53*(f[i-1]-f[i]) < exp(-x*x/2); a try that lands in the base's tail (i = 0)
// draws from the tail with Marsaglia's method, taking two values per round, a = -log(U1)/r, b =
// -log(U2) with U = ((u>>11)+1)*2**-53, until 2b > a*a, and returns ±(r+a). A rejected try
// starts over with a new value. Normal does not allocate.
func Normal(r *rand.Rand) float64 {
	for {
		u := r.Uint64()
		i := uint8(u)
		j := u >> 11
		sign := u & 0x100 << 55                    // bit 8 moved to the sign bit: applied without a branch
		x := float64(float64(int64(j)) * zig.w[i]) // int64: j < 2**53, and the signed conversion is one instruction
		if j < zig.k[i] {
			return math.Float64frombits(math.Float64bits(x) ^ sign)
		}
		if i == 0 {
			x = normalTail(r)
		} else {
			u2 := float64(float64(int64(r.Uint64()>>11)) * 0x1p-53)
			y := zig.f[i] + float64(u2*(zig.f[i-1]-zig.f[i]))
			if y >= Exp(float64(float64(-0.5*x)*x)) {
				continue
			}
		}
		return math.Float64frombits(math.Float64bits(x) ^ sign)
	}
}

// normalTail returns a draw from the normal distribution conditioned on x > zigR.
func normalTail(r *rand.Rand) float64 {
	for {
		a := -Log(float64(float64(int64(r.Uint64()>>11+1))*0x1p-53)) / zigR
		b := -Log(float64(float64(int64(r.Uint64()>>11+1)) * 0x1p-53))
		if b+b > float64(a*a) {
			return zigR + a
		}
	}
}
