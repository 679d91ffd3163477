package rigdev

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/mark1-perceptron/mark1/drivers/ads1115"
	"github.com/mark1-perceptron/mark1/drivers/gpioservo"
	"github.com/mark1-perceptron/mark1/drivers/mcp44x1"
	"github.com/mark1-perceptron/mark1/drivers/panel"
	"github.com/mark1-perceptron/mark1/drivers/pca9685"
	"github.com/mark1-perceptron/mark1/rig"
)

// Event is something a rig reports: a chip's fault or recovery, a power loss, a pot that does
// not follow.
type Event struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"` // fault, recovered, power_loss, not_following, calibrated, watchdog, ...
	Chip    string    `json:"chip,omitempty"`
	Pot     string    `json:"pot,omitempty"` // the weight it shows: R0.A3
	Message string    `json:"message"`
}

// chipState is a chip's health.
type chipState struct {
	name, kind, bus string
	addr            uint16
	line            int
	faulty          bool
	err             error
	since, nextTry  time.Time
	backoff         time.Duration
	faults          int
}

func (c *chipState) String() string {
	if c.kind == "gpio_servo" {
		return c.name
	}
	return fmt.Sprintf("%s (%s 0x%02x on bus %s)", c.name, c.kind, c.addr, c.bus)
}

type pcaChip struct {
	chipState
	bus  i2c.Bus
	opts pca9685.Opts
	dev  *pca9685.Dev
	pots []*Pot
}

type mcpChip struct {
	chipState
	bus  i2c.Bus
	opts mcp44x1.Opts
	dev  *mcp44x1.Dev
	pots [4]*Pot
}

type adcChip struct {
	chipState
	bus  i2c.Bus
	opts ads1115.Opts
	dev  *ads1115.Dev
}

type gpioChip struct {
	chipState
	dev *gpioservo.Dev
	pot *Pot
}

// Pot phases.
const (
	idle     = iota
	writing  // the command is to be written
	settling // written; to be read back once settled
)

// Pot is one physical pot of the rig.
type Pot struct {
	spec rig.Pot
	name string
	pca  *pcaChip
	mcp  *mcpChip
	gs   *gpioChip
	adc  *adcChip

	hasTarget   bool
	target      float64 // the weight wanted, increments
	goal        float64 // the position of the current move, 0..1
	offset      float64 // the closed loop's learnt correction, position
	cmd         float64 // the position last commanded
	phase       int
	corrections int
	settleAt    time.Time
	read        float64 // the position last read back
	hasRead     bool
	v0, v1      float64 // ADC volts at positions 0 and 1
	calibrated  bool
	problem     string  // why the pot does not follow, or ""
	owed        float64 // corrections made before the pot's first value was known
}

// Stats counts a rig's update frames.
type Stats struct {
	Frames          uint64 `json:"frames"`            // Step calls
	WriteFrames     uint64 `json:"write_frames"`      // frames that wrote something
	FrameBytes      int    `json:"last_frame_bytes"`  // bytes the last writing frame put on the buses
	MaxFrameBytes   int    `json:"max_frame_bytes"`   // the most any frame wrote
	TotalWriteBytes uint64 `json:"total_write_bytes"` // bytes written by frames
	Corrections     uint64 `json:"corrections"`       // closed-loop re-drives: a pot read back off its target, driven again
	Reads           uint64 `json:"reads"`             // read-backs
}

// Hardware is a running rig. Its methods are safe for concurrent use.
type Hardware struct {
	spec *rig.Rig
	env  Env

	mu sync.Mutex
	// stopping asks a settle loop that holds mu to give it up at once: Hold and Park (the
	// operator's halt, the watchdog, shutdown) set it before they wait for mu, so that a
	// loop drive settling its pots (up to its timeout) never delays the safety stop.
	stopping atomic.Int32
	meters   map[string]*meter
	pcas     []*pcaChip
	mcps     []*mcpChip
	adcs     map[string]*adcChip
	gservos  []*gpioChip
	pots     []*Pot
	byWeight map[rig.Weight]*Pot
	held     bool // watchdog: hold, write nothing new
	onEvent  func(Event)
	events   []Event
	lastChk  time.Time
	refresh  int
	stats    Stats
	errs     []error            // faults during the current Settle
	calTime  map[*Pot]time.Time // when each calibrated pot's ends were found
	panels   []*panel.Panel     // opened by OpenPanel, halted by Shutdown
}

