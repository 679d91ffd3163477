package rigdev

import (
	"slices"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/rig"
)

// ChipStatus is a chip's health.
type ChipStatus struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"`
	Bus     string    `json:"bus,omitempty"`
	Address uint16    `json:"address,omitempty"`
	OK      bool      `json:"ok"`
	Error   string    `json:"error,omitempty"`
	Since   time.Time `json:"since,omitempty"` // faulty since
	Faults  int       `json:"faults"`          // times it was found faulty
}

// PotStatus is a pot's state.
type PotStatus struct {
	Weight   string  `json:"weight"` // R0.A3
	R        int     `json:"r"`
	A        int     `json:"a"` // -1: the bias
	Out      string  `json:"out"`
	Readback string  `json:"readback,omitempty"`
	Target   float64 `json:"target"`            // the weight it should show, increments
	Position float64 `json:"position"`          // the position last commanded, 0..1
	Reading  float64 `json:"reading"`           // the weight read back (or commanded, without a read-back)
	Moving   bool    `json:"moving"`            // still to be written or read back
	OK       bool    `json:"ok"`                // its chips answer and it follows
	Problem  string  `json:"problem,omitempty"` // why not
}

// Status is a picture of the rig.
type Status struct {
	Mode   string              `json:"mode"`
	Held   bool                `json:"held"` // motion stopped by the watchdog
	Chips  []ChipStatus        `json:"chips"`
	Pots   []PotStatus         `json:"pots"`
	Buses  map[string]BusStats `json:"buses"`
	Stats  Stats               `json:"stats"`
	Events []Event             `json:"events"` // the last ones, oldest first
}

func chipStatus(c *chipState) ChipStatus {
	s := ChipStatus{Name: c.name, Kind: c.kind, Bus: c.bus, Address: c.addr, OK: !c.faulty, Faults: c.faults}
	if c.faulty {
		s.Since = c.since
		if c.err != nil {
			s.Error = c.err.Error()
		}
	}
	return s
}

// Status returns the rig's state.
func (h *Hardware) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := Status{Mode: h.spec.Mode, Held: h.held, Buses: map[string]BusStats{}, Stats: h.stats, Events: slices.Clone(h.events)}
	for _, c := range h.pcas {
		s.Chips = append(s.Chips, chipStatus(&c.chipState))
	}
	for _, c := range h.mcps {
		s.Chips = append(s.Chips, chipStatus(&c.chipState))
	}
	for _, a := range h.spec.ADS1115 {
		s.Chips = append(s.Chips, chipStatus(&h.adcs[a.Name].chipState))
	}
	for _, g := range h.gservos {
		s.Chips = append(s.Chips, chipStatus(&g.chipState))
	}
	for name, m := range h.meters {
		s.Buses[name] = m.read()
	}
	for _, p := range h.pots {
		s.Pots = append(s.Pots, h.potStatus(p))
	}
	return s
}

func (h *Hardware) potStatus(p *Pot) PotStatus {
	ps := PotStatus{Weight: p.name, R: p.spec.Weight.R, A: p.spec.Weight.A, Out: p.spec.Out.String(),
		Target: p.target, Position: p.cmd, Reading: p.weight(p.read), Moving: p.phase != idle || p.pca != nil && p.pca.dev != nil && !p.settled(h.env.Clock.Now()), Problem: p.problem}
	if p.spec.Readback != nil {
		ps.Readback = p.spec.Readback.String()
	}
	out := p.outState()
	ps.OK = !out.faulty && p.problem == "" && (p.adc == nil || !p.adc.faulty)
	if ps.Problem == "" && out.faulty {
		ps.Problem = "its chip " + out.name + " is faulty"
	}
	if ps.Problem == "" && p.adc != nil && p.adc.faulty {
		ps.Problem = "its read-back " + p.adc.name + " is faulty"
	}
	return ps
}

func (p *Pot) outState() *chipState {
	switch {
	case p.pca != nil:
		return &p.pca.chipState
	case p.mcp != nil:
		return &p.mcp.chipState
	}
	return &p.gs.chipState
}

// Rig returns the rig file the hardware was opened from.
func (h *Hardware) Rig() *rig.Rig { return h.spec }

// Weights lists the weights the rig's pots show, in the rig file's order.
func (h *Hardware) Weights() []rig.Weight {
	w := make([]rig.Weight, len(h.pots))
	for i, p := range h.pots {
		w[i] = p.spec.Weight
	}
	return w
}

// BusStats returns every bus's traffic so far.
func (h *Hardware) BusStats() map[string]BusStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := map[string]BusStats{}
	for name, b := range h.meters {
		m[name] = b.read()
	}
	return m
}

// Ends returns, for each pot with a read-back, the ADC's readings at positions 0 and 1 found
// by the calibration (volts), by the weight the pot shows; a pot not calibrated is missing.
func (h *Hardware) Ends() map[string][2]float64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := map[string][2]float64{}
	for _, p := range h.pots {
		if p.calibrated {
			m[p.name] = [2]float64{p.v0, p.v1}
		}
	}
	return m
}

// Parts reports what the rig's pots are: servos (on servo boards or GPIO pins), digital pots,
// or both. Its messages, and the bridge's, speak of the parts it has (a loop rig of digital
// pots is not told of servos).
func (h *Hardware) Parts() (servos, digitalPots bool) {
	for _, p := range h.pots {
		if p.mcp != nil {
			digitalPots = true
		} else {
			servos = true
		}
	}
	return servos, digitalPots
}

// ShutdownPlan says what Shutdown does, in the words of the rig's parts: "parking the servos,
// keeping the digital pots, then halting every device (servo signals off, boards asleep,
// lamps out)", the servos' words only when it has servos, the digital pots' only when it has
// digital pots, the panel's only when a panel was opened.
func (h *Hardware) ShutdownPlan() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	servos, digital := h.Parts()
	var steps, halts []string
	if servos {
		steps = append(steps, "parking the servos")
	}
	if digital {
		steps = append(steps, "keeping the digital pots")
	}
	if len(h.pcas) > 0 {
		halts = append(halts, "servo signals off, boards asleep")
	}
	if len(h.gservos) > 0 {
		halts = append(halts, "GPIO servo pins low")
	}
	if len(h.panels) > 0 {
		halts = append(halts, "lamps out")
	}
	s := "halting every device"
	if len(halts) > 0 {
		s += " (" + strings.Join(halts, ", ") + ")"
	}
	if len(steps) > 0 {
		s = strings.Join(steps, ", ") + ", then " + s
	}
	return s
}
