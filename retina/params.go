package retina

import (
	"fmt"
	"strings"

	"github.com/mark1-perceptron/mark1/knob"
)

// Polarity says which part of the card the S-units report as figure.
type Polarity int

const (
	// DarkFigure turns an S-unit on where the card is dark: printed ink on white paper.
	DarkFigure Polarity = iota
	// LightFigure turns an S-unit on where the card is bright: a light figure on a dark ground.
	LightFigure
	// AutoPolarity (the default) decides for each card in Prepare: the figure is what differs
	// from the card's border. A card whose outermost ring of pixels is dark on average (mean
	// luminance below one half, transparent pixels composited over Surround) is a light figure
	// on a dark ground (LightFigure: MNIST digits), and the field outside its image is then
	// taken to be 1-Surround (see Params.Surround); any other card, and an empty image, is
	// DarkFigure. See Stimulus.Polarity.
	AutoPolarity
)

var polarityNames = [...]string{DarkFigure: "dark", LightFigure: "light", AutoPolarity: "auto"}

// String returns the polarity's name: "dark", "light" or "auto".
func (p Polarity) String() string {
	if p >= 0 && int(p) < len(polarityNames) {
		return polarityNames[p]
	}
	return fmt.Sprintf("Polarity(%d)", int(p))
}

// ParsePolarity reads a polarity name: dark, light or auto (case-insensitive).
func ParsePolarity(s string) (Polarity, error) {
	for i, n := range polarityNames {
		if strings.EqualFold(s, n) {
			return Polarity(i), nil
		}
	}
	return 0, fmt.Errorf("retina: polarity: %q, want dark, light or auto", s)
}

