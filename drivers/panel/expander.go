package panel

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/devices/v3/mcp23xxx"
)

// DefaultCheckEvery is how many reads of an Expander's inputs pass between two checks that the
// chip still holds the panel's set-up (every 100 ms at the rig's 10 ms poll).
const DefaultCheckEvery = 10

// Expander is an MCP23017 shared by a panel's buttons and lamps. It remembers how the panel set
// the chip up (inputs with pull-ups, outputs and the levels written to them) and sets it up
// again when it finds the chip reset: a reset (the RESET pin, a brown-out) puts every pin back
// to an input without pull-up, so buttons float and lamps go dark, and periph's mcp23xxx,
// which caches IODIR, GPPU and OLAT and skips writes equal to its cache, would never write them
// again. Whenever its inputs read differently from the read before (a floating input flips),
// every CheckEvery-th read, and before every lamp write, it reads IODIR and GPPU (one
// transaction); when they are not as set, it opens the chip afresh (new caches), writes the
// set-up and the lamps again, and reads the inputs again: a floating button is never
// reported. Its methods are safe for concurrent use.
type Expander struct {
	bus  i2c.Bus
	addr uint16
	// CheckEvery: reads between two checks (0: DefaultCheckEvery).
	CheckEvery int

	mu     sync.Mutex
	dev    *mcp23xxx.Dev
	inputs [2]uint8 // pins set as inputs with pull-ups, per port
	olat   [2]uint8 // the levels last written to the outputs
	driven [2]uint8 // the outputs written at least once (so set as outputs on the chip)
	reads  int
	resets int
}

// NewExpander opens the MCP23017 at addr.
func NewExpander(bus i2c.Bus, addr uint16) (*Expander, error) {
	dev, err := mcp23xxx.NewI2C(bus, mcp23xxx.MCP23017, addr)
	if err != nil {
		return nil, err
	}
	return &Expander{bus: bus, addr: addr, dev: dev}, nil
}

// String names the chip.
func (e *Expander) String() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dev.String()
}

// resetsFound returns how many times the expander found the chip reset and set it up again.
func (e *Expander) resetsFound() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.resets
}

func checkPins(port int, pins []int) error {
	if port < 0 || port > 1 {
		return fmt.Errorf("panel: MCP23017 has no port %d", port)
	}
	if len(pins) == 0 || len(pins) > 8 {
		return fmt.Errorf("panel: MCP23017 port %d: %d pins", port, len(pins))
	}
	for _, p := range pins {
		if p < 0 || p > 7 {
			return fmt.Errorf("panel: MCP23017 port %d has no pin %d", port, p)
		}
	}
	return nil
}

func mask(pins []int) uint8 {
	var m uint8
	for _, p := range pins {
		m |= 1 << p
	}
	return m
}

// Inputs returns pins of one port (0: A, 1: B) as a Source of active-low buttons, with their
// pull-ups on.
func (e *Expander) Inputs(port int, pins []int) (Source, error) {
	if err := checkPins(port, pins); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.setInputs(e.dev, port, pins); err != nil {
		return nil, err
	}
	e.inputs[port] |= mask(pins)
	return &expanderPins{e: e, port: port, pins: append([]int(nil), pins...)}, nil
}

func (e *Expander) setInputs(dev *mcp23xxx.Dev, port int, pins []int) error {
	for _, p := range pins {
		if err := dev.Pins[port][p].In(gpio.PullUp, gpio.NoEdge); err != nil {
			return fmt.Errorf("panel: %s port %c pin %d: %w", dev, 'A'+port, p, err)
		}
	}
	return nil
}

// Lamps returns pins of one port as a Sink of lamps (lit when high).
func (e *Expander) Lamps(port int, pins []int) (Sink, error) {
	if err := checkPins(port, pins); err != nil {
		return nil, err
	}
	return &expanderPins{e: e, port: port, pins: append([]int(nil), pins...)}, nil
}

