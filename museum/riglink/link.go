// Package riglink attaches a museum's machine to a hardware rig run by hwbridge: a mirror
// rig's knobs follow the weights the screen shows, and on a loop rig the machine learns on the
// rig's pots (their read-backs are the weights its R-units sum), as "mark1 bridge" does.
//
// One goroutine (Link.Run) talks to the bridge; nothing else does. The session and the screen
// meet the rig only through values under a lock: the session's Snapshot copies the rig's
// state (LoadRig), a loop rig's racks sum read-backs the goroutine fetched and queue their
// corrections for it, and the session waits between two cards, as it waits for its pace,
// while a loop rig's pots settle (Hold). So the drawing never waits for the hardware.
//
// The exhibit never stops for the hardware. A bridge missing at start, killed, restarted,
// halted or with a chip that does not answer: the screen says so, the machine goes on (a loop
// rig's learning goes back to emulated racks, initialised from the last good read-backs plus
// the corrections made since, so nothing is lost), and when the bridge answers again every
// knob is sent again (a mirror), or every pot driven back to the machine's weights before the
// learning returns to the rig (a loop). The learning returns to the rig as soon as it follows
// again, not only at a restart: an exhibit runs for weeks unattended, and a bridge that comes
// back after a fault should get its machine back without a visit from the staff.
package riglink

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// Options configure a Link.
type Options struct {
	// Addr is the bridge's HOST:PORT (or an http:// URL); Token its API token ("" for a
	// bridge on loopback without one).
	Addr, Token string
	// Logger, when not nil, is told of the rig's changes: warnings for what the staff must
	// know (the bridge gone, halted, a chip faulty, pots that do not follow), Info for the
	// rest; each with component=rig.
	Logger *slog.Logger
	// Grace is how long a loop rig's read-backs may be off their targets after a correction
	// before the learning goes back to the emulated racks (0: DefaultGrace).
	Grace time.Duration
	// Retry is how long the link waits before asking a bridge that did not answer again
	// (0: DefaultRetry).
	Retry time.Duration
	// Poll is how often the rig's status is read (0: DefaultPoll).
	Poll time.Duration
}

// The defaults of Options.
const (
	DefaultGrace = 5 * time.Second
	DefaultRetry = 2 * time.Second
	DefaultPoll  = 500 * time.Millisecond
	// callTimeout bounds a call to the bridge; driveTimeout a loop correction, which waits
	// for the pots to settle (a bridge that stops answering meanwhile is known sooner:
	// loopDrive).
	callTimeout  = 5 * time.Second
	driveTimeout = 15 * time.Second
	// infoEvery is how often a connected bridge's boot is checked (a restart: every knob
	// again).
	infoEvery = 2 * time.Second
)

// Link is a museum's link to a bridge. Attach, Hold and LoadRig are for the session
// (Options.Attach, Hold, Rig), Run for the goroutine that talks to the bridge.
type Link struct {
	opts Options
	c    *hwapi.Client
	log  *slog.Logger
	wake chan struct{}

	// Set before Run (Connect, SetInfo), then Run's.
	info    hwapi.Info
	hasInfo bool
	loop    bool // the session's machine is the loop rig's

	cur atomic.Pointer[machine.Machine] // the session's machine (Attach)

	mu    sync.Mutex
	rig   session.Rig   // what LoadRig gives
	racks []*rack       // a loop rig's racks, of the current machine
	gate  chan struct{} // while the session must wait between cards (closed when it may go); nil: go
	// gateSeq counts the corrections that closed the gate; holding says a resync holds it.
	gateSeq uint64
	holding bool
	sent    uint64 // frames or corrections sent

	// Run's goroutine only.
	st run
}

