package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

const wiringArgs = "generate [flags] | check FILE | print [--unit N] FILE"

func cmdWiring(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("want a subcommand: " + wiringArgs)
	}
	switch args[0] {
	case "generate":
		return wiringGenerate(args[1:], stdout)
	case "check":
		return wiringCheck(args[1:], stdout)
	case "print":
		return wiringPrint(args[1:], stdout)
	case "-h", "--help", "help":
		fmt.Fprintf(stdout, "usage: mark1 wiring %s\n", wiringArgs)
		return nil
	}
	return usageErr(fmt.Sprintf("unknown wiring subcommand %q (want generate, check or print)", args[0]))
}

func wiringGenerate(args []string, stdout io.Writer) error {
	fs := newFlags("wiring generate", "[flags]", stdout)
	d := patchboard.DefaultMarkI()
	preset := fs.String("preset", "random", "random (Mark I plug-board), identity, or local")
	seed := fs.Uint64("seed", machine.Default().Seed, "seed of the random wiring (same stream as mark1 train)")
	aUnits := fs.Int("a-units", d.AUnits, "number of A-units (random and local)")
	exc := fs.Int("exc", d.Exc, "excitatory plugs per A-unit (random)")
	inh := fs.Int("inh", d.Inh, "inhibitory plugs per A-unit (random)")
	theta := fs.Int("theta", d.Theta, "A-unit threshold (random)")
	fanout := fs.Int("fanout", d.FanOut, "most A-units one S-unit may feed (random)")
	radius := fs.Int("radius", machine.Default().LocalRadius, "excitatory radius in cells (local)")
	out := fs.String("o", "", "write to FILE instead of standard output")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	switch *preset {
	case machine.WiringRandom, machine.WiringIdentity, machine.WiringLocal:
	default:
		return usageErr(fmt.Sprintf("--preset %q: want random, identity or local", *preset))
	}
	cfg := machine.Default()
	cfg.Seed, cfg.Wiring = *seed, *preset
	cfg.MarkI = patchboard.MarkIParams{AUnits: *aUnits, Exc: *exc, Inh: *inh, Theta: *theta, FanOut: *fanout}
	cfg.LocalUnits, cfg.LocalRadius = *aUnits, *radius
	// BuildBoard draws from the seed's wiring stream, so the file equals the board that
	// "mark1 train --wiring PRESET --seed N" builds with the same parameters.
	b, err := machine.BuildBoard(cfg)
	if err != nil {
		return usageErr(err.Error()) // every parameter came from a flag
	}
	if *out == "" {
		_, err = b.WriteTo(stdout)
		return err
	}
	return atomicfile.Write(*out, 0o644, func(w io.Writer) error {
		_, err := b.WriteTo(w)
		return err
	})
}

func readWiringArg(fs *flagSet) (*patchboard.Board, string, error) {
	if fs.NArg() != 1 {
		return nil, "", usageErr("want exactly one wiring FILE")
	}
	b, err := readWiring(fs.Arg(0))
	return b, fs.Arg(0), err
}

func wiringCheck(args []string, stdout io.Writer) error {
	fs := newFlags("wiring check", "FILE", stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	b, name, err := readWiringArg(fs)
	if err != nil {
		return err
	}
	fan := make([]int, retina.N)
	plugs, exc, inh := 0, 0, 0
	for _, u := range b.Units {
		for _, s := range u.Exc {
			fan[s]++
		}
		for _, s := range u.Inh {
			fan[s]++
		}
		exc += len(u.Exc)
		inh += len(u.Inh)
	}
	plugs = exc + inh
	maxFan, unused := 0, 0
	for _, f := range fan {
		maxFan = max(maxFan, f)
		if f == 0 {
			unused++
		}
	}
	fmt.Fprintf(stdout, "%s: ok: %d A-units, %d plugs (%d excitatory, %d inhibitory), largest fan-out %d (limit %d), %d S-units unused\n",
		name, b.Len(), plugs, exc, inh, maxFan, b.FanOut, unused)
	return nil
}

func wiringPrint(args []string, stdout io.Writer) error {
	fs := newFlags("wiring print", "[--unit N] FILE", stdout)
	unit := fs.Int("unit", -1, "draw A-unit N's plugs on the retina (+ excitatory, - inhibitory)")
	if err := fs.parse(args); err != nil {
		return err
	}
	b, _, err := readWiringArg(fs)
	if err != nil {
		return err
	}
	if *unit < 0 {
		_, err = b.WriteTo(stdout)
		return err
	}
	if *unit >= b.Len() {
		return usageErr(fmt.Sprintf("--unit %d: the board has A-units 0..%d", *unit, b.Len()-1))
	}
	u := b.Units[*unit]
	grid := []byte(strings.Repeat(".", retina.N))
	for _, s := range u.Exc {
		grid[s] = '+'
	}
	for _, s := range u.Inh {
		grid[s] = '-'
	}
	fmt.Fprintf(stdout, "A-unit %d: theta %d, %d excitatory, %d inhibitory\n", *unit, u.Theta, len(u.Exc), len(u.Inh))
	for r := range retina.Rows {
		fmt.Fprintf(stdout, "  %s\n", grid[r*retina.Cols:(r+1)*retina.Cols])
	}
	return nil
}
