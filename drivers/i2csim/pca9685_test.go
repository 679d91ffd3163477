package i2csim

import (
	"testing"
	"time"
)

// step is one thing a driver does to a PCA9685: a write (register, then data), a read of
// MODE1, or a wait.
type step struct {
	w    []byte
	wait time.Duration
}

func wr(b ...byte) step         { return step{w: b} }
func wait(d time.Duration) step { return step{wait: d} }
func run(t *testing.T, b *Bus, clk *ManualClock, steps ...step) {
	t.Helper()
	for _, s := range steps {
		if s.w != nil {
			if err := b.Tx(0x40, s.w, nil); err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(s.wait)
	}
}

// runningBoard returns a board at 0x40 that a driver set up properly (50 Hz, channel 0 at
// 1.5 ms: 307 counts) and then put to sleep without stopping channel 0, as another program
// may leave it.
func runningBoard(t *testing.T) (*Bus, *PCA9685, *ManualClock) {
	t.Helper()
	clk := NewManualClock()
	b := NewBus("1", clk, 1)
	p := NewPCA9685(clk, 0)
	if err := b.Attach(0x40, p); err != nil {
		t.Fatal(err)
	}
	run(t, b, clk,
		wr(0x00, 0x30), wr(0xFE, 121), wr(0x00, 0x20), wait(PCAOscillatorStart), wr(0x00, 0xA0),
		wr(0x06, 0x00, 0x00, 0x33, 0x01), wait(time.Millisecond))
	if got := p.Pulse(0); got < 1495*time.Microsecond || got > 1505*time.Microsecond {
		t.Fatalf("set up properly, channel 0 is high %v, want 1.5 ms", got)
	}
	run(t, b, clk, wr(0x00, 0x30), wait(time.Millisecond))
	if p.Register(0x00) != 0xB0 || p.Pulse(0) != 0 {
		t.Fatalf("asleep with a channel running: MODE1 %#02x (want RESTART set, 0xb0), pulse %v", p.Register(0x00), p.Pulse(0))
	}
	return b, p, clk
}

// The restart procedure of datasheet 7.3.1.1, and drivers that get it wrong: the simulated
// board catches each mistake (its channel stays stopped).
func TestPCA9685RestartProcedure(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		runs  bool // channel 0 runs again at the end
	}{
		{"datasheet: clear SLEEP, wait 500 us, write RESTART", []step{wr(0x00, 0x20), wait(PCAOscillatorStart), wr(0x00, 0xA0)}, true},
		{"wrong: RESTART at once after clearing SLEEP", []step{wr(0x00, 0x20), wr(0x00, 0xA0)}, false},
		{"wrong: RESTART 499 us after clearing SLEEP", []step{wr(0x00, 0x20), wait(PCAOscillatorStart - time.Microsecond), wr(0x00, 0xA0)}, false},
		{"wrong: no RESTART", []step{wr(0x00, 0x20), wait(10 * time.Millisecond)}, false},
		{"wrong: RESTART while still asleep", []step{wr(0x00, 0xB0), wait(PCAOscillatorStart), wr(0x00, 0x20)}, false},
		{"writing a PWM register clears RESTART (MODE2 OCH 0)", []step{wr(0x00, 0x20), wait(PCAOscillatorStart), wr(0x0A, 0x00, 0x01, 0x33, 0x02)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, p, clk := runningBoard(t)
			run(t, b, clk, tc.steps...)
			clk.Advance(time.Millisecond)
			runs := p.Pulse(0) > 0
			if runs != tc.runs {
				t.Errorf("channel 0 high %v, MODE1 %#02x; want running %v", p.Pulse(0), p.Register(0x00), tc.runs)
			}
			if runs == (p.Register(0x00)&0x80 != 0) {
				t.Errorf("MODE1 %#02x: RESTART should read 1 exactly while the channels wait", p.Register(0x00))
			}
		})
	}
}

// The outputs are off for the oscillator's start-up after SLEEP is cleared (a board at power-up
// has nothing to restart: RESTART stays 0), and a board whose channels were all stopped before
// it slept (an orderly shutdown) does not set RESTART.
func TestPCA9685OscillatorStart(t *testing.T) {
	clk := NewManualClock()
	b := NewBus("1", clk, 1)
	p := NewPCA9685(clk, 0)
	if err := b.Attach(0x40, p); err != nil {
		t.Fatal(err)
	}
	sv := NewServo(nil)
	p.AttachServo(0, sv)
	run(t, b, clk, wr(0x00, 0x30), wr(0xFE, 121), wr(0x00, 0x20), wr(0x06, 0x00, 0x00, 0x33, 0x01))
	if p.Pulse(0) != 0 {
		t.Errorf("high %v right after waking: the oscillator has not started", p.Pulse(0))
	}
	clk.Advance(PCAOscillatorStart - time.Microsecond)
	if p.Pulse(0) != 0 {
		t.Errorf("high %v 499 us after waking", p.Pulse(0))
	}
	clk.Advance(time.Microsecond)
	if p.Pulse(0) == 0 || p.Register(0x00) != 0x20 {
		t.Errorf("500 us after waking: high %v, MODE1 %#02x; want 1.5 ms, 0x20", p.Pulse(0), p.Register(0x00))
	}
	// The servo is told at the next transaction once the oscillator runs.
	var m [1]byte
	if err := b.Tx(0x40, []byte{0x00}, m[:]); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if f := sv.Fraction(); f < 0.49 || f > 0.51 {
		t.Errorf("the servo at %.3f of its travel, want 0.5 (1.5 ms of 0.5-2.5 ms)", f)
	}
	// An orderly shutdown (ALL_LED_OFF_H full off) then sleep: RESTART stays 0.
	run(t, b, clk, wr(0xFD, 0x10), wr(0x00, 0x30))
	if p.Register(0x00) != 0x30 {
		t.Errorf("MODE1 %#02x after an orderly shutdown and sleep, want 0x30", p.Register(0x00))
	}
}

