package main

import (
	"fmt"
	"io"
	"strings"

	"periph.io/x/conn/v3/i2c"

	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/rig"
)

func cmdScan(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("scan", "[--bus 1] [--simulate --rig FILE]", stdout)
	bus := fs.String("bus", "1", "the I2C bus: 1 for /dev/i2c-1 (the header's pins 3 and 5)")
	rigFile := fs.String("rig", "", "with --simulate: the rig file whose chips to simulate")
	simulate := fs.Bool("simulate", false, "scan the simulated chips of --rig")
	if err := parse(args); err != nil {
		return err
	}
	var b i2c.Bus
	if *simulate {
		if *rigFile == "" {
			return usageErr("--simulate needs --rig FILE")
		}
		spec, err := readRig(*rigFile)
		if err != nil {
			return err
		}
		_, env := rigdev.Simulate(spec, nil, rigdev.SimOpts{})
		if b, err = env.Bus(*bus); err != nil {
			return fmt.Errorf("%s: %w (the rig's buses: %s)", *rigFile, err, busNames(spec))
		}
	} else {
		env, err := hostEnv(warnings(stderr))
		if err != nil {
			return err
		}
		if b, err = env.Bus(*bus); err != nil {
			return err
		}
	}
	found := scan(b, stdout)
	if len(found) == 0 {
		fmt.Fprintln(stdout, "nothing answers: check the wiring (SDA pin 3, SCL pin 5, 3.3 V and ground) and the chips' power")
	}
	return nil
}

func busNames(spec *rig.Rig) string {
	var s []string
	for _, b := range spec.Buses {
		s = append(s, b.Device)
	}
	return strings.Join(s, ", ")
}

// scan reads one byte at every 7-bit address from 0x03 to 0x77 and prints a table like
// i2cdetect's, then what each answering address may be. A one-byte read changes nothing in
// the rig's chips.
func scan(b i2c.Bus, w io.Writer) []uint16 {
	var found []uint16
	fmt.Fprintln(w, "     0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f")
	for row := 0; row < 0x80; row += 16 {
		fmt.Fprintf(w, "%02x:", row)
		for a := row; a < row+16; a++ {
			if a < 0x03 || a > 0x77 {
				fmt.Fprint(w, "   ")
				continue
			}
			var buf [1]byte
			if err := b.Tx(uint16(a), nil, buf[:]); err != nil {
				fmt.Fprint(w, " --")
				continue
			}
			fmt.Fprintf(w, " %02x", a)
			found = append(found, uint16(a))
		}
		fmt.Fprintln(w)
	}
	for _, a := range found {
		fmt.Fprintf(w, "0x%02x: %s\n", a, guess(a))
	}
	return found
}

// guess names the rig's chips that may sit at an address.
func guess(a uint16) string {
	switch {
	case a >= 0x20 && a <= 0x27:
		return "MCP23017 I/O expander (panel)"
	case a >= 0x2C && a <= 0x2F:
		return "MCP4451/MCP4461 digital pots"
	case a >= 0x48 && a <= 0x4B:
		return "ADS1115 ADC (read-back), or a PCA9685 servo board"
	case a == 0x70:
		return "PCA9685 ALLCALL (every board answers here at power-up), or an I2C multiplexer"
	case a >= 0x40 && a <= 0x7F:
		return "PCA9685 servo board"
	}
	return "not one of the rig's chips"
}
