package machine

import (
	"fmt"
	"strings"

	"github.com/mark1-perceptron/mark1/knob"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// Rule is a reinforcement (value) system: how the machine turns its weights after a
// presentation.
type Rule int

const (
	// Alpha is Rosenblatt's alpha system with error ("R-controlled") correction: when an R-unit
	// answers wrongly (y*sum <= 0), the pots of the active A-units and the bias pot move one
	// increment toward the wanted answer. It is the textbook fixed-increment perceptron rule.
	Alpha Rule = iota
	// Gamma is the gamma system: on an error, active A-units' pots gain and every inactive one
	// loses so that the rack's total is conserved.
	Gamma
	// Forced is forced ("S-controlled") reinforcement: the teacher drives the wanted response on
	// every presentation, right or wrong, moving the active pots one increment toward it.
	Forced
)

var ruleNames = [...]string{Alpha: "alpha", Gamma: "gamma", Forced: "forced"}

// String returns the rule's name as the command line spells it.
func (r Rule) String() string {
	if r >= 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule reads a rule name: alpha, gamma or forced.
func ParseRule(s string) (Rule, error) {
	for i, n := range ruleNames {
		if strings.EqualFold(s, n) {
			return Rule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rule %q (want alpha, gamma or forced)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (r Rule) MarshalText() ([]byte, error) {
	if r < 0 || int(r) >= len(ruleNames) {
		return nil, fmt.Errorf("unknown rule %d", int(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Rule) UnmarshalText(b []byte) error {
	v, err := ParseRule(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Wiring presets for Config.Wiring.
const (
	WiringRandom   = "random"   // the Mark I plug-board: random S-to-A wiring from the seed
	WiringIdentity = "identity" // one A-unit per cell, phi(x) = x: the linear perceptron on pixels
	WiringLocal    = "local"    // local centre-surround receptive fields
	WiringFile     = "file"     // Config.Board, read from a wiring file
)

// Codings for Config.Coding.
const (
	CodingAuto   = "auto"   // one-hot when the classes fit in the R-units, else binary
	CodingOneHot = "onehot" // one R-unit per class; the answer is the largest sum
	CodingBinary = "binary" // class number in binary across the R-units
	CodingTable  = "table"  // Config.Codes, read from a code file
)

// Presentation orders for Config.Order.
const (
	// OrderShuffle presents the cards in a new random order every epoch, drawn from the seed.
	OrderShuffle = "shuffle"
	// OrderFile presents the cards in the deck's order (the order the loader gave them).
	OrderFile = "file"
	// OrderInterleave presents the cards round-robin over the classes, each class's cards in
	// deck order: the first card of every class, then the second, and so on.
	OrderInterleave = "interleave"
)

// MaxRUnits is the most R-units a machine may have.
const MaxRUnits = 64

// Config describes a whole machine. The zero value is not useful: start from Default and
// change what an experiment needs. Every random choice (wiring, cell spread, motor and track
// spreads, noise, shuffling) is derived from Seed.
type Config struct {
	// Seed is the root of every random choice. Same seed, same build: same result, bit for bit.
	Seed uint64 `json:"seed"`
	// RUnits is the number of response units. Default 8 (historical).
	RUnits int `json:"r_units"`
	// Rule is the reinforcement system. Default Alpha.
	Rule Rule `json:"rule"`
	// Coding says how classes map onto R-units (CodingAuto, CodingOneHot, CodingBinary,
	// CodingTable). Default CodingAuto.
	Coding string `json:"coding"`
	// Codes is the code table for CodingTable: Codes[class][r] is +1 (R-unit on), -1 (off) or
	// 0 (neutral: that R-unit is not trained for the class).
	Codes [][]int8 `json:"codes,omitempty"`
	// Wiring is the plug-board preset (WiringRandom, WiringIdentity, WiringLocal, WiringFile).
	// Default WiringRandom.
	Wiring string `json:"wiring"`
	// MarkI parameterises the random plug-board (A-units, excitatory and inhibitory plugs per
	// unit, threshold, fan-out limit).
	MarkI patchboard.MarkIParams `json:"mark_i"`
	// LocalUnits and LocalRadius parameterise WiringLocal: number of A-units and the radius of
	// the excitatory centre in cells. Defaults 512 and 2 (assumed).
	LocalUnits  int `json:"local_units"`
	LocalRadius int `json:"local_radius"`
	// Board, when not nil, is the wiring (required for WiringFile; for the presets, Wiring then
	// only records where the board came from). It is saved with the machine.
	Board *patchboard.Board `json:"-"`
	// PresentationTime is the machine time one presentation takes, in seconds. Default 3 s
	// (assumed: "about 3 seconds" per training presentation comes from a secondary account,
	// Wikipedia's "Mark I Perceptron", which gives no source for it).
	PresentationTime float64 `json:"presentation_time_s"`
	// Order is the order of presentation in a training epoch: OrderShuffle (default),
	// OrderFile or OrderInterleave. Training in file order on a deck loaded class by class
	// teaches the machine to answer the class it saw last.
	Order string `json:"order"`
	// Retina holds the optics and photocell parameters.
	Retina retina.Params `json:"retina"`
	// Pots holds the potentiometer and motor parameters.
	Pots potentiometer.Params `json:"pots"`
}

// Default returns the full-size Mark I with every analog effect on: 400 S-units, 512 A-units
// wired at random, 8 R-units, alpha rule, 3 s presentations.
func Default() Config {
	return Config{
		Seed:             1,
		RUnits:           8,
		Rule:             Alpha,
		Coding:           CodingAuto,
		Wiring:           WiringRandom,
		MarkI:            patchboard.DefaultMarkI(),
		LocalUnits:       512,
		LocalRadius:      2,
		PresentationTime: 3,
		Order:            OrderShuffle,
		Retina:           retina.DefaultParams(),
		Pots:             potentiometer.DefaultParams(),
	}
}

// Ideal returns c with every analog flaw turned off: the retina only area-averages and
// thresholds, the pots move by exact increments with no limits. With Ideal, the machine is the
// textbook fixed-increment perceptron on its A-unit features.
func (c Config) Ideal() Config {
	c.Retina = idealRetina(c.Retina)
	c.Pots = potentiometer.IdealParams()
	return c
}

// idealRetina keeps the card placement of p (an experiment's position and size), the surround
// and the polarity, and turns every cell and lens flaw off.
func idealRetina(p retina.Params) retina.Params {
	q := retina.IdealParams()
	q.Scale, q.OffsetX, q.OffsetY, q.Rotation = p.Scale, p.OffsetX, p.OffsetY, p.Rotation
	q.Surround, q.Polarity = p.Surround, p.Polarity
	return q
}

// IsIdeal reports whether every analog flaw is off.
func (c Config) IsIdeal() bool { return c.Retina.Ideal && c.Pots.Ideal }

func (c Config) validate() error {
	// Every top-level key against its range (topDocs), then what depends on other fields.
	if err := knob.CheckStruct(c, topDocs); err != nil {
		return err
	}
	switch {
	case c.Coding == CodingTable && c.Codes == nil:
		return fmt.Errorf("coding: table coding needs a code table")
	case c.Wiring == WiringFile && c.Board == nil:
		return fmt.Errorf("wiring: file wiring needs a board")
	}
	return nil
}