// mux is a stand-in for an I2C multiplexer (a TCA9548A) at 0x70: one control register, written
// by a one-byte write and read back by a one-byte read.
type mux struct{ ctl byte }

func (m *mux) Tx(w, r []byte) error {
	if len(w) > 0 {
		m.ctl = w[len(w)-1]
	}
	for i := range r {
		r[i] = m.ctl
	}
	return nil
}

// A PCA9685 answers at its LED All Call address, 0x70, until MODE1's ALLCALL bit is cleared: a
// driver that leaves it set (periph's devices/v3 pca9685 and the npm pca9685 package do) shares
// 0x70 with the multiplexer usually there, which then reads back wrong.
func TestPCA9685AllCall(t *testing.T) {
	clk := NewManualClock()
	b := NewBus("1", clk, 1)
	p := NewPCA9685(clk, 0)
	m := &mux{}
	if err := b.Attach(0x40, p); err != nil {
		t.Fatal(err)
	}
	if err := b.Attach(0x70, m); err != nil {
		t.Fatal(err)
	}
	selectAndRead := func() byte {
		t.Helper()
		var r [1]byte
		if err := b.Tx(0x70, []byte{0x04}, nil); err != nil { // the multiplexer's channel 2
			t.Fatal(err)
		}
		if err := b.Tx(0x70, nil, r[:]); err != nil {
			t.Fatal(err)
		}
		return r[0]
	}
	// The wrong driver: awake and auto-increment, ALLCALL left on (MODE1 0x21).
	run(t, b, clk, wr(0x00, 0x21), wait(PCAOscillatorStart))
	if got := selectAndRead(); got == 0x04 {
		t.Errorf("with ALLCALL on the multiplexer reads %#02x: the board did not answer at 0x70", got)
	}
	// A write meant for a chip at 0x70 lands in the board's registers too.
	if err := b.Tx(0x70, []byte{0x06, 0x55}, nil); err != nil {
		t.Fatal(err)
	}
	if p.Register(0x06) != 0x55 {
		t.Errorf("LED0_ON_L %#02x after a write to 0x70 with ALLCALL on, want 0x55", p.Register(0x06))
	}
	// ALLCALL off: the board leaves 0x70 alone.
	run(t, b, clk, wr(0x00, 0x20))
	if got := selectAndRead(); got != 0x04 {
		t.Errorf("with ALLCALL off the multiplexer reads %#02x, want 0x04", got)
	}
	// The ALLCALL address is a register (ALLCALLADR, 8-bit form), and so are the sub-addresses.
	b2 := NewBus("2", clk, 1)
	p2 := NewPCA9685(clk, 0)
	if err := b2.Attach(0x41, p2); err != nil {
		t.Fatal(err)
	}
	// Each case first clears MODE1's address bits, so that it runs alone as it runs after the
	// others on the same board.
	for _, tc := range []struct {
		name            string
		mode1, reg, val byte
		addr            uint16
	}{
		{"ALLCALLADR=0xe0", 0x01, 0x05, 0xE0, 0x70},
		{"ALLCALLADR=0xd6", 0x01, 0x05, 0xD6, 0x6B},
		{"SUBADR1=0xe2", 0x08, 0x02, 0xE2, 0x71},
		{"SUBADR2=0xe4", 0x04, 0x03, 0xE4, 0x72},
		{"SUBADR3=0xe8", 0x02, 0x04, 0xE8, 0x74},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r [1]byte
			if err := b2.Tx(0x41, []byte{0x00, 0x20}, nil); err != nil {
				t.Fatal(err)
			}
			if err := b2.Tx(0x41, []byte{tc.reg, tc.val}, nil); err != nil {
				t.Fatal(err)
			}
			if err := b2.Tx(tc.addr, []byte{0x00}, r[:]); err == nil {
				t.Errorf("answers at %#02x before MODE1 %#02x enables it", tc.addr, tc.mode1)
			}
			if err := b2.Tx(0x41, []byte{0x00, 0x20 | tc.mode1}, nil); err != nil {
				t.Fatal(err)
			}
			if err := b2.Tx(tc.addr, []byte{0x00}, r[:]); err != nil || r[0] != 0x20|tc.mode1 {
				t.Errorf("MODE1 %#02x, register %#02x = %#02x: at %#02x read %#02x, %v; want MODE1", tc.mode1, tc.reg, tc.val, tc.addr, r[0], err)
			}
		})
	}
}
