package pca9685

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	periph "periph.io/x/devices/v3/pca9685"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

const addr = I2CAddr

// freshInit is New on a board at power-up (MODE1 0x11: asleep, ALLCALL): asleep with
// auto-increment, PRE_SCALE 121 for 50 Hz on 25 MHz (round(25e6/(4096*50)) - 1), totem-pole
// outputs, awake, RESTART. No LED register is written.
var freshInit = []i2ctest.IO{
	{Addr: addr, W: []byte{0x00}, R: []byte{0x11}},
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
	d, err := New(p, &Opts{Channels: channels(0, 1, 2, 5), Sleep: clk.Sleep, Now: clk.Now})
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
		{Addr: addr, W: []byte{0x00}, R: []byte{0x20}}, // awake, AI, no ALLCALL
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
	d, err := New(bus, &Opts{Channels: all, Sleep: clk.Sleep, Now: clk.Now})
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
}

func TestSlewLimitPreventsBrownouts(t *testing.T) {
	for _, limit := range []int{0, 2} {
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
		d, err := New(bus, &Opts{Channels: channels(0, 1, 2, 3, 4, 5, 6, 7), MaxSlewing: limit, Sleep: clk.Sleep, Now: clk.Now})
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
	}
}

func TestFaultsLoseNothing(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewPCA9685(clk, 0)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Channels: channels(0, 1, 4), Sleep: clk.Sleep, Now: clk.Now})
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
	for _, o := range []Opts{
		{Addr: 0x20},
		{Frequency: 5 * physic.Hertz},
		{Oscillator: physic.MegaHertz},
		{Channels: []Channel{{Index: 16}}},
		{Channels: []Channel{{Index: 1}, {Index: 1}}},
		{Channels: []Channel{{Index: 1, Calibration: Calibration{MinPulse: 2 * time.Millisecond, MaxPulse: time.Millisecond}}}},
		{Channels: []Channel{{Index: 1, Calibration: Calibration{MinPulse: time.Millisecond, MaxPulse: 25 * time.Millisecond}}}},
		{}, // nothing at 0x40
	} {
		if _, err := New(bus, &o); err == nil {
			t.Errorf("New(%+v) did not fail", o)
		}
	}
}
