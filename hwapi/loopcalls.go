package hwapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// LoopDrive sends one correction to a loop rig (POST /v1/loop/drive) and returns the bridge's
// answer, given once the pots have settled: ctx bounds the wait (the Client's Timeout does
// not, as a settling can take longer). Unlike RemoteRack.Drive it keeps no targets,
// checks no read-back and ends nothing (Client.Err is not set): the caller decides what a
// refusal or a bridge gone means (the museum's rig link hands the learning back to its
// emulated racks, and comes back to the rig when it answers again).
func (c *Client) LoopDrive(ctx context.Context, req DriveRequest) (DriveReply, error) {
	if req.Active == nil {
		req.Active = []uint16{} // "active": [], not null
	}
	// A drive waits for the pots to settle: ctx bounds it (at most MaxReplyWait).
	return c.drive(ctx, MaxReplyWait, req)
}

// pingTimeout bounds the question a drive asks while it waits: does the bridge answer at all?
const pingTimeout = 2 * time.Second

// drive posts a loop drive (POST /v1/loop/drive), bounded by limit and ctx. A drive is
// answered once the pots have settled, which on a rig of servos may take seconds, so its own
// deadline cannot tell a slow rig from a bridge that will never answer (stopped by SIGSTOP, a
// hung Pi). While it waits, the bridge is asked for its Info every Timeout; one not answered
// in pingTimeout, or refused, ends the drive with a *NoAnswerError (or that error): a stopped
// bridge is known within Timeout + pingTimeout, not the drive's minute.
func (c *Client) drive(ctx context.Context, limit time.Duration, req DriveRequest) (DriveReply, error) {
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		rep DriveReply
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		var rep DriveReply
		err := c.do(dctx, limit, http.MethodPost, "/v1/loop/drive", req, func(b []byte) (err error) { rep, err = decodeDriveReply(b); return err })
		done <- result{rep, err}
	}()
	ping := time.NewTicker(c.timeout())
	defer ping.Stop()
	for {
		select {
		case r := <-done:
			return r.rep, r.err
		case <-ping.C:
			err := c.do(ctx, pingTimeout, http.MethodGet, "/v1/info", nil, func([]byte) error { return nil })
			if err == nil {
				continue
			}
			cancel()
			if r := <-done; r.err == nil {
				return r.rep, nil // answered meanwhile
			}
			if na := (*NoAnswerError)(nil); errors.As(err, &na) {
				return DriveReply{}, &NoAnswerError{Addr: c.addr(), Call: "POST /v1/loop/drive", After: time.Since(start).Round(100 * time.Millisecond), Err: na.Err}
			}
			return DriveReply{}, fmt.Errorf("during a drive: %w", err)
		}
	}
}

// LoopReadings returns the read-back weights of R-unit r of a loop rig whose racks have n
// pots (its A-units and the bias), checked (GET /v1/loop/readings). A pot never read back
// reads 0 and the reply's Error says so. Like LoopDrive, it ends nothing.
func (c *Client) LoopReadings(ctx context.Context, r, n int) (Readings, error) {
	var rep Readings
	err := c.do(ctx, 0, http.MethodGet, "/v1/loop/readings?r="+strconv.Itoa(r), nil, func(b []byte) (err error) {
		rep, err = decodeReadings(b, r, n)
		return err
	})
	return rep, err
}

// LoopConfig returns the machine of a loop rig (its [machine] in Info): its size, seed, rule
// and wiring (the wiring file's text, which the bridge sends), on machine.Default's parts.
func LoopConfig(m *Machine) (machine.Config, error) {
	cfg := machine.Default()
	if m == nil {
		return cfg, fmt.Errorf("bridge: the rig has no [machine]")
	}
	cfg.Seed, cfg.RUnits = m.Seed, m.RUnits
	rule, err := machine.ParseRule(m.Rule)
	if err != nil {
		return cfg, fmt.Errorf("bridge: the rig's machine: %w", err)
	}
	cfg.Rule = rule
	switch {
	case m.Board != "":
		b, err := patchboard.Read(strings.NewReader(m.Board), "the rig's wiring "+m.Wiring)
		if err != nil {
			return cfg, fmt.Errorf("bridge: %w", err)
		}
		cfg.Wiring, cfg.Board = machine.WiringFile, b
	case m.Wiring == machine.WiringRandom:
		cfg.MarkI.AUnits = m.AUnits
		cfg.MarkI.FanOut = patchboard.FanOutFor(m.AUnits)
	case m.Wiring == machine.WiringLocal:
		cfg.Wiring, cfg.LocalUnits = m.Wiring, m.AUnits
	default:
		cfg.Wiring = m.Wiring
	}
	return cfg, nil
}
