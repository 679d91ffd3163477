package rigdev

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
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
	Corrections     uint64 `json:"corrections"`       // closed-loop corrections made
	Reads           uint64 `json:"reads"`             // read-backs
}

// Hardware is a running rig. Its methods are safe for concurrent use.
type Hardware struct {
	spec *rig.Rig
	env  Env

	mu       sync.Mutex
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
		h.meters[b.Name] = &meter{bus: bus, name: b.Name, now: env.Now, start: env.Now(), trace: env.Trace}
	}
	for _, c := range spec.PCA9685 {
		h.pcas = append(h.pcas, &pcaChip{chipState: state(c.Chip, "PCA9685"), bus: h.meters[c.Bus], opts: pca9685.Opts{
			Addr: c.Address, Frequency: physic.Frequency(c.FrequencyHz * float64(physic.Hertz)),
			Oscillator: physic.Frequency(c.OscillatorHz * float64(physic.Hertz)), MaxSlewing: c.MaxSlewing,
			Speed: c.Speed, Now: env.Now, Sleep: env.Sleep}})
	}
	for _, c := range spec.MCP44x1 {
		v := mcp44x1.MCP4451
		if c.Model == "MCP4461" {
			v = mcp44x1.MCP4461
		}
		h.mcps = append(h.mcps, &mcpChip{chipState: state(c.Chip, c.Model), bus: h.meters[c.Bus], opts: mcp44x1.Opts{
			Addr: c.Address, Variant: v, NVInterval: spec.NVSave, WritesOnly: !c.StepCommands, Now: env.Now, Sleep: env.Sleep}})
	}
	for _, c := range spec.ADS1115 {
		h.adcs[c.Name] = &adcChip{chipState: state(c.Chip, "ADS1115"), bus: h.meters[c.Bus], opts: ads1115.Opts{
			Addr: c.Address, MaxVoltage: physic.ElectricPotential(c.FullScaleV * float64(physic.Volt)),
			DataRate: physic.Frequency(c.DataRate) * physic.Hertz, Now: env.Now, Sleep: env.Sleep}}
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
	now := env.Now()
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

// initTarget gives a pot its first target: a digital pot keeps the wiper it has (a MCP4461's
// comes back from EEPROM: the weights survive a power cut), a servo goes to its park position.
func (h *Hardware) initTarget(p *Pot) {
	switch {
	case p.mcp != nil:
		if p.mcp.dev == nil {
			return // unknown until the chip answers
		}
		k := p.mcp.dev.Known()[p.spec.Out.Channel]
		if k < 0 {
			return
		}
		pos := float64(float64(k) / mcp44x1.FullScale) // rounded: FullScale may make the division a product
		p.hasTarget, p.target, p.goal, p.cmd = true, p.weight(pos), pos, pos
		p.phase = idle
		if p.owed != 0 { // corrections the machine made while the chip did not answer
			h.setTarget(p, p.target+p.owed)
			p.owed = 0
		}
	default:
		h.setTarget(p, p.weight(p.spec.Park))
	}
}

// position returns the position (0..1) showing weight w.
func (p *Pot) position(w float64) float64 {
	return math.Max(0, math.Min(1, 0.5+float64(w/(2*p.spec.Range))))
}

// weight returns the weight a position shows.
func (p *Pot) weight(pos float64) float64 { return float64((pos - 0.5) * 2 * p.spec.Range) }

// setTarget starts a move of p to weight w (called with the lock held).
func (h *Hardware) setTarget(p *Pot, w float64) {
	w = math.Max(-p.spec.Range, math.Min(p.spec.Range, w))
	goal := p.position(w)
	if p.hasTarget && goal == p.goal && p.target == w && p.phase != idle {
		return
	}
	changed := !p.hasTarget || goal != p.goal
	p.hasTarget, p.target = true, w
	if changed {
		p.goal, p.corrections, p.problem = goal, 0, ""
		p.phase = writing
	}
}

func (h *Hardware) emit(e Event) {
	if e.Time.IsZero() {
		e.Time = h.env.Now()
	}
	where := e.Chip
	if e.Pot != "" {
		where = "pot " + e.Pot
	}
	h.env.Log("rig: %s: %s: %s", e.Kind, where, e.Message)
	h.events = append(h.events, e)
	if len(h.events) > 100 {
		h.events = slices.Delete(h.events, 0, len(h.events)-100)
	}
	if h.onEvent != nil {
		h.onEvent(e)
	}
}

// OnEvent sets the function told of every event (called with the rig's lock held: it must not
// call the rig back).
func (h *Hardware) OnEvent(f func(Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.onEvent = f
}

var errFaulty = errors.New("faulty, waiting to retry")

// try runs op on a chip with the rig's retries and back-off. On failure the chip is marked
// faulty (reported once) and later calls skip it until its next retry is due; on success a
// faulty chip is reported recovered.
func (h *Hardware) try(c *chipState, now time.Time, what string, op func() error) error {
	if c.faulty && now.Before(c.nextTry) {
		return fmt.Errorf("%s: %w: %v", c, errFaulty, c.err)
	}
	var err error
	for i := 0; i <= h.spec.Retries; i++ {
		if i > 0 {
			h.env.Sleep(h.spec.Backoff << (i - 1))
		}
		if err = op(); err == nil {
			if c.faulty {
				c.faulty = false
				h.emit(Event{Kind: "recovered", Chip: c.name, Message: fmt.Sprintf("%s answers again after %v", c, h.env.Now().Sub(c.since).Round(time.Millisecond))})
			}
			return nil
		}
	}
	c.faults++
	if !c.faulty {
		c.faulty, c.since, c.backoff = true, now, h.spec.FaultRetry
		h.emit(Event{Kind: "fault", Chip: c.name, Message: fmt.Sprintf("%s: %s failed after %d tries: %v", c, what, h.spec.Retries+1, err)})
	} else {
		c.backoff = min(2*c.backoff, time.Minute)
	}
	c.err = err
	c.nextTry = h.env.Now().Add(c.backoff)
	return fmt.Errorf("%s: %s: %w", c, what, err)
}

func (h *Hardware) fail(err error) {
	if err != nil && len(h.errs) < 16 {
		h.errs = append(h.errs, err)
	}
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
	now := h.env.Now()
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

// refreshOne reads back one idle pot, in turn, so that the readings follow a pot that drifts
// or is pushed by hand.
func (h *Hardware) refreshOne(now time.Time) {
	for range h.pots {
		h.refresh = (h.refresh + 1) % len(h.pots)
		p := h.pots[h.refresh]
		if p.adc != nil && p.calibrated && p.phase == idle && !p.adc.faulty {
			if _, err := h.readBack(p, now); err != nil {
				h.fail(err)
			}
			return
		}
	}
}

func (h *Hardware) busBytes() uint64 {
	var n uint64
	for _, m := range h.meters {
		n += m.read().Bytes
	}
	return n
}

func (h *Hardware) retryFaulty(now time.Time) {
	for _, c := range h.pcas {
		if c.faulty && !now.Before(c.nextTry) {
			if h.try(&c.chipState, now, "retrying", c.open) == nil {
				for _, p := range c.pots {
					if p.hasTarget {
						p.phase = writing
					}
				}
			}
		}
	}
	for _, c := range h.mcps {
		if c.faulty && !now.Before(c.nextTry) {
			if h.try(&c.chipState, now, "retrying", c.open) == nil {
				for _, p := range c.pots {
					if p == nil {
						continue
					}
					if !p.hasTarget {
						h.initTarget(p)
					} else {
						p.phase = writing
					}
				}
			}
		}
	}
	for _, c := range h.adcs {
		if c.faulty && !now.Before(c.nextTry) {
			_ = h.try(&c.chipState, now, "retrying", c.open)
		}
	}
}

// checkPower asks every healthy chip whether it lost power; one that did is set up again and
// its pots rewritten.
func (h *Hardware) checkPower(now time.Time) {
	for _, c := range h.pcas {
		if c.dev == nil || c.faulty {
			continue
		}
		var restored bool
		err := h.try(&c.chipState, now, "checking", func() (err error) { restored, err = c.dev.Check(); return err })
		if err == nil && restored {
			h.emit(Event{Kind: "power_loss", Chip: c.name, Message: fmt.Sprintf("%s was reset (power loss?): set up again, outputs rewritten", &c.chipState)})
		}
	}
	for _, c := range h.mcps {
		if c.dev == nil || c.faulty {
			continue
		}
		var restored bool
		err := h.try(&c.chipState, now, "checking", func() (err error) { restored, err = c.dev.Check(); return err })
		if err == nil && restored {
			h.emit(Event{Kind: "power_loss", Chip: c.name, Message: fmt.Sprintf("%s lost its terminals or wipers (power loss?): restored", &c.chipState)})
		}
	}
}

// write stages every pot whose command is to be written and flushes each chip once; it
// counts the frame's bytes.
func (h *Hardware) write(now time.Time) {
	if h.held {
		return
	}
	before := h.busBytes()
	h.writeChips(now)
	if n := int(h.busBytes() - before); n > 0 {
		h.stats.WriteFrames++
		h.stats.FrameBytes = n
		h.stats.MaxFrameBytes = max(h.stats.MaxFrameBytes, n)
		h.stats.TotalWriteBytes += uint64(n)
	}
}

func (h *Hardware) writeChips(now time.Time) {
	for _, c := range h.pcas {
		if c.dev == nil {
			continue
		}
		staged := false
		for _, p := range c.pots {
			if p.phase == writing {
				p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
				if err := c.dev.SetPosition(p.spec.Out.Channel, p.cmd); err != nil {
					h.fail(err)
				}
				staged = true
			}
		}
		if !staged && !c.dev.Busy() {
			continue
		}
		if err := h.try(&c.chipState, now, "writing", func() error { _, err := c.dev.Flush(); return err }); err != nil {
			h.fail(err)
		}
		for _, p := range c.pots {
			if _, pending := c.dev.Target(p.spec.Out.Channel); p.phase == writing && !pending {
				h.written(p, now)
			}
		}
	}
	for _, c := range h.mcps {
		if c.dev == nil {
			continue
		}
		var vals [4]int
		mask := 0
		for w, p := range c.pots {
			if p != nil && p.phase == writing {
				p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
				vals[w], mask = int(math.Round(p.cmd*mcp44x1.FullScale)), mask|1<<w
			}
		}
		if mask == 0 {
			continue
		}
		if err := h.try(&c.chipState, now, "writing", func() error { return c.dev.SetWipers(vals, mask) }); err != nil {
			h.fail(err)
			continue
		}
		for _, p := range c.pots {
			if p != nil && p.phase == writing {
				h.written(p, now)
			}
		}
	}
	for _, g := range h.gservos {
		p := g.pot
		if p == nil || p.phase != writing {
			continue
		}
		dist := math.Abs(p.goal + p.offset - p.cmd)
		p.cmd = math.Max(0, math.Min(1, p.goal+p.offset))
		if err := h.try(&g.chipState, now, "writing", func() error { return g.dev.SetPosition(p.cmd) }); err != nil {
			h.fail(err)
			continue
		}
		p.settleAt = now.Add(time.Duration(dist / 1.5 * float64(time.Second)))
		h.written(p, now)
	}
}

// written moves a pot whose command went out to its next phase.
func (h *Hardware) written(p *Pot, now time.Time) {
	if p.adc != nil {
		p.phase = settling // read back once it has travelled
		if p.mcp != nil {
			p.settleAt = now
		}
		return
	}
	p.phase = idle
	p.read, p.hasRead = p.cmd, true
}

// quantum returns the command step a position comes to on the pot's output: a wiper step of
// a digital pot, a count of a servo board (near enough: a millionth of the travel).
func (p *Pot) quantum(pos float64) int {
	if p.mcp != nil {
		return int(math.Round(pos * mcp44x1.FullScale))
	}
	// A servo board's count is 1/4096 of its period; a GPIO PWM's resolution is finer than any
	// servo's deadband: count microseconds.
	unit := float64(time.Microsecond)
	if p.pca != nil {
		unit = float64(p.pca.opts.Frequency.Period()) / 4096
	}
	travel := float64(p.spec.MaxPulse-p.spec.MinPulse) / unit
	return int(math.Round(pos * travel))
}

func (p *Pot) settled(now time.Time) bool {
	if p.pca != nil {
		return p.pca.dev.Settled(p.spec.Out.Channel)
	}
	return !now.Before(p.settleAt)
}

// readBack reads p's ADC channel and returns the position it shows.
func (h *Hardware) readBack(p *Pot, now time.Time) (float64, error) {
	var v physic.ElectricPotential
	err := h.try(&p.adc.chipState, now, "reading", func() (err error) {
		if p.adc.dev == nil {
			return errors.New("not open")
		}
		v, err = p.adc.dev.Read(p.spec.Readback.Channel)
		return err
	})
	if err != nil {
		return 0, err
	}
	h.stats.Reads++
	volts := float64(v) / float64(physic.Volt)
	pos := (volts - p.v0) / (p.v1 - p.v0)
	p.read, p.hasRead = pos, true
	return pos, nil
}

// verify reads back the pots that have settled and corrects those off their target.
func (h *Hardware) verify(now time.Time) {
	for _, p := range h.pots {
		if p.phase != settling || p.adc == nil || !p.settled(now) {
			continue
		}
		if !p.calibrated {
			p.phase = idle // nothing to compare a reading with
			continue
		}
		pos, err := h.readBack(p, now)
		if err != nil {
			h.fail(err)
			continue
		}
		miss := p.goal - pos
		if math.Abs(miss)*2*p.spec.Range <= h.spec.Tolerance {
			p.phase = idle
			continue
		}
		next := math.Max(0, math.Min(1, p.goal+p.offset+miss))
		stuck := p.quantum(next) == p.quantum(p.cmd)
		if stuck && math.Abs(float64(p.quantum(p.goal)-p.quantum(pos))) <= 1 {
			p.phase = idle // within one step of the output: the best the pot can do
			continue
		}
		if stuck || p.corrections >= h.spec.MaxCorrections {
			p.phase = idle
			if p.problem == "" {
				p.problem = fmt.Sprintf("does not follow: target %.3g, reads %.3g after %d corrections", p.target, p.weight(pos), p.corrections)
				h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
				h.fail(fmt.Errorf("pot %s (%s): %s", p.name, p.spec.Out, p.problem))
			}
			continue
		}
		p.offset += miss
		p.corrections++
		h.stats.Corrections++
		p.phase = writing
	}
}

// sweep drives the pots (each with a read-back) to both ends of their travel and takes the
// ADC's readings there as positions 0 and 1, then sends them back to their targets (called
// with the lock held).
func (h *Hardware) sweep(pots []*Pot) {
	saved := make([]Pot, len(pots))
	for i, p := range pots {
		saved[i] = *p
	}
	var volts [2][]float64
	for end := range 2 {
		for _, p := range pots {
			p.hasTarget, p.goal, p.offset, p.phase = true, float64(end), 0, writing
		}
		h.settleLocked(10*time.Second, false)
		volts[end] = make([]float64, len(pots))
		for i, p := range pots {
			volts[end][i] = math.NaN()
			if p.phase == writing || p.adc.dev == nil || !p.settled(h.env.Now()) {
				continue
			}
			var v physic.ElectricPotential
			err := h.try(&p.adc.chipState, h.env.Now(), "reading", func() (err error) { v, err = p.adc.dev.Read(p.spec.Readback.Channel); return err })
			if err == nil {
				volts[end][i] = float64(v) / float64(physic.Volt)
			}
		}
	}
	for i, p := range pots {
		p.hasTarget, p.target, p.goal, p.phase = saved[i].hasTarget, saved[i].target, saved[i].goal, writing
		if !p.hasTarget {
			p.phase = idle
		}
		v0, v1 := volts[0][i], volts[1][i]
		switch {
		case math.IsNaN(v0) || math.IsNaN(v1):
			p.problem = "not calibrated: its chip or ADC did not answer"
			h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
		case math.Abs(v1-v0) < 0.05:
			p.problem = fmt.Sprintf("not calibrated: reads %.3f V at one end and %.3f V at the other (is the read-back wired?)", v0, v1)
			h.emit(Event{Kind: "not_following", Pot: p.name, Message: p.problem})
		default:
			p.v0, p.v1, p.calibrated = v0, v1, true
		}
	}
}

// Settle writes and reads back until every pot has reached its target (or been reported as
// not following), a chip it needs is faulty, or timeout passes. It returns the faults met.
func (h *Hardware) Settle(timeout time.Duration) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.errs = nil
	h.settleLocked(timeout, true)
	err := join(h.errs)
	h.errs = nil
	return err
}

func (h *Hardware) settleLocked(timeout time.Duration, verify bool) {
	deadline := h.env.Now().Add(timeout)
	pause := min(h.spec.Period()/4, 5*time.Millisecond)
	for {
		now := h.env.Now()
		h.retryFaulty(now)
		h.write(now)
		if verify {
			h.verify(now)
		}
		if !h.busy(verify) {
			return
		}
		if !now.Before(deadline) {
			h.fail(fmt.Errorf("rig: pots still moving after %v", timeout))
			return
		}
		h.env.Sleep(pause)
	}
}

// busy reports whether a pot on a working chip is still to be written or read back (or, when
// not verifying, still travelling).
func (h *Hardware) busy(verify bool) bool {
	for _, p := range h.pots {
		var out *chipState
		switch {
		case p.pca != nil:
			out = &p.pca.chipState
		case p.mcp != nil:
			out = &p.mcp.chipState
		default:
			out = &p.gs.chipState
		}
		if out.faulty || h.held {
			continue
		}
		switch {
		case p.phase == writing:
			return true
		case p.phase == settling && verify && !p.adc.faulty:
			return true
		case p.phase == settling && !p.settled(h.env.Now()):
			return true
		}
	}
	return false
}

// WeightValue is a weight's target for SetWeights.
type WeightValue struct {
	Weight rig.Weight
	Value  float64 // increments
}

// SetWeights sets the pots showing these weights to show these values (clamped at the pot's
// range) and writes the changes at once (a Step), so a change reaches the chips within the
// request. Weights the rig does not show are ignored; it returns how many it does.
func (h *Hardware) SetWeights(ws []WeightValue) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, w := range ws {
		if p := h.byWeight[w.Weight]; p != nil && !math.IsNaN(w.Value) {
			h.setTarget(p, w.Value)
			n++
		}
	}
	h.held = false
	h.step()
	return n
}

// Hold stops motion: targets not yet written are kept but not written until the next
// SetWeights (the watchdog's "hold").
func (h *Hardware) Hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = true
	for _, c := range h.pcas {
		if c.dev != nil {
			c.dev.Hold()
		}
	}
	for _, p := range h.pots {
		if p.phase == writing && p.pca != nil {
			p.phase = idle // the target stays: SetWeights moves it again
		}
	}
}

