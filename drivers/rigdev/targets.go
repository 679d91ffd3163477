package rigdev

import (
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/mcp44x1"
	"github.com/mark1-perceptron/mark1/rig"
)

// Pot targets: the position showing a weight, the targets SetWeights sets, and writing them
// to the chips (held, resumed, parked).

// initTarget gives a pot its first target: a digital pot keeps the wiper it has (a MCP4461's
// comes back from EEPROM: the weights survive a power cut), a servo goes to its park position.
func (h *Hardware) initTarget(p *Pot) {
	switch {
	case p.mcp != nil:
		if p.mcp.dev == nil {
			return // unknown until the chip answers
		}
		k := p.mcp.dev.Known()[p.spec.Out.Channel]
		if k < 0 {
			return
		}
		pos := float64(float64(k) / mcp44x1.FullScale) // rounded: FullScale may make the division a product
		p.hasTarget, p.target, p.goal, p.cmd = true, p.weight(pos), pos, pos
		p.phase = idle
		if p.owed != 0 { // corrections the machine made while the chip did not answer
			h.setTarget(p, p.target+p.owed)
			p.owed = 0
		}
	default:
		h.setTarget(p, p.weight(p.spec.Park))
	}
}

// position returns the position (0..1) showing weight w.
func (p *Pot) position(w float64) float64 {
	return math.Max(0, math.Min(1, 0.5+float64(w/(2*p.spec.Range))))
}

// weight returns the weight a position shows.
func (p *Pot) weight(pos float64) float64 { return float64((pos - 0.5) * 2 * p.spec.Range) }

// setTarget starts a move of p to weight w (called with the lock held).
func (h *Hardware) setTarget(p *Pot, w float64) {
	w = math.Max(-p.spec.Range, math.Min(p.spec.Range, w))
	goal := p.position(w)
	if p.hasTarget && goal == p.goal && p.target == w && p.phase != idle {
		return
	}
	changed := !p.hasTarget || goal != p.goal
	p.hasTarget, p.target = true, w
	if changed {
		p.goal, p.corrections, p.problem = goal, 0, ""
		p.phase = writing
	}
}

// write stages every pot whose command is to be written and flushes each chip once; it
// counts the frame's bytes.
func (h *Hardware) write(now time.Time) {
	if h.held {
		return
	}
	before := h.busBytes()
	h.writeChips(now)
	if n := int(h.busBytes() - before); n > 0 {
		h.stats.WriteFrames++
		h.stats.FrameBytes = n
		h.stats.MaxFrameBytes = max(h.stats.MaxFrameBytes, n)
		h.stats.TotalWriteBytes += uint64(n)
	}
}

func (h *Hardware) writeChips(now time.Time) {
	for _, c := range h.pcas {
		if c.dev == nil {
			continue
		}
		staged := false
		for _, p := range c.pots {
			if p.phase == writing {
				p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
				if err := c.dev.SetPosition(p.spec.Out.Channel, p.cmd); err != nil {
					h.fail(err)
				}
				staged = true
			}
		}
		if !staged && !c.dev.Busy() {
			continue
		}
		if err := h.try(&c.chipState, now, "writing", func() error { _, err := c.dev.Flush(); return err }); err != nil {
			h.fail(err)
		}
		for _, p := range c.pots {
			if _, pending := c.dev.Target(p.spec.Out.Channel); p.phase == writing && !pending {
				h.written(p, now)
			}
		}
	}
	for _, c := range h.mcps {
		if c.dev == nil {
			continue
		}
		var vals [4]int
		mask := 0
		for w, p := range c.pots {
			if p != nil && p.phase == writing {
				p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
				vals[w], mask = int(math.Round(p.cmd*mcp44x1.FullScale)), mask|1<<w
			}
		}
		if mask == 0 {
			continue
		}
		if err := h.try(&c.chipState, now, "writing", func() error { return c.dev.SetWipers(vals, mask) }); err != nil {
			h.fail(err)
			continue
		}
		for _, p := range c.pots {
			if p != nil && p.phase == writing {
				h.written(p, now)
			}
		}
	}
	for _, g := range h.gservos {
		p := g.pot
		if p == nil || p.phase != writing {
			continue
		}
		dist := math.Abs(p.goal + p.offset - p.cmd)
		p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
		if err := h.try(&g.chipState, now, "writing", func() error { return g.dev.SetPosition(p.cmd) }); err != nil {
			h.fail(err)
			continue
		}
		p.settleAt = now.Add(time.Duration(dist / 1.5 * float64(time.Second)))
		h.written(p, now)
	}
}

