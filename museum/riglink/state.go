package riglink

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// poll reads the rig's status: its state, its knobs, its traffic.
func (l *Link) poll(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	st, err := l.c.Status(cctx)
	cancel()
	l.st.lastStatus = time.Now()
	if l.failed(err) {
		return
	}
	if l.st.hasGen && st.Generation != l.st.gen && !l.loop {
		l.resendAll() // motion stopped since the last word: the knobs may have moved
	}
	l.st.gen, l.st.hasGen = st.Generation, true
	switch {
	case st.Halted != "" && !l.st.halted:
		l.log.Warn("the rig is halted: " + st.Halted)
		l.st.halted = true
		l.handBackAll(session.RigHalted, "")
	case st.Halted == "" && l.st.halted:
		l.log.Info("the rig was resumed: every knob is sent again")
		l.st.halted = false
		l.resendAll()
	}
	for _, c := range st.Chips {
		if !c.OK && !l.chipFaulty(c.Name) {
			l.log.Warn(fmt.Sprintf("the rig's chip %s does not answer: %s", c.Name, c.Error))
		}
	}
	l.st.status, l.st.hasStatus = st, true
	if l.st.syncing && !l.loop && l.settled() {
		l.st.syncing = false
	}
	l.publish()
}

// chipFaulty reports whether the last status had chip name faulty.
func (l *Link) chipFaulty(name string) bool {
	for _, c := range l.st.status.Chips {
		if c.Name == name {
			return !c.OK
		}
	}
	return false
}

// settled reports whether, by the last status, every knob shows what was sent: none moving,
// every read-back within its allowance of its target.
func (l *Link) settled() bool {
	for _, p := range l.st.status.Pots {
		if p.Moving || p.Readback != "" && math.Abs(p.Reading-p.Target) > l.allowance(p.R, p.A) {
			return false
		}
	}
	return l.st.mir.pending() == 0
}

// allowance is how far knob (r, a)'s read-back may be from its target: twice the rig's
// tolerance (at least 0.1) and two of its output steps, as hwapi.VerifyKnobs allows.
func (l *Link) allowance(r, a int) float64 {
	for _, p := range l.info.Pots {
		if p.R == r && p.A == a {
			return max(2*l.info.Tolerance, 0.1) + 2*p.Step
		}
	}
	return max(2*l.info.Tolerance, 0.1)
}

// state is the rig's state in a word, from what the link knows.
func (l *Link) state() (session.RigState, string) {
	st := &l.st.status
	switch {
	case l.st.other != "":
		return session.RigOther, ""
	case !l.st.connected && !l.st.everConnected && l.st.lastErr == "":
		return session.RigConnecting, ""
	case !l.st.connected:
		return session.RigNotConnected, ""
	case !l.st.hasStatus:
		return session.RigSyncing, ""
	case st.Halted != "" || l.st.halted:
		return session.RigHalted, ""
	case st.Watchdog == "stopped" || st.Held:
		return session.RigHeld, ""
	}
	for _, c := range st.Chips {
		if !c.OK {
			return session.RigFault, c.Name
		}
	}
	if l.loop && l.emulated() {
		if l.st.syncing {
			return session.RigSyncing, ""
		}
		return session.RigNotFollowing, ""
	}
	if l.st.syncing {
		return session.RigSyncing, ""
	}
	for _, p := range st.Pots {
		if p.Moving {
			return session.RigTurning, ""
		}
	}
	return session.RigResting, ""
}

// publish makes what the link knows the rig that LoadRig gives.
func (l *Link) publish() {
	state, chip := l.state()
	if state != l.st.state {
		l.st.state, l.st.since = state, time.Now()
	}
	r := session.Rig{Attached: true, Loop: l.loop, State: state, Since: l.st.since, Chip: chip, Addr: l.opts.Addr,
		Generation: l.st.gen, Emulated: l.loop && l.emulated()}
	st := &l.st.status
	r.BusFrames, r.BusBytes = st.Frames.WriteFrames, st.Frames.TotalWriteBytes
	for _, c := range st.Chips {
		if !c.OK {
			r.Faults++
		}
	}
	m := l.cur.Load()
	for _, p := range st.Pots {
		target, ok := l.target(m, p)
		if !ok {
			continue
		}
		r.AllKnobs++
		moving := p.Moving && l.st.connected
		if moving {
			r.Moving++
		}
		if p.Readback != "" && l.st.connected {
			r.ReadbackError = max(r.ReadbackError, math.Abs(p.Reading-target))
		}
		if r.NKnobs < session.MaxRigKnobs {
			r.Knobs[r.NKnobs] = session.RigKnob{R: int16(p.R), A: int16(p.A), Target: float32(target), Reading: float32(p.Reading),
				Readback: p.Readback != "", Moving: moving}
			r.NKnobs++
		}
	}
	l.mu.Lock()
	r.Sent = l.sent
	r.Seq = l.rig.Seq
	if r != l.rig {
		r.Seq++
		l.rig = r
	}
	l.mu.Unlock()
}

// target returns the weight pot p should show: a mirror's, the machine's weight as last read;
// a loop's, the weight the machine drove it to. ok is false for a pot of no weight of the
// machine.
func (l *Link) target(m *machine.Machine, p hwapi.PotStatus) (float64, bool) {
	if m == nil || p.R >= m.RUnits() || p.A >= m.AUnits() || p.A < -1 || p.R < 0 {
		return 0, false
	}
	if l.loop {
		return l.loopTarget(p.R, p.A)
	}
	return l.st.mir.value(p.R, p.A)
}
