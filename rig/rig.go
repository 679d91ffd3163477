// Package rig reads a rig file: the TOML description of a mark1 hardware rig (the buses, the
// chips and their addresses, which physical channel shows which weight, each channel's
// calibration, the update rate, the panel, and what to do on a fault), as cmd/hwbridge uses
// it. testdata/rig/example.toml is a commented example of every key.
//
// Parse checks the whole file and refuses anything wrong with a one-line error naming the
// file, the line, the section and the key: an unknown or repeated key, a value of the wrong
// type or out of range, a chip on an address its kind cannot have or that another chip on the
// bus already has, a channel or weight given twice, a read-back on something that is not an
// ADC, a loop rig that leaves a weight of its machine without a pot or a read-back.
//
// The package only reads the file; the drivers that bring a rig to life are in drivers/rigdev.
package rig

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// MaxFile is the largest rig file read.
const MaxFile = 1 << 20

// MaxPots is the most pots a rig may have.
const MaxPots = 4096

// Modes of a rig.
const (
	ModeMirror = "mirror" // the emulator runs the whole machine; some pots are shown
	ModeLoop   = "loop"   // a small machine whose weights are the physical pots
)

// Watchdog actions.
const (
	Hold = "hold" // servos stay where they are
	Park = "park" // servos go to their park positions
)

// Rig is a rig file, checked.
type Rig struct {
	File           string
	Mode           string        // ModeMirror or ModeLoop
	fsys           fs.FS         // where a built-in rig's wiring file is; nil: beside File
	UpdateHz       float64       // frames per second sent to the hardware
	Watchdog       time.Duration // motion stops when the controlling client is silent this long (0: never)
	OnWatchdog     string        // Hold or Park
	Check          time.Duration // how often chips are checked for a power loss
	Retries        int           // retries of a failed transaction, with back-off
	Backoff        time.Duration // the first back-off; it doubles with each retry
	FaultRetry     time.Duration // a faulty chip is tried again this often at first (doubling up to a minute)
	Tolerance      float64       // closed loop: read-back within this of the target, increments
	MaxCorrections int           // closed-loop corrections of one move before the pot is reported
	NVSave         time.Duration // MCP4461: shortest time between EEPROM saves of one wiper
	Machine        *Machine      // nil when the file has no [machine]

	Buses      []Bus
	PCA9685    []PCA9685
	MCP44x1    []MCP44x1
	ADS1115    []ADS1115
	GPIOServos []GPIOServo
	MCP23017   []MCP23017
	Pots       []Pot // one per pot, [[pot]] count expanded, in file order
	Panel      *Panel
}

// Machine is the machine a loop rig's weights belong to, and the machine hwbridge runs by
// itself (headless, driven by the panel).
type Machine struct {
	Line   int
	AUnits int    // A-units
	RUnits int    // R-units
	Wiring string // random, local, identity or a wiring file (relative to the rig file)
	Seed   uint64
	Rule   string // alpha, gamma or forced
	Data   string // cards for a headless run (builtin:NAME, a folder, idx:...)
	Epochs int    // epochs a Train press runs at most
}

// Bus is an I²C bus.
type Bus struct {
	Line   int
	Name   string
	Device string // "1" or "/dev/i2c-1"
}

// Chip is what every chip has: a name, a bus and an address.
type Chip struct {
	Line    int
	Name    string
	Bus     string
	Address uint16
}

// PCA9685 is a servo board.
type PCA9685 struct {
	Chip
	FrequencyHz  float64
	OscillatorHz float64
	MaxSlewing   int     // most servos moving at once (0: no limit)
	Speed        float64 // servo speed, whole travels per second
}

// MCP44x1 is a quad digital potentiometer.
type MCP44x1 struct {
	Chip
	Model        string // "MCP4451" or "MCP4461"
	StepCommands bool   // a wiper moving one step gets an 8-bit increment or decrement
}

// ADS1115 is an ADC reading pots back.
type ADS1115 struct {
	Chip
	DataRate   int     // samples per second
	FullScaleV float64 // the highest voltage read
}

// GPIOServo is a servo on a hardware-PWM GPIO pin.
type GPIOServo struct {
	Line int
	Name string
	Pin  string
}

// MCP23017 is an I/O expander for the panel.
type MCP23017 struct {
	Chip
}

// Weight names one weight of the machine: R-unit R's pot of A-unit A, or its bias pot (A =
// Bias).
type Weight struct {
	R, A int
}

