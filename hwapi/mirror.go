package hwapi

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
)

// Sink receives a mirror's frames: a Client, or a bridge's rig in-process.
type Sink interface {
	Frame(ctx context.Context, f Frame) (FrameReply, error)
	Heartbeat(ctx context.Context) (Ack, error)
}

// MirrorStats describes what a mirror sent.
type MirrorStats struct {
	Frames  uint64 `json:"frames"`
	Weights uint64 `json:"weights"` // weights sent
	Errors  uint64 `json:"errors"`  // frames that failed
	// Latency from a weight's change in the machine to the bridge's answer that it was
	// written, in update periods: the most and the mean over frames (the oldest change of
	// each frame).
	MaxLatency  float64 `json:"max_latency_periods"`
	MeanLatency float64 `json:"mean_latency_periods"`
	LastError   string  `json:"last_error,omitempty"`
}

type slot struct {
	i    int // pot index in the rack (the bias: AUnits)
	slot int
}

// Mirror shows a machine's weights on a rig: as a machine.Observer it keeps the latest value of
// each weight the rig shows, and Run sends the changed ones, about once per update period (a
// servo cannot take 250,000 moves a second: it gets the latest position), so that a change
// reaches the bridge, which writes it at once, within one period: frames go at most every
// period less a margin for the network (a fifth of the period, at most 10 ms). Knobs show the
// pots' wiper positions, where the machine's racks have them (the simulated racks), else their
// readings.
type Mirror struct {
	m        *machine.Machine
	period   time.Duration // the rig's update period
	interval time.Duration // between frames: the period less the network's margin
	keys     []Weight      // per slot: r, a
	byRack   [][]slot

	mu      sync.Mutex
	val     []float64
	dirty   []bool
	ndirty  int
	since   time.Time // the oldest unsent change
	lastTx  time.Time
	stats   MirrorStats
	latSum  float64
	wake    chan struct{}
	scratch []float64
	now     func() time.Time
	gen     uint64 // the rig's Generation in the last reply
	hasGen  bool
	fatal   error // a refusal that ends the mirror (the rig halted)

	// FrameTimeout bounds how long Run waits for the bridge's answer to one frame; 0: 5 s.
	// Keep it below the rig's watchdog (SetWatchdog does).
	FrameTimeout time.Duration
}

// NewMirror returns a mirror of m's weights on the pots of a rig (from its Info) at its
// update period. Pots for weights m does not have are left out (Unshown lists them).
func NewMirror(m *machine.Machine, pots []PotInfo, period time.Duration) *Mirror {
	mi := &Mirror{m: m, period: period, interval: period - min(period/5, 10*time.Millisecond), byRack: make([][]slot, m.RUnits()), wake: make(chan struct{}, 1), now: time.Now,
		scratch: make([]float64, m.AUnits()+1)}
	for _, p := range pots {
		if p.R >= m.RUnits() || p.A >= m.AUnits() || p.A < -1 {
			continue
		}
		i := p.A
		if i == -1 {
			i = m.AUnits()
		}
		mi.byRack[p.R] = append(mi.byRack[p.R], slot{i, len(mi.keys)})
		mi.keys = append(mi.keys, Weight{R: p.R, A: p.A})
	}
	mi.val = make([]float64, len(mi.keys))
	mi.dirty = make([]bool, len(mi.keys))
	return mi
}

// Shown returns how many of the rig's pots show a weight of the machine.
func (mi *Mirror) Shown() int { return len(mi.keys) }

type poser interface{ Pos(int) float64 }

// read updates the slots of rack r (called with the lock held, on the driving goroutine).
func (mi *Mirror) read(r int, now time.Time) {
	slots := mi.byRack[r]
	if len(slots) == 0 {
		return
	}
	rack := mi.m.Rack(r)
	ps, isPoser := rack.(poser)
	if !isPoser {
		if err := rack.Readings(mi.scratch); err != nil {
			return
		}
	}
	for _, s := range slots {
		var v float64
		if isPoser {
			v = ps.Pos(s.i)
		} else {
			v = mi.scratch[s.i]
		}
		if v != mi.val[s.slot] {
			mi.val[s.slot] = v
			if !mi.dirty[s.slot] {
				mi.dirty[s.slot] = true
				if mi.ndirty == 0 {
					mi.since = now
				}
				mi.ndirty++
			}
		}
	}
}

