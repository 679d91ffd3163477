package potentiometer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/mark1-perceptron/mark1/knob"
)

// The drives a rack's pots may have (Params.Drive). The record tells of both: "motor-driven
// potentiometers" (Bishop; Tappert) and "relay coils driving potentiometers through ratchets"
// (a 1986 recollection by John Nagle).
const (
	// DriveMotor is a DC motor per pot, moving by timed travel: a continuous amount per pulse.
	DriveMotor = "motor"
	// DriveRatchet is a relay coil per pot, moving a ratchet wheel by whole teeth.
	DriveRatchet = "ratchet"
)

// Bounds of the fixed per-pot and per-rack factors NewRack draws. A draw beyond them is clamped
// to them (a part that far off would have been replaced), and SetState refuses values outside.
const (
	// MinGain and MaxGain bound every motor gain (MotorSpread) and track gain (Tolerance).
	MinGain, MaxGain = 0.5, 1.5
	// MaxTrackFactor bounds a rack's warm-up factor (TrackSpread) to [0, MaxTrackFactor]: a
	// rack warms by between nothing and twice TrackDrift.
	MaxTrackFactor = 2
	// MaxTeeth is the largest TeethPerIncrement: a finer ratchet is a motor for every purpose,
	// and a Drive costs one random draw per tooth when the ratchet slips.
	MaxTeeth = 1000
)

