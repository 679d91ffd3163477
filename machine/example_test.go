package machine_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/machine"
)

// Train the full-size analog machine on E versus F until an epoch passes without a correction.
func Example() {
	set, err := images.Builtin("ef")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := machine.Default() // 400 S-units, 512 random A-units, 8 R-units, alpha rule
	cfg.Seed = 42
	m, err := machine.New(cfg, set.Classes)
	if err != nil {
		fmt.Println(err)
		return
	}
	deck, err := m.Prepare(set)
	if err != nil {
		fmt.Println(err)
		return
	}
	for epoch := 1; epoch <= 50; epoch++ {
		if m.Epoch(deck, true, nil).Corrections == 0 {
			break
		}
	}
	fmt.Printf("training accuracy %.0f%%\n", 100*m.Evaluate(deck).Accuracy)
	// Output: training accuracy 100%
}
