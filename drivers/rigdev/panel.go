package rigdev

import (
	"fmt"

	"periph.io/x/conn/v3/gpio"

	"github.com/mark1-perceptron/mark1/drivers/panel"
	"github.com/mark1-perceptron/mark1/rig"
)

// OpenPanel opens the rig file's [panel]: inputs named train, test, stop, reset and force0,
// force1, ...; lamps named r0, r1, ... and fault. It returns nil and no error when the rig has
// no panel.
func (h *Hardware) OpenPanel() (*panel.Panel, error) {
	spec := h.spec.Panel
	if spec == nil {
		return nil, nil
	}
	at := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: [panel]: %s", h.spec.File, spec.Line, fmt.Sprintf(format, a...))
	}
	// An expander is shared by the buttons and lamps on it: it sets the chip up again when it
	// finds it reset (panel.Expander).
	expanders := map[string]*panel.Expander{}
	expander := func(name string) (*panel.Expander, error) {
		if d, ok := expanders[name]; ok {
			return d, nil
		}
		for _, c := range h.spec.MCP23017 {
			if c.Name == name {
				d, err := panel.NewExpander(h.meters[c.Bus], c.Address)
				if err != nil {
					return nil, at("MCP23017 %q (0x%02x on bus %s): %v", name, c.Address, c.Bus, err)
				}
				expanders[name] = d
				return d, nil
			}
		}
		return nil, at("no [[mcp23017]] named %q", name)
	}
	// Inputs.
	var buttons pinGroup
	for _, b := range []struct{ name, pin string }{{"train", spec.Train}, {"test", spec.Test}, {"stop", spec.Stop}, {"reset", spec.Reset}} {
		if err := buttons.add(h.env, b.name, b.pin); err != nil {
			return nil, at("%v", err)
		}
	}
	for i, pin := range spec.Force {
		if err := buttons.add(h.env, fmt.Sprintf("force%d", i), pin); err != nil {
			return nil, at("%v", err)
		}
	}
	var sources []panel.Source
	var inputs []panel.Input
	if len(buttons.gpio) > 0 {
		pins := make([]gpio.PinIn, len(buttons.gpio))
		for i, p := range buttons.gpio {
			pins[i] = p
		}
		src, err := panel.PinInputs(pins)
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range buttons.gpioNames {
			inputs = append(inputs, panel.Input{Name: name, Source: len(sources), Bit: i})
		}
		sources = append(sources, src)
	}
	for _, k := range buttons.ports {
		d, err := expander(k.chip)
		if err != nil {
			return nil, err
		}
		src, err := d.Inputs(k.port, buttons.bits[k])
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range buttons.names[k] {
			inputs = append(inputs, panel.Input{Name: name, Source: len(sources), Bit: i})
		}
		sources = append(sources, src)
	}
	// Lamps.
	var lampPins pinGroup
	for i, pin := range spec.Lamps {
		if err := lampPins.add(h.env, fmt.Sprintf("r%d", i), pin); err != nil {
			return nil, at("%v", err)
		}
	}
	if err := lampPins.add(h.env, "fault", spec.FaultLamp); err != nil {
		return nil, at("%v", err)
	}
	var sinks []panel.Sink
	var lamps []panel.Lamp
	if len(lampPins.gpio) > 0 {
		pins := make([]gpio.PinOut, len(lampPins.gpio))
		for i, p := range lampPins.gpio {
			pins[i] = p
		}
		for i, name := range lampPins.gpioNames {
			lamps = append(lamps, panel.Lamp{Name: name, Sink: len(sinks), Bit: i})
		}
		sinks = append(sinks, panel.PinLamps(pins))
	}
	for _, k := range lampPins.ports {
		d, err := expander(k.chip)
		if err != nil {
			return nil, err
		}
		sink, err := d.Lamps(k.port, lampPins.bits[k])
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range lampPins.names[k] {
			lamps = append(lamps, panel.Lamp{Name: name, Sink: len(sinks), Bit: i})
		}
		sinks = append(sinks, sink)
	}
	p, err := panel.New(sources, inputs, sinks, lamps, &panel.Opts{Debounce: spec.Debounce})
	if err != nil {
		return nil, at("%v", err)
	}
	h.mu.Lock()
	h.panels = append(h.panels, p) // Shutdown halts it: its lamps go out
	h.mu.Unlock()
	return p, nil
}

// portKey names one 8-bit port of an MCP23017.
type portKey struct {
	chip string
	port int
}

// pinGroup gathers a panel's pins of one direction by where they are: the host's GPIO pins,
// and each expander port in the order of its first use.
type pinGroup struct {
	gpio      []gpio.PinIO
	gpioNames []string
	ports     []portKey
	bits      map[portKey][]int
	names     map[portKey][]string
}

// add puts pin (a rig file's panel pin, already validated; "" for none) under name.
func (g *pinGroup) add(env Env, name, pin string) error {
	if pin == "" {
		return nil
	}
	pp, _ := rig.ParsePanelPin(pin)
	if pp.GPIO != "" {
		if env.Pin == nil {
			return fmt.Errorf("%s: this host has no GPIO pins", name)
		}
		p, err := env.Pin(pp.GPIO)
		if err != nil {
			return fmt.Errorf("%s: pin %s: %w", name, pp.GPIO, err)
		}
		g.gpio = append(g.gpio, p)
		g.gpioNames = append(g.gpioNames, name)
		return nil
	}
	k := portKey{pp.Chip, pp.Port}
	if g.bits == nil {
		g.bits, g.names = map[portKey][]int{}, map[portKey][]string{}
	}
	if _, ok := g.bits[k]; !ok {
		g.ports = append(g.ports, k)
	}
	g.bits[k] = append(g.bits[k], pp.Bit)
	g.names[k] = append(g.names[k], name)
	return nil
}
