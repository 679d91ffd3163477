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
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"time"
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
