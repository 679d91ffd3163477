package retina

import (
	"math"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// power evaluates x^gamma for one gamma, fast and the same on every architecture: Prepare needs
// one power per cell of every card, and detmath.Pow costs about ten times as much.
//
// x = m * 2^e with m in [1, 2); m = c*(1+r) with c = 1 + j/powNodes the nearest node, so
// |r| <= 2^-9; then x^gamma = c^gamma * (1+r)^gamma * (2^e)^gamma, the first and last factors
// from tables computed with detmath.Pow when the retina is built, and (1+r)^gamma from its
// binomial series to r^powDegree. The truncation error is below 2^-56 relative for gamma <= 10
// (binom(10, 7) * 2^-63 at worst, far less for gamma near 1), and the few roundings make the
// result agree with a correctly rounded power to a few ulps. Arguments below 2^powMinExp are
// scaled by 2^64 (exactly) first; arguments of 2^(powMaxExp+1) and above, which the retina
// never has, go to detmath.Pow.
type power struct {
	gamma float64
	one   bool                               // gamma == 1: x^gamma = x exactly
	node  [powNodes + 1]float64              // c_j^gamma
	inv   [powNodes + 1]float64              // 1/c_j
	scale [powMaxExp - powMinExp + 1]float64 // (2^e)^gamma
	coef  [powDegree + 1]float64             // binom(gamma, k)
}

const (
	powNodes  = 256
	powDegree = 6
	powMinExp = -64
	powMaxExp = 10
)

// init sets the tables up for gamma (0 < gamma <= 10).
func (p *power) init(gamma float64) {
	p.gamma = gamma
	p.one = gamma == 1
	if p.one {
		return
	}
	for j := range p.node {
		c := 1 + float64(float64(j)/powNodes)
		p.node[j] = detmath.Pow(c, gamma)
		p.inv[j] = 1 / c
	}
	for e := powMinExp; e <= powMaxExp; e++ {
		p.scale[e-powMinExp] = detmath.Pow(math.Ldexp(1, e), gamma)
	}
	p.coef[0] = 1
	for k := 1; k <= powDegree; k++ {
		p.coef[k] = float64(p.coef[k-1]*(gamma-float64(k-1))) / float64(k)
	}
}

// eval returns x^gamma for x >= 0 (0 for x <= 0).
func (p *power) eval(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	if p.one {
		return x
	}
	b := math.Float64bits(x)
	e := int(b>>52) - 1023
	if e < powMinExp {
		// x*2^64 is exact; x^gamma = (x*2^64)^gamma * (2^-64)^gamma.
		return float64(p.eval(x*0x1p64) * p.scale[0])
	}
	if e > powMaxExp {
		return detmath.Pow(x, p.gamma) // not reached: Prepare's lights are at most 1000
	}
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52) // [1, 2)
	j := int((b>>43&0x1ff + 1) >> 1)                  // nearest node: round(frac * 256)
	c := 1 + float64(float64(j)/powNodes)
	r := float64((m - c) * p.inv[j]) // m - c is exact
	q := p.coef[6]
	q = float64(q*r) + p.coef[5]
	q = float64(q*r) + p.coef[4]
	q = float64(q*r) + p.coef[3]
	q = float64(q*r) + p.coef[2]
	q = float64(q*r) + p.coef[1]
	q = float64(q*r) + 1
	return float64(p.node[j]*q) * p.scale[e-powMinExp]
}
