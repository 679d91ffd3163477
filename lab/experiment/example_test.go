package experiment_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/experiment"
)

// Rosenblatt's P_a for an A-unit with 5 excitatory and 5 inhibitory connections and threshold
// 1, half the retina lit: the binomial law of the paper and the exact law on the Mark I's 400
// cells with 200 lit.
func ExampleActivityBinomial() {
	fmt.Printf("binomial %.4f, exact %.4f\n", experiment.ActivityBinomial(5, 5, 1, 0.5), experiment.ActivityExact(5, 5, 1, 400, 200))
	// Output: binomial 0.3770, exact 0.3771
}
