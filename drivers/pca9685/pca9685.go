package pca9685

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// I2CAddr is the board's address with no address jumper closed.
const I2CAddr = 0x40

// Registers and bits (datasheet section 7.3).
const (
	regMode1    = 0x00
	regMode2    = 0x01
	regLED0     = 0x06
	regPrescale = 0xFE
	mode1AI     = 0x20
	mode1Sleep  = 0x10
	mode1Rst    = 0x80
	mode2OutDrv = 0x04
	fullBit     = 0x10
	// mode1Ours are the MODE1 bits this driver sets or clears: RESTART, AI, SLEEP, SUB1-3 and
	// ALLCALL (EXTCLK, bit 6, is left as it is: only a power cycle clears it).
	mode1Ours = 0xBF
	// mode2Ours are MODE2's INVRT, OCH, OUTDRV and OUTNE, all as at power-up but OUTDRV:
	// outputs not inverted, changing at the STOP, totem-pole.
	mode2Ours = 0x1F
)

// Calibration maps a channel's position (0..1, the weight's whole range) to the servo's pulse.
type Calibration struct {
	// MinPulse and MaxPulse are the pulses at positions 0 and 1 (defaults 1000 and 2000 us;
	// many servos take 500-2500 us: find each one's ends with hwbridge jog).
	MinPulse, MaxPulse time.Duration
	// Reverse puts position 0 at MaxPulse (a servo mounted the other way round).
	Reverse bool
	// Trim is added to every pulse (centring a horn that sits one spline off).
	Trim time.Duration
}

// Pulse returns the pulse for position pos (clamped to 0..1).
func (c Calibration) Pulse(pos float64) time.Duration {
	pos = math.Max(0, math.Min(1, pos))
	if c.Reverse {
		pos = 1 - pos
	}
	return c.MinPulse + time.Duration(math.Round(pos*float64(c.MaxPulse-c.MinPulse))) + c.Trim
}

// Channel is one used output of a board.
type Channel struct {
	Index int // 0..15
	Calibration
}

