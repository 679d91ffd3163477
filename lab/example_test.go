package lab_test

import (
	"context"
	"fmt"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/machine"
)

// The ideal Mark I and the textbook perceptron on its A-unit features, the cards in the same
// order: the same corrections, epoch for epoch.
func ExampleCompare() {
	cards, err := builtin.Load("ef")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := lab.NewCardDataset(machine.Default(), cards, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	methods, err := lab.ParseMethods("mark1,perceptron,lsq")
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, err := lab.Compare(context.Background(), p, methods, lab.Options{Epochs: 20, InOrder: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range runs {
		fmt.Printf("%-10s training error %.2f, %d corrections in %d epochs\n", r.Method, r.TrainError, r.Corrections, r.Epochs)
	}
	// Output:
	// mark1      training error 0.00, 61 corrections in 5 epochs
	// perceptron training error 0.00, 61 corrections in 5 epochs
	// lsq        training error 0.00, 0 corrections in 0 epochs
}

// An R-unit's weights carried back onto the retina: with the identity wiring, each cell's
// weight is its own.
func ExampleReceptiveField() {
	cfg := machine.Default()
	cfg.Wiring = machine.WiringIdentity
	board, err := machine.BuildBoard(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := make([]float64, board.Len()+1) // the A-units' weights, then the bias
	w[0], w[399] = 2, -1
	field, err := lab.ReceptiveField(board, w)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("top-left cell:", field[0], "bottom-right cell:", field[399], "cells:", len(field))
	// Output: top-left cell: 2 bottom-right cell: -1 cells: 400
}