func (mi *Mirror) poke() {
	select {
	case mi.wake <- struct{}{}:
	default:
	}
}

// Presented implements machine.Observer: the racks the presentation corrected are read.
func (mi *Mirror) Presented(e *machine.Event) {
	if len(e.Moves) == 0 {
		return
	}
	mi.mu.Lock()
	now := mi.now()
	for _, mv := range e.Moves {
		mi.read(mv.R, now)
	}
	n := mi.ndirty
	mi.mu.Unlock()
	if n > 0 {
		mi.poke()
	}
}

// Sync reads every shown weight (at the start, and after time passed with no presentation:
// drift). Call it on the goroutine that drives the machine.
func (mi *Mirror) Sync() {
	mi.mu.Lock()
	now := mi.now()
	for r := range mi.byRack {
		mi.read(r, now)
	}
	// The first Sync sends every weight, so the rig starts from the machine.
	if mi.lastTx.IsZero() {
		for s := range mi.dirty {
			if !mi.dirty[s] {
				mi.dirty[s] = true
				mi.ndirty++
			}
		}
		mi.since = now
	}
	mi.mu.Unlock()
	mi.poke()
}

// Resend marks every weight to be sent again (the bridge restarted: its Boot changed).
func (mi *Mirror) Resend() {
	mi.mu.Lock()
	for s := range mi.dirty {
		if !mi.dirty[s] {
			mi.dirty[s] = true
			mi.ndirty++
		}
	}
	if mi.since.IsZero() {
		mi.since = mi.now()
	}
	mi.mu.Unlock()
	mi.poke()
}

// Pump is the mirror's sending policy at time now: it returns the frame to send now (ok), or
// how long to wait before the next one may go. A change waits at most one interval (the
// period less the margin): a frame goes at once when the last went an interval ago or more,
// else when that interval ends.
//
// Run applies it on the wall clock. A caller that drives the mirror on a clock of its own, in
// step with a simulated rig, calls Pump instead of Run and sends each frame it returns
// (docs/rig.md's bytes for an epoch mirrored on 24 knobs are measured so, one presentation per
// simulated millisecond: drivers/rigdev's TestFigureMirrorFrames). The mirror then hears no
// answer: a frame that failed is not sent again, a rig's stop (its Generation) does not resend
// every weight, and Stats counts no errors or latency. Call Pump or Run, not both.
func (mi *Mirror) Pump(now time.Time) (f Frame, ok bool, wait time.Duration) {
	f, _, ok, wait = mi.pump(now)
	return f, ok, wait
}

// pump is Pump, also returning the time of the frame's oldest change.
func (mi *Mirror) pump(now time.Time) (f Frame, since time.Time, ok bool, wait time.Duration) {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	if mi.ndirty == 0 {
		return Frame{}, since, false, -1
	}
	if next := mi.lastTx.Add(mi.interval); now.Before(next) {
		return Frame{}, since, false, next.Sub(now)
	}
	since, mi.since = mi.since, time.Time{}
	f.Weights = make([]Weight, 0, mi.ndirty)
	for s, d := range mi.dirty {
		if d {
			w := mi.keys[s]
			w.W = mi.val[s]
			f.Weights = append(f.Weights, w)
			mi.dirty[s] = false
		}
	}
	mi.ndirty = 0
	mi.lastTx = now
	mi.stats.Frames++
	f.Seq = mi.stats.Frames
	mi.stats.Weights += uint64(len(f.Weights))
	return f, since, true, 0
}

// sent records a frame's answer: the latency of its oldest change, or its failure (whose
// weights are marked to be sent again).
func (mi *Mirror) sent(f Frame, since time.Time, err error) {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	if err != nil {
		mi.stats.Errors++
		mi.stats.LastError = err.Error()
		for _, w := range f.Weights {
			for s, k := range mi.keys {
				if k.R == w.R && k.A == w.A && !mi.dirty[s] {
					mi.dirty[s] = true
					mi.ndirty++
				}
			}
		}
		if mi.ndirty > 0 && mi.since.IsZero() {
			mi.since = since
		}
		return
	}
	lat := float64(mi.now().Sub(since)) / float64(mi.period)
	mi.stats.MaxLatency = max(mi.stats.MaxLatency, lat)
	mi.latSum += lat
	ok := mi.stats.Frames - mi.stats.Errors
	mi.stats.MeanLatency = mi.latSum / float64(ok)
}