// written moves a pot whose command went out to its next phase.
func (h *Hardware) written(p *Pot, now time.Time) {
	if p.adc != nil {
		p.phase = settling // read back once it has travelled
		if p.mcp != nil {
			p.settleAt = now
		}
		return
	}
	p.phase = idle
	p.read, p.hasRead = p.cmd, true
}

// quantum returns the command step a position comes to on the pot's output: a wiper step of
// a digital pot, a count of a servo board (near enough: a millionth of the travel).
func (p *Pot) quantum(pos float64) int {
	if p.mcp != nil {
		return int(math.Round(pos * mcp44x1.FullScale))
	}
	// A servo board's count is 1/4096 of its period; a GPIO PWM's resolution is finer than any
	// servo's deadband: count microseconds.
	unit := float64(time.Microsecond)
	if p.pca != nil {
		unit = float64(p.pca.opts.Frequency.Period()) / 4096
	}
	travel := float64(p.spec.MaxPulse-p.spec.MinPulse) / unit
	return int(math.Round(pos * travel))
}

// WeightValue is a weight's target for SetWeights.
type WeightValue struct {
	Weight rig.Weight
	Value  float64 // increments
}

// SetWeights sets the pots showing these weights to show these values (clamped at the pot's
// range) and writes the changes at once (a Step), so a change reaches the chips within the
// request. Weights the rig does not show are ignored; it returns how many it does.
func (h *Hardware) SetWeights(ws []WeightValue) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, w := range ws {
		if p := h.byWeight[w.Weight]; p != nil && !math.IsNaN(w.Value) {
			h.setTarget(p, w.Value)
			n++
		}
	}
	h.held = false
	h.step()
	return n
}

// Hold stops motion: targets not yet written are kept but not written until the next
// SetWeights (the watchdog's "hold").
func (h *Hardware) Hold() {
	h.lockForStop()
	defer h.mu.Unlock()
	h.held = true
	for _, c := range h.pcas {
		if c.dev != nil {
			c.dev.Hold()
		}
	}
	for _, p := range h.pots {
		if p.phase == writing && p.pca != nil {
			p.phase = idle // the target stays: SetWeights moves it again
		}
	}
}

// lockForStop takes the lock for a stop (Hold, Park), asking a settle loop that holds it to give
// it up at once rather than at its timeout.
func (h *Hardware) lockForStop() {
	h.stopping.Add(1)
	h.mu.Lock()
	h.stopping.Add(-1)
}

// Resume lets motion go on after Hold or Park: the targets kept are written at once.
func (h *Hardware) Resume() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	h.step()
}

// Held reports whether motion is stopped (Hold, until Resume or SetWeights).
func (h *Hardware) Held() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

// OutputStep returns the weight, in increments, of one step of the output showing w: a
// wiper step of a digital pot, a count of a servo board, a microsecond of a GPIO pulse; 0
// when the rig has no pot for w.
func (h *Hardware) OutputStep(w rig.Weight) float64 {
	p := h.byWeight[w]
	if p == nil {
		return 0
	}
	return 2 * p.spec.Range / float64(p.quantum(1))
}

// Park sends every servo to its park position (the watchdog's "park", and shutdown). Digital
// pots keep their values.
func (h *Hardware) Park() {
	h.lockForStop()
	defer h.mu.Unlock()
	h.held = false
	for _, p := range h.pots {
		if p.mcp == nil {
			h.setTarget(p, p.weight(p.spec.Park))
		}
	}
	h.step()
}

// travelling reports whether a servo on a working chip has a target to write or is still
// moving, as its board estimates (called with the lock held).
func (h *Hardware) travelling(now time.Time) bool {
	for _, c := range h.pcas {
		if c.dev != nil && !c.faulty && c.dev.Busy() {
			return true
		}
	}
	for _, g := range h.gservos {
		if g.pot != nil && !g.faulty && (g.pot.phase == writing || g.pot.settleAt.After(now)) {
			return true
		}
	}
	return false
}