// Open opens the rig's buses and chips. A bus that cannot be opened is an error (naming the
// rig file's line); a chip that does not answer is reported and marked faulty, and tried again
// later. Pots with a read-back are calibrated before Open returns: with the ends stored in
// Env.CalFile (or Env.CalRead) when they match the rig file and pass a check (each pot read
// back once at its first position), else by driving them to both ends (a sweep), whose result
// is stored in Env.CalFile.
func Open(spec *rig.Rig, env Env) (*Hardware, error) {
	env.fill()
	h := &Hardware{spec: spec, env: env, meters: map[string]*meter{}, adcs: map[string]*adcChip{}, byWeight: map[rig.Weight]*Pot{}}
	for _, b := range spec.Buses {
		if env.Bus == nil {
			return nil, fmt.Errorf("%s:%d: bus %q: this host has no I2C buses", spec.File, b.Line, b.Name)
		}
		bus, err := env.Bus(b.Device)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: bus %q (device %s): %w", spec.File, b.Line, b.Name, b.Device, err)
		}
		h.meters[b.Name] = &meter{bus: bus, name: b.Name, now: env.Clock.Now, start: env.Clock.Now(), trace: env.Trace}
	}
	for _, c := range spec.PCA9685 {
		h.pcas = append(h.pcas, &pcaChip{chipState: state(c.Chip, "PCA9685"), bus: h.meters[c.Bus], opts: pca9685.Opts{
			Addr: c.Address, Frequency: physic.Frequency(c.FrequencyHz * float64(physic.Hertz)),
			Oscillator: physic.Frequency(c.OscillatorHz * float64(physic.Hertz)), MaxSlewing: c.MaxSlewing,
			Speed: c.Speed, Clock: env.Clock}})
	}
	for _, c := range spec.MCP44x1 {
		v := mcp44x1.MCP4451
		if c.Model == "MCP4461" {
			v = mcp44x1.MCP4461
		}
		h.mcps = append(h.mcps, &mcpChip{chipState: state(c.Chip, c.Model), bus: h.meters[c.Bus], opts: mcp44x1.Opts{
			Addr: c.Address, Variant: v, NVInterval: spec.NVSave, WritesOnly: !c.StepCommands, Clock: env.Clock}})
	}
	for _, c := range spec.ADS1115 {
		h.adcs[c.Name] = &adcChip{chipState: state(c.Chip, "ADS1115"), bus: h.meters[c.Bus], opts: ads1115.Opts{
			Addr: c.Address, MaxVoltage: physic.ElectricPotential(c.FullScaleV * float64(physic.Volt)),
			DataRate: physic.Frequency(c.DataRate) * physic.Hertz, Clock: env.Clock}}
	}
	gsByName := map[string]*gpioChip{}
	for _, s := range spec.GPIOServos {
		g := &gpioChip{chipState: chipState{name: s.Name, kind: "gpio_servo", line: s.Line}}
		gsByName[s.Name] = g
		h.gservos = append(h.gservos, g)
	}
	for _, sp := range spec.Pots {
		p := &Pot{spec: sp, name: sp.Weight.String()}
		switch sp.Kind {
		case "servo":
			for _, c := range h.pcas {
				if c.name == sp.Out.Chip {
					p.pca = c
					c.pots = append(c.pots, p)
					c.opts.Channels = append(c.opts.Channels, pca9685.Channel{Index: sp.Out.Channel, Calibration: pca9685.Calibration{
						MinPulse: sp.MinPulse, MaxPulse: sp.MaxPulse, Reverse: sp.Reverse, Trim: sp.Trim}})
				}
			}
		case "digipot":
			for _, c := range h.mcps {
				if c.name == sp.Out.Chip {
					p.mcp = c
					c.pots[sp.Out.Channel] = p
				}
			}
		case "gpio_servo":
			p.gs = gsByName[sp.Out.Chip]
			p.gs.pot = p
			if env.Pin == nil {
				return nil, fmt.Errorf("%s:%d: [[gpio_servo]] %q: this host has no GPIO pins", spec.File, p.gs.line, p.gs.name)
			}
			if env.Model != "" {
				if err := gpioservo.CheckBoard(env.Model); err != nil {
					return nil, fmt.Errorf("%s:%d: [[gpio_servo]] %q: %w", spec.File, p.gs.line, p.gs.name, err)
				}
			}
			var pin string
			for _, s := range spec.GPIOServos {
				if s.Name == p.gs.name {
					pin = s.Pin
				}
			}
			pp, err := env.Pin(pin)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: [[gpio_servo]] %q: pin %s: %w", spec.File, p.gs.line, p.gs.name, pin, err)
			}
			p.gs.dev, err = gpioservo.New(pp, &gpioservo.Opts{MinPulse: sp.MinPulse, MaxPulse: sp.MaxPulse, Reverse: sp.Reverse, Trim: sp.Trim})
			if err != nil {
				return nil, fmt.Errorf("%s:%d: [[pot]] %s: %w", spec.File, sp.Line, p.name, err)
			}
		}
		if sp.Readback != nil {
			p.adc = h.adcs[sp.Readback.Chip]
		}
		h.pots = append(h.pots, p)
		h.byWeight[sp.Weight] = p
	}
	now := env.Clock.Now()
	for _, c := range h.pcas {
		_ = h.try(&c.chipState, now, "opening", c.open)
	}
	for _, c := range h.mcps {
		_ = h.try(&c.chipState, now, "opening", c.open)
	}
	for _, c := range h.adcs {
		_ = h.try(&c.chipState, now, "opening", c.open)
	}
	h.lastChk = now
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.pots {
		h.initTarget(p)
	}
	h.calibrateAtOpen()
	return h, nil
}

