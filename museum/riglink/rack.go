package riglink

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/potentiometer"
)

// rack is one R-unit of a loop rig as the session's machine uses it: a machine.Rack that
// never waits for the bridge. Its Sum adds the read-backs Run's goroutine last fetched; its
// Drive moves the weights the machine drove the pots to (want) and queues the correction for
// that goroutine, which sends it, reads the pots back and lets the session's next card go
// (Link.Hold). When the rig does not follow (emulated), the rack is the emulated one: its
// weights are want, exactly, within the pots' range, until the goroutine has driven the
// rig's pots back to them.
type rack struct {
	l     *Link
	r, n  int
	rng   []float64    // each pot's range, the end of its travel (0: none)
	allow []float64    // how far a read-back may be from its target
	aside machine.Rack // the machine's own rack this one replaced: its state is what a save keeps
	// pots are aside's pots, kept in step with the machine's time (Advance) so that a saved
	// state holds the machine's clock and warm-up; their drift draws from a stream of the
	// rack's own, not the machine's (nil: aside is not a SimRack).
	pots  *potentiometer.Rack
	drift *rand.Rand

	mu       sync.Mutex
	emulated bool      // the weights are want: the rig does not follow, or has not been synced
	want     []float64 // the weights the machine drove the pots to
	rb       []float64 // the rig's read-backs (its weights while it follows)
	// The last read-backs within their allowance of the rig's targets, and those targets:
	// handing back, the emulated weights are good plus the corrections made since.
	good, goodSent []float64
	hasGood        bool
	sent           []float64 // the targets the rig was driven to (Run's goroutine)
	ver            uint64    // counts Drive's calls
	ops            []driveOp // corrections waiting for Run's goroutine
	busy           bool      // a correction is being sent, or the pots read back
}

// driveOp is one correction queued for the rig.
type driveOp struct {
	active               []uint16
	onActive, onInactive float64
}

var (
	_ machine.Rack     = (*rack)(nil)
	_ machine.Stater   = (*rack)(nil)
	_ machine.Advancer = (*rack)(nil)
)

// Advance lets machine time pass for the machine's own rack kept aside: a save holds the
// machine's clock (the rig's pots have their own time).
func (rk *rack) Advance(dt float64) {
	if rk.pots != nil {
		rk.pots.Advance(dt, rk.drift)
	}
}

// Len returns the number of pots: the A-units', then the bias.
func (rk *rack) Len() int { return rk.n }

// weights returns the weights the machine uses now (called with rk.mu held).
func (rk *rack) weights() []float64 {
	if rk.emulated {
		return rk.want
	}
	return rk.rb
}

// Sum returns the bias's weight plus the active A-units': the rig's read-backs, or the
// emulated weights.
func (rk *rack) Sum(active []uint16) (float64, error) {
	rk.mu.Lock()
	defer rk.mu.Unlock()
	w := rk.weights()
	s := w[rk.n-1]
	for _, a := range active {
		s += w[a]
	}
	return s, nil
}

// clampTo moves w by d, within the pot's range (as the bridge keeps its targets).
func clampTo(w, d, rng float64) float64 {
	w += d
	if rng > 0 {
		w = math.Max(-rng, math.Min(rng, w))
	}
	return w
}

// step applies a correction to ws, as the bridge does to its targets.
func (rk *rack) step(ws []float64, active []uint16, onActive, onInactive float64) {
	k := 0
	for i := range ws {
		d := onInactive
		if i == rk.n-1 || k < len(active) && int(active[k]) == i {
			d = onActive
			if i < rk.n-1 {
				k++
			}
		}
		ws[i] = clampTo(ws[i], d, rk.rng[i])
	}
}

// Drive moves the weights; on the rig, the correction is queued for Run's goroutine, and the
// session's next card waits until the pots have settled.
func (rk *rack) Drive(active []uint16, onActive, onInactive float64) error {
	rk.mu.Lock()
	rk.step(rk.want, active, onActive, onInactive)
	rk.ver++
	queued := !rk.emulated
	if queued {
		rk.ops = append(rk.ops, driveOp{slices.Clone(active), onActive, onInactive})
	}
	rk.mu.Unlock()
	if queued {
		rk.l.mu.Lock()
		rk.l.gateSeq++
		rk.l.closeGate()
		rk.l.mu.Unlock()
		rk.l.poke()
	}
	return nil
}

// Readings copies the weights the machine uses.
func (rk *rack) Readings(dst []float64) error {
	rk.mu.Lock()
	copy(dst, rk.weights())
	rk.mu.Unlock()
	return nil
}

// State returns the state of the machine's own rack with its wipers at this rack's weights:
// what a save keeps (the rig's pots are not saved; the weights are).
func (rk *rack) State() potentiometer.RackState {
	st, ok := rk.aside.(machine.Stater)
	if !ok {
		return potentiometer.RackState{}
	}
	s := st.State()
	rk.mu.Lock()
	w := slices.Clone(rk.weights())
	rk.mu.Unlock()
	stop := math.Inf(1)
	if pr, ok := rk.aside.(interface{ Params() potentiometer.Params }); ok && pr.Params().Range > 0 {
		stop = pr.Params().Range
	}
	for i, v := range w {
		if i >= len(s.Wiper) || i >= len(s.Motor) {
			break
		}
		g := 1.0
		if i < len(s.TrackGain) && s.TrackGain[i] > 0 {
			g = s.TrackGain[i]
		}
		p := math.Max(-stop, math.Min(stop, v/g))
		s.Wiper[i], s.Motor[i] = p, p
	}
	return s
}

// SetState restores the machine's own rack and takes its readings as the weights; the rig's
// pots are driven to them before the learning is theirs again.
func (rk *rack) SetState(s potentiometer.RackState) error {
	st, ok := rk.aside.(machine.Stater)
	if !ok {
		return fmt.Errorf("riglink: R%d: the machine's rack keeps no state", rk.r)
	}
	if err := st.SetState(s); err != nil {
		return err
	}
	w := make([]float64, rk.n)
	if err := rk.aside.Readings(w); err != nil {
		return err
	}
	rk.mu.Lock()
	copy(rk.want, w)
	rk.emulated, rk.ops = true, nil
	rk.ver++
	rk.mu.Unlock()
	rk.l.poke()
	return nil
}

// String names the rack.
func (rk *rack) String() string { return fmt.Sprintf("R%d on the rig at %s", rk.r, rk.l.opts.Addr) }

// handBack makes the rack the emulated one, when it is not: its weights are the last good
// read-backs plus the corrections made since, within the pots' range. Queued corrections are
// dropped (they are in want). It reports whether it changed.
func (rk *rack) handBack() bool {
	rk.mu.Lock()
	defer rk.mu.Unlock()
	if rk.emulated {
		return false
	}
	if rk.hasGood {
		for i := range rk.want {
			rk.want[i] = clampTo(rk.good[i], rk.want[i]-rk.goodSent[i], rk.rng[i])
		}
	}
	rk.emulated, rk.ops, rk.busy = true, nil, false
	return true
}
