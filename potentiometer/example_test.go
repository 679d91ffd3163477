package potentiometer_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/potentiometer"
)

// An ideal rack of four A-unit pots: A-units 0 and 2 are active, the R-unit should have fired
// and did not, so the alpha rule drives their pots and the bias pot one increment up.
func Example() {
	rack, err := potentiometer.NewRack(4, potentiometer.IdealParams(), nil)
	if err != nil {
		panic(err)
	}
	active := []uint16{0, 2}
	fmt.Println("sum before:", rack.Sum(active, nil))
	rack.Drive(active, +1, 0, nil)
	rack.Drive([]uint16{2, 3}, -1, 0, nil)
	fmt.Println("sum after:", rack.Sum(active, nil))
	w := make([]float64, rack.Len())
	rack.Readings(w)
	fmt.Println("weights (bias last):", w)
	// Output:
	// sum before: 0
	// sum after: 1
	// weights (bias last): [1 0 0 -1 0]
}
