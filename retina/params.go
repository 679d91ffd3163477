package retina

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Polarity says which part of the card the S-units report as figure.
type Polarity int

const (
	// DarkFigure (the default) turns an S-unit on where the card is dark: printed ink on white
	// paper.
	DarkFigure Polarity = iota
	// LightFigure turns an S-unit on where the card is bright: a light figure on a dark ground.
	LightFigure
)

var polarityNames = [...]string{DarkFigure: "dark", LightFigure: "light"}

// String returns the polarity's name: "dark" or "light".
func (p Polarity) String() string {
	if p >= 0 && int(p) < len(polarityNames) {
		return polarityNames[p]
	}
	return fmt.Sprintf("Polarity(%d)", int(p))
}

// ParsePolarity reads a polarity name: dark or light (case-insensitive).
func ParsePolarity(s string) (Polarity, error) {
	for i, n := range polarityNames {
		if strings.EqualFold(s, n) {
			return Polarity(i), nil
		}
	}
	return 0, fmt.Errorf("retina: unknown polarity %q (want dark or light)", s)
}

// MarshalText implements encoding.TextMarshaler ("dark" or "light").
func (p Polarity) MarshalText() ([]byte, error) {
	if p < 0 || int(p) >= len(polarityNames) {
		return nil, fmt.Errorf("retina: unknown polarity %d", int(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Polarity) UnmarshalText(b []byte) error {
	v, err := ParsePolarity(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Params describes the optics and the photocells. Start from DefaultParams or IdealParams and
// change what an experiment needs. For each field the comment says what it models, its unit, its
// default, and whether the value is historical (from the record) or assumed (a plausible choice:
// the record is silent). Only the 20x20 grid of cadmium-sulphide cells and the lamps-and-lens
// optics are historical; every number below is assumed.
type Params struct {
	// Scale multiplies the card's size on the field after the default fit, which scales the card
	// with its aspect ratio kept so that its larger side spans the 20 cells, centred. Unit: factor
	// (> 0). Default 1. Assumed (size experiments: the manual says the machine classified by
	// size).
	Scale float64 `json:"scale"`
	// OffsetX and OffsetY shift the card on the field, in cells, along the field's axes (+x right,
	// +y down), after rotation. Default 0. Assumed (position experiments).
	OffsetX float64 `json:"offset_x_cells"`
	OffsetY float64 `json:"offset_y_cells"`
	// Rotation turns the card clockwise, in degrees, about its own centre, which is the field
	// centre when the offsets are 0. Default 0. Assumed.
	Rotation float64 `json:"rotation_deg"`
	// Blur models the lens's defocus: a Gaussian point-spread function with this sigma, in
	// cells (0 = sharp, at most 10). Default 0.35. Assumed.
	Blur float64 `json:"blur_cells"`
	// Lamp is the brightness of the lamps lighting the card, as a multiplier (1 = nominal:
	// white paper gives light 1). Unit: factor (0..1000). Default 1. Lamps and lens are
	// historical; the value is assumed.
	Lamp float64 `json:"lamp"`
	// Surround is the luminance seen outside the card's image (and under transparent pixels),
	// 0 (black) to 1 (white paper). Default 1. Assumed.
	Surround float64 `json:"surround"`
	// Polarity says whether dark (DarkFigure, default) or bright (LightFigure) parts of the card
	// turn the S-units on. Assumed (printed cards: dark ink on white).
	Polarity Polarity `json:"polarity"`

	// Gamma is the cadmium-sulphide cell's non-linear response: conductance ~ light^Gamma.
	// Unit: exponent (0 < Gamma <= 10). Default 0.8, typical of CdS cells. CdS cells are
	// historical; the value is assumed.
	Gamma float64 `json:"gamma"`
	// Spread is the cell-to-cell sensitivity spread: each cell's conductance is multiplied by
	// 1 + Spread*z, z standard normal, drawn once per machine from the rng given to New (clamped
	// at 0). Unit: fraction, sigma (0..1). Default 0.05. Assumed.
	Spread float64 `json:"spread"`
	// RiseTau is the cells' first-order lag when the light increases. Unit: seconds of machine
	// time (>= 0; 0 = instant). Default 0.03 s. Assumed (CdS cells rise faster than they decay).
	RiseTau float64 `json:"rise_tau_s"`
	// DecayTau is the cells' first-order lag when the light decreases: a dark card shown right
	// after a bright one leaves an after-image. Unit: seconds (>= 0). Default 0.3 s. Assumed.
	DecayTau float64 `json:"decay_tau_s"`
	// Latch is the time after the card appears at which the comparators read the cells. Unit:
	// seconds (>= 0). Default 1 s. Assumed (a presentation took about 3 s on the original,
	// which is historical). When a presentation is shorter than Latch, the cells latch at its end.
	Latch float64 `json:"latch_s"`
	// DarkNoise is the comparator-input noise (dark current and amplifier noise): Gaussian, this
	// sigma, in units of the full-light conductance, drawn at every latch. Unit: conductance
	// (>= 0). Default 0.01. Assumed.
	DarkNoise float64 `json:"dark_noise"`
	// Threshold is the comparator threshold expressed as a light level (0..1 of white paper under
	// the nominal lamp); the comparator compares a cell's conductance with Threshold^Gamma, the
	// same for every cell, so the sensitivity spread moves cells across it. Unit: light (0..1000).
	// Default 0.5. Assumed.
	Threshold float64 `json:"threshold"`
	// Ideal turns every cell and lens effect off: each S-unit is the area average of the
	// card's luminance over its cell, on when it is below one half (DarkFigure; above for
	// LightFigure). Only Scale, OffsetX, OffsetY, Rotation, Surround and Polarity still apply;
	// Blur, Lamp, Gamma, Spread, the lags, DarkNoise and Threshold are ignored. Default false.
	Ideal bool `json:"ideal"`
}

// DefaultParams returns the analog retina with every effect on, at the documented defaults.
func DefaultParams() Params {
	return Params{
		Scale:     1,
		Blur:      0.35,
		Lamp:      1,
		Surround:  1,
		Polarity:  DarkFigure,
		Gamma:     0.8,
		Spread:    0.05,
		RiseTau:   0.03,
		DecayTau:  0.3,
		Latch:     1,
		DarkNoise: 0.01,
		Threshold: 0.5,
	}
}

// IdealParams returns the ideal retina: default placement, area average, fixed threshold of one
// half. The cell fields hold neutral values (no blur, gamma 1, no spread, no lag, no noise) so
// that clearing Ideal gives an ideal-behaving analog retina.
func IdealParams() Params {
	return Params{
		Scale:     1,
		Lamp:      1,
		Surround:  1,
		Polarity:  DarkFigure,
		Gamma:     1,
		Latch:     1,
		Threshold: 0.5,
		Ideal:     true,
	}
}

// maxBlur bounds Blur (cells): the focal plane grows with the blur's reach.
const maxBlur = 10

// maxLevel bounds Lamp and Threshold, keeping every conductance finite.
const maxLevel = 1000

// maxPlacement bounds Scale and the offsets: beyond it the card is far smaller than a cell or far
// off the field, and the arithmetic would lose meaning.
const maxPlacement = 1e6

// Validate reports the first field of p that is out of range, naming it.
func (p Params) Validate() error {
	err := p.validate()
	if err != nil {
		return fmt.Errorf("retina: params: %w", err)
	}
	return nil
}

func (p Params) validate() error {
	finite := []struct {
		name string
		v    float64
	}{
		{"scale", p.Scale}, {"offset_x_cells", p.OffsetX}, {"offset_y_cells", p.OffsetY},
		{"rotation_deg", p.Rotation}, {"blur_cells", p.Blur}, {"lamp", p.Lamp},
		{"surround", p.Surround}, {"gamma", p.Gamma}, {"spread", p.Spread},
		{"rise_tau_s", p.RiseTau}, {"decay_tau_s", p.DecayTau}, {"latch_s", p.Latch},
		{"dark_noise", p.DarkNoise}, {"threshold", p.Threshold},
	}
	for _, f := range finite {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s: %v is not a finite number", f.name, f.v)
		}
	}
	switch {
	case !(p.Scale > 0) || p.Scale > maxPlacement:
		return fmt.Errorf("scale: %v is outside (0, %g]", p.Scale, float64(maxPlacement))
	case math.Abs(p.OffsetX) > maxPlacement:
		return fmt.Errorf("offset_x_cells: %v is outside +-%g", p.OffsetX, float64(maxPlacement))
	case math.Abs(p.OffsetY) > maxPlacement:
		return fmt.Errorf("offset_y_cells: %v is outside +-%g", p.OffsetY, float64(maxPlacement))
	case p.Blur < 0 || p.Blur > maxBlur:
		return fmt.Errorf("blur_cells: %v is outside 0..%d", p.Blur, maxBlur)
	case p.Lamp < 0 || p.Lamp > maxLevel:
		return fmt.Errorf("lamp: %v is outside 0..%d", p.Lamp, maxLevel)
	case p.Surround < 0 || p.Surround > 1:
		return fmt.Errorf("surround: %v is outside 0..1", p.Surround)
	case p.Polarity != DarkFigure && p.Polarity != LightFigure:
		return fmt.Errorf("polarity: unknown polarity %d", int(p.Polarity))
	case !(p.Gamma > 0) || p.Gamma > 10:
		return fmt.Errorf("gamma: %v is outside (0, 10]", p.Gamma)
	case p.Spread < 0 || p.Spread > 1:
		return fmt.Errorf("spread: %v is outside 0..1", p.Spread)
	case p.RiseTau < 0:
		return fmt.Errorf("rise_tau_s: %v is negative", p.RiseTau)
	case p.DecayTau < 0:
		return fmt.Errorf("decay_tau_s: %v is negative", p.DecayTau)
	case p.Latch < 0:
		return fmt.Errorf("latch_s: %v is negative", p.Latch)
	case p.DarkNoise < 0:
		return fmt.Errorf("dark_noise: %v is negative", p.DarkNoise)
	case p.Threshold < 0 || p.Threshold > maxLevel:
		return fmt.Errorf("threshold: %v is outside 0..%d", p.Threshold, maxLevel)
	}
	return nil
}

// errNoRNG is returned by New when the sensitivity spread needs random numbers.
var errNoRNG = errors.New("a random source is needed to draw the sensitivity spread")
