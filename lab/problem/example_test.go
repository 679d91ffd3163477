package problem_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/problem"
)

// Six-bit parity: no hyperplane separates the odd from the even.
func Example() {
	s, err := problem.Parse("parity,d=6")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := s.Generate()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s, "->", d.Len(), "samples of", d.Dim(), "features, classes", d.Classes)
	// Output: parity,d=6 -> 64 samples of 6 features, classes [-1 +1]
}