// MarshalText implements encoding.TextMarshaler ("dark", "light" or "auto").
func (p Polarity) MarshalText() ([]byte, error) {
	if p < 0 || int(p) >= len(polarityNames) {
		return nil, fmt.Errorf("retina: polarity: %d, want dark, light or auto", int(p))
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

// Params describes the optics and the photocells. Start from DefaultParams, IdealParams or
// NeutralParams and change what an experiment needs. For each field the comment says what it
// models, its unit, its default, and where the default comes from: historical (from the record),
// assumed (a plausible choice: the record is silent), or a setting (an experiment's choice, not
// a property of the machine). Only the 20x20 grid of cadmium-sulphide cells and the
// lamps-and-lens optics are historical; every number below is assumed or a setting. ParamDocs
// gives the same descriptions as data, with the flaw each field belongs to.
type Params struct {
	// Scale multiplies the card's size on the field after the default fit, which scales the card
	// with its aspect ratio kept so that its larger side spans the 20 cells, centred. Unit: factor
	// (1e-6..1e6). Default 1. Setting (size experiments: the manual says the machine classified by
	// size).
	Scale float64 `json:"scale"`
	// OffsetX shifts the card on the field along the field's x axis (+x right), after
	// rotation. Unit: cells. Default 0. Setting (position experiments).
	OffsetX float64 `json:"offset_x_cells"`
	// OffsetY shifts the card on the field along the field's y axis (+y down), after rotation.
	// Unit: cells. Default 0. Setting (position experiments).
	OffsetY float64 `json:"offset_y_cells"`
	// Rotation turns the card clockwise about its own centre, which is the field centre when
	// the offsets are 0. Unit: degrees. Default 0. Setting.
	Rotation float64 `json:"rotation_deg"`
	// Blur models the lens's defocus: a Gaussian point-spread function with this sigma on the
	// field. Unit: cells (0 = sharp, at most 10). Default 0.35. Assumed. Flaw "blur".
	Blur float64 `json:"blur_cells"`
	// Lamp is the brightness of the lamps lighting the card, as a multiplier (1 = nominal:
	// white paper gives light 1). Unit: factor (0..1000). Default 1. Setting (lamps and lens are
	// historical; the level is assumed).
	Lamp float64 `json:"lamp"`
	// Surround is the luminance seen outside the card's image and under its transparent
	// pixels, 0 (black) to 1 (white paper). Unit: luminance (0..1). Default 1. Setting. With
	// AutoPolarity, a card found to be a light figure on a dark ground sees 1-Surround outside
	// its image instead, as if the card holder matched the card's ground (the surround is given
	// for printed cards and mirrored with the polarity); its transparent pixels still show
	// Surround, over which its border was judged. A square, opaque card at the
	// default placement covers the whole field: the surround acts only with cards that leave
	// part of the field uncovered (not square, or moved by Scale, the offsets or Rotation) or
	// that have transparent pixels.
	Surround float64 `json:"surround"`
	// Polarity says whether dark (DarkFigure) or bright (LightFigure) parts of the card turn
	// the S-units on, or decides it per card from the card's border (AutoPolarity). Default
	// AutoPolarity. Setting.
	Polarity Polarity `json:"polarity"`

	// Gamma is the cadmium-sulphide cell's non-linear response: conductance ~ light^Gamma.
	// Unit: exponent (0 < Gamma <= 10). Default 0.8, typical of CdS cells. Assumed (CdS cells
	// are historical). Flaw "gamma". Alone it changes no S-state (light^Gamma against
	// Threshold^Gamma is a monotone transform of light against Threshold): it acts only with
	// Spread, DarkNoise or the lags.
	Gamma float64 `json:"gamma"`
	// Spread is the cell-to-cell sensitivity spread: each cell's conductance is multiplied by
	// 1 + Spread*z, z standard normal, drawn once per machine from the rng given to New (clamped
	// at 0). Unit: fraction, sigma (0..1). Default 0.05. Assumed. Flaw "spread".
	Spread float64 `json:"spread"`
	// RiseTau is the cells' first-order lag when the light increases. Unit: seconds of machine
	// time (>= 0; 0 = instant). Default 0.03 s. Assumed (CdS cells rise faster than they
	// decay). Flaw "lag". At the default Latch of 1 s a rise is complete to e^-33, so alone it
	// changes no S-state: it acts only with a Latch (or a presentation) shorter than about
	// 0.3 s.
	RiseTau float64 `json:"rise_tau_s"`
	// DecayTau is the cells' first-order lag when the light decreases: a dark card shown right
	// after a bright one leaves an after-image. Unit: seconds (>= 0; 0 = instant). Default
	// 0.3 s. Assumed. Flaw "lag".
	DecayTau float64 `json:"decay_tau_s"`
	// Latch is the time after the card appears at which the comparators read the cells. Unit:
	// seconds (>= 0). Default 1 s. Setting (the latch time is assumed, and so is the
	// original's pace of about 3 s a presentation, which a secondary account gives without a
	// source). When a presentation is shorter than Latch, the cells latch at its end. It acts
	// only with the lags (instant cells read the same at any time).
	Latch float64 `json:"latch_s"`
	// DarkNoise is the comparator-input noise (dark current and amplifier noise): Gaussian, this
	// sigma, in units of the full-light conductance, drawn at every latch. Unit: conductance
	// (>= 0). Default 0.01. Assumed. Flaw "dark_noise".
	DarkNoise float64 `json:"dark_noise"`
	// Threshold is the comparator threshold expressed as a light level (0..1 of white paper under
	// the nominal lamp); the comparator compares a cell's conductance with Threshold^Gamma, the
	// same for every cell, so the sensitivity spread moves cells across it. Unit: light
	// (0..1000). Default 0.5. Setting.
	Threshold float64 `json:"threshold"`
	// Ideal turns every cell and lens effect off: each S-unit is the area average of the
	// card's luminance over its cell, on when it is below one half (DarkFigure; above for
	// LightFigure). Only Scale, OffsetX, OffsetY, Rotation, Surround and Polarity still apply;
	// Blur, Lamp, Gamma, Spread, the lags, Latch, DarkNoise and Threshold are ignored. Default
	// false.
	Ideal bool `json:"ideal"`
}

// DefaultParams returns the analog retina with every effect on, at the documented defaults.
func DefaultParams() Params {
	return Params{
		Scale:     1,
		Blur:      0.35,
		Lamp:      1,
		Surround:  1,
		Polarity:  AutoPolarity,
		Gamma:     0.8,
		Spread:    0.05,
		RiseTau:   0.03,
		DecayTau:  0.3,
		Latch:     1,
		DarkNoise: 0.01,
		Threshold: 0.5,
	}
}

// NeutralParams returns the analog retina (Ideal false) with every flaw at its neutral value:
// no blur, gamma 1, no spread, no lag, no dark noise, threshold one half, nominal lamp, default
// placement, surround, polarity and latch. It gives exactly the S-states of IdealParams with
// the same placement, surround and polarity, bit for bit; turning single flaws on from it (by
// copying their fields from DefaultParams) shows what each flaw does.
func NeutralParams() Params {
	p := IdealParams()
	p.Ideal = false
	return p
}

// IdealParams returns the ideal retina: default placement, area average, fixed threshold of one
// half. The cell fields hold neutral values (no blur, gamma 1, no spread, no lag, no noise) so
// that clearing Ideal gives NeutralParams, an ideal-behaving analog retina.
func IdealParams() Params {
	return Params{
		Scale:     1,
		Lamp:      1,
		Surround:  1,
		Polarity:  AutoPolarity,
		Gamma:     1,
		Latch:     1,
		Threshold: 0.5,
		Ideal:     true,
	}
}

// ParamDocs describes every field of Params except Ideal, in field order: Key is the field's
// JSON name, Flaw the analog flaw it belongs to ("blur", "gamma", "spread", "lag",
// "dark_noise"; "" for the settings), and Note, when not empty, says what a parameter that
// changes no S-state alone (turned on from NeutralParams by itself) acts only with.
func ParamDocs() []knob.Doc {
	return []knob.Doc{
		{Key: "scale", Models: "card size on the field, times the fit that spans the 20 cells with the larger side", Unit: "factor", Source: knob.Setting, Range: knob.Closed(1/maxPlacement, maxPlacement)},
		{Key: "offset_x_cells", Models: "card shift to the right on the field, after rotation", Unit: "cells", Source: knob.Setting, Range: knob.Closed(-maxPlacement, maxPlacement)},
		{Key: "offset_y_cells", Models: "card shift downwards on the field, after rotation", Unit: "cells", Source: knob.Setting, Range: knob.Closed(-maxPlacement, maxPlacement)},
		{Key: "rotation_deg", Models: "clockwise turn of the card about its own centre", Unit: "degrees", Source: knob.Setting, Range: knob.Closed(-maxTurn, maxTurn)},
		{Key: "blur_cells", Models: "lens defocus: sigma of a Gaussian point-spread function on the field", Unit: "cells", Source: knob.Assumed, Flaw: "blur", Range: knob.Closed(0, maxBlur)},
		{Key: "lamp", Models: "lamp brightness (1: white paper gives light 1)", Unit: "factor", Source: knob.Setting, Range: knob.Closed(0, maxLevel)},
		{Key: "surround", Models: "luminance outside the card's image and under transparent pixels (0 black, 1 white)", Unit: "luminance", Source: knob.Setting,
			Note: "acts only with cards that leave part of the field uncovered (not square, or moved by scale, offsets or rotation) or that have transparent pixels", Range: knob.Closed(0, 1)},
		{Key: "polarity", Models: "which part of the card turns S-units on: dark, light, or auto (the figure is what differs from the card's border)", Source: knob.Setting, Range: knob.Names("dark", "light", "auto")},
		{Key: "gamma", Models: "CdS cell response: conductance ~ light^gamma", Unit: "exponent", Source: knob.Assumed, Flaw: "gamma",
			Note: "acts only with spread, dark_noise or the lags (light^gamma against threshold^gamma is a monotone transform)", Range: knob.Range{Min: 0, Max: 10, MinOpen: true}},
		{Key: "spread", Models: "cell-to-cell sensitivity spread, fixed per machine", Unit: "fraction (sigma)", Source: knob.Assumed, Flaw: "spread", Range: knob.Closed(0, 1)},
		{Key: "rise_tau_s", Models: "cell lag (first-order time constant) when the light increases", Unit: "s", Source: knob.Assumed, Flaw: "lag",
			Note: "acts only with a latch_s (or presentation) shorter than about 0.3 s: at the default latch a rise is complete to e^-33", Range: lagRange},
		{Key: "decay_tau_s", Models: "cell lag (first-order time constant) when the light decreases: after-images", Unit: "s", Source: knob.Assumed, Flaw: "lag", Range: lagRange},
		{Key: "latch_s", Models: "time after the card appears at which the comparators read the cells", Unit: "s", Source: knob.Setting,
			Note: "acts only with the lags (rise_tau_s, decay_tau_s): instant cells read the same at any time", Range: knob.Closed(0, maxTime)},
		{Key: "dark_noise", Models: "comparator-input noise (dark current, amplifier), drawn at every latch", Unit: "full-light conductance (sigma)", Source: knob.Assumed, Flaw: "dark_noise", Range: knob.Closed(0, maxNoise)},
		{Key: "threshold", Models: "comparator threshold, as a light level (0..1 of white paper under the nominal lamp)", Unit: "light", Source: knob.Setting, Range: knob.Closed(0, maxLevel)},
	}
}

// maxBlur bounds Blur (cells): the focal plane grows with the blur's reach.
const maxBlur = 10

// maxTime bounds the cells' time constants and the latch time (s): an hour, longer than any
// presentation; beyond it a cell never settles and the machine sees nothing.
const maxTime = 3600

// minTau bounds the cells' time constants from below (s), unless 0 (instant cells): a tenth of
// a millisecond, faster than any CdS cell (milliseconds to seconds; assumed). A shorter lag is
// instant at every latch the machine uses, and 1e-300 s is no physical cell.
const minTau = 1e-4

// lagRange is the range of RiseTau and DecayTau: 0 (no lag) or minTau..maxTime.
var lagRange = knob.Range{Min: minTau, Max: maxTime, ZeroOK: true}

// maxTurn bounds Rotation (degrees): ten turns either way; beyond, the angle's arithmetic
// loses precision for nothing.
const maxTurn = 3600

// maxNoise bounds DarkNoise (full-light conductance): ten times the whole light, where the
// comparators read noise alone.
const maxNoise = 10

// maxLevel bounds Lamp and Threshold, keeping every conductance finite.
const maxLevel = 1000

// maxPlacement bounds Scale (and 1/Scale) and the offsets: beyond it the card is far smaller or
// larger than the field, or far off it, and the arithmetic would lose meaning.
const maxPlacement = 1e6

// Validate reports the first field of p that is out of range, naming it by its JSON name:
// "retina: field: value, want range".
func (p Params) Validate() error {
	err := p.validate()
	if err != nil {
		return fmt.Errorf("retina: %w", err)
	}
	return nil
}

func (p Params) validate() error {
	// Every field against its documented range (ParamDocs): the one table flags, --set,
	// configuration and state files are all checked with.
	return knob.CheckStruct(p, ParamDocs())
}