// Opts configures a Dev.
type Opts struct {
	Addr       uint16           // 7-bit address, 0x40-0x77 but 0x70; 0 means 0x40
	Frequency  physic.Frequency // PWM frequency; default 50 Hz
	Oscillator physic.Frequency // the board's oscillator; default 25 MHz (calibrate per board)
	Channels   []Channel        // the outputs with servos; the others are never written
	// MaxSlewing is the most servos that may be moving at once (0: no limit).
	MaxSlewing int
	// Speed is the servos' speed in whole travels (position 0 to 1) per second, for the
	// moving-time estimate. Default 1.5 (about 0.13 s per 60 degrees over 180).
	Speed float64
	// NoStagger starts every channel's pulse at count 0 instead of staggering them.
	NoStagger bool
	// Clock is the time the driver reads and waits on (nil: the wall clock, time.Now
	// and time.Sleep); tests give a manual clock (drivers/i2csim.ManualClock).
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

type channel struct {
	used     bool
	cal      Calibration
	on       int     // the ON count (stagger phase)
	target   float64 // position wanted
	pulse    time.Duration
	raw      bool    // target is a raw pulse (SetPulse), not a position
	pending  bool    // target not yet written
	regs     [4]byte // the channel's registers as last written
	known    bool    // regs are known to be what the chip holds
	pos      float64 // position last written
	hasPos   bool
	movingTo time.Time // end of the current move's estimated travel
}

// Dev is one PCA9685 board. Its methods are safe for concurrent use.
type Dev struct {
	c        i2c.Dev
	opts     Opts
	prescale byte
	period   time.Duration

	mu     sync.Mutex
	ch     [16]channel
	buf    []byte
	last   FrameStats
	halted bool // put to sleep by Halt: the next Flush sets the board up again
}

// FrameStats describes what one Flush sent.
type FrameStats struct {
	Channels     int // channels written
	Deferred     int // channels left pending by the slewing limit
	Transactions int
	Bytes        int // bytes on the bus, address bytes included
}

// FlushError is a Flush's failure: the channels whose writes failed stay pending and are
// written in full by a later Flush.
type FlushError struct {
	Dev      string
	Channels []int
	Err      error
}

func (e *FlushError) Error() string {
	return fmt.Sprintf("pca9685: %s: channels %v: %v", e.Dev, e.Channels, e.Err)
}

func (e *FlushError) Unwrap() error { return e.Err }

// Prescale returns the PRE_SCALE value for frequency f on an oscillator osc, and the period it
// gives: (PRE_SCALE + 1) * 4096 / osc.
func Prescale(osc, f physic.Frequency) (byte, time.Duration) {
	p := int64(math.Round(float64(osc)/(4096*float64(f)))) - 1
	p = max(3, min(255, p))
	return byte(p), time.Duration((p + 1) * 4096 * int64(time.Second) / (int64(osc) / int64(physic.Hertz)))
}

// New sets up the board at opts.Addr: auto-increment on, ALLCALL and the sub-addresses off,
// MODE2 as at power-up but for totem-pole outputs (not inverted, changing at the STOP), and the
// prescale for opts.Frequency, without changing any output. A board that already runs exactly
// so (it stayed powered: awake, not waiting for a restart, MODE1, MODE2 and PRE_SCALE as this
// driver sets them) is adopted: not put to sleep, and its channels' registers are read back.
// Any other board (one another program left running with inverted or open-drain outputs, say)
// is set up again.
func New(bus i2c.Bus, opts *Opts) (*Dev, error) {
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	if o.Addr == 0 {
		o.Addr = I2CAddr
	}
	if o.Frequency == 0 {
		o.Frequency = 50 * physic.Hertz
	}
	if o.Oscillator == 0 {
		o.Oscillator = 25 * physic.MegaHertz
	}
	if o.Speed == 0 {
		o.Speed = 1.5
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	switch {
	case o.Addr >= 0x78 && o.Addr <= 0x7F:
		return nil, fmt.Errorf("pca9685: address 0x%02x is reserved by I2C (0x78-0x7f: 10-bit addressing and future use): want 0x40-0x77", o.Addr)
	case o.Addr == 0x70:
		return nil, errors.New("pca9685: address 0x70 is every PCA9685's LED All Call address at power-up: every board on the bus would answer; want 0x40-0x77 but 0x70")
	case o.Addr < 0x40 || o.Addr > 0x7F:
		return nil, fmt.Errorf("pca9685: address 0x%02x out of range, want 0x40-0x77", o.Addr)
	case o.Frequency < 24*physic.Hertz || o.Frequency > 1526*physic.Hertz:
		return nil, fmt.Errorf("pca9685: frequency %v out of the chip's range 24-1526 Hz", o.Frequency)
	case o.Oscillator < 20*physic.MegaHertz || o.Oscillator > 30*physic.MegaHertz:
		return nil, fmt.Errorf("pca9685: oscillator %v out of range 20-30 MHz", o.Oscillator)
	case o.MaxSlewing < 0 || o.Speed < 0 || math.IsNaN(o.Speed) || math.IsInf(o.Speed, 0):
		return nil, errors.New("pca9685: MaxSlewing and Speed must be positive")
	}
	d := &Dev{c: i2c.Dev{Bus: bus, Addr: o.Addr}, opts: o}
	d.prescale, d.period = Prescale(o.Oscillator, o.Frequency)
	for _, c := range o.Channels {
		if c.Index < 0 || c.Index > 15 {
			return nil, fmt.Errorf("pca9685: channel %d out of range 0..15", c.Index)
		}
		if d.ch[c.Index].used {
			return nil, fmt.Errorf("pca9685: channel %d given twice", c.Index)
		}
		if c.MinPulse == 0 && c.MaxPulse == 0 {
			c.MinPulse, c.MaxPulse = time.Millisecond, 2*time.Millisecond
		}
		lo, hi := c.Pulse(0), c.Pulse(1)
		if c.MinPulse >= c.MaxPulse || min(lo, hi) < 100*time.Microsecond || max(lo, hi) > d.period-100*time.Microsecond {
			return nil, fmt.Errorf("pca9685: channel %d: pulses %v..%v (with trim) do not fit a %v period", c.Index, lo, hi, d.period)
		}
		ch := &d.ch[c.Index]
		ch.used, ch.cal = true, c.Calibration
		if !o.NoStagger {
			ch.on = 256 * c.Index
		}
	}
	if err := d.init(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dev) errorf(format string, a ...any) error {
	return fmt.Errorf("pca9685: %s: "+format, append([]any{d}, a...)...)
}

// readModes reads MODE1, MODE2 and PRE_SCALE and tells whether they are as this driver sets
// them. MODE1 and MODE2 come in one read: with AI set the pointer moves on to MODE2; with it
// clear the second byte is MODE1 again, and MODE1 alone refuses the board.
func (d *Dev) readModes() (ours bool, err error) {
	var m [2]byte
	if err := d.c.Tx([]byte{regMode1}, m[:]); err != nil {
		return false, d.errorf("reading MODE1 and MODE2: %w", err)
	}
	var pre [1]byte
	if err := d.c.Tx([]byte{regPrescale}, pre[:]); err != nil {
		return false, d.errorf("reading PRE_SCALE: %w", err)
	}
	return m[0]&mode1Ours == mode1AI && m[1]&mode2Ours == mode2OutDrv && pre[0] == d.prescale, nil
}

// init brings the board to this driver's mode: a board already in it is adopted (its channels'
// registers read back), any other is set up (datasheet 7.3.1.1: asleep for PRE_SCALE, then
// awake, 500 us for the oscillator, RESTART).
func (d *Dev) init() error {
	ours, err := d.readModes()
	if err != nil {
		return err
	}
	if ours {
		// Running as we want it: read the LED registers back (the pointer auto-increments).
		var regs [64]byte
		if err := d.c.Tx([]byte{regLED0}, regs[:]); err != nil {
			return d.errorf("reading the channels: %w", err)
		}
		for i := range d.ch {
			c := &d.ch[i]
			copy(c.regs[:], regs[4*i:])
			c.known = true
		}
		return nil
	}
	seq := [][]byte{
		{regMode1, mode1Sleep | mode1AI}, // asleep, auto-increment, ALLCALL and SUB1-3 off
		{regPrescale, d.prescale},
		{regMode2, mode2OutDrv}, // INVRT, OCH, OUTNE 0: as at power-up; totem-pole
		{regMode1, mode1AI},     // wake
	}
	for _, w := range seq {
		if err := d.c.Tx(w, nil); err != nil {
			return d.errorf("setting up: %w", err)
		}
	}
	d.opts.Clock.Sleep(500 * time.Microsecond) // the oscillator's start-up (datasheet 7.3.1.1)
	// RESTART: channels left running when the board was put to sleep run again (a board at
	// power-up has none, and the bit then does nothing).
	if err := d.c.Tx([]byte{regMode1, mode1AI | mode1Rst}, nil); err != nil {
		return d.errorf("restarting the PWM: %w", err)
	}
	for i := range d.ch {
		d.ch[i].known = false // at power-up every output is full off: written in full later
	}
	d.halted = false
	return nil
}

// String implements conn.Resource.
func (d *Dev) String() string { return fmt.Sprintf("PCA9685@0x%02x", d.opts.Addr) }

// Hold drops the targets not yet written, so the servos hold where they were last sent (a
// watchdog's "hold"); their pulses go on.
func (d *Dev) Hold() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.ch {
		d.ch[i].pending = false
	}
}

// Halt implements conn.Resource, for a program that lets the board go: targets not yet written
// are dropped, every configured channel is turned fully off (LEDn_OFF_H's full-off bit: the
// signal stays low and the servos go limp where they are), and the board is put to sleep (its
// oscillator stops), as Linux's pwm-pca9685 leaves a board it frees. Channels this driver was
// not given are not written. A later Flush sets the board up again and writes its targets.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var want [16][4]byte
	var write [16]bool
	for i := range d.ch {
		c := &d.ch[i]
		c.pending = false
		if !c.used {
			continue
		}
		c.raw, c.pulse = true, 0
		want[i], write[i] = d.want(i), true
	}
	_, failed, err := d.writeRegs(want, write)
	for i := range d.ch {
		if write[i] && !slices.Contains(failed, i) {
			d.ch[i].regs, d.ch[i].known = want[i], true
		}
	}
	if err != nil {
		return &FlushError{Dev: d.String(), Channels: failed, Err: err}
	}
	if err := d.c.Tx([]byte{regMode1, mode1Sleep | mode1AI}, nil); err != nil {
		return d.errorf("putting the board to sleep: %w", err)
	}
	d.halted = true
	return nil
}

// Period returns the PWM period the board runs at (from its prescale and oscillator).
func (d *Dev) Period() time.Duration { return d.period }

// Counts returns the ON and OFF counts channel ch gets for a pulse p.
func (d *Dev) Counts(ch int, p time.Duration) (on, off int) {
	on = d.ch[ch].on
	width := int((int64(p)*4096 + int64(d.period)/2) / int64(d.period))
	width = max(0, min(4095, width))
	return on, (on + width) % 4096
}

func (d *Dev) checkChannel(ch int) error {
	if ch < 0 || ch > 15 || !d.ch[ch].used {
		return fmt.Errorf("pca9685: %s: channel %d is not configured", d, ch)
	}
	return nil
}

// SetPosition sets channel ch's target position (0..1, clamped); Flush writes it.
func (d *Dev) SetPosition(ch int, pos float64) error {
	if err := d.checkChannel(ch); err != nil {
		return err
	}
	if math.IsNaN(pos) {
		return fmt.Errorf("pca9685: %s: channel %d: position NaN", d, ch)
	}
	pos = math.Max(0, math.Min(1, pos))
	d.mu.Lock()
	defer d.mu.Unlock()
	c := &d.ch[ch]
	if c.raw || c.target != pos || !c.hasPos && !c.pending {
		c.target, c.raw, c.pending = pos, false, true
	}
	return nil
}

// SetPulse sets channel ch's pulse directly, ignoring its calibration (for finding a servo's
// ends); Flush writes it.
func (d *Dev) SetPulse(ch int, p time.Duration) error {
	if err := d.checkChannel(ch); err != nil {
		return err
	}
	if p < 0 || p > d.period {
		return fmt.Errorf("pca9685: %s: channel %d: pulse %v outside 0..%v", d, ch, p, d.period)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	c := &d.ch[ch]
	c.pulse, c.raw, c.pending = p, true, true
	return nil
}

// Target returns channel ch's target position and whether it is still to be written.
func (d *Dev) Target(ch int) (pos float64, pending bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ch[ch].target, d.ch[ch].pending
}

// Moving returns how many channels are still travelling at now.
func (d *Dev) Moving() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.moving(d.opts.Clock.Now())
}

func (d *Dev) moving(now time.Time) int {
	n := 0
	for i := range d.ch {
		if d.ch[i].movingTo.After(now) {
			n++
		}
	}
	return n
}

// Busy reports whether a target is pending or a servo still travelling.
func (d *Dev) Busy() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.ch {
		if d.ch[i].pending {
			return true
		}
	}
	return d.moving(d.opts.Clock.Now()) > 0
}