// Bias is Weight.A of a bias pot.
const Bias = -1

func (w Weight) String() string {
	if w.A == Bias {
		return fmt.Sprintf("R%d.bias", w.R)
	}
	return fmt.Sprintf("R%d.A%d", w.R, w.A)
}

// Ref names a chip's channel; Channel is -1 for a chip with one (a GPIO servo).
type Ref struct {
	Chip    string
	Channel int
}

func (r Ref) String() string {
	if r.Channel < 0 {
		return r.Chip
	}
	return fmt.Sprintf("%s:%d", r.Chip, r.Channel)
}

// Pot is one physical pot: the weight it shows, where it is driven and read back, and its
// calibration.
type Pot struct {
	Line     int
	Weight   Weight
	Out      Ref
	Readback *Ref   // the ADC channel reading its wiper, or nil
	Kind     string // "servo", "gpio_servo" or "digipot": what Out is

	Range    float64 // the weight at either end of the travel, increments
	MinPulse time.Duration
	MaxPulse time.Duration
	Trim     time.Duration
	Reverse  bool
	Park     float64 // position (0..1) to park at
}

// Panel is the operator's panel: inputs and lamps are GPIO pin names ("GPIO5") or expander
// pins ("NAME:A0".."NAME:B7").
type Panel struct {
	Line      int
	Debounce  time.Duration
	Poll      time.Duration
	Train     string
	Test      string
	Stop      string
	Reset     string
	Force     []string // one switch per R-unit, force0 first
	Lamps     []string // one lamp per R-unit
	FaultLamp string
}

var (
	singleSections = map[string]bool{"rig": true, "machine": true, "panel": true}
	arraySections  = map[string]bool{"bus": true, "pca9685": true, "mcp44x1": true, "ads1115": true, "gpio_servo": true, "mcp23017": true, "pot": true}
	knownKeys      = map[string][]string{
		"rig":        {"mode", "update_hz", "watchdog_ms", "on_watchdog", "check_s", "retries", "backoff_ms", "fault_retry_s", "tolerance", "max_corrections", "nv_save_s"},
		"machine":    {"a_units", "r_units", "wiring", "seed", "rule", "data", "epochs"},
		"bus":        {"name", "device"},
		"pca9685":    {"name", "bus", "address", "frequency_hz", "oscillator_hz", "max_slewing", "speed"},
		"mcp44x1":    {"name", "bus", "address", "model", "step_commands"},
		"ads1115":    {"name", "bus", "address", "data_rate", "full_scale_v"},
		"gpio_servo": {"name", "pin"},
		"mcp23017":   {"name", "bus", "address"},
		"pot":        {"weight", "out", "readback", "count", "range", "min_us", "max_us", "trim_us", "reverse", "park"},
		"panel":      {"debounce_ms", "poll_ms", "train", "test", "stop", "reset", "force", "lamps", "fault_lamp"},
	}
)

func sectionList() string {
	return "rig, machine, panel, [[bus]], [[pca9685]], [[mcp44x1]], [[ads1115]], [[gpio_servo]], [[mcp23017]] or [[pot]]"
}

// Default returns the settings a rig file's [rig] section starts from.
func Default() Rig {
	return Rig{Mode: ModeMirror, UpdateHz: 20, Watchdog: 2 * time.Second, OnWatchdog: Hold, Check: 2 * time.Second,
		Retries: 2, Backoff: 2 * time.Millisecond, FaultRetry: time.Second, Tolerance: 0.5, MaxCorrections: 4,
		NVSave: 10 * time.Minute}
}

// ReadFile reads and checks the rig file at path; only a regular file is read.
func ReadFile(path string) (*Rig, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path)
}