// Stats returns what the mirror sent so far.
func (mi *Mirror) Stats() MirrorStats {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	return mi.stats
}

// defaultFrameTimeout bounds how long Run waits for the bridge's answer to one frame, when
// the rig has no watchdog.
const defaultFrameTimeout = 5 * time.Second

// SetWatchdog fits the mirror to a rig's watchdog (Info.Watchdog, seconds), with
// FrameTiming's timeout, and returns the heartbeat interval Run should use.
func (mi *Mirror) SetWatchdog(seconds float64) time.Duration {
	var beat time.Duration
	mi.FrameTimeout, beat = FrameTiming(seconds)
	return beat
}

// FrameTiming returns, for a rig whose watchdog is this many seconds (0: none), how long a
// frame waits for its answer (half the watchdog, at most 5 s: a frame lost in
// the network is sent again before the watchdog stops the rig) and how often an idle client
// sends a heartbeat (a third of the watchdog; 0 without one).
func FrameTiming(seconds float64) (timeout, heartbeat time.Duration) {
	if !(seconds > 0) {
		return defaultFrameTimeout, 0
	}
	wd := time.Duration(seconds * float64(time.Second))
	return min(defaultFrameTimeout, wd/2), wd / 3
}

// Err returns the refusal that stopped the mirror (the rig was halted, or runs its own
// machine), or nil.
func (mi *Mirror) Err() error {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	return mi.fatal
}

// Pending returns how many weight changes wait to be sent.
func (mi *Mirror) Pending() int {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	return mi.ndirty
}

// acked notes a reply's Ack: when the rig's Generation changed (motion stopped since the last
// reply: its knobs may have moved), every weight is sent again.
func (mi *Mirror) acked(a Ack) {
	mi.mu.Lock()
	changed := mi.hasGen && a.Generation != mi.gen
	mi.gen, mi.hasGen = a.Generation, true
	mi.mu.Unlock()
	if changed || a.Resumed != "" {
		mi.Resend()
	}
}

// Values returns the latest value of every weight the rig shows, as last sent or to be sent.
func (mi *Mirror) Values() []Weight {
	mi.mu.Lock()
	defer mi.mu.Unlock()
	ws := make([]Weight, len(mi.keys))
	for s, k := range mi.keys {
		ws[s] = Weight{R: k.R, A: k.A, W: mi.val[s]}
	}
	return ws
}

// Run sends frames to sink until ctx ends, then sends what is left; between frames it sends a
// heartbeat every heartbeat (the bridge's watchdog; 0: none). It returns the last frame's
// error, if any, at the end. Each frame and each heartbeat waits for its answer at most
// FrameTimeout (a Client's calls have their own deadlines too): a bridge that does not
// answer is an error in the Stats, not a mirror that waits for ever.
//
// A frame in flight is not cancelled when ctx ends: it is answered (or times out after
// FrameTimeout) before the last frame goes. A cancelled request may still reach the bridge,
// and reach it after the next one, and the knobs would then show its older values.
func (mi *Mirror) Run(ctx context.Context, sink Sink, heartbeat time.Duration) error {
	var beat <-chan time.Time
	if heartbeat > 0 {
		t := time.NewTicker(heartbeat)
		defer t.Stop()
		beat = t.C
	}
	var timer *time.Timer
	var lastErr error
	frameCtx := context.WithoutCancel(ctx)
	timeout := mi.FrameTimeout
	if timeout <= 0 {
		timeout = defaultFrameTimeout
	}
	send := func() bool {
		for {
			f, since, ok, wait := mi.pump(mi.now())
			if !ok {
				if wait > 0 {
					if timer == nil {
						timer = time.NewTimer(wait)
					} else {
						timer.Reset(wait)
					}
				}
				return wait > 0
			}
			fctx, cancel := context.WithTimeout(frameCtx, timeout)
			rep, err := sink.Frame(fctx, f)
			cancel()
			mi.sent(f, since, err)
			lastErr = err
			var se *StatusError
			if errors.As(err, &se) && se.Code == http.StatusConflict {
				mi.mu.Lock()
				if mi.fatal == nil {
					mi.fatal = err
				}
				mi.mu.Unlock()
			}
			if err != nil {
				return false
			}
			mi.acked(rep.Ack)
		}
	}
	for {
		var tc <-chan time.Time
		if timer != nil {
			tc = timer.C
		}
		select {
		case <-ctx.Done():
			mi.mu.Lock()
			mi.lastTx = time.Time{} // the last frame goes at once
			mi.mu.Unlock()
			send()
			if errors.Is(lastErr, context.Canceled) { // a heartbeat cut short
				return nil
			}
			return lastErr
		case <-mi.wake:
			send()
		case <-tc:
			send()
		case <-beat:
			mi.mu.Lock()
			idle := mi.now().Sub(mi.lastTx) >= heartbeat
			mi.mu.Unlock()
			if idle {
				hctx, cancel := context.WithTimeout(ctx, timeout)
				a, err := sink.Heartbeat(hctx)
				cancel()
				if err != nil {
					lastErr = err
				} else {
					mi.acked(a)
				}
			}
		}
	}
}

