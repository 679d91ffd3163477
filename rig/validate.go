package rig

import (
	"fmt"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/tomlfile"
)

// errorAt formats a validation error at a line; the message names the section.
func (rg *Rig) errorAt(line int, format string, a ...any) error {
	return tomlfile.Errorf(rg.File, line, "", format, a...)
}

// chipKinds returns every chip's kind by name.
func (rg *Rig) chipKinds() map[string]string {
	k := map[string]string{}
	for _, c := range rg.PCA9685 {
		k[c.Name] = "pca9685"
	}
	for _, c := range rg.MCP44x1 {
		k[c.Name] = "mcp44x1"
	}
	for _, c := range rg.ADS1115 {
		k[c.Name] = "ads1115"
	}
	for _, c := range rg.GPIOServos {
		k[c.Name] = "gpio_servo"
	}
	for _, c := range rg.MCP23017 {
		k[c.Name] = "mcp23017"
	}
	return k
}

func (rg *Rig) validate() error {
	buses := map[string]int{}
	for _, b := range rg.Buses {
		if prev, ok := buses[b.Name]; ok {
			return rg.errorAt(b.Line, "[[bus]] %q: name given twice (first on line %d)", b.Name, prev)
		}
		buses[b.Name] = b.Line
	}
	names := map[string]int{}
	type busAddr struct {
		bus  string
		addr uint16
	}
	type kindChip struct {
		Chip
		kind string
	}
	addrs := map[busAddr]string{}
	var chips []kindChip
	for _, c := range rg.PCA9685 {
		chips = append(chips, kindChip{c.Chip, "pca9685"})
	}
	for _, c := range rg.MCP44x1 {
		chips = append(chips, kindChip{c.Chip, "mcp44x1"})
	}
	for _, c := range rg.ADS1115 {
		chips = append(chips, kindChip{c.Chip, "ads1115"})
	}
	for _, c := range rg.MCP23017 {
		chips = append(chips, kindChip{c.Chip, "mcp23017"})
	}
	for _, c := range chips {
		if prev, ok := names[c.Name]; ok {
			return rg.errorAt(c.Line, "[[%s]] %q: name given twice (first on line %d)", c.kind, c.Name, prev)
		}
		names[c.Name] = c.Line
		if _, ok := buses[c.Bus]; !ok {
			return rg.errorAt(c.Line, "[[%s]] %q: bus %q is not a [[bus]] of the rig", c.kind, c.Name, c.Bus)
		}
		ba := busAddr{c.Bus, c.Address}
		if other, ok := addrs[ba]; ok {
			return rg.errorAt(c.Line, "[[%s]] %q: address 0x%02x on bus %q is %q's already", c.kind, c.Name, c.Address, c.Bus, other)
		}
		addrs[ba] = c.Name
		if c.kind == "pca9685" && c.Address == 0x70 {
			return rg.errorAt(c.Line, "[[pca9685]] %q: 0x70 is every PCA9685's ALLCALL address at power-up: choose another", c.Name)
		}
	}
	for i, s := range rg.GPIOServos {
		if prev, ok := names[s.Name]; ok {
			return rg.errorAt(s.Line, "[[gpio_servo]] %q: name given twice (first on line %d)", s.Name, prev)
		}
		names[s.Name] = s.Line
		if i > 0 {
			return rg.errorAt(s.Line, "[[gpio_servo]] %q: a second GPIO servo: GPIO13 and GPIO19 are the same PWM channel (PWM1) and would send the same pulses; put the others on a PCA9685", s.Name)
		}
	}
	if err := rg.validatePots(); err != nil {
		return err
	}
	return rg.validatePanel()
}

