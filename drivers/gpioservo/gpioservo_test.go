package gpioservo

import (
	"math"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
)

func TestPWM(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Opts
		pos  float64
		want gpio.Duty // DutyMax * pulse / 20 ms
	}{
		{"default,pos=0.5", Opts{}, 0.5, duty(1500)},
		{"default,pos=0", Opts{}, 0, duty(1000)},
		{"default,pos=7-clamped", Opts{}, 7, duty(2000)},
		{"reverse,trim=10us,pos=0", Opts{Reverse: true, Trim: 10 * time.Microsecond}, 0, duty(2010)},
		{"500-2500us,pos=0.25", Opts{MinPulse: 500 * time.Microsecond, MaxPulse: 2500 * time.Microsecond}, 0.25, duty(1000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pin := &gpiotest.Pin{N: "GPIO18", Num: 18}
			d, err := New(pin, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if pin.F != 0 {
				t.Fatal("New sent pulses")
			}
			if err := d.SetPosition(tc.pos); err != nil {
				t.Fatal(err)
			}
			if pin.D != tc.want || pin.F != 50*physic.Hertz {
				t.Errorf("%+v at %g: PWM(%v, %v), want PWM(%v, 50Hz)", tc.opts, tc.pos, pin.D, pin.F, tc.want)
			}
			if err := d.Halt(); err != nil || pin.L != gpio.Low {
				t.Errorf("Halt: %v, pin %v", err, pin.L)
			}
		})
	}
}

// duty is the duty of a pulse of us microseconds every 20 ms, rounded.
func duty(us int64) gpio.Duty { return gpio.Duty((int64(gpio.DutyMax)*us + 10000) / 20000) }

func TestNewRefuses(t *testing.T) {
	pin := &gpiotest.Pin{N: "GPIO18"}
	for _, tc := range []struct {
		name string
		o    Opts
	}{
		{"frequency=1kHz", Opts{Frequency: 1000 * physic.Hertz}},
		{"min-over-max", Opts{MinPulse: 2 * time.Millisecond, MaxPulse: time.Millisecond}},
		{"max=19.99ms", Opts{MinPulse: time.Millisecond, MaxPulse: 19990 * time.Microsecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(pin, &tc.o); err == nil {
				t.Errorf("New(%+v) did not fail", tc.o)
			}
		})
	}
	if _, err := New(nil, nil); err == nil {
		t.Error("New(nil) did not fail")
	}
	d, err := New(pin, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetPosition(math.NaN()); err == nil {
		t.Error("SetPosition(NaN) did not fail")
	}
}
