package machine

import "github.com/mark1-perceptron/mark1/retina"

// Snapshot is a consistent picture of the machine between two presentations: what a window or
// a hardware bridge shows. Take one with Machine.Snapshot from any goroutine, even while
// another trains the machine.
type Snapshot struct {
	Clock     float64 // machine time, s
	Count     uint64  // presentations so far
	Card      int     // deck index of the last card, -1 if none or not from a deck
	Class     int     // the last card's wanted class, -1 if unknown
	Predicted int     // the machine's last answer, -1 before the first presentation
	Learning  bool    // whether the last presentation trained

	S      retina.Bits       // S-unit states of the last presentation
	Levels [retina.N]float32 // each cell's analog level now (see retina.Retina.Levels)
	A      []uint64          // A-unit states of the last presentation, bit-packed
	Active int               // A-units that fired in the last presentation
	Sums   []float64         // each R-unit's input in the last presentation
	Moves  []Move            // corrections the last presentation made
	Pots   [][]float64       // each R-unit's pot readings (A-units, then bias) when asked for
}

// Snapshot copies the machine's current state into dst, reusing dst's slices when they are
// large enough. With pots, every R-unit's pot readings are copied too (on hardware that can
// mean reading every pot back, so a window may ask for them less often). It waits for the
// presentation under way, if any, and never allocates once dst has grown to the machine's
// size.
func (m *Machine) Snapshot(dst *Snapshot, pots bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	dst.Clock, dst.Count = m.clock, m.count
	dst.Card, dst.Class, dst.Predicted, dst.Learning = -1, -1, -1, false
	if m.count > 0 {
		dst.Card, dst.Class, dst.Predicted, dst.Learning = m.ev.Card, m.ev.Class, m.ev.Predicted, m.ev.Learning
	}
	dst.S = m.s
	m.syncRetina()
	m.retina.Levels(dst.Levels[:])
	dst.A = append(dst.A[:0], m.a...)
	dst.Active = len(m.active)
	dst.Sums = append(dst.Sums[:0], m.sums...)
	dst.Moves = append(dst.Moves[:0], m.ev.Moves...)
	if !pots {
		dst.Pots = dst.Pots[:0]
		return
	}
	n := m.board.Len() + 1
	if cap(dst.Pots) < len(m.racks) {
		dst.Pots = make([][]float64, len(m.racks))
	}
	dst.Pots = dst.Pots[:len(m.racks)]
	for r, rack := range m.racks {
		if cap(dst.Pots[r]) < n {
			dst.Pots[r] = make([]float64, n)
		}
		dst.Pots[r] = dst.Pots[r][:n]
		if err := rack.Readings(dst.Pots[r]); err != nil {
			m.fail(r, err)
		}
	}
}
