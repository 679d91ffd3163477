package rigdev

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/rig"
)

// SimOpts configures a simulated rig.
type SimOpts struct {
	Seed  uint64
	Noise float64 // the ADCs' input noise, volts (default 0.5 mV)
	// OscillatorError is how far each servo board's oscillator runs from its rig file's
	// oscillator_hz: board i runs (1 + OscillatorError*(i+1)) times it. Default 0.
	OscillatorError float64
	// Vref is the voltage across the read-back pots. Default 3.3 V.
	Vref float64
}

// Sim is a rig's chips, simulated: the buses by rig bus name, the chips by the rig file's
// names, and the GPIO pins the rig uses, for tests and hwbridge --simulate to poke.
type Sim struct {
	Clock    i2csim.Clock
	Buses    map[string]*i2csim.Bus // by the rig's bus name
	PCA9685  map[string]*i2csim.PCA9685
	MCP44x1  map[string]*i2csim.MCP44x1
	ADS1115  map[string]*i2csim.ADS1115
	MCP23017 map[string]*i2csim.MCP23017
	Servos   map[string]*i2csim.Servo // by the weight a servo's knob shows (R0.A3)
	Supplies map[string]*i2csim.Supply

	mu      sync.Mutex
	pins    map[string]*gpiotest.Pin
	devices map[string]*i2csim.Bus // by the rig's device name
}

// Simulate builds the chips of a rig file as simulations, wired as the file says: servos on
// the boards' channels, each knob's pot (across Vref) on its read-back ADC channel; digital
// pots' wipers on theirs; an MCP23017 for the panel; GPIO pins as periph's gpiotest pins. The
// Env it returns opens them; its clock is clock (nil: the wall clock).
func Simulate(spec *rig.Rig, clock i2csim.Clock, opts SimOpts) (*Sim, Env) {
	if clock == nil {
		clock = i2csim.WallClock{}
	}
	if opts.Noise == 0 {
		opts.Noise = 0.5e-3
	}
	if opts.Vref == 0 {
		opts.Vref = 3.3
	}
	s := &Sim{Clock: clock, Buses: map[string]*i2csim.Bus{}, PCA9685: map[string]*i2csim.PCA9685{},
		MCP44x1: map[string]*i2csim.MCP44x1{}, ADS1115: map[string]*i2csim.ADS1115{}, MCP23017: map[string]*i2csim.MCP23017{},
		Servos: map[string]*i2csim.Servo{}, Supplies: map[string]*i2csim.Supply{}, pins: map[string]*gpiotest.Pin{},
		devices: map[string]*i2csim.Bus{}}
	for i, b := range spec.Buses {
		bus := i2csim.NewBus(b.Name, clock, opts.Seed+uint64(i))
		s.Buses[b.Name] = bus
		s.devices[b.Device] = bus
	}
	attach := func(c rig.Chip, d i2csim.Device) {
		_ = s.Buses[c.Bus].Attach(c.Address, d) // the rig file's check refused clashes
	}
	for i, c := range spec.PCA9685 {
		chip := i2csim.NewPCA9685(clock, c.OscillatorHz*(1+float64(opts.OscillatorError*float64(i+1))))
		s.PCA9685[c.Name] = chip
		s.Supplies[c.Name] = &i2csim.Supply{MaxMoving: c.MaxSlewing}
		attach(c.Chip, chip)
	}
	for i, c := range spec.MCP44x1 {
		chip := i2csim.NewMCP44x1(clock, c.Model == "MCP4461", opts.Seed*131+uint64(i))
		chip.Vref = opts.Vref
		s.MCP44x1[c.Name] = chip
		attach(c.Chip, chip)
	}
	for i, c := range spec.ADS1115 {
		chip := i2csim.NewADS1115(clock, opts.Seed*137+uint64(i))
		chip.Noise = opts.Noise
		s.ADS1115[c.Name] = chip
		attach(c.Chip, chip)
	}
	for _, c := range spec.MCP23017 {
		chip := i2csim.NewMCP23017()
		s.MCP23017[c.Name] = chip
		attach(c.Chip, chip)
	}
	gpioPins := map[string]string{}
	for _, g := range spec.GPIOServos {
		gpioPins[g.Name] = g.Pin
	}
	for _, p := range spec.Pots {
		var volts func() float64
		switch p.Kind {
		case "servo":
			sv := i2csim.NewServo(s.Supplies[p.Out.Chip])
			s.PCA9685[p.Out.Chip].AttachServo(p.Out.Channel, sv)
			s.Servos[p.Weight.String()] = sv
			volts = func() float64 { return opts.Vref * sv.Fraction() }
		case "digipot":
			chip, w := s.MCP44x1[p.Out.Chip], p.Out.Channel
			volts = func() float64 { return chip.Voltage(w) }
		case "gpio_servo":
			pin := s.pin(gpioPins[p.Out.Chip])
			// A servo on a PWM pin, instant: its knob's pot follows the pulse.
			volts = func() float64 {
				pin.Lock()
				d, f := pin.D, pin.F
				pin.Unlock()
				if f == 0 {
					return opts.Vref / 2
				}
				pulse := float64(float64(d) / float64(gpio.DutyMax) * float64(f.Period()))
				frac := (pulse - 500e3) / 2000e3
				return opts.Vref * max(0, min(1, frac))
			}
		}
		if p.Readback != nil {
			s.ADS1115[p.Readback.Chip].SetInput(p.Readback.Channel, volts)
		}
	}
	env := Env{
		Bus: func(device string) (i2c.Bus, error) {
			if b, ok := s.devices[device]; ok {
				return b, nil
			}
			return nil, fmt.Errorf("no simulated bus %q", device)
		},
		Pin: func(name string) (gpio.PinIO, error) { return s.pin(name), nil },
	}
	if c, ok := clock.(Clock); ok {
		env.Clock = c // a manual clock: sleeping moves it
	} else {
		env.Clock = wallSleep{clock}
	}
	return s, env
}

func (s *Sim) pin(name string) *gpiotest.Pin {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pins[name]
	if !ok {
		num := 0
		if n, err := fmt.Sscanf(strings.TrimPrefix(name, "GPIO"), "%d", &num); n != 1 || err != nil {
			num = -1
		}
		p = &gpiotest.Pin{N: name, Num: num, L: gpio.High}
		s.pins[name] = p
	}
	return p
}

// Pin returns the simulated GPIO pin of that name (a button: set its L to gpio.Low to press).
func (s *Sim) Pin(name string) *gpiotest.Pin { return s.pin(name) }

// Bus returns the simulated bus a rig bus name stands for.
func (s *Sim) Bus(name string) *i2csim.Bus { return s.Buses[name] }

// wallSleep is a simulation's clock that cannot sleep (i2csim.WallClock): its time, and
// time.Sleep.
type wallSleep struct{ i2csim.Clock }

func (wallSleep) Sleep(d time.Duration) { time.Sleep(d) }
