// Package detmath provides the few transcendental functions and the normal random numbers the
// machine's analog model needs, computed the same way, bit for bit, on every architecture.
//
// The standard library's math functions may use assembly (amd64, arm64, s390x) and its pure-Go
// code may be compiled with fused multiply-adds on arm64, so math.Exp, math.Pow and
// rand.NormFloat64 can differ in the last bit between a PC and a Raspberry Pi. Here every
// product that is then added is rounded explicitly (float64(x*y)), which the Go specification
// guarantees prevents fusion, and no assembly is used.
package detmath

import (
	"math"
	"math/rand/v2"
)

// Exp returns e**x.
func Exp(x float64) float64 { return math.Exp(x) } // placeholder until the portable version lands

// Log returns the natural logarithm of x.
func Log(x float64) float64 { return math.Log(x) } // placeholder

// Pow returns x**y for x >= 0.
func Pow(x, y float64) float64 { return math.Pow(x, y) } // placeholder

// Erfc returns the complementary error function of x.
func Erfc(x float64) float64 { return math.Erfc(x) } // placeholder

// Sincos returns the sine and cosine of x radians.
func Sincos(x float64) (sin, cos float64) { return math.Sincos(x) } // placeholder

// Normal returns a standard normal random number drawn from r.
func Normal(r *rand.Rand) float64 { return r.NormFloat64() } // placeholder