// run is the state of Run's goroutine.
type run struct {
	connected, everConnected bool
	other                    string // why the bridge's rig is not the one the museum runs ("": it is)
	lastErr                  string
	nextTry                  time.Time
	boot                     string
	gen                      uint64
	hasGen                   bool
	halted                   bool
	lastControl, lastInfo    time.Time
	lastStatus               time.Time
	status                   hwapi.Status
	hasStatus                bool
	state                    session.RigState
	since                    time.Time
	syncing                  bool
	mir                      mirror
	loopTry                  time.Time // a loop rack's next resync
	loopBackoff              time.Duration
}

// New returns a link to the bridge at opts.Addr; it does not connect (Connect, Run).
func New(opts Options) (*Link, error) {
	c, err := hwapi.NewClient(opts.Addr, opts.Token)
	if err != nil {
		return nil, err
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.Retry <= 0 {
		opts.Retry = DefaultRetry
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	l := &Link{opts: opts, c: c, log: lg.With("component", "rig"), wake: make(chan struct{}, 1)}
	l.rig = session.Rig{Attached: true, Seq: 1, State: session.RigConnecting, Addr: opts.Addr, Since: time.Now()}
	l.st.state, l.st.since = session.RigConnecting, l.rig.Since
	return l, nil
}

// Connect asks the bridge for its rig, waiting up to wait for one that is starting (nothing
// listens yet). It reports whether the bridge answered; the Link then knows the rig (Info,
// Loop). Call it before Run, or not at all (SetInfo).
func (l *Link) Connect(ctx context.Context, wait time.Duration) (hwapi.Info, bool) {
	info, err := l.c.Wait(ctx, wait, nil)
	if err != nil {
		l.st.lastErr = err.Error()
		return hwapi.Info{}, false
	}
	l.SetInfo(info)
	return info, true
}

// SetInfo tells the link the rig it will find (a rig seen before, when the bridge does not
// answer at the start). Call it before Run.
func (l *Link) SetInfo(info hwapi.Info) {
	l.info, l.hasInfo = info, true
	l.loop = info.Mode == "loop"
	l.mu.Lock()
	l.rig.Loop = l.loop
	l.mu.Unlock()
}

// Info returns the rig the link knows, and whether it knows one.
func (l *Link) Info() (hwapi.Info, bool) { return l.info, l.hasInfo }

// Loop reports whether the museum's machine is the loop rig's (SetInfo, Connect).
func (l *Link) Loop() bool { return l.loop }

// LoadRig implements session.RigSource.
func (l *Link) LoadRig(dst *session.Rig) {
	l.mu.Lock()
	*dst = l.rig
	l.mu.Unlock()
}

// Hold is the session's Options.Hold: while a loop rig's pots settle after a correction, or
// are driven back to the machine's weights, the next card waits.
func (l *Link) Hold() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gate
}

// closeGate makes the session wait before its next card (called with l.mu held).
func (l *Link) closeGate() {
	if l.gate == nil {
		l.gate = make(chan struct{})
	}
}

// openGate lets the session go on (called with l.mu held).
func (l *Link) openGate() {
	if l.gate != nil {
		close(l.gate)
		l.gate = nil
	}
}

func (l *Link) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Attach is the session's Options.Attach: m is the machine the session shows from now on. A
// mirror's knobs follow its weights; on a loop rig its racks become the rig's.
func (l *Link) Attach(m *machine.Machine) error {
	if l.loop {
		if err := l.attachLoop(m); err != nil {
			return err
		}
	}
	l.cur.Store(m)
	l.poke()
	return nil
}

// Run talks to the bridge until ctx ends, then releases the rig (its knobs stay where they
// are). Call it once, on a goroutine of its own.
func (l *Link) Run(ctx context.Context) {
	every := 50 * time.Millisecond
	if l.hasInfo {
		every = min(every, l.info.Period())
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for ctx.Err() == nil {
		l.step(ctx)
		select {
		case <-ctx.Done():
		case <-l.wake:
		case <-tick.C:
		}
	}
	l.mu.Lock()
	l.openGate()
	l.mu.Unlock()
	if l.st.connected && !l.loop && l.st.other == "" {
		// The last weights go before the rig is released: its knobs stay on what the machine
		// learnt (the museum ends its session before its link).
		l.st.mir.lastTx = time.Time{}
		fctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		l.mirrorStep(fctx)
		cancel()
	}
	if l.st.connected {
		rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := l.c.Release(rctx); err != nil {
			l.log.Info(fmt.Sprintf("releasing the rig: %v", err))
		}
	}
}

// step does what is due: connect, send, poll.
func (l *Link) step(ctx context.Context) {
	now := time.Now()
	if !l.st.connected {
		if now.Before(l.st.nextTry) {
			return
		}
		if !l.connect(ctx) {
			l.st.nextTry = time.Now().Add(l.opts.Retry)
			return
		}
	}
	if l.st.other != "" {
		l.st.connected = false // asked again after Retry: the right rig may come back
		l.st.nextTry = now.Add(l.opts.Retry)
		return
	}
	if now.Sub(l.st.lastInfo) >= infoEvery {
		if !l.checkBoot(ctx) {
			return
		}
	}
	if l.loop {
		l.loopStep(ctx)
	} else {
		l.mirrorStep(ctx)
	}
	if !l.st.connected {
		return
	}
	if beat := l.heartbeatEvery(); beat > 0 && time.Since(l.st.lastControl) >= beat {
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		a, err := l.c.Heartbeat(cctx)
		cancel()
		if l.failed(err) {
			return
		}
		l.st.lastControl = time.Now()
		l.acked(a)
	}
	if time.Since(l.st.lastStatus) >= l.opts.Poll {
		l.poll(ctx)
	}
}

// heartbeatEvery is how often an idle link tells the watchdog it is there: a third of the
// watchdog's time (0: the rig has none).
func (l *Link) heartbeatEvery() time.Duration {
	if l.info.Watchdog <= 0 {
		return 0
	}
	return time.Duration(l.info.Watchdog * float64(time.Second) / 3)
}

// connect asks for the rig; it reports whether the bridge answered with the museum's rig.
func (l *Link) connect(ctx context.Context) bool {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	info, err := l.c.Info(cctx)
	cancel()
	if err != nil {
		l.disconnected(err)
		return false
	}
	l.st.lastInfo = time.Now()
	if !l.hasInfo {
		l.SetInfo(info)
	}
	if why := l.differs(info); why != "" {
		if l.st.other != why {
			l.log.Warn(fmt.Sprintf("the bridge at %s %s: the exhibit goes on without it (restart the museum to use this rig)", l.opts.Addr, why))
		}
		l.st.other, l.st.connected = why, true
		l.setState(session.RigOther)
		return true
	}
	l.st.other = ""
	if !l.loop {
		l.info = info // a mirror follows the rig's knobs as they are now
		l.st.mir.m = nil
	}
	if l.st.boot != "" && info.Boot != l.st.boot {
		l.log.Warn(fmt.Sprintf("the bridge at %s restarted: every knob is sent again", l.opts.Addr))
	}
	l.st.boot = info.Boot
	l.st.connected, l.st.hasGen, l.st.halted = true, false, false
	if !l.st.everConnected {
		l.log.Info(fmt.Sprintf("the bridge at %s answers: a %s rig (%s), %d knobs", l.opts.Addr, info.Mode, info.Rig, len(info.Pots)))
	} else {
		l.log.Info(fmt.Sprintf("the bridge at %s answers again", l.opts.Addr))
	}
	l.st.everConnected = true
	l.resendAll()
	l.poll(ctx)
	return l.st.connected
}

// differs says why info is not the rig the museum's machine was built for, or "".
func (l *Link) differs(info hwapi.Info) string {
	if !l.loop {
		if info.Mode == "loop" {
			return "runs a loop rig, and the museum mirrors its machine on a mirror rig"
		}
		return ""
	}
	switch {
	case info.Mode != "loop":
		return "runs a mirror rig, and the museum's machine is a loop rig's"
	case info.Machine == nil || l.info.Machine == nil:
		return "has no [machine]"
	case *info.Machine != *l.info.Machine || len(info.Pots) != len(l.info.Pots):
		return "runs another loop machine than the museum's"
	}
	return ""
}

// checkBoot asks for the bridge's boot: a restart sends every knob again.
func (l *Link) checkBoot(ctx context.Context) bool {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	info, err := l.c.Info(cctx)
	cancel()
	if l.failed(err) {
		return false
	}
	l.st.lastInfo = time.Now()
	if info.Boot != l.st.boot {
		l.st.connected = false // connect again: the rig is checked, every knob sent
		return l.connect(ctx)
	}
	return true
}

// acked notes a control request's answer: a Generation that changed (motion stopped since:
// the knobs may have moved) sends a mirror's every knob again. A loop rig's digital pots keep
// their wipers when motion stops; its corrections were refused meanwhile (the learning went
// to the emulated racks, which come back by a resync).
func (l *Link) acked(a hwapi.Ack) {
	changed := l.st.hasGen && a.Generation != l.st.gen
	l.st.gen, l.st.hasGen = a.Generation, true
	if (changed || a.Resumed != "") && !l.loop {
		l.resendAll()
	}
}

// resendAll makes every knob be sent again: a mirror's at the next frame, a loop's pots
// driven back to the machine's weights.
func (l *Link) resendAll() {
	if l.loop {
		l.handBackAll(session.RigSyncing, "")
		l.st.loopTry, l.st.loopBackoff = time.Time{}, 0
		return
	}
	l.st.mir.invalidate()
	l.st.syncing = true
}

// failed handles a call's error (nil: it reports false): a bridge that does not answer is
// disconnected; a halted rig's refusal (409) is noted; either hands a loop rig's learning
// back to the emulated racks. It reports whether the call failed.
func (l *Link) failed(err error) bool {
	if err == nil {
		return false
	}
	var se *hwapi.StatusError
	if errors.As(err, &se) && se.Code == http.StatusConflict {
		if !l.st.halted {
			l.log.Warn(fmt.Sprintf("the rig refused: %s", se.Msg))
		}
		l.st.halted = true
		l.handBackAll(session.RigHalted, "")
		l.setState(session.RigHalted)
		return true
	}
	if errors.As(err, &se) {
		l.log.Warn(fmt.Sprintf("the bridge at %s refused: %v", l.opts.Addr, err))
		l.st.lastErr = err.Error()
		l.handBackAll(session.RigNotFollowing, "")
		l.st.nextTry = time.Now().Add(l.opts.Retry)
		l.st.connected = false
		return true
	}
	l.disconnected(err)
	return true
}

// disconnected notes a bridge that does not answer.
func (l *Link) disconnected(err error) {
	msg := err.Error()
	if l.st.connected || !l.st.everConnected && l.st.lastErr != msg || l.st.state != session.RigNotConnected {
		what := "does not answer"
		if refused(err) {
			what = "is not there (nothing listens)"
		}
		l.log.Warn(fmt.Sprintf("the bridge at %s %s: the exhibit goes on without the rig, and asks again every %v: %v", l.opts.Addr, what, l.opts.Retry, err))
	}
	l.st.lastErr = msg
	l.st.connected = false
	l.handBackAll(session.RigNotConnected, "")
	l.setState(session.RigNotConnected)
}

// refused reports whether err says nothing listens at the address.
func refused(err error) bool {
	var oe *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &oe) && oe.Op == "dial"
}

// setState publishes a new state (Since: now, when it changed).
func (l *Link) setState(s session.RigState) {
	if s != l.st.state {
		l.st.state, l.st.since = s, time.Now()
	}
	l.publish()
}