func state(c rig.Chip, kind string) chipState {
	return chipState{name: c.Name, kind: kind, bus: c.Bus, addr: c.Address, line: c.Line}
}

func (c *pcaChip) open() error {
	if c.dev != nil {
		_, err := c.dev.Check()
		return err
	}
	d, err := pca9685.New(c.bus, &c.opts)
	if err != nil {
		return err
	}
	c.dev = d
	return nil
}

func (c *mcpChip) open() error {
	if c.dev != nil {
		_, err := c.dev.Check()
		return err
	}
	d, err := mcp44x1.New(c.bus, &c.opts)
	if err != nil {
		return err
	}
	c.dev = d
	return nil
}

func (c *adcChip) open() error {
	if c.dev != nil {
		return nil
	}
	d, err := ads1115.New(c.bus, &c.opts)
	if err != nil {
		return err
	}
	c.dev = d
	return nil
}

// Step runs one update frame: faulty chips due for a retry are tried, chips are checked for a
// power loss when due, changed targets are written, and settled pots are read back (the
// closed loop). Call it at the rig's update rate; SetWeights calls it too.
func (h *Hardware) Step() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.step()
}

func (h *Hardware) step() {
	now := h.env.Clock.Now()
	h.stats.Frames++
	h.retryFaulty(now)
	if now.Sub(h.lastChk) >= h.spec.Check {
		h.lastChk = now
		h.checkPower(now)
	}
	h.write(now)
	reads := h.stats.Reads
	h.verify(now)
	if h.stats.Reads == reads {
		h.refreshOne(now)
	}
}

func (h *Hardware) busBytes() uint64 {
	var n uint64
	for _, m := range h.meters {
		n += m.read().Bytes
	}
	return n
}

// Shutdown parks the servos (waiting up to timeout for them), saves the MCP4461s' wipers to
// EEPROM where they changed, and then halts every device (conn.Resource's Halt): each servo
// board turns its channels fully off, so the parked servos go limp where they are, and sleeps;
// a GPIO servo's pin goes low (and periph's PWM clock stops); a panel's lamps go out; the
// digital pots keep their wipers (the weights) and the ADCs, single-shot, are idle already. Its
// servos are parked, not held: with no daemon to watch them, a servo held against a jammed knob
// would stall and heat until someone noticed. The rig is not used after Shutdown.
func (h *Hardware) Shutdown(timeout time.Duration) error {
	deadline := h.env.Clock.Now().Add(timeout)
	h.Park()
	err := h.Settle(timeout)
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	// A servo without a read-back is done once written: wait for its travel too, or halting
	// would leave it short of its park position.
	for {
		now := h.env.Clock.Now()
		h.write(now)
		if !h.travelling(now) {
			break
		}
		if !now.Before(deadline) {
			errs = append(errs, fmt.Errorf("rig: servos still moving after %v: halted where they were", timeout))
			break
		}
		h.env.Clock.Sleep(min(h.spec.Period()/4, 5*time.Millisecond))
	}
	for _, c := range h.mcps {
		if c.dev == nil || c.faulty || c.dev.Variant() != mcp44x1.MCP4461 {
			continue
		}
		if saved, err := c.dev.SaveNV(true); err != nil {
			errs = append(errs, err)
		} else if len(saved) > 0 {
			h.env.Logger.Info(fmt.Sprintf("%s: wipers %v saved to EEPROM", &c.chipState, saved))
		}
	}
	h.held = true // nothing is written any more
	now := h.env.Clock.Now()
	for _, c := range h.pcas {
		if c.dev != nil {
			if err := h.try(&c.chipState, now, "halting", c.dev.Halt); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, g := range h.gservos {
		if g.dev != nil {
			if err := g.dev.Halt(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, c := range h.mcps {
		if c.dev != nil {
			errs = append(errs, c.dev.Halt())
		}
	}
	for _, c := range h.adcs {
		if c.dev != nil {
			errs = append(errs, c.dev.Halt())
		}
	}
	for _, p := range h.panels {
		if err := p.Halt(); err != nil {
			errs = append(errs, fmt.Errorf("panel: %w", err))
		}
	}
	return join(errs)
}

// SaveNV stores the MCP4461s' changed wipers in EEPROM, at most once per nv_save_s per wiper.
// Call it now and then (the daemon does every few seconds).
func (h *Hardware) SaveNV() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	now := h.env.Clock.Now()
	for _, c := range h.mcps {
		if c.dev == nil || c.faulty || c.dev.Variant() != mcp44x1.MCP4461 {
			continue
		}
		if err := h.try(&c.chipState, now, "saving wipers", func() error { _, err := c.dev.SaveNV(false); return err }); err != nil {
			errs = append(errs, err)
		}
	}
	return join(errs)
}
