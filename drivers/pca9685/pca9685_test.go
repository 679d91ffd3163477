package pca9685

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	periph "periph.io/x/devices/v3/pca9685"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

const addr = I2CAddr

// freshInit is New on a board at power-up (MODE1 0x11: asleep, ALLCALL; auto-increment off,
// so the two-byte read of MODE1 and MODE2 gets MODE1 twice): asleep with auto-increment,
// PRE_SCALE 121 for 50 Hz on 25 MHz (round(25e6/(4096*50)) - 1), totem-pole outputs, awake,
// RESTART. No LED register is written.
var freshInit = []i2ctest.IO{
	{Addr: addr, W: []byte{0x00}, R: []byte{0x11, 0x11}},
	{Addr: addr, W: []byte{0xFE}, R: []byte{0x1E}},
	{Addr: addr, W: []byte{0x00, 0x30}},
	{Addr: addr, W: []byte{0xFE, 121}},
	{Addr: addr, W: []byte{0x01, 0x04}},
	{Addr: addr, W: []byte{0x00, 0x20}},
	{Addr: addr, W: []byte{0x00, 0xA0}},
}

func channels(idx ...int) []Channel {
	var c []Channel
	for _, i := range idx {
		c = append(c, Channel{Index: i})
	}
	return c
}

func TestPrescale(t *testing.T) {
	p, period := Prescale(25*physic.MegaHertz, 50*physic.Hertz)
	if p != 121 || period != 19988480*time.Nanosecond {
		t.Errorf("Prescale(25 MHz, 50 Hz) = %d, %v; want 121, 19.98848ms", p, period)
	}
	// A board whose oscillator runs 5% fast, calibrated: the period stays near 20 ms.
	p, period = Prescale(26250*physic.KiloHertz, 50*physic.Hertz)
	if p != 127 || math.Abs(period.Seconds()-0.02) > 0.0002 {
		t.Errorf("Prescale(26.25 MHz, 50 Hz) = %d, %v", p, period)
	}
}

