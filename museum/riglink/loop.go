package riglink

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// attachLoop makes m's racks the rig's: each rack keeps the machine's own aside (its state is
// what a save keeps) and starts emulated, with the machine's weights, until Run's goroutine
// has driven the rig's pots to them.
func (l *Link) attachLoop(m *machine.Machine) error {
	lm := l.info.Machine
	if lm == nil || m.RUnits() != lm.RUnits || m.AUnits() != lm.AUnits {
		return fmt.Errorf("riglink: a machine of %d A-units and %d R-units is not the loop rig's", m.AUnits(), m.RUnits())
	}
	racks := make([]*rack, m.RUnits())
	for r := range racks {
		if rk, ok := m.Rack(r).(*rack); ok && rk.l == l {
			racks[r] = rk
			continue
		}
		rk, err := l.newRack(r, m.Rack(r))
		if err != nil {
			return err
		}
		if err := m.SetRack(r, rk); err != nil {
			return fmt.Errorf("riglink: %w", err)
		}
		racks[r] = rk
	}
	l.mu.Lock()
	old := l.racks
	l.racks = racks
	l.mu.Unlock()
	if !slices.Equal(old, racks) {
		// The rig's pots hold the other machine's weights: this one's go back to them first.
		for _, rk := range slices.Concat(old, racks) {
			rk.handBack()
		}
		l.updateGate()
	}
	return nil
}

// newRack returns rack r of the rig, standing for aside, emulated at aside's weights.
func (l *Link) newRack(r int, aside machine.Rack) (*rack, error) {
	n := aside.Len()
	rk := &rack{l: l, r: r, n: n, aside: aside, emulated: true}
	if sr, ok := aside.(*machine.SimRack); ok {
		rk.pots, rk.drift = sr.Rack, rand.New(rand.NewPCG(uint64(r), 0x6d61726b31))
	}
	for _, p := range []*[]float64{&rk.rng, &rk.allow, &rk.want, &rk.rb, &rk.good, &rk.goodSent, &rk.sent} {
		*p = make([]float64, n)
	}
	if err := aside.Readings(rk.want); err != nil {
		return nil, fmt.Errorf("riglink: R%d: %w", r, err)
	}
	copy(rk.rb, rk.want)
	for i := range rk.allow {
		rk.allow[i] = max(2*l.info.Tolerance, 0.1)
	}
	for _, p := range l.info.Pots {
		if p.R != r || p.A >= n-1 || p.A < -1 {
			continue
		}
		i := p.A
		if i < 0 {
			i = n - 1
		}
		rk.rng[i] = p.Range
		rk.allow[i] = max(2*l.info.Tolerance, 0.1) + 2*p.Step
	}
	return rk, nil
}

// currentRacks returns the racks of the session's machine.
func (l *Link) currentRacks() []*rack {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.racks
}

// emulated reports whether a rack of the session's machine is emulated.
func (l *Link) emulated() bool {
	for _, rk := range l.currentRacks() {
		rk.mu.Lock()
		e := rk.emulated
		rk.mu.Unlock()
		if e {
			return true
		}
	}
	return false
}

// loopTarget returns the weight the machine drove pot (r, a) to.
func (l *Link) loopTarget(r, a int) (float64, bool) {
	racks := l.currentRacks()
	if r >= len(racks) {
		return 0, false
	}
	rk := racks[r]
	i := a
	if a < 0 {
		i = rk.n - 1
	}
	if i < 0 || i >= rk.n {
		return 0, false
	}
	rk.mu.Lock()
	defer rk.mu.Unlock()
	return rk.want[i], true
}

// updateGate lets the session's next card go when no correction is queued or under way and
// no resync holds it; else it waits.
func (l *Link) updateGate() {
	l.mu.Lock()
	seq, racks, need := l.gateSeq, l.racks, l.holding
	l.mu.Unlock()
	for _, rk := range racks {
		rk.mu.Lock()
		need = need || len(rk.ops) > 0 || rk.busy
		rk.mu.Unlock()
	}
	l.mu.Lock()
	if need {
		l.closeGate()
	} else if l.gateSeq == seq { // no correction came meanwhile
		l.openGate()
	}
	l.mu.Unlock()
}

