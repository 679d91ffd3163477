package detmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Benchmark arguments: a fixed table cycled through, so that branch prediction sees a mix.
var benchArgs = func() (a [1024]float64) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := range a {
		a[i] = r.Float64()
	}
	return a
}()

var sink float64

func benchUnary(b *testing.B, f func(float64) float64, scale, shift float64) {
	var args [1024]float64
	for i, a := range benchArgs {
		args[i] = a*scale + shift
	}
	var s float64
	for i := 0; b.Loop(); i++ {
		s += f(args[i&1023])
	}
	sink = s
}

func BenchmarkExp(b *testing.B)     { benchUnary(b, Exp, 40, -20) }
func BenchmarkMathExp(b *testing.B) { benchUnary(b, math.Exp, 40, -20) }
func BenchmarkLog(b *testing.B)     { benchUnary(b, Log, 1000, 1e-3) }
func BenchmarkMathLog(b *testing.B) { benchUnary(b, math.Log, 1000, 1e-3) }

func BenchmarkPow(b *testing.B) {
	benchUnary(b, func(x float64) float64 { return Pow(x, 2.2) }, 1000, 0)
}

func BenchmarkMathPow(b *testing.B) {
	benchUnary(b, func(x float64) float64 { return math.Pow(x, 2.2) }, 1000, 0)
}

func BenchmarkErfc(b *testing.B)     { benchUnary(b, Erfc, 8, -3) }
func BenchmarkMathErfc(b *testing.B) { benchUnary(b, math.Erfc, 8, -3) }

func BenchmarkSincos(b *testing.B) {
	benchUnary(b, func(x float64) float64 { s, c := Sincos(x); return s + c }, 20, -10)
}

func BenchmarkMathSincos(b *testing.B) {
	benchUnary(b, func(x float64) float64 { s, c := math.Sincos(x); return s + c }, 20, -10)
}

func BenchmarkSincosLarge(b *testing.B) {
	benchUnary(b, func(x float64) float64 { s, c := Sincos(x); return s + c }, 1e12, 1e7)
}

func BenchmarkMathSincosLarge(b *testing.B) {
	benchUnary(b, func(x float64) float64 { s, c := math.Sincos(x); return s + c }, 1e12, 1e7)
}

func BenchmarkNormal(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var s float64
	for b.Loop() {
		s += Normal(r)
	}
	sink = s
}

func BenchmarkNormFloat64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var s float64
	for b.Loop() {
		s += r.NormFloat64()
	}
	sink = s
}
