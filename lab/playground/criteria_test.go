package playground

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// naiveCriteria are the criteria summed term by term in big.Rat, as their definitions say.
func naiveCriteria(w exact.Vec, xs []exact.Vec, ys []int, b *big.Rat) (int, *big.Rat, *big.Rat, *big.Rat) {
	n, ep, eq, er := 0, new(big.Rat), new(big.Rat), new(big.Rat)
	for i, x := range xs {
		s := w.Dot(x)
		ys := new(big.Rat).Mul(s, exact.Int(int64(ys[i])))
		if ys.Sign() <= 0 {
			n++
			ep.Sub(ep, ys)
			eq.Add(eq, new(big.Rat).Mul(s, s))
		}
		if ys.Cmp(b) <= 0 {
			d := new(big.Rat).Sub(ys, b)
			d.Mul(d, d)
			er.Add(er, d.Quo(d, x.Dot(x)))
		}
	}
	return n, ep, eq, er.Quo(er, exact.Int(2))
}

// TestExactCriteria: the criteria summed per denominator (int64 when the numbers are small,
// big otherwise) are the naive sums exactly, and the floats are near them.
func TestExactCriteria(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	num := func(kind string) *big.Rat {
		switch kind {
		case "integers":
			return exact.Int(rng.Int64N(21) - 10)
		case "decimals":
			return big.NewRat(rng.Int64N(2001)-1000, 100)
		case "fractions":
			return big.NewRat(rng.Int64N(41)-20, rng.Int64N(9)+1)
		}
		return big.NewRat(rng.Int64N(1<<40)-(1<<39), rng.Int64N(1<<35)+1) // big
	}
	for _, kind := range []string{"integers", "decimals", "fractions", "big"} {
		for _, b := range []*big.Rat{new(big.Rat), big.NewRat(1, 2), exact.Int(3)} {
			for _, n := range []int{1, 7, 40, 100} {
				t.Run(fmt.Sprintf("%s/b=%s/n=%d", kind, exact.Format(b), n), func(t *testing.T) {
					var xs []exact.Vec
					var ys []int
					for range n {
						xs = append(xs, exact.Vec{num(kind), num(kind), exact.Int(1)})
						ys = append(ys, 2*rng.IntN(2)-1)
					}
					xs = append(xs, exact.Vec{exact.Int(0), exact.Int(0), exact.Int(1)}) // a score of w0
					ys = append(ys, 1)
					s := newSamples(xs, ys)
					for _, w := range []exact.Vec{exact.Zeros(3), {num(kind), num(kind), num(kind)}, {num("big"), num(kind), num(kind)}} {
						c := s.exactCriteria(w, b)
						zo, ep, eq, er := naiveCriteria(w, xs, ys, b)
						if c.zeroOne != zo || c.ep.Cmp(ep) != 0 || c.eq.Cmp(eq) != 0 {
							t.Fatalf("w %s: %d %s %s; naive %d %s %s", w, c.zeroOne, c.ep.RatString(), c.eq.RatString(), zo, ep.RatString(), eq.RatString())
						}
						if c.er == nil && len(s.norms) <= maxERGroups || c.er != nil && c.er.Cmp(er) != 0 {
							t.Fatalf("w %s: E_R %v; naive %s (%d groups)", w, c.er, er.RatString(), len(s.norms))
						}
						f := w.Floats()
						fc := s.floatCriteria([3]float64{f[0], f[1], f[2]}, w, exact.Float(b))
						near := func(a float64, r *big.Rat) bool {
							v := exact.Float(r)
							return math.Abs(a-v) <= 1e-9*max(1, math.Abs(v))
						}
						if fc.zeroOne != zo || !near(fc.ep, ep) || !near(fc.eq, eq) || !near(fc.er, er) {
							t.Fatalf("w %s: floats %+v; exact %d %s %s %s", w, fc, zo, exact.Format(ep), exact.Format(eq), exact.Format(er))
						}
					}
				})
			}
		}
	}
}