// handBackAll gives the learning back to the emulated racks (why: the state the rig is in).
func (l *Link) handBackAll(why session.RigState, detail string) {
	n := 0
	for _, rk := range l.currentRacks() {
		if rk.handBack() {
			n++
		}
	}
	if n > 0 && why != session.RigSyncing {
		msg := "the machine goes on learning on its emulated racks, from the pots' last good read-backs"
		if detail != "" {
			msg = detail + ": " + msg
		}
		l.log.Warn(fmt.Sprintf("the rig %s: %s", why, msg))
	}
	l.updateGate()
}

// loopStep sends the corrections queued, and brings emulated racks back to the rig when it
// is sound.
func (l *Link) loopStep(ctx context.Context) {
	racks := l.currentRacks()
	for _, rk := range racks {
		for l.st.connected {
			rk.mu.Lock()
			if rk.emulated || len(rk.ops) == 0 {
				rk.mu.Unlock()
				break
			}
			op := rk.ops[0]
			rk.ops = rk.ops[1:]
			rk.busy = true
			rk.mu.Unlock()
			ok := l.applyOp(ctx, rk, op)
			rk.mu.Lock()
			rk.busy = false
			rk.mu.Unlock()
			if !ok {
				break
			}
		}
	}
	l.updateGate()
	if l.sound() && l.emulated() && !time.Now().Before(l.st.loopTry) {
		l.resync(ctx, racks)
	}
}

// sound reports whether the rig can take the learning back: it answers, is not halted, and
// every chip answers (by the last status).
func (l *Link) sound() bool {
	if !l.st.connected || l.st.other != "" || l.st.halted || !l.st.hasStatus || l.st.status.Halted != "" {
		return false
	}
	for _, c := range l.st.status.Chips {
		if !c.OK {
			return false
		}
	}
	return true
}

// loopDrive sends a drive and waits for its reply, up to driveTimeout (a rig of servos may
// take seconds to settle); a bridge that stops answering meanwhile ends it sooner
// (hwapi's LoopDrive asks the bridge for its Info while it waits).
func (l *Link) loopDrive(ctx context.Context, req hwapi.DriveRequest) (hwapi.DriveReply, error) {
	dctx, cancel := context.WithTimeout(ctx, driveTimeout)
	defer cancel()
	return l.c.LoopDrive(dctx, req)
}

// applyOp sends one correction and waits for the pots to follow it; it reports whether they
// did (else the learning went back to the emulated racks).
func (l *Link) applyOp(ctx context.Context, rk *rack, op driveOp) bool {
	rep, err := l.loopDrive(ctx, hwapi.DriveRequest{R: rk.r, Active: op.active, OnActive: op.onActive, OnInactive: op.onInactive})
	l.st.lastControl = time.Now()
	if l.failed(err) {
		return false
	}
	l.mu.Lock()
	l.sent++
	l.mu.Unlock()
	rk.step(rk.sent, op.active, op.onActive, op.onInactive)
	if rep.Error != "" {
		l.log.Info(fmt.Sprintf("the rig met a fault during a correction of R%d: %s", rk.r, rep.Error))
	}
	if bad := l.follow(ctx, rk, rk.sent); bad != "" {
		l.handBackAll(session.RigNotFollowing, bad)
		return false
	}
	return true
}