// Params are the physical parameters of a rack of motor-driven potentiometers. Every figure is
// assumed (the record gives none); see the package documentation for the model. Each field
// says what it models, its unit, its default and where the default comes from; ParamDocs gives
// the same in a form the machine's configuration files use, in the same order.
type Params struct {
	// Range is the position of the mechanical end stops on the pot's shaft, at -Range and
	// +Range increments: a wiper driven into a stop reaches exactly +-Range, the motor side
	// stops Backlash/2 further on (the play taken up against the stop), and drift never
	// carries a shaft past a stop. Must be > 0; +Inf means no end stops. Default 64 (assumed).
	// Ideal: +Inf.
	Range float64 `json:"range"`
	// Resolution is the step of the wire-wound track: a reading is the wiper position rounded
	// to the nearest multiple of Resolution, in increments; 0 means a continuous track. It
	// rounds only positions that are not already multiples of it: alone it acts under the
	// gamma rule's fractional steps, and with whole steps (alpha, forced) only with backlash,
	// motor_spread, pulse_jitter or wiper_drift. Default 0.2 (assumed).
	Resolution float64 `json:"resolution"`
	// Backlash is the play in the gear train between the motor (or ratchet) side and the
	// wiper, in increments: after a reversal the first Backlash of travel only takes up the
	// slack. Default 0.3 (assumed).
	Backlash float64 `json:"backlash"`
	// MotorSpread is the spread of travel per pulse between drives, fixed per pot: each pot's
	// motor gain (for a ratchet, its tooth pitch through the gears) is 1 + N(0, MotorSpread),
	// drawn once by NewRack and clamped to [MinGain, MaxGain]. Sigma as a fraction. Default 0.05
	// (assumed).
	MotorSpread float64 `json:"motor_spread"`
	// PulseJitter is the spread of travel from one pulse to the next on the motor drive: the
	// travel of a moved pot is scaled by 1 + u, u uniform in [-PulseJitter, +PulseJitter]. A
	// fraction in [0, 1). A ratchet moves by whole teeth and has no jitter (its per-pulse
	// errors are RatchetMiss and RatchetDouble). Default 0.1 (assumed).
	PulseJitter float64 `json:"pulse_jitter"`
	// Tolerance is the spread of track resistance between pots: each pot's reading is scaled
	// by its fixed track gain 1 + N(0, Tolerance), drawn once by NewRack and clamped to
	// [MinGain, MaxGain]. Sigma as a fraction. Default 0.02 (assumed).
	Tolerance float64 `json:"tolerance"`
	// WiperDrift is the slow creep of every pot's shaft (motor side and wiper together), a
	// random walk of WiperDrift increments per square root of hour of machine time. Default
	// 0.05 (assumed).
	WiperDrift float64 `json:"wiper_drift"`
	// DriftInterval is the machine time between drift batches, in seconds: the drift is
	// applied to every shaft at once, exactly, each time this much machine time has passed. It
	// acts only with WiperDrift, and must then be > 0. Default 600 s, 200 presentations (a
	// modelling choice, not a physical figure: at the default WiperDrift one batch moves a
	// shaft about 0.02 increments, well below the wire-wound resolution, and batching keeps
	// drift off the hot loop).
	DriftInterval float64 `json:"drift_interval_s"`
	// TrackDrift is the fractional change of a rack's gain as it warms up: rack r's gain goes
	// from 1 towards 1 + TrackDrift*f_r, where f_r is the rack's warm-up factor (TrackSpread),
	// so racks warm differently and the decisions between R-units change. Must be greater than
	// -1/MaxTrackFactor = -0.5 (every rack's gain stays positive). Default -0.01 (assumed).
	TrackDrift float64 `json:"track_drift"`
	// TrackTau is the warm-up time constant of the rack gains, in seconds of machine time. It
	// acts only with TrackDrift, and must then be > 0. Default 1800 s (assumed).
	TrackTau float64 `json:"track_tau_s"`
	// TrackSpread is the spread of warm-up between racks (their place in the cabinet): rack r's
	// warm-up factor f_r is 1 + N(0, TrackSpread), drawn once per rack by NewRack and clamped to
	// [0, MaxTrackFactor]. Sigma as a fraction of TrackDrift; it acts only with TrackDrift.
	// Default 0.3 (assumed).
	TrackSpread float64 `json:"track_spread"`
	// ContactNoise is the noise of one wiper contact as seen in an R-unit's sum, in increments
	// RMS; a sum over a active pots and the bias pot has noise ContactNoise*sqrt(a+1).
	// Default 0.05 (assumed).
	ContactNoise float64 `json:"contact_noise"`
	// Drive is how the pots are turned: DriveMotor ("motor", timed travel, continuous; the
	// default, after Bishop and Tappert) or DriveRatchet ("ratchet", whole teeth, after Nagle's
	// recollection); "" means "motor". The record tells both; it is a choice between
	// historical accounts. With whole steps and a whole number of teeth per step the two
	// differ only by pulse_jitter and ratchet_slip; under the gamma rule's fractional steps the
	// ratchet rounds (see the package documentation).
	Drive string `json:"drive"`
	// TeethPerIncrement is the ratchet's teeth per nominal increment: each relay stroke moves
	// the ratchet one tooth, 1/TeethPerIncrement increments (times the pot's motor gain). It
	// acts only with Drive "ratchet", and must then be in (0, MaxTeeth]. Default 1, one
	// stroke per correction (assumed).
	TeethPerIncrement float64 `json:"teeth_per_increment"`
	// RatchetMiss is the probability that one relay stroke of a ratchet fails to catch its
	// tooth and moves nothing. It acts only with Drive "ratchet". Default 0.01 (assumed).
	RatchetMiss float64 `json:"ratchet_miss"`
	// RatchetDouble is the probability that one relay stroke of a ratchet overshoots and moves
	// two teeth. It acts only with Drive "ratchet"; RatchetMiss + RatchetDouble must be < 1.
	// Default 0.005 (assumed).
	RatchetDouble float64 `json:"ratchet_double"`
	// Ideal turns every effect off: exact increments, no end stops, no noise, no drift, no
	// random draws. The other fields are then ignored (but must still be valid).
	Ideal bool `json:"ideal"`
}

// DefaultParams returns the analog rack with every effect on, at the assumed defaults of the
// package documentation, with the motor drive.
func DefaultParams() Params {
	return Params{
		Range:             64,
		Resolution:        0.2,
		Backlash:          0.3,
		MotorSpread:       0.05,
		PulseJitter:       0.1,
		Tolerance:         0.02,
		WiperDrift:        0.05,
		DriftInterval:     600,
		TrackDrift:        -0.01,
		TrackTau:          1800,
		TrackSpread:       0.3,
		ContactNoise:      0.05,
		Drive:             DriveMotor,
		TeethPerIncrement: 1,
		RatchetMiss:       0.01,
		RatchetDouble:     0.005,
	}
}

// IdealParams returns the ideal rack: exact increments, no end stops, every spread, drift and
// noise 0. It is NeutralParams with Ideal set: the ideal rack is the fast exact model of the
// neutral one, and the other fields, which it ignores, are the neutral values.
func IdealParams() Params {
	p := NeutralParams()
	p.Ideal = true
	return p
}

