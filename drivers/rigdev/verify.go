package rigdev

import (
	"errors"
	"fmt"
	"math"
	"time"

	"periph.io/x/conn/v3/physic"
)

// Verification and calibration: reading a pot back once it has settled, correcting one that
// missed its target, the calibration sweep to the end stops, and Settle.

// refreshOne reads back one idle pot, in turn, so that the readings follow a pot that drifts
// or is pushed by hand.
func (h *Hardware) refreshOne(now time.Time) {
	for range h.pots {
		h.refresh = (h.refresh + 1) % len(h.pots)
		p := h.pots[h.refresh]
		if p.adc != nil && p.calibrated && p.phase == idle && !p.adc.faulty {
			if _, err := h.readBack(p, now); err != nil {
				h.fail(err)
			}
			return
		}
	}
}

func (p *Pot) settled(now time.Time) bool {
	if p.pca != nil {
		return p.pca.dev.Settled(p.spec.Out.Channel)
	}
	return !now.Before(p.settleAt)
}

// readBack reads p's ADC channel and returns the position it shows.
func (h *Hardware) readBack(p *Pot, now time.Time) (float64, error) {
	var v physic.ElectricPotential
	err := h.try(&p.adc.chipState, now, "reading", func() (err error) {
		if p.adc.dev == nil {
			return errors.New("not open")
		}
		v, err = p.adc.dev.Read(p.spec.Readback.Channel)
		return err
	})
	if err != nil {
		return 0, err
	}
	h.stats.Reads++
	volts := float64(v) / float64(physic.Volt)
	pos := (volts - p.v0) / (p.v1 - p.v0)
	p.read, p.hasRead = pos, true
	return pos, nil
}

// verify reads back the pots that have settled and corrects those off their target.
func (h *Hardware) verify(now time.Time) {
	for _, p := range h.pots {
		if h.stopping.Load() > 0 {
			return // a stop waits: no more read-backs (settleLocked ends)
		}
		if p.phase != settling || p.adc == nil || !p.settled(now) {
			continue
		}
		if !p.calibrated {
			p.phase = idle // nothing to compare a reading with
			continue
		}
		pos, err := h.readBack(p, now)
		if err != nil {
			h.fail(err)
			continue
		}
		miss := p.goal - pos
		if math.Abs(miss)*2*p.spec.Range <= h.spec.Tolerance {
			p.phase = idle
			continue
		}
		next := math.Max(0, math.Min(1, p.goal+p.offset+miss))
		stuck := p.quantum(next) == p.quantum(p.cmd)
		if stuck && math.Abs(float64(p.quantum(p.goal)-p.quantum(pos))) <= 1 {
			p.phase = idle // within one step of the output: the best the pot can do
			continue
		}
		if stuck || p.corrections >= h.spec.MaxCorrections {
			p.phase = idle
			if p.problem == "" {
				p.problem = fmt.Sprintf("does not follow: target %.3g, reads %.3g after %d corrections", p.target, p.weight(pos), p.corrections)
				h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
				h.fail(fmt.Errorf("pot %s (%s): %s", p.name, p.spec.Out, p.problem))
			}
			continue
		}
		p.offset += miss
		p.corrections++
		h.stats.Corrections++
		p.phase = writing
	}
}

// sweep drives the pots (each with a read-back) to both ends of their travel and takes the
// ADC's readings there as positions 0 and 1, then sends them back to their targets (called
// with the lock held).
func (h *Hardware) sweep(pots []*Pot) {
	saved := make([]Pot, len(pots))
	for i, p := range pots {
		saved[i] = *p
	}
	var volts [2][]float64
	for end := range 2 {
		for _, p := range pots {
			p.hasTarget, p.goal, p.offset, p.phase = true, float64(end), 0, writing
		}
		h.settleLocked(10*time.Second, false)
		volts[end] = make([]float64, len(pots))
		for i, p := range pots {
			volts[end][i] = math.NaN()
			if p.phase == writing || p.adc.dev == nil || !p.settled(h.env.Clock.Now()) {
				continue
			}
			var v physic.ElectricPotential
			err := h.try(&p.adc.chipState, h.env.Clock.Now(), "reading", func() (err error) { v, err = p.adc.dev.Read(p.spec.Readback.Channel); return err })
			if err == nil {
				volts[end][i] = float64(v) / float64(physic.Volt)
			}
		}
	}
	for i, p := range pots {
		p.hasTarget, p.target, p.goal, p.phase = saved[i].hasTarget, saved[i].target, saved[i].goal, writing
		if !p.hasTarget {
			p.phase = idle
		}
		v0, v1 := volts[0][i], volts[1][i]
		switch {
		case math.IsNaN(v0) || math.IsNaN(v1):
			p.problem = "not calibrated: its chip or ADC did not answer"
			h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
		case math.Abs(v1-v0) < 0.05:
			p.problem = fmt.Sprintf("not calibrated: reads %.3f V at one end and %.3f V at the other (is the read-back wired?)", v0, v1)
			h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
		default:
			p.v0, p.v1, p.calibrated = v0, v1, true
		}
	}
}

// Settle writes and reads back until every pot has reached its target (or been reported as
// not following), a chip it needs is faulty, or timeout passes. It returns the faults met.
func (h *Hardware) Settle(timeout time.Duration) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.errs = nil
	h.settleLocked(timeout, true)
	err := join(h.errs)
	h.errs = nil
	return err
}

func (h *Hardware) settleLocked(timeout time.Duration, verify bool) {
	deadline := h.env.Clock.Now().Add(timeout)
	pause := min(h.spec.Period()/4, 5*time.Millisecond)
	for {
		now := h.env.Clock.Now()
		h.retryFaulty(now)
		h.write(now)
		if verify {
			h.verify(now)
		}
		if h.stopAsked() {
			return
		}
		if !h.busy(verify) {
			return
		}
		if !now.Before(deadline) {
			h.fail(fmt.Errorf("rig: pots still moving after %v", timeout))
			return
		}
		h.env.Clock.Sleep(pause)
		if h.stopAsked() { // asked during the pause: nothing more is written
			return
		}
	}
}

// stopAsked reports whether a stop (Hold, Park) waits for the lock a settle loop holds, and
// then records that the settling was cut short (called with the lock held).
func (h *Hardware) stopAsked() bool {
	if h.stopping.Load() == 0 {
		return false
	}
	h.fail(errors.New("rig: stopped (a halt, the watchdog or shutdown) while the pots were moving"))
	return true
}

// busy reports whether a pot on a working chip is still to be written or read back (or, when
// not verifying, still travelling).
func (h *Hardware) busy(verify bool) bool {
	for _, p := range h.pots {
		var out *chipState
		switch {
		case p.pca != nil:
			out = &p.pca.chipState
		case p.mcp != nil:
			out = &p.mcp.chipState
		default:
			out = &p.gs.chipState
		}
		if out.faulty || h.held {
			continue
		}
		switch {
		case p.phase == writing:
			return true
		case p.phase == settling && verify && !p.adc.faulty:
			return true
		case p.phase == settling && !p.settled(h.env.Clock.Now()):
			return true
		}
	}
	return false
}
