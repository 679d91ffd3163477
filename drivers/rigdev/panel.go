package rigdev

import (
	"fmt"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/devices/v3/mcp23xxx"

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
	expanders := map[string]*mcp23xxx.Dev{}
	expander := func(name string) (*mcp23xxx.Dev, error) {
		if d, ok := expanders[name]; ok {
			return d, nil
		}
		for _, c := range h.spec.MCP23017 {
			if c.Name == name {
				d, err := mcp23xxx.NewI2C(h.meters[c.Bus], mcp23xxx.MCP23017, c.Address)
				if err != nil {
					return nil, at("MCP23017 %q (0x%02x on bus %s): %v", name, c.Address, c.Bus, err)
				}
				expanders[name] = d
				return d, nil
			}
		}
		return nil, at("no [[mcp23017]] named %q", name)
	}
	type portKey struct {
		chip string
		port int
	}
	var sources []panel.Source
	var inputs []panel.Input
	var gpioIn []gpio.PinIn
	var gpioNames []string
	portPins := map[portKey][]int{}
	portNames := map[portKey][]string{}
	var portOrder []portKey
	in := func(name, pin string) error {
		if pin == "" {
			return nil
		}
		pp, _ := rig.ParsePanelPin(pin)
		if pp.GPIO != "" {
			if h.env.Pin == nil {
				return at("%s: this host has no GPIO pins", name)
			}
			p, err := h.env.Pin(pp.GPIO)
			if err != nil {
				return at("%s: pin %s: %v", name, pp.GPIO, err)
			}
			gpioIn = append(gpioIn, p)
			gpioNames = append(gpioNames, name)
			return nil
		}
		k := portKey{pp.Chip, pp.Port}
		if _, ok := portPins[k]; !ok {
			portOrder = append(portOrder, k)
		}
		portPins[k] = append(portPins[k], pp.Bit)
		portNames[k] = append(portNames[k], name)
		return nil
	}
	for _, b := range []struct{ name, pin string }{{"train", spec.Train}, {"test", spec.Test}, {"stop", spec.Stop}, {"reset", spec.Reset}} {
		if err := in(b.name, b.pin); err != nil {
			return nil, err
		}
	}
	for i, pin := range spec.Force {
		if err := in(fmt.Sprintf("force%d", i), pin); err != nil {
			return nil, err
		}
	}
	if len(gpioIn) > 0 {
		src, err := panel.PinInputs(gpioIn)
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range gpioNames {
			inputs = append(inputs, panel.Input{Name: name, Source: len(sources), Bit: i})
		}
		sources = append(sources, src)
	}
	for _, k := range portOrder {
		d, err := expander(k.chip)
		if err != nil {
			return nil, err
		}
		src, err := panel.ExpanderInputs(d, k.port, portPins[k])
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range portNames[k] {
			inputs = append(inputs, panel.Input{Name: name, Source: len(sources), Bit: i})
		}
		sources = append(sources, src)
	}
	// Lamps.
	var sinks []panel.Sink
	var lamps []panel.Lamp
	var gpioOut []gpio.PinOut
	var gpioLamps []string
	lampPins := map[portKey][]int{}
	lampNames := map[portKey][]string{}
	var lampOrder []portKey
	addLamp := func(name, pin string) error {
		if pin == "" {
			return nil
		}
		pp, _ := rig.ParsePanelPin(pin)
		if pp.GPIO != "" {
			if h.env.Pin == nil {
				return at("%s: this host has no GPIO pins", name)
			}
			p, err := h.env.Pin(pp.GPIO)
			if err != nil {
				return at("%s: pin %s: %v", name, pp.GPIO, err)
			}
			gpioOut = append(gpioOut, p)
			gpioLamps = append(gpioLamps, name)
			return nil
		}
		k := portKey{pp.Chip, pp.Port}
		if _, ok := lampPins[k]; !ok {
			lampOrder = append(lampOrder, k)
		}
		lampPins[k] = append(lampPins[k], pp.Bit)
		lampNames[k] = append(lampNames[k], name)
		return nil
	}
	for i, pin := range spec.Lamps {
		if err := addLamp(fmt.Sprintf("r%d", i), pin); err != nil {
			return nil, err
		}
	}
	if err := addLamp("fault", spec.FaultLamp); err != nil {
		return nil, err
	}
	if len(gpioOut) > 0 {
		for i, name := range gpioLamps {
			lamps = append(lamps, panel.Lamp{Name: name, Sink: len(sinks), Bit: i})
		}
		sinks = append(sinks, panel.PinLamps(gpioOut))
	}
	for _, k := range lampOrder {
		d, err := expander(k.chip)
		if err != nil {
			return nil, err
		}
		sink, err := panel.ExpanderLamps(d, k.port, lampPins[k])
		if err != nil {
			return nil, at("%v", err)
		}
		for i, name := range lampNames[k] {
			lamps = append(lamps, panel.Lamp{Name: name, Sink: len(sinks), Bit: i})
		}
		sinks = append(sinks, sink)
	}
	p, err := panel.New(sources, inputs, sinks, lamps, &panel.Opts{Debounce: spec.Debounce})
	if err != nil {
		return nil, at("%v", err)
	}
	return p, nil
}