// Settled reports whether channel ch has no pending target and has ended its travel.
func (d *Dev) Settled(ch int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := &d.ch[ch]
	return !c.pending && !c.movingTo.After(d.opts.Clock.Now())
}

// want returns the registers channel c's target needs. A pulse of no count is the full-off
// bit (LEDn_OFF_H bit 4), not ON = OFF counts (which the datasheet does not define as off);
// the ON registers and OFF_L keep what they hold, so only OFF_H is written, as Linux's driver
// does.
func (d *Dev) want(i int) [4]byte {
	c := &d.ch[i]
	p := c.pulse
	if !c.raw {
		p = c.cal.Pulse(c.target)
	}
	on, off := d.Counts(i, p)
	if off == on {
		w := [4]byte{byte(on), byte(on>>8) & 0x0F, 0, fullBit}
		if c.known {
			w[0], w[1], w[2] = c.regs[0], c.regs[1], c.regs[2]
		}
		return w
	}
	return [4]byte{byte(on), byte(on>>8) & 0x0F, byte(off), byte(off>>8) & 0x0F}
}

// Flush writes the pending targets: the channels the slewing limit lets start, their changed
// register bytes only, runs of them merged while that costs no more bytes. A failed
// transaction leaves its channels pending (returned in a *FlushError); the others are written.
func (d *Dev) Flush() (FrameStats, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.halted {
		if err := d.init(); err != nil {
			return FrameStats{}, err
		}
	}
	now := d.opts.Clock.Now()
	var st FrameStats
	moving := d.moving(now)
	var want [16][4]byte
	var write [16]bool
	for i := range d.ch {
		c := &d.ch[i]
		if !c.used || !c.pending {
			continue
		}
		want[i] = d.want(i)
		if c.known && want[i] == c.regs {
			c.pending = false // already there
			continue
		}
		if c.movingTo.After(now) || d.opts.MaxSlewing == 0 || moving < d.opts.MaxSlewing {
			if !c.movingTo.After(now) {
				moving++
			}
			write[i] = true
			continue
		}
		st.Deferred++
	}
	wst, failed, ferr := d.writeRegs(want, write)
	st.Transactions, st.Bytes = wst.Transactions, wst.Bytes
	for i := range d.ch {
		if !write[i] || slices.Contains(failed, i) {
			continue
		}
		c := &d.ch[i]
		c.regs, c.known, c.pending = want[i], true, false
		st.Channels++
		if !c.raw {
			dist := 1.0
			if c.hasPos {
				dist = math.Abs(c.target - c.pos)
			}
			end := now.Add(time.Duration(dist / d.opts.Speed * float64(time.Second)))
			if end.After(c.movingTo) {
				c.movingTo = end
			}
			c.pos, c.hasPos = c.target, true
		}
	}
	d.last = st
	if ferr != nil {
		slices.Sort(failed)
		return st, &FlushError{Dev: d.String(), Channels: failed, Err: ferr}
	}
	return st, nil
}

