package rigdev_test

import (
	"fmt"
	"log"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/rig"
)

// A simulated mirror rig shows a weight: the knob turns, its read-back agrees.
func Example() {
	spec, err := rig.ReadFile("../../testdata/rig/sim-mirror.toml")
	if err != nil {
		log.Fatal(err)
	}
	clk := i2csim.NewManualClock()
	_, env := rigdev.Simulate(spec, clk, rigdev.SimOpts{Seed: 1})
	hw, err := rigdev.Open(spec, env)
	if err != nil {
		log.Fatal(err)
	}
	hw.SetWeights([]rigdev.WeightValue{{Weight: rig.Weight{R: 0, A: 17}, Value: 12}})
	if err := hw.Settle(10e9); err != nil {
		log.Fatal(err)
	}
	for _, p := range hw.Status().Pots {
		if p.Weight == "R0.A17" {
			fmt.Printf("%s on %s, read back on %s: target %g, reads %.1f\n", p.Weight, p.Out, p.Readback, p.Target, p.Reading)
		}
	}
	// Output: R0.A17 on knobs2:1, read back on readback:1: target 12, reads 12.0
}