// follow reads the rack's pots back until each is within its allowance of targets, or Grace
// passes; it returns "" when they are, else what does not follow. Read-backs within their
// allowance are the rack's last good ones.
func (l *Link) follow(ctx context.Context, rk *rack, targets []float64) string {
	deadline := time.Now().Add(l.opts.Grace)
	for {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		rd, err := l.c.LoopReadings(cctx, rk.r, rk.n)
		cancel()
		if l.failed(err) {
			return "the bridge did not answer"
		}
		worst, miss := -1, 0.0
		for i, w := range rd.W {
			if d := math.Abs(w - targets[i]); d > rk.allow[i] && d > miss {
				worst, miss = i, d
			}
		}
		ok := worst < 0 && rd.Error == ""
		rk.mu.Lock()
		copy(rk.rb, rd.W)
		if ok {
			copy(rk.good, rd.W)
			copy(rk.goodSent, targets)
			rk.hasGood = true
		}
		rk.mu.Unlock()
		if ok {
			return ""
		}
		if time.Now().After(deadline) {
			if worst < 0 {
				return fmt.Sprintf("R%d was not read back for %v: %s", rk.r, l.opts.Grace, rd.Error)
			}
			name := fmt.Sprintf("R%d.A%d", rk.r, worst)
			if worst == rk.n-1 {
				name = fmt.Sprintf("R%d.bias", rk.r)
			}
			return fmt.Sprintf("%s reads %+.2f, driven to %+.2f (allowed %.2f), for %v", name, rd.W[worst], targets[worst], rk.allow[worst], l.opts.Grace)
		}
		select {
		case <-ctx.Done():
			return "the museum is closing"
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// resync drives the rig's pots to the emulated racks' weights, the session waiting between
// two cards meanwhile, and gives the racks back to the rig when its read-backs follow. When
// they do not, the racks stay emulated and it tries again later (2 s, doubling up to 30 s).
func (l *Link) resync(ctx context.Context, racks []*rack) {
	l.st.syncing = true
	l.mu.Lock()
	l.holding = true
	l.closeGate()
	l.mu.Unlock()
	l.publish()
	defer func() {
		l.mu.Lock()
		l.holding = false
		l.mu.Unlock()
		l.updateGate()
		l.st.syncing = false
		l.publish()
	}()
	for try := 0; try < 3 && l.st.connected; try++ {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		st, err := l.c.Status(cctx)
		cancel()
		if l.failed(err) {
			break
		}
		again := false
		for _, rk := range racks {
			rk.mu.Lock()
			w, v, e := slices.Clone(rk.want), rk.ver, rk.emulated
			rk.mu.Unlock()
			if !e {
				continue
			}
			if !l.driveTo(ctx, rk, w, st) {
				break
			}
			if bad := l.follow(ctx, rk, w); bad != "" {
				l.log.Warn(fmt.Sprintf("the rig does not follow yet (%s): the learning stays on the emulated racks", bad))
				l.retryLater()
				return
			}
			rk.mu.Lock()
			if rk.ver == v && rk.emulated {
				rk.emulated = false
				copy(rk.sent, w)
			} else {
				again = true // a correction came meanwhile (a lesson): once more
			}
			rk.mu.Unlock()
		}
		if !l.st.connected {
			break
		}
		if !again && !l.emulated() {
			l.st.loopBackoff = 0
			l.log.Info(fmt.Sprintf("the rig at %s follows: the machine learns on its pots again", l.opts.Addr))
			return
		}
	}
	l.retryLater()
}

// retryLater sets when an emulated rack tries the rig again.
func (l *Link) retryLater() {
	l.st.loopBackoff = min(max(2*l.st.loopBackoff, l.opts.Retry), 30*time.Second)
	l.st.loopTry = time.Now().Add(l.st.loopBackoff)
}

// driveTo drives rack rk's pots from their targets in st to w, pot by pot (a correction of one
// A-unit moves the bias with it: the bias is set last); it reports whether the bridge took
// every correction.
func (l *Link) driveTo(ctx context.Context, rk *rack, w []float64, st hwapi.Status) bool {
	t := make([]float64, rk.n)
	for _, p := range st.Pots {
		if p.R != rk.r || p.A >= rk.n-1 || p.A < -1 {
			continue
		}
		i := p.A
		if i < 0 {
			i = rk.n - 1
		}
		t[i] = p.Target
	}
	drive := func(active []uint16, d float64) bool {
		rep, err := l.loopDrive(ctx, hwapi.DriveRequest{R: rk.r, Active: active, OnActive: d})
		l.st.lastControl = time.Now()
		if l.failed(err) {
			return false
		}
		if rep.Error != "" {
			l.log.Info(fmt.Sprintf("the rig met a fault driving R%d back: %s", rk.r, rep.Error))
		}
		l.mu.Lock()
		l.sent++
		l.mu.Unlock()
		return true
	}
	b := rk.n - 1
	for i := range b {
		if d := w[i] - t[i]; math.Abs(d) > 1e-9 {
			if !drive([]uint16{uint16(i)}, d) {
				return false
			}
			t[i] = clampTo(t[i], d, rk.rng[i])
			t[b] = clampTo(t[b], d, rk.rng[b])
		}
	}
	if d := w[b] - t[b]; math.Abs(d) > 1e-9 {
		return drive([]uint16{}, d)
	}
	return true
}
