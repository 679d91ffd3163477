package rigdev

import (
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/rig"
)

const gpioRig = `[rig]
[[gpio_servo]]
name = "biasknob"
pin = "GPIO13"
[[pot]]
weight = "R0.bias"
out = "biasknob"
`

// A GPIO servo is refused at Open on a board where periph would send its pulses wrong, naming
// the board, the rig file's line and the PCA9685 to use instead; on a Pi 3, and in a
// simulation (no model), it opens and moves.
func TestGPIOServoBoards(t *testing.T) {
	spec, err := rig.Parse(strings.NewReader(gpioRig), "gpio.toml")
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]string{
		"": "",
		"Raspberry Pi 3 Model B Plus Rev 1.3\x00": "",
		"Raspberry Pi Zero 2 W Rev 1.0\x00":       "",
		"Raspberry Pi 4 Model B Rev 1.4\x00":      `gpio.toml:2: [[gpio_servo]] "biasknob": a servo on a GPIO pin of a Raspberry Pi 4 Model B Rev 1.4 would get wrong pulses`,
		"Raspberry Pi 5 Model B Rev 1.0\x00":      `gpio.toml:2: [[gpio_servo]] "biasknob": a servo on a GPIO pin of a Raspberry Pi 5 Model B Rev 1.0 cannot be driven`,
	} {
		t.Run(model, func(t *testing.T) {
			sim, env := Simulate(spec, i2csim.NewManualClock(), SimOpts{})
			env.Model = model
			h, err := Open(spec, env)
			if want != "" {
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "PCA9685") {
					t.Errorf("model %q: Open = %v, want an error with %q naming the PCA9685", model, err, want)
				}
				return
			}
			if err != nil {
				t.Errorf("model %q: %v", model, err)
				return
			}
			h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: rig.Bias}, 16}})
			if pin := sim.Pin("GPIO13"); pin.F == 0 || pin.D == 0 {
				t.Errorf("model %q: no pulses on GPIO13 (%v at %v)", model, pin.D, pin.F)
			}
		})
	}
}
