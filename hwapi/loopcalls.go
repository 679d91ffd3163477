package hwapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

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
	var rep DriveReply
	// A drive waits for the pots to settle: ctx bounds it (at most MaxReplyWait).
	err := c.do(ctx, MaxReplyWait, http.MethodPost, "/v1/loop/drive", req, func(b []byte) (err error) { rep, err = decodeDriveReply(b); return err })
	return rep, err
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
