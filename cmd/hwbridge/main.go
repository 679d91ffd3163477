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
// client goes silent; docs/rig.md says what a client sees. serve, run and calibrate log to
// standard error (journald's) with log/slog: --log-format text (key=value) or json, and
// --log-level debug, info, warn or error.
//
// docs/rig.md has the wiring, the Pi's set-up, the systemd unit and the calibration.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mark1-perceptron/mark1/internal/cli"
)

func usageErr(format string, a ...any) error {
	return &cli.UsageError{Msg: fmt.Sprintf(format, a...)}
}

// commands are hwbridge's commands, in the order help lists them.
var commands = []cli.Command{
	{Name: "serve", Args: "--rig FILE [flags]", Help: "serve the rig to mark1 (the default command)", Run: cmdServe},
	{Name: "run", Args: "--rig FILE [flags]", Help: "run the rig's [machine] headless, driven by the panel", Run: cmdRun},
	{Name: "scan", Args: "[--bus 1]", Help: "list what answers on an I2C bus, like i2cdetect", Run: cmdScan},
	{Name: "check", Args: "--rig FILE", Help: "check a rig file and describe it", Run: cmdCheck},
	{Name: "jog", Args: "--rig FILE --pot WEIGHT (--us N | --position P)", Help: "move one pot (finding a servo's ends)", Run: cmdJog},
	{Name: "calibrate", Args: "--rig FILE", Help: "drive the read-back pots to their ends and print the readings", Run: cmdCalibrate},
	{Name: "fault", Args: "--bridge HOST:PORT --kind nack|timeout|stuck|clear", Help: "inject a bus fault into a simulated bridge", Run: cmdFault},
	{Name: "halt", Args: "[--bridge HOST:PORT] [--park]", Help: "stop a bridge's motion: nothing moves until resume", Run: cmdHalt},
	{Name: "resume", Args: "[--bridge HOST:PORT]", Help: "let a halted bridge move again", Run: cmdResume},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status: 0 success, 1 failure, 2 usage.
func run(args []string, stdout, stderr io.Writer) int { return program().Run(args, stdout, stderr) }

func program() *cli.Program {
	return &cli.Program{
		Name: "hwbridge", Title: "hwbridge: the mark1 hardware bridge (Raspberry Pi rig)",
		Synopsis: "[COMMAND] [flags]", Footer: "Run \"hwbridge COMMAND -h\" for a command's flags; docs/rig.md for the rig.",
		Default: "serve", Commands: commands,
	}
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
			cli.FlagUsage(stdout, fs, args, fs.PrintDefaults)
			return err
		}
		return usageErr("%v", err)
	}
	return fs, parse
}