// writeRegs writes the registers want of the channels marked in write: their changed bytes
// only, runs of them merged while that costs no more bytes. It returns the transactions and
// bytes sent, and the channels whose write failed with the first error (called with the lock
// held).
func (d *Dev) writeRegs(want [16][4]byte, write [16]bool) (st FrameStats, failed []int, ferr error) {
	// The LED block's 64 bytes: which to write, and which could be rewritten as they are.
	var dirty [64]bool
	var val [64]byte
	var fill [64]bool
	for i := range d.ch {
		c := &d.ch[i]
		for k := range 4 {
			j := 4*i + k
			switch {
			case write[i]:
				val[j] = want[i][k]
				dirty[j] = !c.known || c.regs[k] != want[i][k]
				fill[j] = true
			case c.known:
				val[j], fill[j] = c.regs[k], true
			}
		}
	}
	for j := 0; j < 64; {
		if !dirty[j] {
			j++
			continue
		}
		// A run from j: extend it over gaps of at most two bytes that can be rewritten as
		// they are (a new transaction costs two: the address and the register pointer).
		end := j + 1
		for k := end; k < 64; {
			if dirty[k] {
				end = k + 1
				k++
				continue
			}
			g := k
			for g < 64 && !dirty[g] && fill[g] && g-k <= 2 {
				g++
			}
			if g < 64 && dirty[g] && g-k <= 2 {
				k = g
				continue
			}
			break
		}
		d.buf = append(d.buf[:0], regLED0+byte(j))
		d.buf = append(d.buf, val[j:end]...)
		err := d.c.Tx(d.buf, nil)
		st.Transactions++
		st.Bytes += 1 + len(d.buf)
		if err != nil {
			for i := j / 4; i <= (end-1)/4; i++ {
				if write[i] && !slices.Contains(failed, i) {
					d.ch[i].known = false
					failed = append(failed, i)
				}
			}
		}
		if err != nil && ferr == nil {
			ferr = err
		}
		j = end
	}
	return st, failed, ferr
}

// Check reads MODE1, MODE2 and PRE_SCALE and tells whether the board lost power or was reset
// or changed since New (asleep, auto-increment off, ALLCALL on, other outputs, another
// prescale): then it sets the board up again and marks every channel to be written in full
// (restored is true). Call it now and then.
func (d *Dev) Check() (restored bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ours, err := d.readModes()
	if err != nil {
		return false, err
	}
	if ours {
		return false, nil
	}
	if err := d.init(); err != nil {
		return false, err
	}
	for i := range d.ch {
		c := &d.ch[i]
		if c.used && (c.hasPos || c.raw) {
			c.pending = true
		}
	}
	return true, nil
}

var _ conn.Resource = (*Dev)(nil)
