package potentiometer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Params are the physical parameters of a rack of motor-driven potentiometers. Every default is
// assumed (the record gives no figures); see the package documentation for the model.
type Params struct {
	// Range is the position of the end stops, at -Range and +Range increments: neither the
	// motor nor the wiper goes beyond them. Must be > 0; +Inf means no end stops. Default 64
	// (assumed). Ideal: +Inf.
	Range float64 `json:"range"`
	// Resolution is the step of the wire-wound track: a reading is the wiper position rounded
	// to the nearest multiple of Resolution, in increments. 0 means a continuous track.
	// Default 0.2 (assumed).
	Resolution float64 `json:"resolution"`
	// Backlash is the play in the gear train between motor and wiper, in increments: after a
	// reversal the first Backlash of motor travel does not move the wiper. Default 0.3
	// (assumed).
	Backlash float64 `json:"backlash"`
	// MotorSpread is the spread of travel per pulse between motors, fixed per motor: each
	// motor's gain is 1 + N(0, MotorSpread), drawn once by NewRack (clamped to >= 0.5). Sigma as a
	// fraction. Default 0.05 (assumed).
	MotorSpread float64 `json:"motor_spread"`
	// PulseJitter is the spread of travel from one Drive to the next: the travel of a moved pot
	// is scaled by 1 + u, u uniform in [-PulseJitter, +PulseJitter]. A fraction in [0, 1).
	// Default 0.1 (assumed).
	PulseJitter float64 `json:"pulse_jitter"`
	// Tolerance is the spread of track resistance between pots: each pot's reading is scaled by
	// its fixed gain 1 + N(0, Tolerance), drawn once by NewRack (clamped to >= 0.5). Sigma as a
	// fraction. Default 0.02 (assumed).
	Tolerance float64 `json:"tolerance"`
	// WiperDrift is the slow creep of every wiper, a random walk of WiperDrift increments per
	// square root of hour of machine time. Default 0.05 (assumed).
	WiperDrift float64 `json:"wiper_drift"`
	// DriftInterval is the machine time between drift batches, in seconds: drift is applied to
	// every wiper at once, exactly, each time this much machine time has passed. Must be > 0
	// when WiperDrift > 0. Default 600 s, 200 presentations (assumed; a modelling choice, not a
	// physical figure: at the default WiperDrift one batch moves a wiper about 0.02 increments,
	// well below the wire-wound resolution, and batching keeps drift off the hot loop).
	DriftInterval float64 `json:"drift_interval_s"`
	// TrackDrift is the fractional change of the whole rack's gain as it warms up: the gain
	// goes from 1 towards 1 + TrackDrift. Must be > -1. Default -0.01 (assumed).
	TrackDrift float64 `json:"track_drift"`
	// TrackTau is the warm-up time constant of the rack gain, in seconds of machine time. Must
	// be > 0 when TrackDrift != 0. Default 1800 s (assumed).
	TrackTau float64 `json:"track_tau_s"`
	// ContactNoise is the noise of one wiper contact as seen in an R-unit's sum, in increments
	// RMS; a sum over a active pots and the bias pot has noise ContactNoise*sqrt(a+1).
	// Default 0.05 (assumed).
	ContactNoise float64 `json:"contact_noise"`
	// Ideal turns every effect off: exact increments, no end stops, no noise, no drift, no
	// random draws. The other fields are then ignored (but must still be valid).
	Ideal bool `json:"ideal"`
}

// DefaultParams returns the analog rack with every effect on, at the assumed defaults of the
// package documentation.
func DefaultParams() Params {
	return Params{
		Range:         64,
		Resolution:    0.2,
		Backlash:      0.3,
		MotorSpread:   0.05,
		PulseJitter:   0.1,
		Tolerance:     0.02,
		WiperDrift:    0.05,
		DriftInterval: 600,
		TrackDrift:    -0.01,
		TrackTau:      1800,
		ContactNoise:  0.05,
	}
}

// IdealParams returns the ideal rack: exact integer increments, no end stops, every spread,
// drift and noise 0.
func IdealParams() Params {
	return Params{Range: math.Inf(1), Ideal: true}
}

// Validate reports the first invalid field of p, or nil.
func (p Params) Validate() error {
	finite := []struct {
		name string
		v    float64
	}{
		{"Resolution", p.Resolution},
		{"Backlash", p.Backlash},
		{"MotorSpread", p.MotorSpread},
		{"PulseJitter", p.PulseJitter},
		{"Tolerance", p.Tolerance},
		{"WiperDrift", p.WiperDrift},
		{"DriftInterval", p.DriftInterval},
		{"TrackDrift", p.TrackDrift},
		{"TrackTau", p.TrackTau},
		{"ContactNoise", p.ContactNoise},
	}
	if math.IsNaN(p.Range) || p.Range <= 0 {
		return fmt.Errorf("potentiometer: Range = %v, want > 0 (+Inf for no end stops)", p.Range)
	}
	for _, f := range finite {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("potentiometer: %s = %v, want a finite number", f.name, f.v)
		}
		if f.v < 0 && f.name != "TrackDrift" {
			return fmt.Errorf("potentiometer: %s = %v, want >= 0", f.name, f.v)
		}
	}
	if p.PulseJitter >= 1 {
		return fmt.Errorf("potentiometer: PulseJitter = %v, want < 1 (a pulse must not reverse the motor)", p.PulseJitter)
	}
	if p.WiperDrift > 0 && p.DriftInterval <= 0 {
		return fmt.Errorf("potentiometer: DriftInterval = %v with WiperDrift %v, want > 0", p.DriftInterval, p.WiperDrift)
	}
	if p.TrackDrift <= -1 {
		return fmt.Errorf("potentiometer: TrackDrift = %v, want > -1 (the rack gain must stay positive)", p.TrackDrift)
	}
	if p.TrackDrift != 0 && p.TrackTau <= 0 {
		return fmt.Errorf("potentiometer: TrackTau = %v with TrackDrift %v, want > 0", p.TrackTau, p.TrackDrift)
	}
	return nil
}

// jsonFloat is a float64 that JSON can carry when infinite or NaN: those are written as the
// strings "+Inf", "-Inf" and "NaN" (JSON numbers cannot express them).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	}
	return json.Marshal(v)
}

func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return errors.New("potentiometer: want a number, \"+Inf\", \"-Inf\" or \"NaN\", got " + strconv.Quote(s))
		}
		*f = jsonFloat(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = jsonFloat(v)
	return nil
}

// MarshalJSON encodes p with its field tags; an infinite Range (no end stops, as in
// IdealParams) is written as the string "+Inf", since JSON numbers cannot be infinite.
func (p Params) MarshalJSON() ([]byte, error) {
	type plain Params // no methods: no recursion
	return json.Marshal(struct {
		plain
		Range jsonFloat `json:"range"`
	}{plain(p), jsonFloat(p.Range)})
}

// UnmarshalJSON decodes what MarshalJSON writes; Range may be a number or "+Inf". Fields
// absent from the input keep their values.
func (p *Params) UnmarshalJSON(b []byte) error {
	type plain Params
	v := struct {
		*plain
		Range *jsonFloat `json:"range"`
	}{plain: (*plain)(p)}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Range != nil {
		p.Range = float64(*v.Range)
	}
	return nil
}
