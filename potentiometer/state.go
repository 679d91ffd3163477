package potentiometer

import (
	"fmt"
	"math"
	"slices"
)

// RackState is the hidden state of a rack, for saving and restoring a machine: every per-pot
// value (A-unit pots first, the bias pot last) and the rack's clocks. The parameters are not
// part of it; a state is restored into a rack built with the same n and Params. Readings and the
// rack gain are derived from it.
type RackState struct {
	Motor     []float64 `json:"motor"`      // motor (gear-train input) positions, increments
	Wiper     []float64 `json:"wiper"`      // wiper positions, increments
	MotorGain []float64 `json:"motor_gain"` // fixed travel per nominal pulse, fraction
	TrackGain []float64 `json:"track_gain"` // fixed track (reading) gain, fraction
	Time      float64   `json:"time_s"`     // machine time, s
	// DriftElapsed is the machine time since the last drift batch, s.
	DriftElapsed float64 `json:"drift_elapsed_s"`
}

// State returns a copy of the rack's hidden state.
func (r *Rack) State() RackState {
	return RackState{
		Motor:        slices.Clone(r.m),
		Wiper:        slices.Clone(r.p),
		MotorGain:    slices.Clone(r.k),
		TrackGain:    slices.Clone(r.g),
		Time:         r.t,
		DriftElapsed: r.acc,
	}
}

// SetState restores a state taken with State from a rack with the same n and Params; the rack
// then continues bit for bit as the original would (given the same random streams). It checks
// the lengths and values and returns an error, leaving the rack unchanged, if any is wrong.
func (r *Rack) SetState(s RackState) error {
	n := r.n + 1
	for _, f := range []struct {
		name string
		v    []float64
	}{{"motor", s.Motor}, {"wiper", s.Wiper}, {"motor gain", s.MotorGain}, {"track gain", s.TrackGain}} {
		if len(f.v) != n {
			return fmt.Errorf("potentiometer: state has %d %s values for a rack of %d pots", len(f.v), f.name, n)
		}
		for i, v := range f.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("potentiometer: state: pot %d %s = %v, want a finite number", i, f.name, v)
			}
		}
	}
	for i := range n {
		if !r.ideal && (math.Abs(s.Motor[i]) > r.prm.Range || math.Abs(s.Wiper[i]) > r.prm.Range) {
			return fmt.Errorf("potentiometer: state: pot %d at motor %v, wiper %v, beyond the end stops at +-%v",
				i, s.Motor[i], s.Wiper[i], r.prm.Range)
		}
		if r.ideal && s.Motor[i] != s.Wiper[i] {
			return fmt.Errorf("potentiometer: state: pot %d of an ideal rack has motor %v and wiper %v, want equal",
				i, s.Motor[i], s.Wiper[i])
		}
		if !(s.MotorGain[i] > 0) || !(s.TrackGain[i] > 0) {
			return fmt.Errorf("potentiometer: state: pot %d has motor gain %v, track gain %v, want > 0",
				i, s.MotorGain[i], s.TrackGain[i])
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"time", s.Time}, {"drift elapsed", s.DriftElapsed}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("potentiometer: state: %s = %v s, want a finite number >= 0", f.name, f.v)
		}
	}
	copy(r.p, s.Wiper)
	copy(r.k, s.MotorGain)
	copy(r.g, s.TrackGain)
	r.t, r.acc = s.Time, s.DriftElapsed
	r.gain = r.gainAt(r.t)
	if !r.ideal {
		copy(r.m, s.Motor)
		r.refresh()
	}
	return nil
}