// KnobCheck is one knob's check by VerifyKnobs.
type KnobCheck struct {
	Weight  string  `json:"weight"`
	Machine float64 `json:"machine"` // the weight it must show (at the pot's range where beyond it)
	Reading float64 `json:"reading"` // what the rig says it shows (read back, or commanded)
	Allowed float64 `json:"allowed"` // how far the two may be apart
}

// VerifyKnobs waits (up to wait) for the rig's knobs showing the mirror's weights to stop
// moving, then checks that each shows its weight: within the rig's tolerance (twice, and at
// least 0.1 increments) and two output steps, at the pot's range where the weight is beyond it.
// It returns the checks, and an error naming the first knobs that do not. It sends heartbeats
// meanwhile: the client is still in control, and its rig's watchdog must not park the knobs.
func VerifyKnobs(ctx context.Context, c *Client, info Info, ws []Weight, wait time.Duration) ([]KnobCheck, error) {
	type potKey struct{ r, a int }
	want := make(map[potKey]float64, len(ws))
	for _, w := range ws {
		want[potKey{w.R, w.A}] = w.W
	}
	allow := make(map[potKey]float64, len(info.Pots))
	rng := make(map[potKey]float64, len(info.Pots))
	for _, p := range info.Pots {
		k := potKey{p.R, p.A}
		allow[k] = max(2*info.Tolerance, 0.1) + 2*p.Step
		rng[k] = p.Range
	}
	start := time.Now()
	for {
		if _, err := c.Heartbeat(ctx); err != nil {
			return nil, err
		}
		st, err := c.Status(ctx)
		if err != nil {
			return nil, err
		}
		moving := false
		var checks []KnobCheck
		var bad []string
		for _, p := range st.Pots {
			k := potKey{p.R, p.A}
			w, shown := want[k]
			if !shown {
				continue
			}
			moving = moving || p.Moving
			if r := rng[k]; r > 0 {
				w = math.Max(-r, math.Min(r, w))
			}
			checks = append(checks, KnobCheck{Weight: p.Weight, Machine: w, Reading: p.Reading, Allowed: allow[k]})
			if d := math.Abs(p.Reading - w); !(d <= allow[k]) {
				bad = append(bad, fmt.Sprintf("%s shows %+.2f, the machine's weight is %+.2f", p.Weight, p.Reading, w))
			}
		}
		if len(checks) < len(want) {
			bad = append(bad, fmt.Sprintf("the rig's status shows %d of the %d knobs", len(checks), len(want)))
		}
		if len(bad) == 0 {
			return checks, nil
		}
		// A knob still moving may yet arrive; one at rest for a second will not.
		if waited := time.Since(start); waited >= wait || !moving && waited >= min(wait, time.Second) {
			more := ""
			if len(bad) > 3 {
				more = fmt.Sprintf(" (and %d more)", len(bad)-3)
				bad = bad[:3]
			}
			held := ""
			if st.Halted != "" {
				held = "; the rig is halted: " + st.Halted
			} else if st.Held {
				held = "; the rig is held"
			}
			return checks, fmt.Errorf("the rig's knobs do not show the machine's weights: %s%s%s", strings.Join(bad, "; "), more, held)
		}
		select {
		case <-ctx.Done():
			return checks, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