// Resume lets motion go on after Hold or Park: the targets kept are written at once.
func (h *Hardware) Resume() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	h.step()
}

// Held reports whether motion is stopped (Hold, until Resume or SetWeights).
func (h *Hardware) Held() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

// OutputStep returns the weight, in increments, of one step of the output showing w: a
// wiper step of a digital pot, a count of a servo board, a microsecond of a GPIO pulse; 0
// when the rig has no pot for w.
func (h *Hardware) OutputStep(w rig.Weight) float64 {
	p := h.byWeight[w]
	if p == nil {
		return 0
	}
	return 2 * p.spec.Range / float64(p.quantum(1))
}

// Park sends every servo to its park position (the watchdog's "park", and shutdown). Digital
// pots keep their values.
func (h *Hardware) Park() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	for _, p := range h.pots {
		if p.mcp == nil {
			h.setTarget(p, p.weight(p.spec.Park))
		}
	}
	h.step()
}

// Shutdown parks the servos (waiting up to timeout for them), saves the MCP4461s' wipers to
// EEPROM where they changed, and then halts every device (conn.Resource's Halt): each servo
// board turns its channels fully off, so the parked servos go limp where they are, and sleeps;
// a GPIO servo's pin goes low (and periph's PWM clock stops); a panel's lamps go out; the
// digital pots keep their wipers (the weights) and the ADCs, single-shot, are idle already. Its
// servos are parked, not held: with no daemon to watch them, a servo held against a jammed knob
// would stall and heat until someone noticed. The rig is not used after Shutdown.
func (h *Hardware) Shutdown(timeout time.Duration) error {
	deadline := h.env.Now().Add(timeout)
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
		now := h.env.Now()
		h.write(now)
		if !h.travelling(now) {
			break
		}
		if !now.Before(deadline) {
			errs = append(errs, fmt.Errorf("rig: servos still moving after %v: halted where they were", timeout))
			break
		}
		h.env.Sleep(min(h.spec.Period()/4, 5*time.Millisecond))
	}
	for _, c := range h.mcps {
		if c.dev == nil || c.faulty || c.dev.Variant() != mcp44x1.MCP4461 {
			continue
		}
		if saved, err := c.dev.SaveNV(true); err != nil {
			errs = append(errs, err)
		} else if len(saved) > 0 {
			h.env.Log("rig: %s: wipers %v saved to EEPROM", &c.chipState, saved)
		}
	}
	h.held = true // nothing is written any more
	now := h.env.Now()
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

// travelling reports whether a servo on a working chip has a target to write or is still
// moving, as its board estimates (called with the lock held).
func (h *Hardware) travelling(now time.Time) bool {
	for _, c := range h.pcas {
		if c.dev != nil && !c.faulty && c.dev.Busy() {
			return true
		}
	}
	for _, g := range h.gservos {
		if g.pot != nil && !g.faulty && (g.pot.phase == writing || g.pot.settleAt.After(now)) {
			return true
		}
	}
	return false
}

// SaveNV stores the MCP4461s' changed wipers in EEPROM, at most once per nv_save_s per wiper.
// Call it now and then (the daemon does every few seconds).
func (h *Hardware) SaveNV() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	now := h.env.Now()
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
