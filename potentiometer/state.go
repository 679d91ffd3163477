package potentiometer

import (
	"fmt"
	"math"
	"slices"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// RackState is the hidden state of a rack, for saving and restoring a machine: every per-pot
// value (A-unit pots first, the bias pot last), the rack's warm-up and its clocks. The
// parameters are not part of it; a state is restored into a rack built with the same n and
// Params. Readings and the rack gain are derived from it.
type RackState struct {
	// Motor is each pot's motor-side (gear-train input) position, increments: within half the
	// backlash of its wiper, and within +-(Range + Backlash/2).
	Motor []float64 `json:"motor"`
	// Wiper is each pot's wiper (shaft) position, increments, within the stops +-Range.
	Wiper []float64 `json:"wiper"`
	// MotorGain is each pot's fixed travel per nominal pulse, a factor in [MinGain, MaxGain]
	// (1 when MotorSpread is 0).
	MotorGain []float64 `json:"motor_gain"`
	// TrackGain is each pot's fixed track (reading) gain, a factor in [MinGain, MaxGain] (1
	// when Tolerance is 0).
	TrackGain []float64 `json:"track_gain"`
	// Time is the machine time, s.
	Time float64 `json:"time_s"`
	// DriftElapsed is the machine time since the last drift batch, s, in [0, DriftInterval)
	// (0 when WiperDrift is 0).
	DriftElapsed float64 `json:"drift_elapsed_s"`
	// TrackFactor is the rack's warm-up factor f in [0, MaxTrackFactor]: its gain goes from 1
	// towards 1 + TrackDrift*f (1 when TrackDrift or TrackSpread is 0).
	TrackFactor float64 `json:"track_factor"`
	// WarmLeft is the remaining warm-up fraction in [0, 1], exp(-Time/TrackTau) as the rack
	// computed it (the product of its per-step factors): the gain is
	// 1 + TrackDrift*TrackFactor*(1 - WarmLeft). 1 when TrackDrift is 0.
	WarmLeft float64 `json:"warm_left"`
	// RatchetRemainder is each pot's commanded travel not yet delivered by its ratchet, in
	// teeth, within half a tooth: [-1/2, 1/2]. Only with Drive "ratchet" (empty otherwise).
	RatchetRemainder []float64 `json:"ratchet_remainder,omitempty"`
}

// State returns a copy of the rack's hidden state.
func (r *Rack) State() RackState {
	return RackState{
		Motor:            slices.Clone(r.m),
		Wiper:            slices.Clone(r.p),
		MotorGain:        slices.Clone(r.k),
		TrackGain:        slices.Clone(r.g),
		Time:             r.t,
		DriftElapsed:     r.acc,
		TrackFactor:      r.factor,
		WarmLeft:         r.left,
		RatchetRemainder: slices.Clone(r.rem),
	}
}

// potName names pot i of a rack of n+1 pots for an error message.
func potName(field string, i, n int) string {
	if i == n {
		return fmt.Sprintf("%s[%d] (bias pot)", field, i)
	}
	return fmt.Sprintf("%s[%d]", field, i)
}

// SetState restores a state taken with State from a rack with the same n and Params; the rack
// then continues bit for bit as the original would (given the same random streams). It refuses,
// naming the JSON field and the pot, anything this rack could not have produced itself: wrong
// lengths, non-finite values, a wiper beyond the stops, a motor side beyond its limits or out
// of the play of its wiper, gains or the warm-up factor outside the bounds of NewRack's draws
// (or not 1 when their spread is 0), a warm-up fraction outside [0, 1] (or not 1 when the rack
// does not warm up), drift time outside [0, DriftInterval), ratchet remainders beyond half a
// tooth; for an ideal rack, a motor side not at its wiper or any hidden factor not 1. On an
// error the rack is unchanged. So any state that loads can drive, sum and be saved again.
func (r *Rack) SetState(s RackState) error {
	if err := r.check(s); err != nil {
		return err
	}
	r.ver++
	copy(r.p, s.Wiper)
	copy(r.k, s.MotorGain)
	copy(r.g, s.TrackGain)
	r.t, r.acc = s.Time, s.DriftElapsed
	r.factor, r.left = s.TrackFactor, s.WarmLeft
	if !r.ideal {
		copy(r.m, s.Motor)
		copy(r.rem, s.RatchetRemainder)
		r.setWarm()
		r.refresh()
	}
	return nil
}

// check returns why r could not have produced s, or nil.
func (r *Rack) check(s RackState) error {
	n := r.n + 1
	pr := r.prm
	wantRem := 0
	if r.ratchet {
		wantRem = n
	}
	for _, f := range []struct {
		name string
		v    []float64
		want int
	}{
		{"motor", s.Motor, n}, {"wiper", s.Wiper, n}, {"motor_gain", s.MotorGain, n}, {"track_gain", s.TrackGain, n},
		{"ratchet_remainder", s.RatchetRemainder, wantRem},
	} {
		if len(f.v) != f.want {
			return fmt.Errorf("potentiometer: %s: %d values, want %d (one per pot, the bias pot last; none without the ratchet drive)",
				f.name, len(f.v), f.want)
		}
		for i, v := range f.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("potentiometer: %s: %v, want a finite number", potName(f.name, i, r.n), v)
			}
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"time_s", s.Time}, {"drift_elapsed_s", s.DriftElapsed}, {"track_factor", s.TrackFactor}, {"warm_left", s.WarmLeft}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("potentiometer: %s: %v, want a finite number", f.name, f.v)
		}
	}
	if s.Time < 0 {
		return fmt.Errorf("potentiometer: time_s: %v, want >= 0", s.Time)
	}
	if r.ideal {
		for i := range n {
			if s.Motor[i] != s.Wiper[i] {
				return fmt.Errorf("potentiometer: %s: %v, want the wiper's %v (an ideal rack has no play)",
					potName("motor", i, r.n), s.Motor[i], s.Wiper[i])
			}
			if s.MotorGain[i] != 1 {
				return fmt.Errorf("potentiometer: %s: %v, want 1 (an ideal rack has no spreads)", potName("motor_gain", i, r.n), s.MotorGain[i])
			}
			if s.TrackGain[i] != 1 {
				return fmt.Errorf("potentiometer: %s: %v, want 1 (an ideal rack has no spreads)", potName("track_gain", i, r.n), s.TrackGain[i])
			}
		}
		switch {
		case s.DriftElapsed != 0:
			return fmt.Errorf("potentiometer: drift_elapsed_s: %v, want 0 (an ideal rack does not drift)", s.DriftElapsed)
		case s.TrackFactor != 1:
			return fmt.Errorf("potentiometer: track_factor: %v, want 1 (an ideal rack does not warm up)", s.TrackFactor)
		case s.WarmLeft != 1:
			return fmt.Errorf("potentiometer: warm_left: %v, want 1 (an ideal rack does not warm up)", s.WarmLeft)
		}
		return nil
	}
	for i := range n {
		m, p := s.Motor[i], s.Wiper[i]
		switch {
		case p > r.lim || p < -r.lim:
			return fmt.Errorf("potentiometer: %s: %v, want within the end stops at +-%v", potName("wiper", i, r.n), p, r.lim)
		case m > r.mlim || m < -r.mlim:
			return fmt.Errorf("potentiometer: %s: %v, want within the motor-side limits at +-%v (range + backlash/2)",
				potName("motor", i, r.n), m, r.mlim)
		case m-r.half > p || m+r.half < p:
			return fmt.Errorf("potentiometer: %s: %v, want within backlash/2 = %v of its wiper at %v",
				potName("motor", i, r.n), m, r.half, p)
		}
		for _, f := range []struct {
			name   string
			v      float64
			spread float64
		}{{"motor_gain", s.MotorGain[i], pr.MotorSpread}, {"track_gain", s.TrackGain[i], pr.Tolerance}} {
			if f.spread == 0 && f.v != 1 {
				return fmt.Errorf("potentiometer: %s: %v, want 1 (its spread is 0)", potName(f.name, i, r.n), f.v)
			}
			if f.v < MinGain || f.v > MaxGain {
				return fmt.Errorf("potentiometer: %s: %v, want %v..%v (the bounds of NewRack's draws)",
					potName(f.name, i, r.n), f.v, MinGain, MaxGain)
			}
		}
		if r.ratchet {
			if x := s.RatchetRemainder[i]; x < -0.5 || x > 0.5 {
				return fmt.Errorf("potentiometer: %s: %v teeth, want within half a tooth, -0.5..0.5",
					potName("ratchet_remainder", i, r.n), x)
			}
		}
	}
	switch {
	case (pr.TrackDrift == 0 || pr.TrackSpread == 0) && s.TrackFactor != 1:
		return fmt.Errorf("potentiometer: track_factor: %v, want 1 (track_drift or track_spread is 0)", s.TrackFactor)
	case s.TrackFactor < 0 || s.TrackFactor > MaxTrackFactor:
		return fmt.Errorf("potentiometer: track_factor: %v, want 0..%v (the bounds of NewRack's draw)", s.TrackFactor, MaxTrackFactor)
	case pr.TrackDrift == 0 && s.WarmLeft != 1:
		return fmt.Errorf("potentiometer: warm_left: %v, want 1 (track_drift is 0: the rack does not warm up)", s.WarmLeft)
	case s.WarmLeft < 0 || s.WarmLeft > 1:
		return fmt.Errorf("potentiometer: warm_left: %v, want 0..1", s.WarmLeft)
	case pr.WiperDrift == 0 && s.DriftElapsed != 0:
		return fmt.Errorf("potentiometer: drift_elapsed_s: %v, want 0 (wiper_drift is 0)", s.DriftElapsed)
	case s.DriftElapsed < 0 || (pr.WiperDrift > 0 && s.DriftElapsed >= pr.DriftInterval):
		return fmt.Errorf("potentiometer: drift_elapsed_s: %v, want >= 0 and < drift_interval_s %v", s.DriftElapsed, pr.DriftInterval)
	}
	return nil
}

