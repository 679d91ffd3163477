package rigdev

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/rig"
)

// LoopRack is one R-unit's weights on a loop rig: a machine.Rack whose pots are physical.
// Drive turns the corrections into targets (kept exactly, so fractional steps add up; a target
// stops at the pot's range, the end of its travel), writes them and waits for the closed loop
// to settle; Sum adds what the ADCs read back. So the machine learns with the weights the pots
// really have.
type LoopRack struct {
	h    *Hardware
	r    int
	pots []*Pot // the A-units' pots, then the bias pot
	// Timeout bounds how long a Drive waits for the pots to settle (default 10 s).
	Timeout time.Duration
}

// LoopRacks returns the rig's racks, one per R-unit of its [machine]: every weight must have a
// pot with a read-back (a loop rig's file is checked for that).
func (h *Hardware) LoopRacks() ([]*LoopRack, error) {
	m := h.spec.Machine
	if m == nil || h.spec.Mode != rig.ModeLoop {
		return nil, errors.New("rigdev: not a loop rig (mode = \"loop\" with a [machine])")
	}
	racks := make([]*LoopRack, m.RUnits)
	for r := range racks {
		lr := &LoopRack{h: h, r: r, pots: make([]*Pot, m.AUnits+1), Timeout: 10 * time.Second}
		for a := -1; a < m.AUnits; a++ {
			p := h.byWeight[rig.Weight{R: r, A: a}]
			if p == nil || p.adc == nil {
				return nil, fmt.Errorf("rigdev: weight %s has no pot with a read-back", rig.Weight{R: r, A: a})
			}
			i := a
			if a == rig.Bias {
				i = m.AUnits
			}
			lr.pots[i] = p
		}
		racks[r] = lr
	}
	return racks, nil
}

// Len returns the number of pots: the A-units', then the bias.
func (lr *LoopRack) Len() int { return len(lr.pots) }

// reading returns a pot's weight as last read back; an error when it never was.
func (p *Pot) reading() (float64, error) {
	if !p.hasRead || !p.calibrated {
		return 0, fmt.Errorf("pot %s (%s): no read-back yet: %s", p.name, p.spec.Out, p.problemOr("its chip has not answered"))
	}
	return p.weight(p.read), nil
}

func (p *Pot) problemOr(s string) string {
	if p.problem != "" {
		return p.problem
	}
	return s
}

// Sum returns the bias's read-back plus the active A-units'.
func (lr *LoopRack) Sum(active []uint16) (float64, error) {
	lr.h.mu.Lock()
	defer lr.h.mu.Unlock()
	n := len(lr.pots) - 1
	s, err := lr.pots[n].reading()
	for _, a := range active {
		if int(a) >= n {
			return s, fmt.Errorf("rigdev: R%d: A-unit %d out of range", lr.r, a)
		}
		w, e := lr.pots[a].reading()
		s += w
		if err == nil {
			err = e
		}
	}
	return s, err
}

// Drive moves the bias and the active A-units' pots onActive increments and the others
// onInactive, then waits for the pots to reach their targets (written, read back, corrected).
// A pot whose chip is faulty keeps its target, written when the chip answers again.
func (lr *LoopRack) Drive(active []uint16, onActive, onInactive float64) error {
	if math.IsNaN(onActive) || math.IsNaN(onInactive) {
		return errors.New("rigdev: NaN step")
	}
	h := lr.h
	h.mu.Lock()
	if h.held {
		h.mu.Unlock()
		return fmt.Errorf("rigdev: R%d: the rig is held (its watchdog fired, or it was halted): nothing moved", lr.r)
	}
	n := len(lr.pots) - 1
	isActive := make([]bool, n)
	for _, a := range active {
		if int(a) >= n {
			h.mu.Unlock()
			return fmt.Errorf("rigdev: R%d: A-unit %d out of range", lr.r, a)
		}
		isActive[a] = true
	}
	for i, p := range lr.pots {
		d := onInactive
		if i == n || isActive[i] {
			d = onActive
		}
		switch {
		case d == 0:
		case p.hasTarget:
			h.setTarget(p, p.target+d)
		default:
			p.owed += d // applied when the chip answers and the pot's value is known
		}
	}
	h.errs = nil
	h.settleLocked(lr.Timeout, true)
	err := join(h.errs)
	h.errs = nil
	h.mu.Unlock()
	return err
}

// Readings copies the pots' read-back weights (A-units first, the bias last); a pot never read
// back reads 0 and makes an error.
func (lr *LoopRack) Readings(dst []float64) error {
	lr.h.mu.Lock()
	defer lr.h.mu.Unlock()
	var first error
	for i, p := range lr.pots {
		w, err := p.reading()
		dst[i] = w
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Targets copies the weights the pots are driven to (what the machine's learning asked for).
func (lr *LoopRack) Targets(dst []float64) {
	lr.h.mu.Lock()
	defer lr.h.mu.Unlock()
	for i, p := range lr.pots {
		dst[i] = p.target
	}
}

// Reset drives every pot of the rack to weight 0 and waits for them to settle.
func (lr *LoopRack) Reset() error {
	h := lr.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held {
		return fmt.Errorf("rigdev: R%d: the rig is held (its watchdog fired, or it was halted): nothing moved", lr.r)
	}
	for _, p := range lr.pots {
		if p.hasTarget {
			h.setTarget(p, 0)
		}
	}
	h.errs = nil
	h.settleLocked(lr.Timeout, true)
	err := join(h.errs)
	h.errs = nil
	return err
}

// Halt leaves the pots as they are (digital pots keep their values; servos hold).
func (lr *LoopRack) Halt() error { return nil }

// String names the rack.
func (lr *LoopRack) String() string {
	return fmt.Sprintf("rig rack R%d: %d pots on %s", lr.r, len(lr.pots), lr.h.spec.File)
}