// NeutralParams returns the analog rack (Ideal false) with every effect at its neutral value:
// no end stops (Range +Inf), Resolution, Backlash, MotorSpread, PulseJitter, Tolerance,
// WiperDrift, TrackDrift, ContactNoise, RatchetMiss and RatchetDouble 0, the motor drive. It
// gives exactly, bit for bit, the readings, sums and positions of IdealParams for the same
// Drive, Sum and Advance calls, with whole or fractional steps; it is only slower.
//
// The parameters that act only with another (DriftInterval with WiperDrift; TrackTau and
// TrackSpread with TrackDrift; TeethPerIncrement with the ratchet drive) keep their defaults:
// they have no effect here, and copying one effect's field from DefaultParams then gives that
// effect as the defaults model it.
func NeutralParams() Params {
	d := DefaultParams()
	return Params{
		Range:             math.Inf(1),
		DriftInterval:     d.DriftInterval,
		TrackTau:          d.TrackTau,
		TrackSpread:       d.TrackSpread,
		Drive:             DriveMotor,
		TeethPerIncrement: d.TeethPerIncrement,
	}
}

// ParamDocs describes the fields of Params by JSON name, in field order, without "ideal" (a
// part is ideal exactly when its flaws are off). Flaw names group the parameters that one
// switch turns on: "end_stops", "resolution", "backlash", "motor_spread", "pulse_jitter",
// "tolerance", "wiper_drift", "track_drift", "contact_noise" and "ratchet_slip"; "drive" and
// "teeth_per_increment" are settings. A Note says what a parameter acts only with, when it
// cannot act alone from NeutralParams.
func ParamDocs() []knob.Doc {
	return []knob.Doc{
		{Key: "range", Models: "end stops on each pot's shaft at -range and +range (inf: none)", Unit: "increments",
			Source: knob.Assumed, Flaw: "end_stops", Range: knob.Range{Min: 0, Max: MaxIncrements, MinOpen: true, InfOK: true}},
		{Key: "resolution", Models: "wire-wound track step: readings round to its multiples (0: continuous)", Unit: "increments",
			Source: knob.Assumed, Flaw: "resolution",
			Note: "acts only on fractional positions: alone under the gamma rule's fractional steps; with whole steps only with backlash, motor_spread, pulse_jitter or wiper_drift", Range: knob.Closed(0, MaxIncrements)},
		{Key: "backlash", Models: "gear play between motor side and wiper, taken up on reversal", Unit: "increments",
			Source: knob.Assumed, Flaw: "backlash", Range: knob.Closed(0, MaxIncrements)},
		{Key: "motor_spread", Models: "travel per pulse of each pot's drive (fixed per pot), sigma", Unit: "fraction",
			Source: knob.Assumed, Flaw: "motor_spread", Range: knob.Closed(0, 1)},
		{Key: "pulse_jitter", Models: "travel spread of each motor pulse, +- (the ratchet has none)", Unit: "fraction",
			Source: knob.Assumed, Flaw: "pulse_jitter", Range: knob.Range{Min: 0, Max: 1, MaxOpen: true}},
		{Key: "tolerance", Models: "track resistance (reading gain) of each pot, fixed, sigma", Unit: "fraction",
			Source: knob.Assumed, Flaw: "tolerance", Range: knob.Closed(0, 1)},
		{Key: "wiper_drift", Models: "creep of each pot's shaft (motor side and wiper together), random walk", Unit: "increments/sqrt(h)",
			Source: knob.Assumed, Flaw: "wiper_drift", Range: knob.Closed(0, MaxIncrements)},
		{Key: "drift_interval_s", Models: "machine time between drift batches (exact at the batch instants)", Unit: "s",
			Source: knob.Modelling, Flaw: "wiper_drift", Note: "acts only with wiper_drift", Range: knob.Range{Min: MinSeconds, Max: MaxSeconds, ZeroOK: true}},
		{Key: "track_drift", Models: "change of each rack's gain on warm-up, scaled by the rack's factor", Unit: "fraction",
			Source: knob.Assumed, Flaw: "track_drift", Range: knob.Range{Min: -1.0 / MaxTrackFactor, Max: 1, MinOpen: true}},
		{Key: "track_tau_s", Models: "warm-up time constant of the rack gains", Unit: "s",
			Source: knob.Assumed, Flaw: "track_drift", Note: "acts only with track_drift", Range: knob.Range{Min: MinSeconds, Max: MaxSeconds, ZeroOK: true}},
		{Key: "track_spread", Models: "spread of warm-up between racks (each rack's factor), sigma", Unit: "fraction",
			Source: knob.Assumed, Flaw: "track_drift", Note: "acts only with track_drift", Range: knob.Closed(0, 1)},
		{Key: "contact_noise", Models: "wiper contact noise of each pot in an R-unit's sum, RMS", Unit: "increments",
			Source: knob.Assumed, Flaw: "contact_noise", Range: knob.Closed(0, MaxIncrements)},
		{Key: "drive", Models: "how pots are turned: motor (timed travel; Bishop, Tappert) or ratchet (whole teeth; Nagle)",
			Source: knob.Historical,
			Note:   "acts alone only on the gamma rule's fractional steps; with whole steps only with pulse_jitter, ratchet_slip or teeth_per_increment not a whole number", Range: knob.Names(DriveMotor, DriveRatchet)},
		{Key: "teeth_per_increment", Models: "ratchet teeth per nominal increment (one relay stroke per tooth)", Unit: "teeth/increment",
			Source: knob.Assumed, Note: "acts only with drive ratchet", Range: knob.Closed(0, MaxTeeth)},
		{Key: "ratchet_miss", Models: "probability a relay stroke misses its tooth (moves nothing)", Unit: "probability",
			Source: knob.Assumed, Flaw: "ratchet_slip", Note: "acts only with drive ratchet", Range: knob.Range{Min: 0, Max: 1, MaxOpen: true}},
		{Key: "ratchet_double", Models: "probability a relay stroke moves two teeth", Unit: "probability",
			Source: knob.Assumed, Flaw: "ratchet_slip", Note: "acts only with drive ratchet", Range: knob.Range{Min: 0, Max: 1, MaxOpen: true}},
	}
}

