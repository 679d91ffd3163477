package riglink

import (
	"context"
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
)

// mirror is what a mirror rig's knobs were sent: the machine's weights they show, read about
// once per update period, and the frames that carry the ones that changed (Run's goroutine
// only). The weights are read with machine.Weights, under the machine's own lock, so the
// session's goroutine goes on undisturbed.
type mirror struct {
	m      *machine.Machine
	keys   []hwapi.Weight // per knob: the weight it shows
	val    []float64      // the machine's weight as last read
	sent   []float64      // as last sent (NaN: to be sent)
	least  []float64      // the least change worth a frame: half the knob's output step
	rows   [][]float64    // per R-unit with knobs, its weights (nil for the others)
	seq    uint64
	lastTx time.Time
}

// build fits the mirror to machine m and the rig's pots: every knob is to be sent.
func (mi *mirror) build(m *machine.Machine, info hwapi.Info) {
	*mi = mirror{m: m, rows: make([][]float64, m.RUnits()), seq: mi.seq}
	for _, p := range info.Pots {
		if p.R < 0 || p.R >= m.RUnits() || p.A < -1 || p.A >= m.AUnits() {
			continue
		}
		mi.keys = append(mi.keys, hwapi.Weight{R: p.R, A: p.A})
		mi.least = append(mi.least, max(p.Step/2, 1e-3))
		if mi.rows[p.R] == nil {
			mi.rows[p.R] = make([]float64, 0, m.AUnits()+1)
		}
	}
	mi.val = make([]float64, len(mi.keys))
	mi.sent = make([]float64, len(mi.keys))
	mi.invalidate()
}

// invalidate marks every knob to be sent again.
func (mi *mirror) invalidate() {
	for i := range mi.sent {
		mi.sent[i] = math.NaN()
	}
}

// read takes the machine's weights the knobs show.
func (mi *mirror) read() {
	for r, row := range mi.rows {
		if row != nil {
			mi.rows[r] = mi.m.Weights(row[:0], r)
		}
	}
	for i, k := range mi.keys {
		row := mi.rows[k.R]
		a := k.A
		if a < 0 {
			a = len(row) - 1
		}
		mi.val[i] = row[a]
	}
}

// due reports whether knob i's weight is to be sent.
func (mi *mirror) due(i int) bool {
	return math.IsNaN(mi.sent[i]) || math.Abs(mi.val[i]-mi.sent[i]) >= mi.least[i]
}

// pending counts the knobs whose weight waits to be sent.
func (mi *mirror) pending() int {
	n := 0
	for i := range mi.keys {
		if mi.due(i) {
			n++
		}
	}
	return n
}

// frame returns the knobs whose weight changed.
func (mi *mirror) frame() hwapi.Frame {
	var f hwapi.Frame
	for i, k := range mi.keys {
		if mi.due(i) {
			k.W = mi.val[i]
			f.Weights = append(f.Weights, k)
		}
	}
	return f
}

// sentOK records a frame the rig took.
func (mi *mirror) sentOK(f hwapi.Frame) {
	for _, w := range f.Weights {
		for i, k := range mi.keys {
			if k.R == w.R && k.A == w.A {
				mi.sent[i] = w.W
			}
		}
	}
}

// value returns the machine's weight knob (r, a) shows, as last read.
func (mi *mirror) value(r, a int) (float64, bool) {
	for i, k := range mi.keys {
		if k.R == r && k.A == a {
			return mi.val[i], true
		}
	}
	return 0, false
}

// mirrorStep sends the weights that changed, at most once per update period (less a margin
// for the network, as hwapi.Mirror does): a servo cannot take the machine's every change, so
// it gets the latest, and turns toward it at its own pace.
func (l *Link) mirrorStep(ctx context.Context) {
	m := l.cur.Load()
	if m == nil || !l.st.connected {
		return
	}
	mi := &l.st.mir
	if mi.m != m {
		mi.build(m, l.info)
	}
	mi.read()
	period := l.info.Period()
	if l.st.halted || time.Since(mi.lastTx) < period-min(period/5, 10*time.Millisecond) {
		return
	}
	f := mi.frame()
	if len(f.Weights) == 0 {
		return
	}
	mi.seq++
	f.Seq = mi.seq
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	rep, err := l.c.Frame(cctx, f)
	cancel()
	mi.lastTx = time.Now()
	if l.failed(err) {
		return
	}
	mi.sentOK(f)
	l.st.lastControl = mi.lastTx
	l.mu.Lock()
	l.sent++
	l.mu.Unlock()
	l.acked(rep.Ack)
}
