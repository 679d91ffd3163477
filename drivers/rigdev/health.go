package rigdev

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// Chip health: the events a rig reports, a chip operation tried and a faulty chip retried
// after its backoff, and the periodic check for a chip that lost power (and its settings).

func (h *Hardware) emit(e Event) {
	if e.Time.IsZero() {
		e.Time = h.env.Clock.Now()
	}
	where := e.Chip
	if e.Pot != "" {
		where = "pot " + e.Pot
	}
	level := slog.LevelWarn // a fault, a loss of power, a pot that does not follow, a failed check
	if e.Kind == "recovered" {
		level = slog.LevelInfo
	}
	h.env.Logger.Log(context.Background(), level, fmt.Sprintf("%s: %s: %s", e.Kind, where, e.Message), "kind", e.Kind)
	h.events = append(h.events, e)
	if len(h.events) > 100 {
		h.events = slices.Delete(h.events, 0, len(h.events)-100)
	}
	if h.onEvent != nil {
		h.onEvent(e)
	}
}

// OnEvent sets the function told of every event (called with the rig's lock held: it must not
// call the rig back).
func (h *Hardware) OnEvent(f func(Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onEvent = f
}

var errFaulty = errors.New("faulty, waiting to retry")

// try runs op on a chip with the rig's retries and back-off. On failure the chip is marked
// faulty (reported once) and later calls skip it until its next retry is due; on success a
// faulty chip is reported recovered.
func (h *Hardware) try(c *chipState, now time.Time, what string, op func() error) error {
	if c.faulty && now.Before(c.nextTry) {
		return fmt.Errorf("%s: %w: %v", c, errFaulty, c.err)
	}
	var err error
	for i := 0; i <= h.spec.Retries; i++ {
		if i > 0 {
			h.env.Clock.Sleep(h.spec.Backoff << (i - 1))
		}
		if err = op(); err == nil {
			if c.faulty {
				c.faulty = false
				h.emit(Event{Kind: "recovered", Chip: c.name, Message: fmt.Sprintf("%s answers again after %v", c, h.env.Clock.Now().Sub(c.since).Round(time.Millisecond))})
			}
			return nil
		}
	}
	c.faults++
	if !c.faulty {
		c.faulty, c.since, c.backoff = true, now, h.spec.FaultRetry
		h.emit(Event{Kind: "fault", Chip: c.name, Message: fmt.Sprintf("%s: %s failed after %d tries: %v", c, what, h.spec.Retries+1, err)})
	} else {
		c.backoff = min(2*c.backoff, time.Minute)
	}
	c.err = err
	c.nextTry = h.env.Clock.Now().Add(c.backoff)
	return fmt.Errorf("%s: %s: %w", c, what, err)
}

func (h *Hardware) fail(err error) {
	if err != nil && len(h.errs) < 16 {
		h.errs = append(h.errs, err)
	}
}

func (h *Hardware) retryFaulty(now time.Time) {
	for _, c := range h.pcas {
		if c.faulty && !now.Before(c.nextTry) {
			if h.try(&c.chipState, now, "retrying", c.open) == nil {
				for _, p := range c.pots {
					if p.hasTarget {
						p.phase = writing
					}
				}
			}
		}
	}
	for _, c := range h.mcps {
		if c.faulty && !now.Before(c.nextTry) {
			if h.try(&c.chipState, now, "retrying", c.open) == nil {
				for _, p := range c.pots {
					if p == nil {
						continue
					}
					if !p.hasTarget {
						h.initTarget(p)
					} else {
						p.phase = writing
					}
				}
			}
		}
	}
	for _, c := range h.adcs {
		if c.faulty && !now.Before(c.nextTry) {
			_ = h.try(&c.chipState, now, "retrying", c.open)
		}
	}
}

// checkPower asks every healthy chip whether it lost power; one that did is set up again and
// its pots rewritten.
func (h *Hardware) checkPower(now time.Time) {
	for _, c := range h.pcas {
		if c.dev == nil || c.faulty {
			continue
		}
		var restored bool
		err := h.try(&c.chipState, now, "checking", func() (err error) { restored, err = c.dev.Check(); return err })
		if err == nil && restored {
			h.emit(Event{Kind: "power_loss", Chip: c.name, Message: fmt.Sprintf("%s was reset (power loss?): set up again, outputs rewritten", &c.chipState)})
		}
	}
	for _, c := range h.mcps {
		if c.dev == nil || c.faulty {
			continue
		}
		var restored bool
		err := h.try(&c.chipState, now, "checking", func() (err error) { restored, err = c.dev.Check(); return err })
		if err == nil && restored {
			h.emit(Event{Kind: "power_loss", Chip: c.name, Message: fmt.Sprintf("%s lost its terminals or wipers (power loss?): restored", &c.chipState)})
		}
	}
}