// Parse reads and checks a rig file; name is used in error messages (and to find a wiring
// file named relative to it). At most MaxFile bytes are read; a UTF-8 byte-order mark is
// skipped.
func Parse(r io.Reader, name string) (*Rig, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a rig file", name, MaxFile)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	tables, err := parseTOML(data, name)
	if err != nil {
		return nil, err
	}
	rg := Default()
	rg.File = name
	var rigSeen bool
	for _, t := range tables {
		f := &fields{file: name, t: t}
		switch t.name {
		case "rig":
			rigSeen = true
			rg.decode(f)
		case "machine":
			rg.Machine = decodeMachine(f)
		case "bus":
			b := Bus{Line: t.line}
			f.str("name", &b.Name, true)
			f.str("device", &b.Device, true)
			rg.Buses = append(rg.Buses, b)
		case "pca9685":
			c := PCA9685{Chip: chip(f, 0x40, 0x7F), FrequencyHz: 50, OscillatorHz: 25e6, Speed: 1.5}
			if c.Address >= 0x78 {
				f.fail("address", f.line("address"), "0x%02x is reserved by the I2C specification (0x78-0x7f: 10-bit addressing and future use): a PCA9685 takes 0x40-0x77, but 0x70", c.Address)
			}
			f.float("frequency_hz", &c.FrequencyHz, 24, 1526)
			f.float("oscillator_hz", &c.OscillatorHz, 20e6, 30e6)
			f.int("max_slewing", &c.MaxSlewing, 0, 16, false)
			f.float("speed", &c.Speed, 0.01, 100)
			rg.PCA9685 = append(rg.PCA9685, c)
		case "mcp44x1":
			c := MCP44x1{Chip: chip(f, 0x2C, 0x2F), Model: "MCP4451", StepCommands: true}
			f.oneOf("model", &c.Model, "MCP4451", "MCP4461")
			f.bool("step_commands", &c.StepCommands)
			rg.MCP44x1 = append(rg.MCP44x1, c)
		case "ads1115":
			c := ADS1115{Chip: chip(f, 0x48, 0x4B), DataRate: 860, FullScaleV: 4.096}
			f.int("data_rate", &c.DataRate, 8, 860, false)
			f.float("full_scale_v", &c.FullScaleV, 0.256, 6.144)
			rg.ADS1115 = append(rg.ADS1115, c)
		case "gpio_servo":
			s := GPIOServo{Line: t.line}
			f.str("name", &s.Name, true)
			f.str("pin", &s.Pin, true)
			if msg := servoPin(s.Pin); msg != "" && f.err == nil {
				f.fail("pin", f.line("pin"), "%s", msg)
			}
			rg.GPIOServos = append(rg.GPIOServos, s)
		case "mcp23017":
			rg.MCP23017 = append(rg.MCP23017, MCP23017{chip(f, 0x20, 0x27)})
		case "pot":
			pots, err := decodePots(f, len(rg.Pots))
			if err != nil {
				return nil, err
			}
			rg.Pots = append(rg.Pots, pots...)
		case "panel":
			rg.Panel = decodePanel(f)
		}
		if err := f.done(); err != nil {
			return nil, err
		}
	}
	if !rigSeen {
		return nil, fmt.Errorf("%s:1: no [rig] section: not a rig file", name)
	}
	if err := rg.validate(); err != nil {
		return nil, err
	}
	return &rg, nil
}

func (rg *Rig) decode(f *fields) {
	f.oneOf("mode", &rg.Mode, ModeMirror, ModeLoop)
	f.float("update_hz", &rg.UpdateHz, 1, 200)
	f.dur("watchdog_ms", &rg.Watchdog, time.Millisecond, 0, 3600e3)
	f.oneOf("on_watchdog", &rg.OnWatchdog, Hold, Park)
	f.dur("check_s", &rg.Check, time.Second, 0.1, 3600)
	f.int("retries", &rg.Retries, 0, 10, false)
	f.dur("backoff_ms", &rg.Backoff, time.Millisecond, 0, 1000)
	f.dur("fault_retry_s", &rg.FaultRetry, time.Second, 0.01, 3600)
	f.float("tolerance", &rg.Tolerance, 0.01, 100)
	f.int("max_corrections", &rg.MaxCorrections, 0, 100, false)
	f.dur("nv_save_s", &rg.NVSave, time.Second, 1, 7*24*3600)
	if rg.Watchdog > 0 && rg.Watchdog < 2*time.Duration(float64(time.Second)/rg.UpdateHz) && f.err == nil {
		f.fail("watchdog_ms", f.line("watchdog_ms"), "%v is shorter than two update periods", rg.Watchdog)
	}
	if rg.Mode == ModeLoop && rg.OnWatchdog == Park && f.err == nil {
		f.fail("on_watchdog", f.line("on_watchdog"), "%q in a loop rig: its pots are its machine's weights, and parking them would erase what it learnt: use %q", Park, Hold)
	}
}

