package ads1115

import (
	"math"
	"strings"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ads1x15"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

const addr = 0x48

// probe is New's presence check: a read of the config register (its power-up value).
var probe = i2ctest.IO{Addr: addr, W: []byte{0x01}, R: []byte{0x85, 0x83}}

// start1 is ads1x15's single-shot start on AIN1: OS | MUX 101 | PGA 001 (+-4.096 V) |
// MODE single | DR 111 (860 SPS) | COMP_QUE 11 = 0xD3E3.
var start1 = i2ctest.IO{Addr: addr, W: []byte{0x01, 0xD3, 0xE3}}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ops     []i2ctest.IO
		want    float64 // volts
		err     string
		stale   uint64
		pollsGE uint64
	}{
		{"fresh after the fixed wait", []i2ctest.IO{
			start1,
			{Addr: addr, W: []byte{0x00}, R: []byte{0x40, 0x00}}, // ads1x15 reads the conversion
			{Addr: addr, W: []byte{0x01}, R: []byte{0xD3, 0xE3}}, // OS = 1: done
			{Addr: addr, W: []byte{0x00}, R: []byte{0x40, 0x00}}, // the same value again
		}, 2.048, "", 0, 0},
		{"stale value caught", []i2ctest.IO{
			start1,
			{Addr: addr, W: []byte{0x00}, R: []byte{0x10, 0x00}}, // the previous channel's value
			{Addr: addr, W: []byte{0x01}, R: []byte{0x53, 0xE3}}, // OS = 0: still converting
			{Addr: addr, W: []byte{0x01}, R: []byte{0xD3, 0xE3}},
			{Addr: addr, W: []byte{0x00}, R: []byte{0x40, 0x00}},
		}, 2.048, "", 1, 1},
		{"multiplexer moved", []i2ctest.IO{
			start1,
			{Addr: addr, W: []byte{0x00}, R: []byte{0x10, 0x00}},
			{Addr: addr, W: []byte{0x01}, R: []byte{0xC3, 0xE3}}, // MUX 100: AIN0
		}, 0, "multiplexer reads 4, want 5", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Before its first conversion the driver checks that none is under way.
			ops := append([]i2ctest.IO{probe, {Addr: addr, W: []byte{0x01}, R: []byte{0x85, 0x83}}}, tc.ops...)
			p := &i2ctest.Playback{Ops: ops, DontPanic: true}
			clk := i2csim.NewManualClock()
			d, err := New(p, &Opts{Clock: clk})
			if err != nil {
				t.Fatal(err)
			}
			v, err := d.Read(1)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Read = %v, %v; want error %q", v, err, tc.err)
				}
			} else if err != nil || math.Abs(float64(v)/float64(physic.Volt)-tc.want) > 1e-6 {
				t.Fatalf("Read = %v, %v; want %g V", v, err, tc.want)
			}
			if s := d.Stats(); s.StaleCaught != tc.stale || s.Polls < tc.pollsGE {
				t.Errorf("stats %+v, want %d stale caught, %d polls or more", s, tc.stale, tc.pollsGE)
			}
			if err := p.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

// On the simulated chip, whose oscillator runs 5% slow, ads1x15's fixed wait alone returns the
// previous channel's value after a channel change; the wrapped read returns the channel's own.
func TestChannelChangeNeverStale(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewADS1115(clk, 1)
	volts := [4]float64{0.5, 2.5, 1.25, 3.3}
	for ch := range 4 {
		v := volts[ch]
		chip.SetInput(ch, func() float64 { return v })
	}
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	// ads1x15 alone: the manual clock does not move during its wall-clock wait, so the
	// conversion it started has not ended when it reads.
	raw, err := ads1x15.NewADS1115(bus, &ads1x15.DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	pin0, err := raw.PinForChannel(ads1x15.Channel0, 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.BestQuality)
	if err != nil {
		t.Fatal(err)
	}
	pin1, err := raw.PinForChannel(ads1x15.Channel1, 4096*physic.MilliVolt, 860*physic.Hertz, ads1x15.BestQuality)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pin0.Read(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10e6)
	s, err := pin1.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := float64(s.V) / float64(physic.Volt); math.Abs(got-0.5) > 0.01 {
		t.Fatalf("the simulated chip did not show the stale read: got %g V, want AIN0's 0.5 V", got)
	}

	d, err := New(bus, &Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		ch := (i * 3) % 4
		v, err := d.Read(ch)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(v) / float64(physic.Volt); math.Abs(got-volts[ch]) > 0.002 {
			t.Errorf("read %d: AIN%d = %g V, want %g", i, ch, got, volts[ch])
		}
	}
	if s := d.Stats(); s.StaleCaught == 0 || s.Reads != 12 {
		t.Errorf("stats %+v: want 12 reads, stale values caught", s)
	}
}

func TestErrorsSurface(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewADS1115(clk, 1)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		fault func()
		want  string
	}{
		{"NACK on start", func() { bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.NACK, Count: 1}) }, "AIN2: i2csim"},
		{"timeout on the config read", func() { bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.Timeout, Skip: 2, Count: 1}) }, "reading config"},
		{"a conversion that never ends", func() { chip.OscError = 1e6 }, "conversion not done"},
	} {
		// Each case starts from a clean bus and an idle chip, so that it runs alone as it runs
		// after the others.
		t.Run(tc.name, func(t *testing.T) {
			bus.ClearFaults()
			if _, err := d.Read(2); err != nil { // leaves the chip idle
				t.Fatal(err)
			}
			tc.fault()
			_, err := d.Read(2)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %v, want an error with %q", err, tc.want)
			}
		})
	}
	if _, err := New(i2csim.NewBus("2", clk, 1), nil); err == nil || !strings.Contains(err.Error(), "no answer") {
		t.Errorf("New on an empty bus = %v", err)
	}
	if _, err := New(bus, &Opts{Addr: 0x50}); err == nil {
		t.Error("New at 0x50 did not fail")
	}
}
