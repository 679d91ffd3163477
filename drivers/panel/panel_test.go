package panel

import (
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

func TestDebounceOnGPIO(t *testing.T) {
	train := &gpiotest.Pin{N: "GPIO5"}
	stop := &gpiotest.Pin{N: "GPIO6"}
	lamp := &gpiotest.Pin{N: "GPIO16"}
	src, err := PinInputs([]gpio.PinIn{train, stop})
	if err != nil {
		t.Fatal(err)
	}
	if train.P != gpio.PullUp || train.L != gpio.High {
		t.Fatal("PinInputs did not turn the pull-up on")
	}
	p, err := New([]Source{src}, []Input{{"train", 0, 0}, {"stop", 0, 1}},
		[]Sink{PinLamps([]gpio.PinOut{lamp})}, []Lamp{{"r0", 0, 0}}, &Opts{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(1958, 7, 8, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// The train button bounces for 12 ms, then holds; the stop line glitches once.
	script := []struct {
		ms          int
		train, stop gpio.Level
		want        []Event
	}{
		{0, gpio.Low, gpio.High, nil},
		{4, gpio.High, gpio.High, nil},
		{8, gpio.Low, gpio.Low, nil},
		{12, gpio.Low, gpio.High, nil},
		{25, gpio.Low, gpio.High, nil}, // 17 ms since the last bounce: not yet
		{28, gpio.Low, gpio.High, []Event{{"train", true}}},
		{40, gpio.Low, gpio.High, nil},
		{50, gpio.High, gpio.High, nil},
		{75, gpio.High, gpio.High, []Event{{"train", false}}},
	}
	for _, s := range script {
		train.L, stop.L = s.train, s.stop
		ev, err := p.Poll(at(s.ms))
		if err != nil {
			t.Fatal(err)
		}
		if len(ev) != len(s.want) || len(ev) > 0 && ev[0] != s.want[0] {
			t.Errorf("at %d ms: events %v, want %v", s.ms, ev, s.want)
		}
		if s.ms == 40 && !p.Held("train") {
			t.Error("train not held at 40 ms")
		}
	}
	p.SetLamp("r0", true)
	if err := p.Flush(); err != nil || lamp.L != gpio.High {
		t.Errorf("lamp: %v, %v", lamp.L, err)
	}
	if err := p.Halt(); err != nil || lamp.L != gpio.Low {
		t.Errorf("after Halt the lamp is %v (%v)", lamp.L, err)
	}
}

func TestMCP23017(t *testing.T) {
	bus := i2csim.NewBus("1", nil, 1)
	chip := i2csim.NewMCP23017()
	if err := bus.Attach(0x20, chip); err != nil {
		t.Fatal(err)
	}
	e, err := NewExpander(bus, 0x20)
	if err != nil {
		t.Fatal(err)
	}
	in, err := e.Inputs(0, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Lamps(1, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New([]Source{in}, []Input{{"train", 0, 0}, {"test", 0, 1}, {"force0", 0, 3}},
		[]Sink{out}, []Lamp{{"r0", 0, 0}, {"fault", 0, 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(1958, 7, 8, 0, 0, 0, 0, time.UTC)
	chip.Ground(0, 3, true) // the force switch is closed
	if ev, err := p.Poll(t0); err != nil || len(ev) != 0 {
		t.Fatalf("first poll: %v, %v", ev, err)
	}
	ev, err := p.Poll(t0.Add(time.Second))
	if err != nil || len(ev) != 1 || ev[0] != (Event{"force0", true}) {
		t.Fatalf("poll: %v, %v; want force0 closed", ev, err)
	}
	// A NACK: the error names the expander, the switch stays closed.
	bus.Inject(i2csim.Fault{Addr: 0x20, Kind: i2csim.NACK, Count: 1})
	if _, err := p.Poll(t0.Add(2 * time.Second)); err == nil || !strings.Contains(err.Error(), "port A") {
		t.Errorf("poll with a NACK: %v", err)
	}
	if !p.Held("force0") {
		t.Error("a failed read released the switch")
	}
	p.SetLamp("fault", true)
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := chip.Outputs(1); got != 0b10 {
		t.Errorf("lamps %08b, want 00000010", got)
	}
	// Nothing changed: no write.
	n := bus.Stats().Transactions
	if err := p.Flush(); err != nil || bus.Stats().Transactions != n {
		t.Errorf("an unchanged Flush wrote (%v)", err)
	}
}

func TestNewRefuses(t *testing.T) {
	src, err := PinInputs(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   []Input
		lamp []Lamp
	}{
		{"input-named-twice", []Input{{"a", 0, 0}, {"a", 0, 1}}, nil},
		{"no-source-1", []Input{{"a", 1, 0}}, nil},
		{"bit=64", []Input{{"a", 0, 64}}, nil},
		{"lamp-without-sink", nil, []Lamp{{"l", 0, 0}}},
		{"input-without-name", []Input{{"", 0, 0}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New([]Source{src}, tc.in, nil, tc.lamp, nil); err == nil {
				t.Errorf("New(%v, %v) did not fail", tc.in, tc.lamp)
			}
		})
	}
}

// TestExpanderReset: the expander is reset (its RESET pin, a brown-out): every pin becomes an
// input without pull-up, so the buttons float and the lamps go dark. periph's mcp23xxx caches
// IODIR, GPPU and OLAT and skips writes equal to its cache, so nothing used to set the chip up
// again. The Expander finds it within CheckEvery polls and sets it up again, lamps included.
func TestExpanderReset(t *testing.T) {
	bus := i2csim.NewBus("1", nil, 1)
	chip := i2csim.NewMCP23017()
	if err := bus.Attach(0x20, chip); err != nil {
		t.Fatal(err)
	}
	e, err := NewExpander(bus, 0x20)
	if err != nil {
		t.Fatal(err)
	}
	in, err := e.Inputs(0, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Lamps(1, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New([]Source{in}, []Input{{"train", 0, 0}, {"test", 0, 1}, {"stop", 0, 2}, {"force0", 0, 3}},
		[]Sink{out}, []Lamp{{"r0", 0, 0}, {"fault", 0, 1}}, &Opts{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p.SetLamp("r0", true)
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if chip.Outputs(1) != 0b01 || e.resetsFound() != 0 {
		t.Fatalf("lamps %02b, resets %d before the reset", chip.Outputs(1), e.resetsFound())
	}
	t0 := time.Date(1958, 7, 8, 0, 0, 0, 0, time.UTC)
	chip.Reset()
	var spurious []Event
	for i := range 3 * DefaultCheckEvery {
		ev, err := p.Poll(t0.Add(time.Duration(i) * 10 * time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		spurious = append(spurious, ev...)
	}
	if e.resetsFound() != 1 {
		t.Errorf("resets found: %d, want 1", e.resetsFound())
	}
	if chip.Register(0x0C) != 0x0F || chip.Register(0x00) != 0xFF || chip.Register(0x01) != 0xFC || chip.Outputs(1) != 0b01 {
		t.Errorf("after the reset: GPPUA %02x IODIRA %02x IODIRB %02x lamps %02b; want 0f ff fc 01",
			chip.Register(0x0C), chip.Register(0x00), chip.Register(0x01), chip.Outputs(1))
	}
	if len(spurious) > 0 {
		t.Errorf("events with no button touched: %v (a floating input reported)", spurious)
	}
	// The buttons work again.
	chip.Ground(0, 2, true)
	var got []Event
	for i := range 10 {
		ev, err := p.Poll(t0.Add(time.Second + time.Duration(i)*10*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev...)
	}
	if len(got) == 0 || got[len(got)-1] != (Event{"stop", true}) || !p.Held("stop") {
		t.Errorf("stop pressed after the reset: events %v", got)
	}
	// A lamp change after a reset lands at once: the write checks first.
	chip.Reset()
	p.SetLamp("fault", true)
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if chip.Outputs(1) != 0b11 || e.resetsFound() != 2 {
		t.Errorf("lamps %02b after a reset and a lamp change, resets %d; want 11, 2", chip.Outputs(1), e.resetsFound())
	}
}