// check reads IODIR and GPPU and, when the chip lost the set-up, sets it up again and says so
// (called with the lock held).
func (e *Expander) check() (reset bool, err error) {
	var r [14]byte // IODIRA, IODIRB, ..., GPPUA, GPPUB (BANK=0, sequential)
	if err := (&i2c.Dev{Bus: e.bus, Addr: e.addr}).Tx([]byte{0x00}, r[:]); err != nil {
		return false, fmt.Errorf("panel: %s: checking the set-up: %w", e.dev, err)
	}
	ok := true
	for port := range 2 {
		iodir, gppu := r[port], r[0x0C+port]
		ok = ok && iodir&e.inputs[port] == e.inputs[port] && iodir&e.driven[port] == 0 && gppu&e.inputs[port] == e.inputs[port]
	}
	if ok {
		return false, nil
	}
	dev, err := mcp23xxx.NewI2C(e.bus, mcp23xxx.MCP23017, e.addr) // fresh caches
	if err != nil {
		return true, fmt.Errorf("panel: MCP23017 at 0x%02x was reset: %w", e.addr, err)
	}
	for port := range 2 {
		var pins []int
		for p := range 8 {
			if e.inputs[port]&(1<<p) != 0 {
				pins = append(pins, p)
			}
		}
		if len(pins) > 0 {
			if err := e.setInputs(dev, port, pins); err != nil {
				return true, err
			}
		}
		if e.driven[port] != 0 {
			if err := e.write(dev, port, e.driven[port], e.olat[port]); err != nil {
				return true, err
			}
		}
	}
	e.dev = dev
	e.resets++
	return true, nil
}

// write drives the outputs in mask of port to levels (called with the lock held).
func (e *Expander) write(dev *mcp23xxx.Dev, port int, mask, levels uint8) error {
	var pins []int
	var v gpio.GPIOValue
	for p := range 8 {
		if mask&(1<<p) != 0 {
			if levels&(1<<p) != 0 {
				v |= 1 << len(pins)
			}
			pins = append(pins, p)
		}
	}
	g := dev.Group(port, pins)
	if g == nil {
		return fmt.Errorf("panel: %s port %c: no group", dev, 'A'+port)
	}
	if err := (*g).Out(v, 0); err != nil {
		return fmt.Errorf("panel: %s port %c: %w", dev, 'A'+port, err)
	}
	return nil
}

// expanderPins are the buttons or lamps of one port of an Expander.
type expanderPins struct {
	e    *Expander
	port int
	pins []int
	last gpio.GPIOValue // the previous read (inputs)
	read bool
}

func (x *expanderPins) String() string {
	return fmt.Sprintf("%s port %c", x.e, 'A'+x.port)
}

func (x *expanderPins) Read() (uint64, error) {
	e := x.e
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads++
	every := e.CheckEvery
	if every <= 0 {
		every = DefaultCheckEvery
	}
	v, err := x.readPins()
	if err != nil {
		return 0, err
	}
	if !x.read || v != x.last || e.reads%every == 0 {
		reset, err := e.check()
		if err != nil {
			return 0, err
		}
		if reset {
			if v, err = x.readPins(); err != nil {
				return 0, err
			}
		}
	}
	x.last, x.read = v, true
	return ^uint64(v) & (uint64(1)<<len(x.pins) - 1), nil // active low
}

// readPins reads the port's pins (called with the Expander's lock held).
func (x *expanderPins) readPins() (gpio.GPIOValue, error) {
	g := x.e.dev.Group(x.port, x.pins)
	if g == nil {
		return 0, fmt.Errorf("panel: %s port %c: no group", x.e.dev, 'A'+x.port)
	}
	v, err := (*g).Read(0)
	if err != nil {
		return 0, fmt.Errorf("panel: %s port %c: %w", x.e.dev, 'A'+x.port, err)
	}
	return v, nil
}

func (x *expanderPins) Write(bits uint64) error {
	e := x.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, err := e.check(); err != nil {
		return err
	}
	var levels uint8
	for i, p := range x.pins {
		if bits&(1<<i) != 0 {
			levels |= 1 << p
		}
	}
	m := mask(x.pins)
	if err := e.write(e.dev, x.port, m, levels); err != nil {
		return err
	}
	e.olat[x.port] = e.olat[x.port]&^m | levels
	e.driven[x.port] |= m
	return nil
}
