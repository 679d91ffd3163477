package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/mark1-perceptron/mark1/drivers/ads1115"
	"github.com/mark1-perceptron/mark1/drivers/gpioservo"
	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/mcp44x1"
	"github.com/mark1-perceptron/mark1/drivers/pca9685"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/rig"
)

// The pulses jog sends: a servo's pulse is within 500..2500 us; the bounds leave room.
const minJogUS, maxJogUS float64 = 100, 5000

// cmdJog moves one pot, for finding a servo's ends: it opens only that pot's chip (nothing
// else moves), sets the pulse or position, reads the pot back when it can, and exits; a servo
// board keeps sending the pulse.
func cmdJog(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("jog", "--rig FILE --pot WEIGHT (--us N | --position P) [--simulate]", stdout)
	var rf rigFlags
	rf.register(fs)
	pot := fs.String("pot", "", "the pot, by the weight it shows (R0.A3, R0.bias)")
	us := fs.Float64("us", 0, fmt.Sprintf("send pulses of this many microseconds, %g..%g (a servo; its calibration is ignored)", minJogUS, maxJogUS))
	pos := fs.Float64("position", 0, "move to this position, 0..1 (through the pot's calibration)")
	if err := parse(args); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	switch {
	case rf.rig == "" || *pot == "":
		return usageErr("--rig FILE and --pot WEIGHT are required")
	case given["us"] == given["position"]:
		return usageErr("give one of --us N (a pulse, microseconds) or --position P (0..1)")
	case given["us"] && !(*us >= minJogUS && *us <= maxJogUS):
		return usageErr("--us %g: want a pulse of %g..%g microseconds (servos take about 500..2500)", *us, minJogUS, maxJogUS)
	case given["position"] && !(*pos >= 0 && *pos <= 1):
		return usageErr("--position %g: want 0..1 (0 and 1: the ends of the pot's calibrated travel)", *pos)
	}
	if given["position"] {
		*us = 0
	} else {
		*pos = math.NaN()
	}
	spec, err := readRig(rf.rig)
	if err != nil {
		return err
	}
	var p *rig.Pot
	for i := range spec.Pots {
		if spec.Pots[i].Weight.String() == *pot {
			p = &spec.Pots[i]
		}
	}
	if p == nil {
		return usageErr("--pot %s: the rig has no pot showing that weight", *pot)
	}
	var env rigdev.Env
	if rf.simulate {
		_, env = rigdev.Simulate(spec, i2csim.WallClock{}, rigdev.SimOpts{Seed: rf.seed})
	} else if env, err = hostEnv(warnings(stderr)); err != nil {
		return withoutHardware(err)
	} else {
		// A bus or a pin this host does not have: say that --simulate is there.
		bus, pin := env.Bus, env.Pin
		env.Bus = func(dev string) (i2c.Bus, error) { b, err := bus(dev); return b, withoutHardware(err) }
		env.Pin = func(name string) (gpio.PinIO, error) { p, err := pin(name); return p, withoutHardware(err) }
	}
	busOf := func(name string) (string, error) {
		for _, b := range spec.Buses {
			if b.Name == name {
				return b.Device, nil
			}
		}
		return "", fmt.Errorf("no bus %q", name)
	}
	switch p.Kind {
	case "servo":
		var board rig.PCA9685
		for _, c := range spec.PCA9685 {
			if c.Name == p.Out.Chip {
				board = c
			}
		}
		dev, err := busOf(board.Bus)
		if err != nil {
			return err
		}
		bus, err := env.Bus(dev)
		if err != nil {
			return err
		}
		d, err := pca9685.New(bus, &pca9685.Opts{Addr: board.Address, Frequency: physic.Frequency(board.FrequencyHz * float64(physic.Hertz)),
			Oscillator: physic.Frequency(board.OscillatorHz * float64(physic.Hertz)),
			Channels:   []pca9685.Channel{{Index: p.Out.Channel, Calibration: pca9685.Calibration{MinPulse: p.MinPulse, MaxPulse: p.MaxPulse, Reverse: p.Reverse, Trim: p.Trim}}}})
		if err != nil {
			return err
		}
		pulse := time.Duration(*us * float64(time.Microsecond))
		if *us == 0 {
			pulse = pca9685.Calibration{MinPulse: p.MinPulse, MaxPulse: p.MaxPulse, Reverse: p.Reverse, Trim: p.Trim}.Pulse(*pos)
		}
		if err := d.SetPulse(p.Out.Channel, pulse); err != nil {
			return err
		}
		if _, err := d.Flush(); err != nil {
			return err
		}
		_, off := d.Counts(p.Out.Channel, pulse)
		on, _ := d.Counts(p.Out.Channel, pulse)
		fmt.Fprintf(stdout, "%s (%s): %v pulses (%d counts of 4096, period %v)\n", p.Weight, p.Out, pulse, (off-on+4096)%4096, d.Period())
	case "gpio_servo":
		var pinName string
		for _, g := range spec.GPIOServos {
			if g.Name == p.Out.Chip {
				pinName = g.Pin
			}
		}
		pin, err := env.Pin(pinName)
		if err != nil {
			return err
		}
		d, err := gpioservo.New(pin, &gpioservo.Opts{MinPulse: p.MinPulse, MaxPulse: p.MaxPulse, Reverse: p.Reverse, Trim: p.Trim})
		if err != nil {
			return err
		}
		pulse := time.Duration(*us * float64(time.Microsecond))
		if *us == 0 {
			pulse = d.Pulse(*pos)
		}
		if err := d.SetPulse(pulse); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s (%s on %s): %v pulses\n", p.Weight, p.Out, pinName, pulse)
	case "digipot":
		if *us != 0 {
			return usageErr("--us: %s is a digital pot: give --position", p.Weight)
		}
		var chip rig.MCP44x1
		for _, c := range spec.MCP44x1 {
			if c.Name == p.Out.Chip {
				chip = c
			}
		}
		dev, err := busOf(chip.Bus)
		if err != nil {
			return err
		}
		bus, err := env.Bus(dev)
		if err != nil {
			return err
		}
		v := mcp44x1.MCP4451
		if chip.Model == "MCP4461" {
			v = mcp44x1.MCP4461
		}
		d, err := mcp44x1.New(bus, &mcp44x1.Opts{Addr: chip.Address, Variant: v})
		if err != nil {
			return err
		}
		step := int(math.Round(*pos * mcp44x1.FullScale))
		if err := d.SetWiper(p.Out.Channel, step); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s (%s): wiper %d of %d\n", p.Weight, p.Out, step, mcp44x1.FullScale)
	}
	if rb := p.Readback; rb != nil {
		var adc rig.ADS1115
		for _, c := range spec.ADS1115 {
			if c.Name == rb.Chip {
				adc = c
			}
		}
		dev, err := busOf(adc.Bus)
		if err != nil {
			return err
		}
		bus, err := env.Bus(dev)
		if err != nil {
			return err
		}
		a, err := ads1115.New(bus, &ads1115.Opts{Addr: adc.Address, MaxVoltage: physic.ElectricPotential(adc.FullScaleV * float64(physic.Volt))})
		if err != nil {
			return err
		}
		if p.Kind != "digipot" {
			time.Sleep(700 * time.Millisecond) // let the servo travel
		}
		v, err := a.Read(rb.Channel)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "read back on %s: %v\n", rb, v)
	}
	return nil
}

