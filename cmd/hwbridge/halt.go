package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/internal/cli"
)

// cmdHalt stops a bridge's motion (an operator's stop): nothing moves until hwbridge resume.
func cmdHalt(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("halt", "[--bridge HOST:PORT] [--park] [--token-file FILE]", stdout)
	addr := fs.String("bridge", "127.0.0.1:8707", "the bridge's HOST:PORT")
	tokenFile := fs.String("token-file", "", "a FILE holding the bridge's token")
	park := fs.Bool("park", false, "park the servos (else they hold where they are); digital pots keep their values either way")
	if err := parse(args); err != nil {
		return err
	}
	c, ctx, cancel, err := bridgeClient(*addr, *tokenFile, stderr)
	if err == nil {
		defer cancel()
		err = c.Halt(ctx, *park)
	}
	if err != nil {
		// The operator's stop never hangs (every call has its deadline), and a stop that did
		// not happen says so, and what to do.
		var ue *cli.UsageError
		if errors.As(err, &ue) {
			return err
		}
		advice := "the rig is NOT halted: to stop it now, switch off the rig's power"
		var na *hwapi.NoAnswerError
		if errors.As(err, &na) {
			advice += "; then see to the bridge (journalctl -u hwbridge; sudo systemctl restart hwbridge)"
		}
		return fmt.Errorf("%w: %s", err, advice)
	}
	fmt.Fprintf(stdout, "halted the rig at %s: nothing moves until hwbridge resume --bridge %s\n", *addr, *addr)
	return nil
}

// cmdResume lets a halted bridge move again.
func cmdResume(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("resume", "[--bridge HOST:PORT] [--token-file FILE]", stdout)
	addr := fs.String("bridge", "127.0.0.1:8707", "the bridge's HOST:PORT")
	tokenFile := fs.String("token-file", "", "a FILE holding the bridge's token")
	if err := parse(args); err != nil {
		return err
	}
	c, ctx, cancel, err := bridgeClient(*addr, *tokenFile, stderr)
	if err != nil {
		return err
	}
	defer cancel()
	a, err := c.Resume(ctx)
	if err != nil {
		return err
	}
	if a.Resumed == "" {
		fmt.Fprintf(stdout, "the rig at %s was not halted\n", *addr)
		return nil
	}
	fmt.Fprintf(stdout, "resumed the rig at %s (it was %s)\n", *addr, a.Resumed)
	return nil
}

// bridgeClient is a client of the bridge at addr, with a token file, and a context of 30 s.
// A bridge that is starting is waited for, up to 10 s (saying so on stderr): a command pasted
// right after starting hwbridge in the background finds it. A bridge that takes the
// connection and does not answer is an error after the client's call timeout
// (hwapi.DefaultTimeout, 5 s): a *hwapi.NoAnswerError.
func bridgeClient(addr, tokenFile string, stderr io.Writer) (*hwapi.Client, context.Context, context.CancelFunc, error) {
	token := ""
	if tokenFile != "" {
		var err error
		if token, err = readToken(tokenFile); err != nil {
			return nil, nil, nil, err
		}
	}
	c, err := hwapi.NewClient(addr, token)
	if err != nil {
		return nil, nil, nil, usageErr("--bridge: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	if _, err := c.Wait(ctx, 10*time.Second, func() { fmt.Fprintf(stderr, "hwbridge: waiting for the bridge at %s ...\n", addr) }); err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return c, ctx, cancel, nil
}
