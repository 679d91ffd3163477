package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/mark1-perceptron/mark1/hwapi"
)

// cmdFault asks a simulated bridge to inject a bus fault (hwbridge --simulate), for trying
// out how a rig takes a loose wire.
func cmdFault(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("fault", "--bridge HOST:PORT --kind nack|timeout|stuck|clear [--addr 0x2d] [--count N] [--prob P]", stdout)
	addr := fs.String("bridge", "127.0.0.1:8707", "the simulated bridge's HOST:PORT")
	tokenFile := fs.String("token-file", "", "a FILE holding the bridge's token")
	bus := fs.String("bus", "main", "the rig's bus, by its name in the rig file")
	chip := fs.String("addr", "all", "the chip's address (0x2d), or all")
	kind := fs.String("kind", "", "nack, timeout, stuck (every transaction times out) or clear (remove every fault)")
	count := fs.Int("count", 0, "fail this many transactions, then stop (0: until cleared)")
	prob := fs.Float64("prob", 0, "fail each transaction with this probability (a flaky bus)")
	if err := parse(args); err != nil {
		return err
	}
	a := -1
	if *chip != "all" {
		v, err := strconv.ParseUint(*chip, 0, 7)
		if err != nil {
			return usageErr("--addr %q: want a 7-bit address (0x2d) or all", *chip)
		}
		a = int(v)
	}
	c, ctx, cancel, err := bridgeClient(*addr, *tokenFile, stderr)
	if err != nil {
		return err
	}
	defer cancel()
	f := hwapi.Fault{Bus: *bus, Addr: a, Kind: *kind, Count: *count, Prob: *prob}
	if err := c.InjectFault(ctx, f); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "injected %s on bus %s at %s\n", *kind, *bus, *chip)
	return nil
}
