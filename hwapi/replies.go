package hwapi

import (
	"encoding/json"
	"fmt"
	"math"
)

// A bridge's replies are untrusted input: the Decode*Reply functions read one and check every
// field the client uses, so a broken or hostile bridge gives the client an error naming the
// field, never a value out of range or a panic. Fields a newer bridge adds are ignored.

// maxReply bounds a reply's size (an Info carries the wiring file's text).
const maxReply = 16 << 20

func replyErr(what string, format string, a ...any) error {
	return fmt.Errorf("bridge: %s reply: %s", what, fmt.Sprintf(format, a...))
}

func unmarshalReply(data []byte, what string, v any) error {
	if len(data) > maxReply {
		return replyErr(what, "larger than %d bytes", maxReply)
	}
	if string(data) == "null" || len(data) == 0 {
		return replyErr(what, "empty")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return replyErr(what, "%s", jsonError(err))
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// decodeInfo reads and checks a bridge's /v1/info reply.
func decodeInfo(data []byte) (Info, error) {
	var i Info
	if err := unmarshalReply(data, "info", &i); err != nil {
		return Info{}, err
	}
	return i, i.Check()
}

// Check reports the first field of i a client cannot use: a bridge's reply, or a description
// kept from one (the museum's bridge.json), is checked before it builds anything.
func (i Info) Check() error {
	bad := func(format string, a ...any) error { return replyErr("info", format, a...) }
	switch {
	case i.Version != Version:
		return fmt.Errorf("bridge: API version %d, this mark1 speaks %d", i.Version, Version)
	case i.Boot == "" || len(i.Boot) > 128:
		return bad("boot: %d characters, want 1..128", len(i.Boot))
	case i.Mode != "mirror" && i.Mode != "loop":
		return bad("mode: %q: want mirror or loop", i.Mode)
	case !finite(i.UpdateHz) || i.UpdateHz <= 0 || i.UpdateHz > 1000:
		return bad("update_hz: %g: want 0 < update_hz <= 1000", i.UpdateHz)
	case !finite(i.Watchdog) || i.Watchdog < 0 || i.Watchdog > 3600:
		return bad("watchdog_s: %g: want 0..3600", i.Watchdog)
	case !finite(i.Tolerance) || i.Tolerance < 0 || i.Tolerance > 1e6:
		return bad("tolerance: %g: want 0..1e6", i.Tolerance)
	case len(i.Pots) > MaxWeights:
		return bad("pots: %d, at most %d", len(i.Pots), MaxWeights)
	}
	seen := make(map[[2]int]bool, len(i.Pots))
	for k, p := range i.Pots {
		switch {
		case p.R < 0 || p.R > MaxRUnit:
			return bad("pots[%d].r: %d out of range 0..%d", k, p.R, MaxRUnit)
		case p.A < -1 || p.A > MaxAUnit:
			return bad("pots[%d].a: %d out of range -1..%d", k, p.A, MaxAUnit)
		case !finite(p.Range) || p.Range <= 0 || p.Range > 1e6:
			return bad("pots[%d].range: %g: want 0 < range <= 1e6", k, p.Range)
		case !finite(p.Step) || p.Step < 0 || p.Step > 2*p.Range:
			return bad("pots[%d].step: %g: want 0..2*range", k, p.Step)
		case seen[[2]int{p.R, p.A}]:
			return bad("pots[%d]: R%d.A%d shown twice", k, p.R, p.A)
		}
		seen[[2]int{p.R, p.A}] = true
	}
	if i.Mode != "loop" {
		return nil
	}
	m := i.Machine
	switch {
	case m == nil:
		return bad("machine: missing: a loop rig must describe its machine")
	case m.AUnits < 1 || m.AUnits > MaxAUnit+1:
		return bad("machine.a_units: %d out of range 1..%d", m.AUnits, MaxAUnit+1)
	case m.RUnits < 1 || m.RUnits > MaxRUnit+1:
		return bad("machine.r_units: %d out of range 1..%d", m.RUnits, MaxRUnit+1)
	case m.Rule == "":
		return bad("machine.rule: missing")
	case m.Wiring == "":
		return bad("machine.wiring: missing")
	}
	for r := range m.RUnits {
		for a := -1; a < m.AUnits; a++ {
			if !seen[[2]int{r, a}] {
				name := fmt.Sprintf("R%d.A%d", r, a)
				if a == -1 {
					name = fmt.Sprintf("R%d.bias", r)
				}
				return bad("pots: no pot for %s: a loop rig has one for every weight of its machine", name)
			}
		}
	}
	return nil
}

// decodeStatus reads and checks a /v1/status reply.
func decodeStatus(data []byte) (Status, error) {
	var s Status
	if err := unmarshalReply(data, "status", &s); err != nil {
		return Status{}, err
	}
	if len(s.Pots) > MaxWeights {
		return Status{}, replyErr("status", "pots: %d, at most %d", len(s.Pots), MaxWeights)
	}
	for k, p := range s.Pots {
		switch {
		case p.R < 0 || p.R > MaxRUnit || p.A < -1 || p.A > MaxAUnit:
			return Status{}, replyErr("status", "pots[%d]: R%d.A%d out of range", k, p.R, p.A)
		case !finite(p.Target) || !finite(p.Reading) || !finite(p.Position):
			return Status{}, replyErr("status", "pots[%d] (%s): target %g, reading %g, position %g: want finite numbers", k, p.Weight, p.Target, p.Reading, p.Position)
		}
	}
	return s, nil
}

// decodeFrameReply reads and checks the reply to frame f.
func decodeFrameReply(data []byte, f Frame) (FrameReply, error) {
	var r FrameReply
	if err := unmarshalReply(data, "frame", &r); err != nil {
		return FrameReply{}, err
	}
	switch {
	case r.Seq != f.Seq:
		return FrameReply{}, replyErr("frame", "seq: %d, the frame sent was %d", r.Seq, f.Seq)
	case r.Applied < 0 || r.Applied > len(f.Weights):
		return FrameReply{}, replyErr("frame", "applied: %d of %d weights sent", r.Applied, len(f.Weights))
	}
	return r, nil
}

// decodeAck reads the reply to a heartbeat, a halt, a resume or a release.
func decodeAck(data []byte, what string) (Ack, error) {
	var a Ack
	err := unmarshalReply(data, what, &a)
	return a, err
}

// decodeSumReply reads and checks the reply to a sum.
func decodeSumReply(data []byte) (SumReply, error) {
	var r SumReply
	if err := unmarshalReply(data, "sum", &r); err != nil {
		return SumReply{}, err
	}
	if !finite(r.Sum) {
		return SumReply{}, replyErr("sum", "sum: %g: want a finite number", r.Sum)
	}
	return r, nil
}

// decodeDriveReply reads the reply to a drive.
func decodeDriveReply(data []byte) (DriveReply, error) {
	var r DriveReply
	err := unmarshalReply(data, "drive", &r)
	return r, err
}

// decodeReadings reads and checks the readings of R-unit r, n pots.
func decodeReadings(data []byte, r, n int) (Readings, error) {
	var rep Readings
	if err := unmarshalReply(data, "readings", &rep); err != nil {
		return Readings{}, err
	}
	switch {
	case rep.R != r:
		return Readings{}, replyErr("readings", "r: %d, asked for %d", rep.R, r)
	case len(rep.W) != n:
		return Readings{}, replyErr("readings", "R%d: %d readings, want %d", r, len(rep.W), n)
	}
	for i, w := range rep.W {
		if !finite(w) {
			return Readings{}, replyErr("readings", "w[%d]: %g: want a finite number", i, w)
		}
	}
	return rep, nil
}
