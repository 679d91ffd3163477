package rig

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// MachineConfig returns the configuration of the rig's [machine]: the emulator's defaults with
// its size, seed, rule and wiring. A wiring file is read relative to the rig file, and must
// have a_units A-units.
func (rg *Rig) MachineConfig() (machine.Config, error) {
	m := rg.Machine
	cfg := machine.Default()
	if m == nil {
		return cfg, fmt.Errorf("%s: no [machine] section", rg.File)
	}
	at := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: [machine]: %s", rg.File, m.Line, fmt.Sprintf(format, a...))
	}
	cfg.Seed, cfg.RUnits = m.Seed, m.RUnits
	rule, err := machine.ParseRule(m.Rule)
	if err != nil {
		return cfg, at("%v", err)
	}
	cfg.Rule = rule
	switch m.Wiring {
	case machine.WiringRandom:
		cfg.Wiring = m.Wiring
		cfg.MarkI.AUnits = m.AUnits
		cfg.MarkI.FanOut = patchboard.FanOutFor(m.AUnits)
	case machine.WiringLocal:
		cfg.Wiring, cfg.LocalUnits = m.Wiring, m.AUnits
	case machine.WiringIdentity:
		if m.AUnits != 400 {
			return cfg, at("the identity wiring has 400 A-units, a_units is %d", m.AUnits)
		}
		cfg.Wiring = m.Wiring
	default:
		path := m.Wiring
		var f fs.File
		var err error
		if rg.fsys != nil {
			f, err = rg.fsys.Open(path)
		} else {
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(rg.File), path)
			}
			f, err = os.Open(path)
		}
		if err != nil {
			return cfg, at("wiring: %v", err)
		}
		defer f.Close()
		b, err := patchboard.Read(f, path)
		if err != nil {
			return cfg, at("wiring: %v", err)
		}
		if b.Len() != m.AUnits {
			return cfg, at("wiring %s has %d A-units, a_units is %d", m.Wiring, b.Len(), m.AUnits)
		}
		cfg.Wiring, cfg.Board = machine.WiringFile, b
	}
	if err := cfg.Validate(); err != nil {
		return cfg, at("%v", err)
	}
	return cfg, nil
}
