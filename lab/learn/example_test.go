package learn_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/learn"
)

// The least-squares classifier of the lecture notes' example, through the pseudo-inverse.
func ExampleLeastSquares() {
	x := [][]float64{{1, 5}, {2, 4}, {6, 5}, {7, 4}}
	l, err := learn.LeastSquares(x, []float64{1, 1, -1, -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("w = (%.1f, %.1f), w0 = %.1f\n", l.W[0], l.W[1], l.W[2])
	// Output: w = (-0.4, -0.4), w0 = 3.4
}

// The fixed-increment perceptron learns AND, samples in order, from zero weights; the
// corrections stay within Novikoff's bound R^2/gamma^2.
func ExampleTrain() {
	x := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	y := []int{-1, -1, -1, 1}
	p, converged, err := learn.Train(x, y, learn.Rule{Order: learn.InOrder}, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, gamma, _, err := learn.MaxMargin(x, y, 10000, 1e-9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", converged, "after", p.Epochs(), "epochs")
	fmt.Println("weights:", p.Weights().W)
	fmt.Printf("corrections: %d <= R^2/gamma^2 = %.0f\n", p.Corrections(), learn.NovikoffBound(learn.Radius(x), gamma))
	// Output:
	// converged: true after 9 epochs
	// weights: [3 2 -4]
	// corrections: 18 <= R^2/gamma^2 = 51
}

// The pocket algorithm on XOR keeps the best weights seen while the perceptron cycles.
func ExampleNewPerceptron_pocket() {
	x := [][]float64{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	y := []int{-1, 1, 1, -1}
	p, err := learn.NewPerceptron(x, y, learn.Rule{Pocket: true, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 50 {
		p.Epoch()
	}
	fmt.Println("pocket errors:", p.PocketErrors(), "of 4")
	// Output: pocket errors: 1 of 4
}

// Three classes by K discriminants with argmax (Kesler's construction).
func ExampleNewIterative() {
	d := &learn.Data{
		X:       [][]float64{{0, 0}, {0, 1}, {4, 0}, {4, 1}, {0, 4}, {1, 4}},
		Y:       []int{0, 0, 1, 1, 2, 2},
		Classes: []string{"a", "b", "c"},
	}
	it, err := learn.NewIterative(d, learn.Rule{Order: learn.InOrder}, learn.KDiscriminants)
	if err != nil {
		fmt.Println(err)
		return
	}
	epochs := 1
	for it.Epoch() > 0 {
		epochs++
	}
	fmt.Println("training errors:", learn.Errors(it.Best(), d), "after", epochs, "epochs,", it.Corrections(), "corrections")
	fmt.Println("(3, 0.5) is class", d.Classes[it.Best().Predict([]float64{3, 0.5})])
	// Output:
	// training errors: 0 after 5 epochs, 7 corrections
	// (3, 0.5) is class b
}