func decodeMachine(f *fields) *Machine {
	m := &Machine{Line: f.t.line, AUnits: 15, RUnits: 1, Wiring: "random", Seed: 1, Rule: "alpha", Epochs: 10}
	f.int("a_units", &m.AUnits, 1, 65536, false)
	f.int("r_units", &m.RUnits, 1, 64, false)
	f.str("wiring", &m.Wiring, false)
	var seed int
	f.int("seed", &seed, 0, 1<<53, false)
	if _, ok := f.t.keys["seed"]; ok {
		m.Seed = uint64(seed)
	}
	f.oneOf("rule", &m.Rule, "alpha", "gamma", "forced")
	f.str("data", &m.Data, false)
	f.int("epochs", &m.Epochs, 1, 100000, false)
	return m
}

// servoPin tells why a GPIO servo cannot be on pin ("" when it can). Of a Raspberry Pi's
// header pins only GPIO12, 13, 18 and 19 carry PWM; periph (host v3.8.5, bcm283x) drives GPIO13
// and GPIO19 from PWM1, the hardware channel, but GPIO12 and GPIO18 by DMA in 5 us steps
// (PWM0 clocks the DMA).
func servoPin(pin string) string {
	switch pin {
	case "GPIO13", "GPIO19":
		return ""
	case "GPIO12", "GPIO18":
		return fmt.Sprintf("%q is PWM0, which periph drives by DMA in 5 us steps, not as hardware PWM (PWM0 clocks its DMA): use GPIO13 or GPIO19 (PWM1), or better a PCA9685 channel", pin)
	}
	return fmt.Sprintf("%q has no hardware PWM: a servo on a Raspberry Pi's own pins needs GPIO13 or GPIO19 (PWM1); or use a PCA9685 channel", pin)
}

func chip(f *fields, lo, hi uint16) Chip {
	c := Chip{Line: f.t.line}
	f.str("name", &c.Name, true)
	f.str("bus", &c.Bus, true)
	f.addr("address", &c.Address, lo, hi)
	return c
}

var (
	weightRE = regexp.MustCompile(`^R(\d+)\.(?:A(\d+)|(bias))$`)
	refRE    = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)(?::(\d+))?$`)
)

func decodePots(f *fields, have int) ([]Pot, error) {
	p := Pot{Line: f.t.line, Range: 32, MinPulse: time.Millisecond, MaxPulse: 2 * time.Millisecond, Park: 0.5}
	var weight, out, rb string
	count := 1
	f.str("weight", &weight, true)
	f.str("out", &out, true)
	f.str("readback", &rb, false)
	f.int("count", &count, 1, MaxPots, false)
	f.float("range", &p.Range, 0.001, 1e6)
	f.dur("min_us", &p.MinPulse, time.Microsecond, 100, 5000)
	f.dur("max_us", &p.MaxPulse, time.Microsecond, 100, 5000)
	f.dur("trim_us", &p.Trim, time.Microsecond, -1000, 1000)
	f.bool("reverse", &p.Reverse)
	f.float("park", &p.Park, 0, 1)
	if f.err != nil {
		return nil, f.err
	}
	if have+count > MaxPots {
		f.fail("count", f.line("count"), "more than %d pots in the rig", MaxPots)
		return nil, f.err
	}
	m := weightRE.FindStringSubmatch(weight)
	if m == nil {
		f.fail("weight", f.line("weight"), "%q: want R<unit>.A<unit> or R<unit>.bias (R0.A17, R0.bias)", weight)
		return nil, f.err
	}
	r, err1 := strconv.Atoi(m[1])
	a, err2 := strconv.Atoi(m[2])
	switch {
	case err1 != nil || r >= 64:
		f.fail("weight", f.line("weight"), "%q: R-unit out of range 0..63", weight)
	case m[3] == "bias" && count > 1:
		f.fail("count", f.line("count"), "a bias pot is one pot (count %d)", count)
	case m[3] == "bias":
		a = Bias
	case err2 != nil || a+count > 65536:
		f.fail("weight", f.line("weight"), "%q: A-unit out of range 0..65535", weight)
	}
	if p.MinPulse >= p.MaxPulse {
		f.fail("max_us", f.line("max_us"), "%v is not above min_us %v", p.MaxPulse, p.MinPulse)
	}
	outRef := parseRef(f, "out", out)
	var rbRef *Ref
	if rb != "" {
		rr := parseRef(f, "readback", rb)
		rbRef = &rr
	}
	if f.err != nil {
		return nil, f.err
	}
	pots := make([]Pot, 0, count)
	for i := range count {
		q := p
		q.Weight = Weight{R: r, A: a}
		if a != Bias {
			q.Weight.A = a + i
		}
		q.Out = outRef
		if outRef.Channel >= 0 {
			q.Out.Channel += i
		} else if count > 1 {
			f.fail("count", f.line("count"), "%s has one channel (count %d)", outRef.Chip, count)
			return nil, f.err
		}
		if rbRef != nil {
			rr := *rbRef
			rr.Channel += i
			q.Readback = &rr
		}
		pots = append(pots, q)
	}
	return pots, nil
}

func parseRef(f *fields, key, s string) Ref {
	m := refRE.FindStringSubmatch(s)
	if m == nil {
		f.fail(key, f.line(key), "%q: want CHIP:CHANNEL (servos:3) or a GPIO servo's name", s)
		return Ref{}
	}
	r := Ref{Chip: m[1], Channel: -1}
	if m[2] != "" {
		c, err := strconv.Atoi(m[2])
		if err != nil || c > 65535 {
			f.fail(key, f.line(key), "%q: channel out of range", s)
		}
		r.Channel = c
	}
	return r
}

func decodePanel(f *fields) *Panel {
	p := &Panel{Line: f.t.line, Debounce: 30 * time.Millisecond, Poll: 10 * time.Millisecond}
	f.dur("debounce_ms", &p.Debounce, time.Millisecond, 1, 1000)
	f.dur("poll_ms", &p.Poll, time.Millisecond, 1, 1000)
	for _, k := range []struct {
		key string
		dst *string
	}{{"train", &p.Train}, {"test", &p.Test}, {"stop", &p.Stop}, {"reset", &p.Reset}, {"fault_lamp", &p.FaultLamp}} {
		f.str(k.key, k.dst, false)
	}
	f.strs("force", &p.Force)
	f.strs("lamps", &p.Lamps)
	if len(p.Force) > 64 || len(p.Lamps) > 64 {
		f.fail("force", f.t.line, "at most 64 switches and 64 lamps")
	}
	return p
}

// errorAt formats a validation error at a line.
func (rg *Rig) errorAt(line int, format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", rg.File, line, fmt.Sprintf(format, a...))
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

// Pulse returns a servo pot's pulse at position pos (0..1).
func (p Pot) Pulse(pos float64) time.Duration {
	if p.Reverse {
		pos = 1 - pos
	}
	return p.MinPulse + time.Duration(pos*float64(p.MaxPulse-p.MinPulse)) + p.Trim
}

var (
	gpioRE     = regexp.MustCompile(`^(GPIO\d{1,3}|[A-Za-z][A-Za-z0-9_]*)$`)
	expanderRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):([AB])([0-7])$`)
)

