package detmath_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

func ExampleExp() {
	fmt.Println(detmath.Exp(1), detmath.Exp(-1))
	// Output: 2.718281828459045 0.36787944117144233
}

func ExampleLog() {
	fmt.Println(detmath.Log(10), detmath.Log(0))
	// Output: 2.302585092994046 -Inf
}

func ExamplePow() {
	// A photocell's response to a lamp of intensity 100 with gamma 2.2.
	fmt.Println(detmath.Pow(100, 2.2), detmath.Pow(2, 10), detmath.Pow(0, 2.2))
	// Output: 25118.864315095823 1024 0
}

func ExampleErfc() {
	// The share of a Gaussian spot (sigma 1.5) that falls on the pixel [0, 1) when the spot is
	// centred at 0.3: the difference of two Erfc values, never negative since Erfc is monotone.
	const sigma, centre = 1.5, 0.3
	z := func(x float64) float64 { return (x - centre) / (sigma * 1.4142135623730951) }
	share := 0.5 * (detmath.Erfc(z(0)) - detmath.Erfc(z(1)))
	fmt.Printf("%.6f\n", share)
	// Output: 0.258891
}

func ExampleSincos() {
	s, c := detmath.Sincos(1)
	fmt.Println(s, c)
	// Output: 0.8414709848078965 0.5403023058681398
}

func ExampleNormal() {
	// The same seed gives the same draws on every machine.
	r := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		fmt.Printf("%.6f\n", detmath.Normal(r))
	}
	// Output:
	// -0.486299
	// 0.863686
	// 1.247225
}
