package ads1115

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ads1x15"
)

// Config register fields.
const (
	regConversion = 0x00
	regConfig     = 0x01
	cfgOS         = 0x8000
	cfgMuxShift   = 12
)

// Opts configures a Dev. The zero value reads up to 4.096 V at 860 samples per second at
// address 0x48.
type Opts struct {
	Addr uint16 // 0x48-0x4B (pin ADDR to GND, VDD, SDA, SCL); 0 means 0x48
	// MaxVoltage is the highest voltage to read; the PGA's smallest full scale above it is
	// used. Default 4.096 V.
	MaxVoltage physic.ElectricPotential
	// DataRate is the conversion rate; the slowest rate at least this fast is used. Default
	// 860 Hz.
	DataRate physic.Frequency
	// Timeout bounds the wait for a conversion to end after ads1x15's fixed wait. Default
	// four conversion periods.
	Timeout time.Duration
	// Clock is the time the polling reads and waits on (nil: the wall clock, time.Now and
	// time.Sleep); tests give a manual clock (drivers/i2csim.ManualClock).
	// ads1x15's own fixed wait always sleeps on the wall clock.
	Clock Clock
}

// Clock is the time a Dev reads and waits on: the wall clock, or a test's manual clock.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
}

// wallClock is time.Now and time.Sleep.
type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }

// Stats counts a Dev's reads.
type Stats struct {
	Reads       uint64 // reads returned
	StaleCaught uint64 // reads where ads1x15's fixed wait gave an old value, replaced
	Polls       uint64 // config reads while waiting for a conversion to end
}

// Dev is one ADS1115. Its methods are safe for concurrent use.
type Dev struct {
	adc    *ads1x15.Dev
	c      i2c.Dev
	opts   Opts
	period time.Duration

	mu    sync.Mutex
	pins  [4]ads1x15.PinADC
	fsr   physic.ElectricPotential
	stats Stats
	idle  bool // the last conversion is known to have ended
}

// New opens the ADS1115 at opts.Addr and checks that it answers (a read of its config
// register).
func New(bus i2c.Bus, opts *Opts) (*Dev, error) {
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	if o.Addr == 0 {
		o.Addr = ads1x15.I2CAddr
	}
	if o.Addr < 0x48 || o.Addr > 0x4B {
		return nil, fmt.Errorf("ads1115: address 0x%02x out of range, want 0x48-0x4b", o.Addr)
	}
	if o.MaxVoltage == 0 {
		o.MaxVoltage = 4096 * physic.MilliVolt
	}
	if o.DataRate == 0 {
		o.DataRate = 860 * physic.Hertz
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	adc, err := ads1x15.NewADS1115(bus, &ads1x15.Opts{I2cAddress: o.Addr})
	if err != nil {
		return nil, fmt.Errorf("ads1115: 0x%02x: %w", o.Addr, err)
	}
	d := &Dev{adc: adc, c: i2c.Dev{Bus: bus, Addr: o.Addr}, opts: o}
	for ch, c := range []ads1x15.Channel{ads1x15.Channel0, ads1x15.Channel1, ads1x15.Channel2, ads1x15.Channel3} {
		p, err := adc.PinForChannel(c, o.MaxVoltage, o.DataRate, ads1x15.BestQuality)
		if err != nil {
			return nil, fmt.Errorf("ads1115: 0x%02x: channel %d: %w", o.Addr, ch, err)
		}
		d.pins[ch] = p
	}
	_, max := d.pins[0].Range()
	d.fsr = max.V
	// ads1x15 (BestQuality) uses the slowest rate at least as fast as asked for.
	rate := 860
	for _, r := range []int{860, 475, 250, 128, 64, 32, 16, 8} {
		if physic.Frequency(r)*physic.Hertz >= o.DataRate {
			rate = r
		}
	}
	d.period = time.Second / time.Duration(rate)
	if o.Timeout == 0 {
		o.Timeout = 4 * d.period
		d.opts.Timeout = o.Timeout
	}
	if _, err := d.readReg(regConfig); err != nil {
		return nil, fmt.Errorf("ads1115: 0x%02x: no answer: %w", o.Addr, err)
	}
	return d, nil
}

// String implements conn.Resource.
func (d *Dev) String() string { return fmt.Sprintf("ADS1115@0x%02x", d.opts.Addr) }

// Halt implements conn.Resource: the chip powers down after each single-shot conversion by
// itself.
func (d *Dev) Halt() error { return nil }

// FullScale returns the PGA's full scale in use.
func (d *Dev) FullScale() physic.ElectricPotential { return d.fsr }

// Stats returns the reads counted so far.
func (d *Dev) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stats
}

func (d *Dev) readReg(reg byte) (uint16, error) {
	var b [2]byte
	if err := d.c.Tx([]byte{reg}, b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint16(b[:]), nil
}

// Read converts single-ended input AINch (0..3) and returns its voltage. The value is always
// this channel's, from a conversion that ended after the read began; any bus error is
// returned, naming the chip and channel.
func (d *Dev) Read(ch int) (physic.ElectricPotential, error) {
	if ch < 0 || ch > 3 {
		return 0, fmt.Errorf("ads1115: channel %d out of range 0..3", ch)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	// A start (OS = 1) written while a conversion is under way is ignored by the chip, and
	// that conversion then ends with the previous channel's value under the new multiplexer
	// setting: after an error, or at first, wait for the chip to be idle.
	if !d.idle {
		if err := d.waitIdle(-1); err != nil {
			return 0, fmt.Errorf("%s: AIN%d: %w", d, ch, err)
		}
	}
	d.idle = false
	first, err := d.pins[ch].Read()
	if err != nil {
		return 0, fmt.Errorf("%s: AIN%d: %w", d, ch, err)
	}
	if err := d.waitIdle(4 + ch); err != nil {
		return 0, fmt.Errorf("%s: AIN%d: %w", d, ch, err)
	}
	conv, err := d.readReg(regConversion)
	if err != nil {
		return 0, fmt.Errorf("%s: AIN%d: reading conversion: %w", d, ch, err)
	}
	d.idle = true
	raw := int16(conv)
	if int32(raw) != first.Raw {
		d.stats.StaleCaught++
	}
	d.stats.Reads++
	return physic.ElectricPotential(raw) * d.fsr / (1 << 15), nil
}

// waitIdle polls the config register until its OS bit says no conversion is under way,
// checking that the multiplexer is set to mux (unless mux < 0).
func (d *Dev) waitIdle(mux int) error {
	deadline := d.opts.Clock.Now().Add(d.opts.Timeout)
	for {
		cfg, err := d.readReg(regConfig)
		if err != nil {
			return fmt.Errorf("reading config: %w", err)
		}
		if got := int(cfg>>cfgMuxShift) & 7; mux >= 0 && got != mux {
			return fmt.Errorf("the multiplexer reads %d, want %d (the chip reset, or another master uses it)", got, mux)
		}
		if cfg&cfgOS != 0 {
			return nil
		}
		if !d.opts.Clock.Now().Before(deadline) {
			return fmt.Errorf("conversion not done after %v", d.opts.Timeout)
		}
		d.stats.Polls++
		d.opts.Clock.Sleep(d.period / 8)
	}
}

var _ conn.Resource = (*Dev)(nil)