// withoutHardware adds to an error opening the host's hardware (no I2C bus, no GPIO pin) that
// hwbridge jog --simulate moves a simulated pot instead.
func withoutHardware(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w; without the rig's hardware, hwbridge jog --simulate moves a simulated pot", err)
}

// cmdCalibrate opens the rig, which drives every read-back pot to both ends, and prints the
// readings there.
func cmdCalibrate(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("calibrate", "--rig FILE [--simulate]", stdout)
	var rf rigFlags
	rf.register(fs)
	var lf logFlags
	lf.register(fs)
	if err := parse(args); err != nil {
		return err
	}
	logger, err := lf.logger(stderr)
	if err != nil {
		return err
	}
	hw, _, err := rf.open(logger, stderr)
	if err != nil {
		return err
	}
	ends := hw.Ends()
	var names []string
	for _, p := range hw.Status().Pots {
		if p.Readback != "" {
			names = append(names, p.Weight)
		}
	}
	sort.Strings(names)
	bad := 0
	for _, st := range hw.Status().Pots {
		if st.Readback == "" {
			continue
		}
		e, ok := ends[st.Weight]
		if !ok {
			bad++
			fmt.Fprintf(stdout, "%-9s %-14s read back on %-12s NOT CALIBRATED: %s\n", st.Weight, st.Out, st.Readback, st.Problem)
			continue
		}
		fmt.Fprintf(stdout, "%-9s %-14s read back on %-12s %.3f V at position 0, %.3f V at 1 (span %.3f V)\n", st.Weight, st.Out, st.Readback, e[0], e[1], e[1]-e[0])
	}
	if len(names) == 0 {
		fmt.Fprintln(stdout, "no pot has a read-back: nothing to calibrate (find servos' ends with hwbridge jog)")
	}
	if err := hw.Shutdown(10 * time.Second); err != nil {
		return err
	}
	if bad > 0 {
		return fmt.Errorf("%d pots not calibrated", bad)
	}
	return nil
}
