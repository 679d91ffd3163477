package potentiometer

import (
	"fmt"
	"math"
	"testing"
)

// gammaWander drives a rack of n A-unit pots with steps gamma corrections (random active sets
// of 5-45% of the A-units, random signs, 3 s of machine time each, a Sum per presentation) and
// returns the RMS over the steps of the rack total of the wiper positions, the wander of what
// the gamma rule conserves.
func gammaWander(t *testing.T, p Params, n, steps int) float64 {
	t.Helper()
	r := mustRack(t, n, p, newRNG(30))
	ctl, noise := newRNG(31), newRNG(32)
	var active []uint16
	var sq float64
	for range steps {
		active = randomActive(ctl, n, 0.05+0.4*ctl.Float64(), active)
		r.Sum(active, noise)
		y := float64(2*ctl.IntN(2) - 1)
		N, a := float64(n+1), float64(len(active)+1)
		r.Drive(active, y*(N-a)/N, -y*a/N, noise)
		r.Advance(3, noise)
		total := 0.0
		for i := range r.Len() {
			total += r.Pos(i)
		}
		sq += total * total
	}
	return math.Sqrt(sq / float64(steps))
}

// TestGammaWander measures how far the rack total of the wipers wanders under the gamma rule,
// which conserves the commanded travel only: zero (to rounding) with every flaw off, not zero
// under backlash alone or the defaults. The runs are seeded, so the wander is the same on every
// run: the figures docs/potentiometer.md quotes (want, to three significant digits) are asserted.
func TestGammaWander(t *testing.T) {
	const n, steps = 512, 20000
	backlash := NeutralParams()
	backlash.Backlash = DefaultParams().Backlash
	ratchet := DefaultParams()
	ratchet.Drive = DriveRatchet
	tests := []struct {
		name    string
		p       Params
		nonzero bool
		want    string // the wander, %.3g
	}{
		{"ideal", IdealParams(), false, "1.95e-11"},
		{"neutral", NeutralParams(), false, "1.95e-11"},
		{"backlash alone", backlash, true, "26"},
		{"defaults", DefaultParams(), true, "80.6"},
		{"defaults, ratchet", ratchet, true, "220"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := gammaWander(t, tt.p, n, steps)
			t.Logf("%s: RMS wander of the rack total over %d gamma corrections of %d pots: %.3g increments", tt.name, steps, n+1, w)
			if tt.nonzero && !(w > 0.1) {
				t.Errorf("wander %v, want clearly non-zero", w)
			}
			if !tt.nonzero && !(w < 1e-9) {
				t.Errorf("wander %v, want 0 (to rounding)", w)
			}
			if got := fmt.Sprintf("%.3g", w); got != tt.want {
				t.Errorf("wander %s increments, want %s (the figure docs/potentiometer.md quotes: change both after a deliberate change of the model)", got, tt.want)
			}
		})
	}
}
