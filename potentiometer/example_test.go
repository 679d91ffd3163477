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

// A ratchet moves by whole teeth. With one tooth per increment, the gamma rule's fractional
// steps are carried by the controller until a whole tooth is due.
func Example_ratchet() {
	p := potentiometer.NeutralParams()
	p.Drive = potentiometer.DriveRatchet
	rack, err := potentiometer.NewRack(0, p, nil) // the bias pot alone
	if err != nil {
		panic(err)
	}
	for range 3 {
		rack.Drive(nil, 0.4, 0, nil)
		fmt.Printf("wiper %v, carried %.1f teeth\n", rack.Pos(0), rack.State().RatchetRemainder[0])
	}
	// Output:
	// wiper 0, carried 0.4 teeth
	// wiper 1, carried -0.2 teeth
	// wiper 1, carried 0.2 teeth
}

// The neutral analog rack gives exactly the ideal rack's weights; a single flaw turned on from
// it (here backlash, copied from the defaults) changes them.
func ExampleNeutralParams() {
	backlash := potentiometer.NeutralParams()
	backlash.Backlash = potentiometer.DefaultParams().Backlash
	for _, p := range []potentiometer.Params{potentiometer.IdealParams(), potentiometer.NeutralParams(), backlash} {
		rack, err := potentiometer.NewRack(1, p, nil)
		if err != nil {
			panic(err)
		}
		rack.Drive([]uint16{0}, 2, 0, nil)
		rack.Drive([]uint16{0}, -0.5, 0, nil)
		fmt.Println(rack.Pos(0))
	}
	// Output:
	// 1.5
	// 1.5
	// 1.65
}

// ParamDocs lists the parameters with the flaw each belongs to, for configuration files and
// the machine's --flaws switches.
func ExampleParamDocs() {
	for _, d := range potentiometer.ParamDocs()[:3] {
		fmt.Printf("%s (%s, %s): %s\n", d.Key, d.Flaw, d.Source, d.Models)
	}
	// Output:
	// range (end_stops, assumed): end stops on each pot's shaft at -range and +range (inf: none)
	// resolution (resolution, assumed): wire-wound track step: readings round to its multiples (0: continuous)
	// backlash (backlash, assumed): gear play between motor side and wiper, taken up on reversal
}
