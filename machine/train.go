package machine

import (
	"fmt"
	"math"
)

// EpochStats summarises one pass through a deck.
type EpochStats struct {
	Epoch       int     `json:"epoch"`
	Cards       int     `json:"cards"`       // cards presented (fewer than the deck's when stopped)
	Mistakes    int     `json:"mistakes"`    // presentations answered with the wrong class
	Corrections int     `json:"corrections"` // R-unit corrections made
	Clock       float64 `json:"clock_s"`     // machine time at the end
	Stopped     bool    `json:"stopped,omitempty"`
}

// Epoch trains on every card of the deck once, in the order Config.Order says, calling step
// (if not nil) after each card with the number of cards presented so far. When step returns
// false the epoch ends there, between two presentations, and the stats say Stopped.
func (m *Machine) Epoch(d *Deck, step func(done int) bool) EpochStats {
	var st EpochStats
	m.mu.Lock() // the shuffle draws from the order stream, which WriteState reads
	order := m.orderOf(d)
	m.mu.Unlock()
	for i, k := range order {
		pred := m.presentCard(d, k, d.Class[k], true)
		if pred != d.Class[k] {
			st.Mistakes++
		}
		st.Corrections += len(m.ev.Moves)
		st.Cards++
		if step != nil && !step(i+1) {
			st.Stopped = i+1 < len(order)
			break
		}
	}
	st.Clock = m.Clock()
	return st
}

// presentCard presents card k of d.
func (m *Machine) presentCard(d *Deck, k, class int, learn bool) int {
	if d.bits != nil {
		return m.present(nil, d.bits, k, class, learn)
	}
	return m.present(&d.Stimuli[k], nil, k, class, learn)
}

// orderOf returns the presentation order of an epoch over d, drawing a shuffle from the order
// stream when Config.Order is OrderShuffle.
func (m *Machine) orderOf(d *Deck) []int {
	n := d.Len()
	if cap(m.perm) < n {
		m.perm = make([]int, n)
	}
	p := m.perm[:n]
	switch m.cfg.Order {
	case OrderInterleave:
		// Round-robin over the classes, each class's cards in deck order (cards of no known
		// class last in each round).
		k := len(m.classes) + 1
		byClass := make([][]int, k)
		for i, c := range d.Class {
			s := classSlot(c, k)
			byClass[s] = append(byClass[s], i)
		}
		pos := 0
		for r := 0; pos < n; r++ {
			for _, cards := range byClass {
				if r < len(cards) {
					p[pos] = cards[r]
					pos++
				}
			}
		}
	default:
		for i := range p {
			p[i] = i
		}
		if m.cfg.Order == OrderShuffle {
			m.order.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		}
	}
	return p
}

// classSlot maps a class number to its index among k slots, the unknown class -1 last.
func classSlot(c, k int) int {
	if c < 0 {
		return k - 1
	}
	return c
}

// Result is an evaluation of the machine on a deck, without learning.
type Result struct {
	Cards     int     `json:"cards"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
	Confusion [][]int `json:"confusion"` // [wanted][answered], over the machine's classes
}

// Evaluate presents every card of the deck in order without learning. Presenting still lets
// machine time pass, so an analog machine's cells, noise and drift move on.
func (m *Machine) Evaluate(d *Deck) Result {
	k := len(m.classes)
	res := Result{Cards: d.Len(), Confusion: make([][]int, k)}
	for i := range res.Confusion {
		res.Confusion[i] = make([]int, k)
	}
	for i := range d.Class {
		pred := m.presentCard(d, i, d.Class[i], false)
		want := d.Class[i]
		if want >= 0 && want < k {
			res.Confusion[want][pred]++
			if pred == want {
				res.Correct++
			}
		}
	}
	if res.Cards > 0 {
		res.Accuracy = float64(res.Correct) / float64(res.Cards)
	}
	return res
}

// MaxIdle is the longest time Idle lets pass in one call: a century of machine time.
const MaxIdle = 100 * 365.25 * 24 * 3600

// Idle lets seconds of machine time pass with no card in the holder and no presentation: the
// wipers drift and the racks warm up as they would standing switched on, and the cells come to
// rest under the surround light. seconds must be finite and within 0..MaxIdle.
func (m *Machine) Idle(seconds float64) error {
	if !(seconds >= 0) || seconds > MaxIdle || math.IsInf(seconds, 0) {
		return fmt.Errorf("machine: idle: %v s, want 0..%v s", seconds, float64(MaxIdle))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.clock+seconds > MaxClock {
		return fmt.Errorf("machine: idle: %v s more would take the clock to %v s, past the most a machine keeps (%v s)", seconds, m.clock+seconds, float64(MaxClock))
	}
	m.syncRetina()
	for _, a := range m.adv {
		if a != nil {
			a.Advance(seconds)
		}
	}
	m.retina.Rest(seconds)
	m.clock += seconds
	return nil
}

// SetOrder changes the order of presentation of the next epochs (see Config.Order). It is
// called by the driving goroutine.
func (m *Machine) SetOrder(order string) error {
	switch order {
	case OrderShuffle, OrderFile, OrderInterleave:
	default:
		return fmt.Errorf("machine: order: unknown order %q (want shuffle, file or interleave)", order)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg.Order = order
	return nil
}

// SetRule changes the reinforcement rule for the presentations from now on (the operator's
// rule switch). It is called by the driving goroutine.
func (m *Machine) SetRule(r Rule) error {
	if r < Alpha || r > Forced {
		return fmt.Errorf("machine: rule: unknown rule %d", int(r))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg.Rule = r
	return nil
}