// PanelPin is a panel input or lamp: a GPIO pin by name, or pin Bit of port Port (0: A, 1: B)
// of the MCP23017 named Chip.
type PanelPin struct {
	GPIO      string
	Chip      string
	Port, Bit int
}

// ParsePanelPin reads a panel pin as the rig file writes it: "GPIO5" or "NAME:B3".
func ParsePanelPin(s string) (PanelPin, bool) {
	if m := expanderRE.FindStringSubmatch(s); m != nil {
		return PanelPin{Chip: m[1], Port: int(m[2][0] - 'A'), Bit: int(m[3][0] - '0')}, true
	}
	if gpioRE.MatchString(s) {
		return PanelPin{GPIO: s}, true
	}
	return PanelPin{}, false
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

// Period returns the rig's update period.
func (rg *Rig) Period() time.Duration {
	return time.Duration(float64(time.Second) / rg.UpdateHz)
}

// PotsOf returns the pots in weight order (R-unit, then A-unit, the bias last).
func (rg *Rig) PotsOf() []Pot {
	p := slices.Clone(rg.Pots)
	slices.SortFunc(p, func(a, b Pot) int {
		if a.Weight.R != b.Weight.R {
			return a.Weight.R - b.Weight.R
		}
		ka, kb := a.Weight.A, b.Weight.A
		if ka == Bias {
			ka = 1 << 30
		}
		if kb == Bias {
			kb = 1 << 30
		}
		return ka - kb
	})
	return p
}

// Summary describes the rig in one line.
func (rg *Rig) Summary() string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(len(rg.PCA9685), "PCA9685")
	add(len(rg.MCP44x1), "MCP44x1")
	add(len(rg.ADS1115), "ADS1115")
	add(len(rg.GPIOServos), "GPIO servo")
	add(len(rg.MCP23017), "MCP23017")
	return fmt.Sprintf("%s rig, %d pots (%s), %g updates/s", rg.Mode, len(rg.Pots), strings.Join(parts, ", "), rg.UpdateHz)
}
