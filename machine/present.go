package machine

import (
	"math"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/retina"
)

// Move is one R-unit's correction in a presentation: the bias pot and the active A-units' pots
// were driven OnActive increments, every other pot OnInactive.
type Move struct {
	R                    int
	OnActive, OnInactive float64
}

// Event describes one presentation. Its slices belong to the machine and are valid only during
// the Observer call.
type Event struct {
	Clock     float64      // machine time at the end of the presentation, s
	Count     uint64       // presentation number, from 1
	Card      int          // index in the deck, or -1
	Class     int          // wanted class, -1 if unknown
	Predicted int          // the machine's answer
	S         *retina.Bits // S-unit states
	A         []uint64     // A-unit states, bit-packed
	Active    []uint16     // firing A-units, ascending
	Sums      []float64    // each R-unit's input before the correction
	Moves     []Move       // corrections made
	Learning  bool
}

// On reports whether R-unit r was on (its sum > 0).
func (e *Event) On(r int) bool { return e.Sums[r] > 0 }

// Observer follows presentations, for a window or a hardware bridge. It is called on the
// driving goroutine after each presentation, outside the machine's lock (so it may call
// Snapshot).
type Observer interface {
	Presented(e *Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(e *Event)

// Presented calls f(e).
func (f ObserverFunc) Presented(e *Event) { f(e) }

// Present shows a card without learning and returns the machine's answer.
func (m *Machine) Present(s *retina.Stimulus) int {
	return m.present(s, nil, -1, -1, false)
}

// Train shows a card of the given class and applies the learning rule. It returns the
// machine's answer before the correction and the number of R-units that were corrected.
func (m *Machine) Train(s *retina.Stimulus, class int) (predicted, corrected int) {
	p := m.present(s, nil, -1, class, true)
	return p, len(m.ev.Moves)
}

// present is the hot loop: it shows the card s, or card number card of a deck from
// PrepareBits (b), whose S- and A-unit states are kept.
func (m *Machine) present(s *retina.Stimulus, b *deckBits, card, class int, learn bool) int {
	m.mu.Lock()
	dt := m.cfg.PresentationTime
	switch {
	case b == nil:
		m.retina.Expose(s, dt, m.noise, &m.s)
		m.activeBuf = m.board.Fire(&m.s, m.a, m.activeBuf[:0])
		m.active = m.activeBuf
		m.shownFrom = nil
	case b.board == &m.board.Units[0]: // this board's A-units
		m.s = b.s[card]
		copy(m.a, b.a[card*b.words:(card+1)*b.words])
		lo, hi := b.off[card], b.off[card+1]
		m.active = b.act[lo:hi:hi] // read only, as every user of m.active does
		m.shownFrom, m.shownCard = b, card
	default: // another machine's deck: its S-units, this machine's board
		m.s = b.s[card]
		m.activeBuf = m.board.Fire(&m.s, m.a, m.activeBuf[:0])
		m.active = m.activeBuf
		m.shownFrom, m.shownCard = b, card
	}
	if m.bank != nil {
		m.bank.Sum(m.active, m.noise, m.sums)
	} else {
		for r, rack := range m.racks {
			sum, err := rack.Sum(m.active)
			if err != nil {
				m.fail(r, err)
			}
			m.sums[r] = sum
		}
	}
	pred := m.decide()
	moves := m.ev.Moves[:0]
	if learn {
		moves = m.learn(class, moves)
	}
	if m.bank != nil {
		m.bank.Advance(dt, m.noise) // the racks' own Advance, without an interface call each
	} else {
		for _, a := range m.adv {
			if a != nil {
				a.Advance(dt)
			}
		}
	}
	m.clock += dt
	m.count++
	m.ev.Moves = moves
	m.ev.Clock, m.ev.Count, m.ev.Card, m.ev.Class, m.ev.Predicted = m.clock, m.count, card, class, pred
	m.ev.S, m.ev.A, m.ev.Active, m.ev.Learning = &m.s, m.a, m.active, learn
	m.mu.Unlock()
	if m.obs != nil {
		m.obs.Presented(&m.ev)
	}
	return pred
}

// syncRetina makes the ideal retina show the last card a deck from PrepareBits presented, which
// it did not see (its light is prepared again from the card's image): a snapshot or a saved
// state then holds what it would after Prepare's deck. Called with the lock held.
func (m *Machine) syncRetina() {
	b := m.shownFrom
	if b == nil {
		return
	}
	m.shownFrom = nil
	if m.showOptics == nil {
		// A retina of its own, so that Prepare on the driving goroutine shares no scratch.
		r, err := retina.New(m.retina.Params(), rand.New(rand.NewPCG(m.cfg.Seed, streamRetina)))
		if err != nil {
			return
		}
		m.showOptics = r
	}
	m.showOptics.Prepare(b.set.Cards[m.shownCard].Image, &m.shownStim)
	m.retina.Show(&m.shownStim)
}

// decide decodes the R-unit sums into a class: the class whose code agrees best with the sums
// (argmax of sum_r code[r]*sum[r], the first class on a tie). For one-hot codes that is the
// R-unit with the largest sum; for a binary code whose pattern of firing R-units is in the
// table, it is exactly that class. Codes are -1, 0 or +1, so the score is added and subtracted,
// never multiplied (the same on every architecture).
func (m *Machine) decide() int {
	if m.oneHot {
		sums := m.sums[:len(m.classes)]
		if len(sums) == 0 {
			return 0
		}
		best, bv := 0, sums[0]
		for c, v := range sums {
			if v > bv { // the first of equal sums; a NaN is never the best, as before
				best, bv = c, v
			}
		}
		return best
	}
	// Scores of all classes at once, one R-unit at a time: each class's sum is a short chain,
	// and the classes' chains run side by side. code[c][u] is +1, -1 or 0: the sum's sign bit
	// is flipped for -1 and the whole value masked off for 0, with no branch and no
	// multiplication.
	k := len(m.codes)
	scores := m.scores[:k]
	clear(scores)
	for u, v := range m.sums {
		bits := math.Float64bits(v)
		flip, keep := m.flip[u*k:u*k+k], m.keep[u*k:u*k+k]
		for c := range scores {
			scores[c] += math.Float64frombits((bits ^ flip[c]) & keep[c])
		}
	}
	best := 0
	for c, v := range scores {
		if v > scores[best] {
			best = c
		}
	}
	return best
}

// setMasks prepares decide's sign and keep masks from the codes, [R-unit*classes + class].
func (m *Machine) setMasks() {
	k := len(m.codes)
	m.flip = make([]uint64, k*len(m.racks))
	m.keep = make([]uint64, k*len(m.racks))
	m.scores = make([]float64, k)
	for c, code := range m.codes {
		for u, v := range code {
			if v < 0 {
				m.flip[u*k+c] = 1 << 63
			}
			if v != 0 {
				m.keep[u*k+c] = ^uint64(0)
			}
		}
	}
}

// learn applies the rule for the wanted class and returns the moves made.
func (m *Machine) learn(class int, moves []Move) []Move {
	code := m.codes[class]
	for r, rack := range m.racks {
		y := float64(code[r])
		if y == 0 {
			continue
		}
		var on, off float64
		switch m.cfg.Rule {
		case Alpha:
			if y*m.sums[r] > 0 {
				continue
			}
			on = y
		case Forced:
			on = y
		case Gamma:
			if y*m.sums[r] > 0 {
				continue
			}
			// a of n pots are active (the bias pot always is): they share a gain of y*(n-a)
			// while all n-a inactive pots lose y*a/n each; the rack total is unchanged.
			n := float64(m.board.Len() + 1)
			a := float64(len(m.active) + 1)
			on, off = y*(n-a)/n, -y*a/n
		}
		if m.bank != nil {
			m.bank.Drive(r, m.active, on, off, m.noise)
		} else if err := rack.Drive(m.active, on, off); err != nil {
			m.fail(r, err)
		}
		moves = append(moves, Move{R: r, OnActive: on, OnInactive: off})
	}
	return moves
}
