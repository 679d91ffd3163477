package machine_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

// Train the full-size analog machine on E versus F until an epoch passes without a correction.
func Example() {
	set, err := builtin.Load("ef")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg := machine.Default() // 400 S-units, 512 random A-units, 8 R-units, alpha rule
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
	epoch := 1
	for ; epoch < 50; epoch++ {
		if m.Epoch(deck, nil).Corrections == 0 {
			break
		}
	}
	// The analog machine's cells and contacts are noisy: a card that trained cleanly can still
	// flip when it is shown again.
	fmt.Printf("clean epoch %d, training accuracy %.0f%%\n", epoch, 100*m.Evaluate(deck).Accuracy)
	// Output: clean epoch 8, training accuracy 98%
}