func TestGoldenFrames(t *testing.T) {
	clk := i2csim.NewManualClock()
	ops := append([]i2ctest.IO{}, freshInit...)
	ops = append(ops,
		// Frame 1, every channel unknown: ch0-2 at 1500 us (307 counts), each from its stagger
		// phase (0, 256, 512), in one run of 12 bytes; ch5 (phase 1280) alone.
		i2ctest.IO{Addr: addr, W: []byte{0x06, 0x00, 0x00, 0x33, 0x01, 0x00, 0x01, 0x33, 0x02, 0x00, 0x02, 0x33, 0x03}},
		i2ctest.IO{Addr: addr, W: []byte{0x1A, 0x00, 0x05, 0x33, 0x06}},
		// Frame 2: ch1 to 1750 us (359 counts, OFF 615 = 0x267): only OFF_L changes.
		i2ctest.IO{Addr: addr, W: []byte{0x0C, 0x67}},
		// Frame 3: ch0 and ch1 to 1000 us (205 counts): OFF_L and OFF_H of both change; the
		// two ON bytes between cost what a new transaction would, so one run.
		i2ctest.IO{Addr: addr, W: []byte{0x08, 0xCD, 0x00, 0x00, 0x01, 0xCD, 0x01}},
		// Frame 4: ch0 and ch2 one count apart (OFF_L only): three bytes apart, two runs.
		i2ctest.IO{Addr: addr, W: []byte{0x08, 0xCE}},
		i2ctest.IO{Addr: addr, W: []byte{0x10, 0x34}},
	)
	p := &i2ctest.Playback{Ops: ops, DontPanic: true}
	d, err := New(p, &Opts{Channels: channels(0, 1, 2, 5), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	frame := func(want FrameStats, set ...any) {
		t.Helper()
		for i := 0; i < len(set); i += 2 {
			switch v := set[i+1].(type) {
			case float64:
				if err := d.SetPosition(set[i].(int), v); err != nil {
					t.Fatal(err)
				}
			case time.Duration:
				if err := d.SetPulse(set[i].(int), v); err != nil {
					t.Fatal(err)
				}
			}
		}
		st, err := d.Flush()
		if err != nil {
			t.Fatal(err)
		}
		if st != want {
			t.Errorf("frame stats %+v, want %+v", st, want)
		}
		clk.Advance(time.Second)
	}
	frame(FrameStats{Channels: 4, Transactions: 2, Bytes: 14 + 6}, 0, 0.5, 1, 0.5, 2, 0.5, 5, 0.5)
	frame(FrameStats{Channels: 1, Transactions: 1, Bytes: 3}, 1, 0.75)
	frame(FrameStats{Channels: 2, Transactions: 1, Bytes: 8}, 0, 0.0, 1, 0.0)
	frame(FrameStats{Channels: 2, Transactions: 2, Bytes: 6}, 0, 1005*time.Microsecond, 2, 1502*time.Microsecond)
	frame(FrameStats{}, 5, 0.5) // unchanged: nothing sent
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

func TestNewKeepsARunningBoard(t *testing.T) {
	regs := make([]byte, 64)
	regs[4*3+2], regs[4*3+3] = 0x33, 0x01 // ch3 at 307 counts from 0... with stagger 768 it differs
	p := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: addr, W: []byte{0x00}, R: []byte{0x20, 0x04}}, // awake, AI, no ALLCALL; totem-pole
		{Addr: addr, W: []byte{0xFE}, R: []byte{121}},
		{Addr: addr, W: []byte{0x06}, R: regs},
	}, DontPanic: true}
	if _, err := New(p, &Opts{Channels: channels(3)}); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

// Our write of one fresh channel is, byte for byte, what periph's pca9685 SetPwm sends.
func TestSameBytesAsPeriphSetPwm(t *testing.T) {
	t.Parallel()
	bus := i2csim.NewBus("1", nil, 1)
	if err := bus.Attach(addr, i2csim.NewPCA9685(nil, 0)); err != nil {
		t.Fatal(err)
	}
	rec := &i2ctest.Record{Bus: bus}
	pd, err := periph.NewI2C(rec, addr) // sleeps about 205 ms
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(rec, &Opts{Channels: channels(3)})
	if err != nil {
		t.Fatal(err)
	}
	on, off := d.Counts(3, 1500*time.Microsecond)
	if err := pd.SetPwm(3, 0, 0); err != nil { // make the channel's registers differ first
		t.Fatal(err)
	}
	n := len(rec.Ops)
	if err := pd.SetPwm(3, gpio.Duty(on), gpio.Duty(off)); err != nil {
		t.Fatal(err)
	}
	periphBytes := rec.Ops[n].W
	if err := d.SetPosition(3, 0.5); err != nil {
		t.Fatal(err)
	}
	n = len(rec.Ops)
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := rec.Ops[n].W; string(got) != string(periphBytes) {
		t.Errorf("our write % x, periph's SetPwm % x", got, periphBytes)
	}
}

// minimumBytes is the least a frame can cost: every changed register byte written, each
// transaction costing an address byte and a register byte, bytes between changed ones in a
// transaction rewritten (allowed only where their value is known). A dynamic programme over
// the changed bytes, independent of Flush's greedy runs.
func minimumBytes(dirty, fill [64]bool) int {
	var pos []int
	for j, d := range dirty {
		if d {
			pos = append(pos, j)
		}
	}
	best := make([]int, len(pos)+1)
	for b := 1; b <= len(pos); b++ {
		best[b] = math.MaxInt
		for a := b - 1; a >= 0; a-- {
			ok := true
			for j := pos[a]; j <= pos[b-1]; j++ {
				ok = ok && (dirty[j] || fill[j])
			}
			if !ok {
				break
			}
			if c := best[a] + 2 + pos[b-1] - pos[a] + 1; c < best[b] {
				best[b] = c
			}
		}
	}
	return best[len(pos)]
}

func TestFramesCostTheProtocolMinimum(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewPCA9685(clk, 0)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	all := channels(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
	d, err := New(bus, &Opts{Channels: all, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var total, minimum, periphTotal int
	for frame := range 300 {
		var before [16][4]byte
		for i := range 16 {
			before[i] = d.ch[i].regs
		}
		known := d.ch[0].known
		n := 1 + rng.IntN(16)
		if frame == 0 {
			n = 16
		}
		for _, ch := range rng.Perm(16)[:n] {
			pos := rng.Float64()
			if rng.IntN(2) == 0 && frame > 0 { // small moves change only OFF_L
				p, _ := d.Target(ch)
				pos = math.Max(0, math.Min(1, p+float64(rng.IntN(5)-2)/400))
			}
			if err := d.SetPosition(ch, pos); err != nil {
				t.Fatal(err)
			}
		}
		var dirty, fill [64]bool
		changed := 0
		for i := range 16 {
			w := d.want(i)
			if d.ch[i].pending && (!known || w != before[i]) {
				changed++
			}
			for k := range 4 {
				dirty[4*i+k] = d.ch[i].pending && (!known || w[k] != before[i][k])
				fill[4*i+k] = known || d.ch[i].pending
			}
		}
		min := minimumBytes(dirty, fill)
		b0 := bus.Stats().Bytes
		st, err := d.Flush()
		if err != nil {
			t.Fatal(err)
		}
		got := int(bus.Stats().Bytes - b0)
		if got != st.Bytes || got != min {
			t.Fatalf("frame %d: %d bytes on the bus (Flush says %d), minimum %d", frame, got, st.Bytes, min)
		}
		total += got
		minimum += min
		periphTotal += 6 * changed // SetPwm: address, register, 4 bytes per channel
		for i := range 16 {
			pulse := chip.Pulse(i)
			wantPulse := d.ch[i].cal.Pulse(d.ch[i].target)
			if math.Abs(float64(pulse-wantPulse)) > float64(d.period)/4096 {
				t.Fatalf("frame %d: ch%d pulse %v, want %v", frame, i, pulse, wantPulse)
			}
		}
	}
	t.Logf("300 random frames: %d bytes, protocol minimum %d, periph SetPwm per channel %d", total, minimum, periphTotal)
	// docs/rig.md quotes these (a seeded run: the same every time).
	if total != 6890 || periphTotal != 12732 {
		t.Errorf("300 random frames: %d bytes, periph's SetPwm %d; docs/rig.md says 6,890 and 12,732", total, periphTotal)
	}
}

func TestSlewLimitPreventsBrownouts(t *testing.T) {
	for _, limit := range []int{0, 2} {
		t.Run(fmt.Sprintf("limit=%d", limit), func(t *testing.T) {
			clk := i2csim.NewManualClock()
			bus := i2csim.NewBus("1", clk, 1)
			chip := i2csim.NewPCA9685(clk, 0)
			supply := &i2csim.Supply{MaxMoving: 2}
			for ch := range 8 {
				chip.AttachServo(ch, i2csim.NewServo(supply))
			}
			if err := bus.Attach(addr, chip); err != nil {
				t.Fatal(err)
			}
			d, err := New(bus, &Opts{Channels: channels(0, 1, 2, 3, 4, 5, 6, 7), MaxSlewing: limit, Clock: clk})
			if err != nil {
				t.Fatal(err)
			}
			for round := range 3 {
				for ch := range 8 {
					if err := d.SetPosition(ch, float64((round+ch)%3)/2); err != nil {
						t.Fatal(err)
					}
				}
				for step := 0; d.Busy(); step++ {
					st, err := d.Flush()
					if err != nil {
						t.Fatal(err)
					}
					if limit > 0 && d.Moving() > limit {
						t.Fatalf("%d channels moving, limit %d", d.Moving(), limit)
					}
					if step == 0 && limit > 0 && st.Deferred != 8-limit && round == 0 {
						t.Errorf("first frame deferred %d channels, want %d", st.Deferred, 8-limit)
					}
					clk.Advance(20 * time.Millisecond)
					if step > 1000 {
						t.Fatal("never settled")
					}
				}
			}
			for ch := range 8 {
				p, _ := d.Target(ch)
				if got := chip.Pulse(ch); math.Abs(float64(got-d.ch[ch].cal.Pulse(p))) > 10e3 {
					t.Errorf("limit %d: ch%d pulse %v, want %v: a deferred target was lost", limit, ch, got, d.ch[ch].cal.Pulse(p))
				}
			}
			switch b := supply.Brownouts(); {
			case limit == 0 && b == 0:
				t.Errorf("without a limit, no brown-out (peak %d moving): the test shows nothing", supply.PeakMoving())
			case limit > 0 && b > 0:
				t.Errorf("with at most %d slewing, %d brown-outs (peak %d moving)", limit, b, supply.PeakMoving())
			}
		})
	}
}

func TestFaultsLoseNothing(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewPCA9685(clk, 0)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Channels: channels(0, 1, 4), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for ch, p := range map[int]float64{0: 0.1, 1: 0.2, 4: 0.9} {
		if err := d.SetPosition(ch, p); err != nil {
			t.Fatal(err)
		}
	}
	bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.NACK, Count: 1})
	_, err = d.Flush()
	var fe *FlushError
	if !errors.As(err, &fe) || len(fe.Channels) != 2 || fe.Channels[0] != 0 || fe.Channels[1] != 1 {
		t.Fatalf("Flush with a NACK on the first run = %v, want channels [0 1] reported", err)
	}
	if _, pending := d.Target(0); !pending {
		t.Error("a failed channel is no longer pending")
	}
	if chip.Pulse(4) == 0 {
		t.Error("the second run was not written after the first failed")
	}
	// The bus recovers: the next frame writes what was lost.
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	for ch, p := range map[int]float64{0: 0.1, 1: 0.2, 4: 0.9} {
		want := Calibration{MinPulse: time.Millisecond, MaxPulse: 2 * time.Millisecond}.Pulse(p)
		if got := chip.Pulse(ch); math.Abs(float64(got-want)) > float64(d.Period())/4096 {
			t.Errorf("ch%d pulse %v, want %v", ch, got, want)
		}
	}
	// The board loses power: Check notices, sets it up again, and the next frame restores it.
	chip.PowerCycle()
	if chip.Pulse(0) != 0 {
		t.Fatal("the simulated board kept its outputs through a power cycle")
	}
	restored, err := d.Check()
	if err != nil || !restored {
		t.Fatalf("Check after a power cycle = %v, %v", restored, err)
	}
	if restored, err := d.Check(); err != nil || restored {
		t.Fatalf("second Check = %v, %v", restored, err)
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if chip.Pulse(4) == 0 || chip.Pulse(0) == 0 {
		t.Error("outputs not restored after the power cycle")
	}
}

func TestNewRefuses(t *testing.T) {
	bus := i2csim.NewBus("1", nil, 1)
	for _, tc := range []struct {
		name string
		o    Opts
	}{
		{"addr=0x20", Opts{Addr: 0x20}},
		{"addr=0x70", Opts{Addr: 0x70}}, // LED All Call at power-up
		{"addr=0x78", Opts{Addr: 0x78}}, // 0x78-0x7F: reserved by I2C
		{"addr=0x7f", Opts{Addr: 0x7F}},
		{"frequency=5Hz", Opts{Frequency: 5 * physic.Hertz}},
		{"oscillator=1MHz", Opts{Oscillator: physic.MegaHertz}},
		{"channel=16", Opts{Channels: []Channel{{Index: 16}}}},
		{"channel-twice", Opts{Channels: []Channel{{Index: 1}, {Index: 1}}}},
		{"min-over-max", Opts{Channels: []Channel{{Index: 1, Calibration: Calibration{MinPulse: 2 * time.Millisecond, MaxPulse: time.Millisecond}}}}},
		{"max=25ms", Opts{Channels: []Channel{{Index: 1, Calibration: Calibration{MinPulse: time.Millisecond, MaxPulse: 25 * time.Millisecond}}}}},
		{"nothing-at-0x40", Opts{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(bus, &tc.o); err == nil {
				t.Errorf("New(%+v) did not fail", tc.o)
			}
		})
	}
}

// New adopts a running board only when every mode bit is as it sets them; a board another
// program left running otherwise is set up again (the full sequence, as at power-up).
func TestNewAdoptsOnlyItsOwnModes(t *testing.T) {
	setup := freshInit[2:] // asleep, PRE_SCALE, MODE2, awake, RESTART
	for _, tc := range []struct {
		name         string
		mode1, mode2 byte
		adopt        bool
	}{
		{"ours", 0x20, 0x04, true},
		{"EXTCLK set (only a power cycle clears it)", 0x60, 0x04, true},
		{"INVRT", 0x20, 0x14, false},
		{"OCH: outputs change on ACK", 0x20, 0x0C, false},
		{"open-drain", 0x20, 0x00, false},
		{"OUTNE 01", 0x20, 0x05, false},
		{"ALLCALL on", 0x21, 0x04, false},
		{"SUB1 on", 0x28, 0x04, false},
		{"SUB3 on", 0x22, 0x04, false},
		{"waiting for RESTART", 0xA0, 0x04, false},
		{"asleep", 0x30, 0x04, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := []i2ctest.IO{
				{Addr: addr, W: []byte{0x00}, R: []byte{tc.mode1, tc.mode2}},
				{Addr: addr, W: []byte{0xFE}, R: []byte{121}},
			}
			if tc.adopt {
				ops = append(ops, i2ctest.IO{Addr: addr, W: []byte{0x06}, R: make([]byte, 64)})
			} else {
				ops = append(ops, setup...)
			}
			p := &i2ctest.Playback{Ops: ops, DontPanic: true}
			if _, err := New(p, &Opts{Channels: channels(3)}); err != nil {
				t.Errorf("%s: %v", tc.name, err)
				return
			}
			if err := p.Close(); err != nil {
				t.Errorf("%s (MODE1 %#02x MODE2 %#02x): adopted %v: %v", tc.name, tc.mode1, tc.mode2, tc.adopt, err)
			}
		})
	}
}

// simBoard is a simulated board at 0x40 on its own bus with a manual clock.
func simBoard(t *testing.T) (*i2csim.Bus, *i2csim.PCA9685, *i2csim.ManualClock) {
	t.Helper()
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewPCA9685(clk, 0)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	return bus, chip, clk
}

// A board another program left running with inverted outputs: set up again, the pulses come
// out right (adopted, every pulse would be the period minus itself).
func TestNewFixesAnInvertedBoard(t *testing.T) {
	bus, chip, clk := simBoard(t)
	for _, w := range [][]byte{{0x00, 0x30}, {0xFE, 121}, {0x01, 0x14}, {0x00, 0x20}} { // INVRT | OUTDRV
		if err := bus.Tx(addr, w, nil); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Millisecond)
	d, err := New(bus, &Opts{Channels: channels(2), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetPulse(2, 1500*time.Microsecond); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := chip.Pulse(2); got < 1495*time.Microsecond || got > 1505*time.Microsecond {
		t.Errorf("channel 2 high %v, want 1.5 ms (MODE2 %#02x)", got, chip.Register(0x01))
	}
}

// New on a board another program put to sleep with a channel running (RESTART set): it wakes
// it, waits for the oscillator and restarts, so the channel it was not given runs again; and
// it turns ALLCALL off, so nothing of the board answers at 0x70.
func TestNewRestartsAndLeavesAllCall(t *testing.T) {
	bus, chip, clk := simBoard(t)
	for _, w := range [][]byte{{0x00, 0x31}, {0xFE, 121}, {0x00, 0x21}} { // ALLCALL on, as at power-up
		if err := bus.Tx(addr, w, nil); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Millisecond)
	if err := bus.Tx(addr, []byte{0x1A, 0x00, 0x00, 0x33, 0x01}, nil); err != nil { // channel 5 at 1.5 ms
		t.Fatal(err)
	}
	if err := bus.Tx(addr, []byte{0x00, 0x31}, nil); err != nil { // asleep, channel 5 running
		t.Fatal(err)
	}
	if chip.Register(0x00)&0x80 == 0 {
		t.Fatal("the simulated board did not set RESTART")
	}
	var r [1]byte
	if err := bus.Tx(0x70, []byte{0x00}, r[:]); err != nil {
		t.Fatalf("before New, the board does not answer at its ALLCALL address: %v", err)
	}
	if _, err := New(bus, &Opts{Channels: channels(0), Clock: clk}); err != nil {
		t.Fatal(err)
	}
	if got := chip.Pulse(5); got < 1495*time.Microsecond || got > 1505*time.Microsecond {
		t.Errorf("channel 5 high %v after New, want 1.5 ms again (MODE1 %#02x)", got, chip.Register(0x00))
	}
	if err := bus.Tx(0x70, []byte{0x00}, r[:]); err == nil {
		t.Errorf("after New the board still answers at 0x70 (MODE1 %#02x)", chip.Register(0x00))
	}
}

// A zero pulse is the full-off bit: only LEDn_OFF_H is written, with bit 4 (the datasheet
// leaves ON = OFF undefined; Linux's driver and periph's SetFullOff do the same).
func TestZeroPulseIsFullOff(t *testing.T) {
	clk := i2csim.NewManualClock()
	ops := append([]i2ctest.IO{}, freshInit...)
	ops = append(ops,
		// ch1 at 1500 us from its phase 256: ON 0x100, OFF 0x233.
		i2ctest.IO{Addr: addr, W: []byte{0x0A, 0x00, 0x01, 0x33, 0x02}},
		// Zero: LED1_OFF_H = 0x10 alone.
		i2ctest.IO{Addr: addr, W: []byte{0x0D, 0x10}},
		// 1500 us again: OFF_L kept its 0x33, so OFF_H alone (the full-off bit cleared).
		i2ctest.IO{Addr: addr, W: []byte{0x0D, 0x02}},
	)
	p := &i2ctest.Playback{Ops: ops, DontPanic: true}
	d, err := New(p, &Opts{Channels: channels(1), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for _, us := range []time.Duration{1500, 0, 1500} {
		if err := d.SetPulse(1, us*time.Microsecond); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
	// On a fresh channel (registers unknown) the whole channel is written, OFF full.
	bus, chip, clk := simBoard(t)
	d, err = New(bus, &Opts{Channels: channels(4), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetPulse(4, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if chip.Register(0x06+4*4+3) != 0x10 || chip.Pulse(4) != 0 {
		t.Errorf("LED4_OFF_H %#02x, pulse %v: want the full-off bit", chip.Register(0x06+4*4+3), chip.Pulse(4))
	}
}

// Halt turns every configured channel fully off and puts the board to sleep; channels it was
// not given are left alone; a later Flush wakes the board and writes the targets again.
func TestHalt(t *testing.T) {
	bus, chip, clk := simBoard(t)
	if err := bus.Tx(addr, []byte{0x00, 0x20}, nil); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Channels: channels(0, 1, 2), Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	for ch := range 3 {
		if err := d.SetPosition(ch, 0.25*float64(ch)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Tx(addr, []byte{0x3E, 0x00, 0x00, 0x00, 0x01}, nil); err != nil { // channel 14: another program's
		t.Fatal(err)
	}
	if err := d.SetPosition(0, 1); err != nil { // pending, dropped by Halt
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	for ch := range 3 {
		if r := chip.Register(byte(0x06 + 4*ch + 3)); r&0x10 == 0 {
			t.Errorf("channel %d: LEDn_OFF_H %#02x: not full off", ch, r)
		}
	}
	if m := chip.Register(0x00); m&0x10 == 0 || chip.Pulse(0) != 0 {
		t.Errorf("MODE1 %#02x, pulse %v: not asleep", m, chip.Pulse(0))
	}
	if chip.Register(0x06+4*14+2) != 0x00 || chip.Register(0x06+4*14+3) != 0x01 {
		t.Error("Halt wrote a channel it was not given")
	}
	if _, pending := d.Target(0); pending {
		t.Error("a target pending at Halt was kept")
	}
	clk.Advance(time.Second)
	if err := d.SetPosition(1, 0.5); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Millisecond)
	if got := chip.Pulse(1); got < 1495*time.Microsecond || got > 1505*time.Microsecond || chip.Register(0x00)&0x10 != 0 {
		t.Errorf("after Halt and a new target: channel 1 high %v, MODE1 %#02x; want 1.5 ms, awake", got, chip.Register(0x00))
	}
}

// Addresses 0x78-0x7F are reserved by the I2C specification and 0x70 is every board's LED All
// Call address at power-up: refused even with a chip answering there.
func TestNewRefusesReservedAddresses(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	for _, a := range []uint16{0x70, 0x77, 0x78, 0x7C, 0x7F} {
		if err := bus.Attach(a, i2csim.NewPCA9685(clk, 0)); err != nil {
			t.Fatal(err)
		}
	}
	for a, want := range map[uint16]string{0x70: "LED All Call", 0x78: "reserved by I2C", 0x7C: "reserved by I2C", 0x7F: "reserved by I2C", 0x77: ""} {
		t.Run(fmt.Sprintf("addr=%#02x", a), func(t *testing.T) {
			_, err := New(bus, &Opts{Addr: a, Clock: clk})
			switch {
			case want == "" && err != nil:
				t.Errorf("New at %#02x: %v", a, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("New at %#02x = %v, want an error saying %q", a, err, want)
			}
		})
	}
}