// Validate reports the first invalid field of p, by its JSON name, or nil: each field against
// its range in ParamDocs, then the fields that depend on each other.
func (p Params) Validate() error {
	q := p
	if q.Drive == "" {
		q.Drive = DriveMotor // a state written before the ratchet drive existed
	}
	if err := knob.CheckStruct(q, ParamDocs()); err != nil {
		return fmt.Errorf("potentiometer: %w", err)
	}
	switch {
	case p.WiperDrift > 0 && p.DriftInterval == 0:
		return fmt.Errorf("potentiometer: drift_interval_s: %v, want at least %v s (wiper_drift is %v)", p.DriftInterval, float64(MinSeconds), p.WiperDrift)
	case p.TrackDrift != 0 && p.TrackTau == 0:
		return fmt.Errorf("potentiometer: track_tau_s: %v, want at least %v s (track_drift is %v)", p.TrackTau, float64(MinSeconds), p.TrackDrift)
	case p.Drive == DriveRatchet && p.TeethPerIncrement == 0:
		return fmt.Errorf("potentiometer: teeth_per_increment: %v, want more than 0 (drive is ratchet)", p.TeethPerIncrement)
	case !(p.RatchetMiss+p.RatchetDouble < 1):
		return fmt.Errorf("potentiometer: ratchet_double: %v, want < 1 - ratchet_miss = %v (a stroke must be able to move one tooth)",
			p.RatchetDouble, 1-p.RatchetMiss)
	}
	return nil
}

// Bounds of the parameters (ParamDocs' ranges): sizes in increments and times in seconds. A
// time constant or an interval is 0 (its effect off) or at least MinSeconds: shorter, a drift
// would be drawn millions of times a presentation.
const (
	MaxIncrements = 1e6
	MaxSeconds    = 1e12
	MinSeconds    = 1
)

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
			return fmt.Errorf("potentiometer: range: %q, want a number, \"+Inf\", \"-Inf\" or \"NaN\"", s)
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
	// Unknown fields are refused, as the state file's reader refuses them everywhere else.
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if v.Range != nil {
		p.Range = float64(*v.Range)
	}
	return nil
}
