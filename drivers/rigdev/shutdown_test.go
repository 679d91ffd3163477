package rigdev

import (
	"math"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/rig"
)

// Shutdown parks the servos, then halts every device: each board's configured channels fully
// off and the board asleep, so the servos go limp at their park positions and stay there; the
// panel's lamps out. On the next start the boards are set up again and the servos driven.
func TestShutdownHalts(t *testing.T) {
	h, sim, clk, _ := open(t, "sim-mirror.toml", SimOpts{Seed: 8})
	pn, err := h.OpenPanel()
	if err != nil {
		t.Fatal(err)
	}
	pn.SetLamp("r0", true)
	if err := pn.Flush(); err != nil {
		t.Fatal(err)
	}
	if sim.MCP23017["console"].Outputs(1)&1 == 0 {
		t.Fatal("lamp r0 did not light")
	}
	var ws []WeightValue
	for i, w := range h.Weights() {
		ws = append(ws, WeightValue{w, float64(i%5-2) * 12})
	}
	h.SetWeights(ws)
	settle(t, h, sim, clk)
	if err := h.Shutdown(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	for name, chip := range sim.PCA9685 {
		if chip.Register(0x00)&0x10 == 0 {
			t.Errorf("%s: MODE1 %#02x: not asleep", name, chip.Register(0x00))
		}
	}
	for _, p := range h.Rig().Pots {
		chip := sim.PCA9685[p.Out.Chip]
		if off := chip.Register(byte(0x06 + 4*p.Out.Channel + 3)); off&0x10 == 0 {
			t.Errorf("%s (%s): LEDn_OFF_H %#02x: not fully off", p.Weight, p.Out, off)
		}
		if chip.Pulse(p.Out.Channel) != 0 {
			t.Errorf("%s: still %v pulses", p.Weight, chip.Pulse(p.Out.Channel))
		}
	}
	parked := map[string]float64{}
	for w, sv := range sim.Servos {
		parked[w] = sv.Fraction()
		// Park 0.5 is 1500 us: 0.5 of the simulated servo's 500-2500 us.
		if math.Abs(parked[w]-0.5) > 0.01 {
			t.Errorf("%s: at %.3f of its travel after Shutdown, want parked at 0.5", w, parked[w])
		}
	}
	clk.Advance(time.Minute)
	for w, sv := range sim.Servos {
		if sv.Fraction() != parked[w] || sv.Moving() {
			t.Errorf("%s moved after Shutdown: %.3f, then %.3f", w, parked[w], sv.Fraction())
		}
	}
	if sim.MCP23017["console"].Outputs(1) != 0 {
		t.Errorf("panel lamps %#02x after Shutdown, want all out", sim.MCP23017["console"].Outputs(1))
	}
	// The next start (the boards stayed powered, asleep): set up again, the servos driven.
	env := Env{Bus: func(d string) (i2c.Bus, error) { return sim.devices[d], nil }, Pin: func(n string) (gpio.PinIO, error) { return sim.Pin(n), nil },
		Clock: clk}
	h, err = Open(h.Rig(), env)
	if err != nil {
		t.Fatal(err)
	}
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 3}, 16}})
	settle(t, h, sim, clk)
	if f := sim.Servos["R0.A3"].Fraction(); math.Abs(f-(0.25+0.5*0.75)) > 0.01 || sim.PCA9685["knobs1"].Register(0x00)&0x10 != 0 {
		t.Errorf("after a restart R0.A3 at %.3f of its travel, want 0.625; MODE1 %#02x", f, sim.PCA9685["knobs1"].Register(0x00))
	}
}

// In the loop the digital pots keep their wipers (the machine's weights) through Shutdown.
func TestShutdownKeepsWipers(t *testing.T) {
	h, sim, clk, _ := open(t, "sim-loop.toml", SimOpts{Seed: 9})
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	active := make([]uint16, racks[0].Len())
	for i := range active {
		active[i] = uint16(i)
	}
	if err := racks[0].Drive(active[:5], 3, 3); err != nil {
		t.Fatal(err)
	}
	before := map[string][4]int{}
	for name, chip := range sim.MCP44x1 {
		before[name] = [4]int{chip.Wiper(0), chip.Wiper(1), chip.Wiper(2), chip.Wiper(3)}
	}
	if err := h.Shutdown(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	moved := 0
	for name, chip := range sim.MCP44x1 {
		for w := range 4 {
			if chip.Wiper(w) != before[name][w] {
				t.Errorf("%s wiper %d: %d after Shutdown, %d before", name, w, chip.Wiper(w), before[name][w])
			}
			if chip.Wiper(w) != 128 {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Error("no wiper away from mid-scale: the test shows nothing")
	}
}

// A GPIO servo's pin goes low at Shutdown (periph's PWM clock stops), after parking.
func TestShutdownGPIOServo(t *testing.T) {
	spec, err := rig.Parse(strings.NewReader(gpioRig), "gpio.toml")
	if err != nil {
		t.Fatal(err)
	}
	sim, env := Simulate(spec, i2csim.NewManualClock(), SimOpts{})
	h, err := Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: rig.Bias}, 16}})
	pin := sim.Pin("GPIO13")
	if pin.L != gpio.High || pin.F == 0 {
		t.Fatalf("before Shutdown: %v, %v at %v", pin.L, pin.D, pin.F)
	}
	if err := h.Shutdown(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if pin.L != gpio.Low {
		t.Errorf("after Shutdown the pin is %v, want low", pin.L)
	}
}

// mixedRig is a mirror rig with both kinds of pot: servo knobs and digital pots.
const mixedRig = `[rig]
mode = "mirror"
[[bus]]
name = "main"
device = "1"
[[pca9685]]
name = "knobs"
bus = "main"
address = 0x40
[[mcp44x1]]
name = "pots"
bus = "main"
address = 0x2C
[[pot]]
weight = "R0.A0"
out = "knobs:0"
count = 2
[[pot]]
weight = "R0.A2"
out = "pots:0"
count = 2
`

// The rig's messages speak of the parts it has: a rig of digital pots is not told of servos
// (issue 26: hwbridge said "parking the servos" on a loop rig of digital pots).
func TestShutdownPlanNamesTheRigsParts(t *testing.T) {
	mixed, err := rig.Parse(strings.NewReader(mixedRig), "mixed.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		spec                *rig.Rig
		panel               bool
		servos, digitalPots bool
		want                string
	}{
		{"loop", load(t, "sim-loop.toml"), false, false, true, "keeping the digital pots, then halting every device"},
		{"mirror", load(t, "sim-mirror.toml"), false, true, false, "parking the servos, then halting every device (servo signals off, boards asleep)"},
		{"mirror with its panel", load(t, "sim-mirror.toml"), true, true, false, "parking the servos, then halting every device (servo signals off, boards asleep, lamps out)"},
		{"mixed", mixed, false, true, true, "parking the servos, keeping the digital pots, then halting every device (servo signals off, boards asleep)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, env := Simulate(tc.spec, i2csim.NewManualClock(), SimOpts{Seed: 1})
			h, err := Open(tc.spec, env)
			if err != nil {
				t.Fatal(err)
			}
			if tc.panel {
				if _, err := h.OpenPanel(); err != nil {
					t.Fatal(err)
				}
			}
			if s, d := h.Parts(); s != tc.servos || d != tc.digitalPots {
				t.Errorf("Parts() = servos %v, digital pots %v; want %v, %v", s, d, tc.servos, tc.digitalPots)
			}
			if got := h.ShutdownPlan(); got != tc.want {
				t.Errorf("ShutdownPlan() = %q, want %q", got, tc.want)
			}
		})
	}
}
