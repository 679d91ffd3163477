// Command hwbridge is the mark1 hardware bridge, the daemon on the Raspberry Pi: it owns the
// chips a rig file names (servo boards, digital pots, ADCs, the panel) and serves the rig to
// mark1 over HTTP, so that mark1 can show a machine's weights on real knobs (a mirror rig) or
// run a small machine whose weights are the physical pots (a loop rig). It can also run a
// machine by itself, headless, driven by the panel's buttons.
//
// Usage:
//
//	hwbridge [serve] --rig FILE [--listen ADDR] [--token-file FILE] [--simulate] [--trace]
//	hwbridge run --rig FILE [--train] [--simulate] ...   a headless machine driven by the panel
//	hwbridge scan [--bus 1]                              what answers on an I2C bus
//	hwbridge check --rig FILE                            check a rig file
//	hwbridge jog --rig FILE --pot R0.A3 (--us N | --position P)   set one pot, for calibration
//	hwbridge calibrate --rig FILE [--simulate]           the read-back pots' end stops
//	hwbridge fault --bridge ADDR --kind nack ...          inject a fault into a simulated bridge
//	hwbridge halt [--bridge ADDR] [--park]               stop motion until resume (an operator's stop)
//	hwbridge resume [--bridge ADDR]                      let a halted bridge move again
//
// --simulate runs the rig on simulated chips (any machine); --trace prints the bus traffic.
// The API listens on loopback by default; a token (--token-file) is required to listen
// anywhere else, and is then required of every request. SIGINT or SIGTERM park the servos,
// then halt every chip (the servo boards' outputs off and asleep, so parked servos go limp; the
// panel's lamps out) and leave the digital pots as they are (an MCP4461's changed wipers are
// saved to its EEPROM). The watchdog arms at a client's first request and stops motion when that
// client goes silent; docs/rig.md says what a client sees.
//
// docs/rig.md has the wiring, the Pi's set-up, the systemd unit and the calibration.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// usageError is an error in the command line (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErr(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

type command struct {
	name, args, help string
	run              func(args []string, stdout, stderr io.Writer) error
}

var commands = []command{
	{"serve", "--rig FILE [flags]", "serve the rig to mark1 (the default command)", cmdServe},
	{"run", "--rig FILE [flags]", "run the rig's [machine] headless, driven by the panel", cmdRun},
	{"scan", "[--bus 1]", "list what answers on an I2C bus, like i2cdetect", cmdScan},
	{"check", "--rig FILE", "check a rig file and describe it", cmdCheck},
	{"jog", "--rig FILE --pot WEIGHT (--us N | --position P)", "move one pot (finding a servo's ends)", cmdJog},
	{"calibrate", "--rig FILE", "drive the read-back pots to their ends and print the readings", cmdCalibrate},
	{"fault", "--bridge HOST:PORT --kind nack|timeout|stuck|clear", "inject a bus fault into a simulated bridge", cmdFault},
	{"halt", "[--bridge HOST:PORT] [--park]", "stop a bridge's motion: nothing moves until resume", cmdHalt},
	{"resume", "[--bridge HOST:PORT]", "let a halted bridge move again", cmdResume},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		usage(stdout)
		return 0
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands {
		if c.name != name {
			continue
		}
		err := c.run(args, stdout, stderr)
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		}
		fmt.Fprintf(stderr, "hwbridge %s: %v\n", name, err)
		var ue *usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stderr, "hwbridge: unknown command %q (run \"hwbridge help\")\n", name)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "hwbridge: the mark1 hardware bridge (Raspberry Pi rig)")
	fmt.Fprintln(w, "\nusage: hwbridge [COMMAND] [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n  %-9s   %s\n", c.name, c.args, "", c.help)
	}
	fmt.Fprintln(w, "\nRun \"hwbridge COMMAND -h\" for a command's flags; docs/rig.md for the rig.")
}

// newFlags returns a command's flag set: errors come back as usage errors, -h prints the flags.
func newFlags(name, args string, stdout io.Writer) (*flag.FlagSet, func([]string) error) {
	fs := flag.NewFlagSet("hwbridge "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	parse := func(a []string) error {
		err := fs.Parse(a)
		switch {
		case err == nil:
			if fs.NArg() > 0 {
				return usageErr("unexpected argument %q", fs.Arg(0))
			}
			return nil
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprintf(stdout, "usage: hwbridge %s %s\n\nflags:\n", name, args)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return err
		}
		return usageErr("%v", err)
	}
	return fs, parse
}