// UpgradeState returns a state saved by the potentiometer model before the gear-true one (the
// machine's version 1 state files: no track_factor, warm_left or ratchet_remainder, and wipers
// that drifted alone, possibly further from their motors than the play) made into one a rack
// with Params p can load and continue from. Wipers keep their positions (clamped to the stops);
// each motor side moves to the nearest position within the play of its wiper, so the drift
// the earlier model gave the wiper alone becomes creep of the whole shaft; gains are clamped to
// [MinGain, MaxGain]; the warm-up factor is 1 (the earlier racks all warmed alike: restore them
// with TrackSpread 0 for the earlier behaviour) and the remaining warm-up fraction
// exp(-time_s/TrackTau); ratchet remainders are 0. Lengths and finiteness are left for SetState
// to check. A state saved by this model needs no upgrade.
func UpgradeState(p Params, s RackState) RackState {
	s.Motor, s.Wiper = slices.Clone(s.Motor), slices.Clone(s.Wiper)
	s.MotorGain, s.TrackGain = slices.Clone(s.MotorGain), slices.Clone(s.TrackGain)
	s.TrackFactor, s.WarmLeft, s.RatchetRemainder = 1, 1, nil
	if p.Ideal {
		copy(s.Motor, s.Wiper)
		return s
	}
	if p.TrackDrift != 0 && p.TrackTau > 0 {
		s.WarmLeft = detmath.Exp(-s.Time / p.TrackTau)
	}
	if p.Drive == DriveRatchet {
		s.RatchetRemainder = make([]float64, len(s.Wiper))
	}
	r := Rack{half: p.Backlash / 2}
	for i := range min(len(s.Motor), len(s.Wiper)) {
		w := clamp(s.Wiper[i], -p.Range, p.Range)
		s.Wiper[i] = w
		s.Motor[i] = r.follow(clamp(s.Motor[i], w-r.half, w+r.half), w)
	}
	for _, g := range [][]float64{s.MotorGain, s.TrackGain} {
		for i := range g {
			g[i] = clamp(g[i], MinGain, MaxGain)
		}
	}
	return s
}