func (rg *Rig) validatePots() error {
	kinds := rg.chipKinds()
	weights := map[Weight]int{}
	outs := map[Ref]int{}
	reads := map[Ref]int{}
	for i := range rg.Pots {
		p := &rg.Pots[i]
		w := p.Weight.String()
		if prev, ok := weights[p.Weight]; ok {
			return rg.errorAt(p.Line, "[[pot]] %s: weight already shown by the pot on line %d", w, prev)
		}
		weights[p.Weight] = p.Line
		switch kinds[p.Out.Chip] {
		case "pca9685":
			p.Kind = "servo"
			if p.Out.Channel < 0 || p.Out.Channel > 15 {
				return rg.errorAt(p.Line, "[[pot]] %s: out %s: want a PCA9685 channel 0..15", w, p.Out)
			}
		case "mcp44x1":
			p.Kind = "digipot"
			if p.Out.Channel < 0 || p.Out.Channel > 3 {
				return rg.errorAt(p.Line, "[[pot]] %s: out %s: want an MCP44x1 wiper 0..3", w, p.Out)
			}
		case "gpio_servo":
			p.Kind = "gpio_servo"
			if p.Out.Channel >= 0 {
				return rg.errorAt(p.Line, "[[pot]] %s: out %s: a GPIO servo has no channel: write %q", w, p.Out, p.Out.Chip)
			}
		case "":
			return rg.errorAt(p.Line, "[[pot]] %s: out %s: no chip named %q", w, p.Out, p.Out.Chip)
		default:
			return rg.errorAt(p.Line, "[[pot]] %s: out %s: a %s does not move a pot", w, p.Out, kinds[p.Out.Chip])
		}
		if prev, ok := outs[p.Out]; ok {
			return rg.errorAt(p.Line, "[[pot]] %s: out %s is already the pot's on line %d", w, p.Out, prev)
		}
		outs[p.Out] = p.Line
		if rb := p.Readback; rb != nil {
			if kinds[rb.Chip] != "ads1115" {
				return rg.errorAt(p.Line, "[[pot]] %s: readback %s: want an [[ads1115]]'s channel", w, rb)
			}
			if rb.Channel < 0 || rb.Channel > 3 {
				return rg.errorAt(p.Line, "[[pot]] %s: readback %s: want an ADS1115 channel 0..3", w, rb)
			}
			if prev, ok := reads[*rb]; ok {
				return rg.errorAt(p.Line, "[[pot]] %s: readback %s already reads the pot on line %d", w, rb, prev)
			}
			reads[*rb] = p.Line
		}
		if p.Kind != "digipot" && p.Pulse(0) < 100*time.Microsecond {
			return rg.errorAt(p.Line, "[[pot]] %s: min_us plus trim_us is below 100 us", w)
		}
	}
	m := rg.Machine
	if rg.Mode != ModeLoop {
		if m != nil {
			for _, p := range rg.Pots {
				if p.Weight.R >= m.RUnits || p.Weight.A >= m.AUnits {
					return rg.errorAt(p.Line, "[[pot]] %s: the [machine] has %d R-units and %d A-units", p.Weight, m.RUnits, m.AUnits)
				}
			}
		}
		return nil
	}
	if m == nil {
		return rg.errorAt(1, "[rig] mode = \"loop\" needs a [machine] section (its A-units and R-units)")
	}
	if n := m.RUnits * (m.AUnits + 1); n > MaxPots || n != len(rg.Pots) {
		for _, p := range rg.Pots {
			if p.Weight.R >= m.RUnits || p.Weight.A >= m.AUnits {
				return rg.errorAt(p.Line, "[[pot]] %s: the [machine] has %d R-units and %d A-units", p.Weight, m.RUnits, m.AUnits)
			}
		}
		for r := range m.RUnits {
			for a := -1; a < m.AUnits; a++ {
				if _, ok := weights[Weight{r, a}]; !ok {
					return rg.errorAt(m.Line, "[machine]: in the loop every weight is a pot, and %s has none (%d pots for %d weights)", Weight{r, a}, len(rg.Pots), n)
				}
			}
		}
	}
	for _, p := range rg.Pots {
		if p.Readback == nil {
			return rg.errorAt(p.Line, "[[pot]] %s: in the loop the sums use the read-back: give readback = \"ADC:CHANNEL\"", p.Weight)
		}
	}
	return nil
}

func (rg *Rig) validatePanel() error {
	p := rg.Panel
	if p == nil {
		return nil
	}
	kinds := rg.chipKinds()
	used := map[string]string{}
	for _, s := range rg.GPIOServos {
		used[s.Pin] = fmt.Sprintf("[[gpio_servo]] %q's pin", s.Name)
	}
	check := func(role, s string) error {
		if s == "" {
			return nil
		}
		pp, ok := ParsePanelPin(s)
		if !ok {
			return rg.errorAt(p.Line, "[panel] %s: %q: want a GPIO pin (GPIO5) or an expander pin (NAME:A0..NAME:B7)", role, s)
		}
		if pp.Chip != "" && kinds[pp.Chip] != "mcp23017" {
			return rg.errorAt(p.Line, "[panel] %s: %q: no [[mcp23017]] named %q", role, s, pp.Chip)
		}
		// Microchip's 2022 revision of the MCP23017 datasheet (DS20001952C) makes GPA7 and
		// GPB7 output-only: a button there would not read.
		if pp.Chip != "" && pp.Bit == 7 && !strings.HasPrefix(role, "lamps") && role != "fault_lamp" {
			return rg.errorAt(p.Line, "[panel] %s: %q: GPA7 and GPB7 are outputs only (MCP23017 datasheet, 2022 revision): use them for lamps, and another pin for a button or switch", role, s)
		}
		if other, ok := used[s]; ok {
			return rg.errorAt(p.Line, "[panel] %s: %q is already %s", role, s, other)
		}
		used[s] = role
		return nil
	}
	for _, k := range []struct{ role, pin string }{{"train", p.Train}, {"test", p.Test}, {"stop", p.Stop}, {"reset", p.Reset}, {"fault_lamp", p.FaultLamp}} {
		if err := check(k.role, k.pin); err != nil {
			return err
		}
	}
	for i, s := range p.Force {
		if err := check(fmt.Sprintf("force[%d]", i), s); err != nil {
			return err
		}
	}
	for i, s := range p.Lamps {
		if err := check(fmt.Sprintf("lamps[%d]", i), s); err != nil {
			return err
		}
	}
	if m := rg.Machine; m != nil && (len(p.Force) > m.RUnits || len(p.Lamps) > m.RUnits) {
		return rg.errorAt(p.Line, "[panel]: %d force switches and %d lamps for %d R-units", len(p.Force), len(p.Lamps), m.RUnits)
	}
	return nil
}
