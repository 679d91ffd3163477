package gpioservo

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
)

// Opts configures a Dev. The zero value is a 1000-2000 us servo at 50 Hz.
type Opts struct {
	Frequency          physic.Frequency // default 50 Hz
	MinPulse, MaxPulse time.Duration    // pulses at positions 0 and 1; default 1000 and 2000 us
	Reverse            bool             // position 0 at MaxPulse
	Trim               time.Duration    // added to every pulse
}

// Dev is a servo on a PWM pin. Its methods are safe for concurrent use.
type Dev struct {
	pin    gpio.PinOut
	opts   Opts
	period time.Duration

	mu sync.Mutex
	on bool
}

// New returns a servo on pin. It sends nothing until the first SetPosition: a servo with no
// pulse stays where it is.
func New(pin gpio.PinOut, opts *Opts) (*Dev, error) {
	if pin == nil {
		return nil, errors.New("gpioservo: no pin")
	}
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	if o.Frequency == 0 {
		o.Frequency = 50 * physic.Hertz
	}
	if o.MinPulse == 0 && o.MaxPulse == 0 {
		o.MinPulse, o.MaxPulse = time.Millisecond, 2*time.Millisecond
	}
	if o.Frequency < 20*physic.Hertz || o.Frequency > 400*physic.Hertz {
		return nil, fmt.Errorf("gpioservo: %s: frequency %v out of a servo's range 20-400 Hz", pin, o.Frequency)
	}
	d := &Dev{pin: pin, opts: o, period: o.Frequency.Period()}
	lo, hi := d.Pulse(0), d.Pulse(1)
	if o.MinPulse >= o.MaxPulse || min(lo, hi) < 100*time.Microsecond || max(lo, hi) > d.period-100*time.Microsecond {
		return nil, fmt.Errorf("gpioservo: %s: pulses %v..%v (with trim) do not fit a %v period", pin, lo, hi, d.period)
	}
	return d, nil
}

// String implements conn.Resource.
func (d *Dev) String() string { return "servo on " + d.pin.String() }

// Pulse returns the pulse for position pos (clamped to 0..1).
func (d *Dev) Pulse(pos float64) time.Duration {
	pos = math.Max(0, math.Min(1, pos))
	if d.opts.Reverse {
		pos = 1 - pos
	}
	o := d.opts
	return o.MinPulse + time.Duration(math.Round(pos*float64(o.MaxPulse-o.MinPulse))) + o.Trim
}

// Duty returns the PWM duty of a pulse p.
func (d *Dev) Duty(p time.Duration) gpio.Duty {
	return gpio.Duty((int64(p)*int64(gpio.DutyMax) + int64(d.period)/2) / int64(d.period))
}

// SetPosition moves the servo to pos (0..1, clamped).
func (d *Dev) SetPosition(pos float64) error {
	if math.IsNaN(pos) {
		return fmt.Errorf("gpioservo: %s: position NaN", d.pin)
	}
	return d.SetPulse(d.Pulse(pos))
}

// SetPulse sends pulses of width p (for finding the servo's ends).
func (d *Dev) SetPulse(p time.Duration) error {
	if p <= 0 || p >= d.period {
		return fmt.Errorf("gpioservo: %s: pulse %v outside 0..%v", d.pin, p, d.period)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.pin.PWM(d.Duty(p), d.opts.Frequency); err != nil {
		return fmt.Errorf("gpioservo: %s: %w", d.pin, err)
	}
	d.on = true
	return nil
}

// Halt implements conn.Resource: the pulses stop (the pin goes low) and the servo goes limp
// where it is.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.on {
		return nil
	}
	d.on = false
	if err := d.pin.Out(gpio.Low); err != nil {
		return fmt.Errorf("gpioservo: %s: %w", d.pin, err)
	}
	return nil
}

var _ conn.Resource = (*Dev)(nil)
