package mcp44x1

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
)

// FullScale is the top wiper value: a wiper runs 0..FullScale (257 steps), MidScale at power-up.
const (
	FullScale = 256
	MidScale  = 128
)

// Variant names the chip.
type Variant int

// The chips this package drives.
const (
	MCP4451 Variant = iota // volatile wipers only
	MCP4461                // volatile and non-volatile (EEPROM) wipers
)

func (v Variant) String() string {
	if v == MCP4461 {
		return "MCP4461"
	}
	return "MCP4451"
}

// Register addresses (AD3..AD0) and commands (C1 C0).
const (
	regTCON0  = 0x4
	regStatus = 0x5
	regTCON1  = 0xA
	cmdWrite  = 0 << 2
	cmdInc    = 1 << 2
	cmdDec    = 2 << 2
	cmdRead   = 3 << 2
)

var (
	wiperReg = [4]byte{0x0, 0x1, 0x6, 0x7}
	nvReg    = [4]byte{0x2, 0x3, 0x8, 0x9}
)

// Terminal bits of one pot in TCON: set in Opts.Disconnect to open a terminal.
const (
	TerminalB  = 1 << 0
	TerminalW  = 1 << 1
	TerminalA  = 1 << 2
	ShutdownHW = 1 << 3 // clear RxHW: the pot's hardware shutdown configuration
)

// STATUS bits of the MCP4461 (DS22265 register 4-1).
const (
	statusFixed = 0x182 // D8, D7 and D1: reserved, read as 1
	statusWP    = 1 << 0
	statusEEWA  = 1 << 4
)

// tconTerminals are TCON's terminal bits, D7:D0; D8 is reserved (DS22265 registers 4-2 and
// 4-3): written 0, as other drivers do, and never compared.
const tconTerminals = 0xFF

var statusWL = [4]int{1 << 2, 1 << 3, 1 << 5, 1 << 6}

// Opts configures a Dev. The zero value is an MCP4451 at 0x2C.
type Opts struct {
	Addr    uint16  // 7-bit address, 0x2C-0x2F; 0 means 0x2C
	Variant Variant // MCP4451 or MCP4461
	// Disconnect lists, per pot, the terminals to open (TerminalA|TerminalW|...): 0 keeps all
	// connected, as a voltage divider read back by an ADC needs.
	Disconnect [4]int
	// RepeatedStart reads registers in one transaction (repeated start) instead of a write,
	// a STOP and a read.
	RepeatedStart bool
	// WritesOnly makes SetWipers send 16-bit writes only, never the 8-bit increment and
	// decrement commands (for a chip or bus that mishandles a mix of commands in one
	// transaction; it costs a byte per wiper stepped by one).
	WritesOnly bool
	// NVInterval is the shortest time between two EEPROM writes of one wiper by SaveNV (not
	// forced). Default 10 minutes.
	NVInterval time.Duration
	// EEPROMTimeout bounds the wait for an EEPROM write cycle to end. Default 20 ms (the
	// datasheet's maximum is 10 ms).
	EEPROMTimeout time.Duration
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

// Status is the STATUS register.
type Status struct {
	Raw           uint16
	WiperLock     [4]bool // the wiper refuses every change (MCP4461)
	WriteProtect  bool    // the WP pin is asserted: non-volatile writes are refused (MCP4461)
	EEPROMWriting bool    // EEWA: an EEPROM write cycle is under way (MCP4461)
}

// Dev is one MCP4451/MCP4461. Its methods are safe for concurrent use.
type Dev struct {
	c    i2c.Dev
	opts Opts
	tcon [2]uint16

	// io is held across each exchange with the chip: a read is a command and then, in
	// another transaction, the data, and any command of another goroutine in between would
	// move the chip's address pointer (the data would be another register's).
	io sync.Mutex

	mu     sync.Mutex
	known  [4]int // each wiper's value as last written or read, -1 when unknown
	nv     [4]int // the MCP4461's stored wiper values, -1 when unknown
	nvAt   [4]time.Time
	nvBusy bool // an EEPROM write may be under way
}

// New checks the chip at opts.Addr (an MCP4461's STATUS register's fixed bits; an MCP4451
// only answers), sets its terminals (TCON, volatile) and reads its wipers. It changes no
// wiper.
func New(bus i2c.Bus, opts *Opts) (*Dev, error) {
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	if o.Addr == 0 {
		o.Addr = 0x2C
	}
	switch {
	case o.Addr >= 0x58 && o.Addr <= 0x5F:
		return nil, fmt.Errorf("mcp44x1: address 0x%02x is the 8-bit form of 0x%02x: give the 7-bit address", o.Addr, o.Addr>>1)
	case o.Addr < 0x2C || o.Addr > 0x2F:
		return nil, fmt.Errorf("mcp44x1: address 0x%02x out of range, want 0x2c-0x2f", o.Addr)
	case o.Variant != MCP4451 && o.Variant != MCP4461:
		return nil, fmt.Errorf("mcp44x1: unknown variant %d", o.Variant)
	}
	for p, t := range o.Disconnect {
		if t&^0xF != 0 {
			return nil, fmt.Errorf("mcp44x1: pot %d: terminal bits 0x%x, want a combination of 0xf", p, t)
		}
	}
	if o.NVInterval == 0 {
		o.NVInterval = 10 * time.Minute
	}
	if o.EEPROMTimeout == 0 {
		o.EEPROMTimeout = 20 * time.Millisecond
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	d := &Dev{c: i2c.Dev{Bus: bus, Addr: o.Addr}, opts: o}
	for i := range 2 {
		d.tcon[i] = uint16(tconTerminals &^ (o.Disconnect[2*i] | o.Disconnect[2*i+1]<<4))
	}
	d.known = [4]int{-1, -1, -1, -1}
	d.nv = [4]int{-1, -1, -1, -1}
	if o.Variant == MCP4461 {
		if _, err := d.Status(); err != nil {
			return nil, err
		}
	}
	if err := d.setTCON(); err != nil {
		return nil, err
	}
	for w := range 4 {
		if _, err := d.Wiper(w); err != nil {
			return nil, err
		}
		if o.Variant == MCP4461 {
			if _, err := d.NVWiper(w); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// String implements conn.Resource.
func (d *Dev) String() string { return fmt.Sprintf("%s@0x%02x", d.opts.Variant, d.opts.Addr) }

// Halt implements conn.Resource. A digital pot has no motion to stop: its wipers keep their
// values (which is what the rig wants of its weights).
func (d *Dev) Halt() error { return nil }

// Addr returns the chip's 7-bit address.
func (d *Dev) Addr() uint16 { return d.opts.Addr }

// Variant returns the chip model.
func (d *Dev) Variant() Variant { return d.opts.Variant }

func (d *Dev) errorf(format string, a ...any) error {
	return fmt.Errorf("mcp44x1: %s: "+format, append([]any{d}, a...)...)
}

// read reads a 9-bit register.
func (d *Dev) read(reg byte) (uint16, error) {
	var b [2]byte
	cmd := []byte{reg<<4 | cmdRead}
	d.io.Lock()
	defer d.io.Unlock()
	if d.opts.RepeatedStart {
		if err := d.c.Tx(cmd, b[:]); err != nil {
			return 0, err
		}
	} else {
		if err := d.c.Tx(cmd, nil); err != nil {
			return 0, err
		}
		if err := d.c.Tx(nil, b[:]); err != nil {
			return 0, err
		}
	}
	return uint16(b[0]&1)<<8 | uint16(b[1]), nil
}

// writeCmd returns the two bytes of a 16-bit write of v to reg.
func writeCmd(reg byte, v int) [2]byte {
	return [2]byte{reg<<4 | cmdWrite | byte(v>>8)&3, byte(v)}
}

// Status reads the STATUS register and, on an MCP4461, checks its fixed bits and decodes
// WiperLock, WP and EEWA. On an MCP4451 it returns the raw value only: the volatile part has
// none of those, and this driver does not rely on its sheet's reserved bits (DS22264 was not
// at hand when the MCP4461's pattern was found to be assumed for it).
func (d *Dev) Status() (Status, error) {
	v, err := d.read(regStatus)
	if err != nil {
		return Status{}, d.errorf("reading STATUS: %w", err)
	}
	if d.opts.Variant != MCP4461 {
		return Status{Raw: v}, nil
	}
	if v&statusFixed != statusFixed {
		return Status{Raw: v}, d.errorf("STATUS reads 0x%03x, whose fixed bits D8, D7 and D1 are not all 1: not an MCP44x1, or the bus is unreliable", v)
	}
	s := Status{Raw: v}
	for w := range 4 {
		s.WiperLock[w] = int(v)&statusWL[w] != 0
	}
	s.WriteProtect = v&statusWP != 0
	s.EEPROMWriting = v&statusEEWA != 0
	return s, nil
}

func (d *Dev) setTCON() error {
	c0 := writeCmd(regTCON0, int(d.tcon[0]))
	c1 := writeCmd(regTCON1, int(d.tcon[1]))
	d.io.Lock()
	defer d.io.Unlock()
	if err := d.c.Tx([]byte{c0[0], c0[1], c1[0], c1[1]}, nil); err != nil {
		return d.errorf("writing TCON: %w", err)
	}
	return nil
}

func checkWiper(w int) error {
	if w < 0 || w > 3 {
		return fmt.Errorf("mcp44x1: wiper %d out of range 0..3", w)
	}
	return nil
}

// Wiper reads volatile wiper w (0..3): its value, 0..FullScale.
func (d *Dev) Wiper(w int) (int, error) {
	if err := checkWiper(w); err != nil {
		return 0, err
	}
	v, err := d.read(wiperReg[w])
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		d.known[w] = -1
		return 0, d.errorf("reading wiper %d: %w", w, err)
	}
	d.known[w] = int(v)
	return int(v), nil
}

// SetWiper writes volatile wiper w.
func (d *Dev) SetWiper(w, v int) error {
	var vals [4]int
	if err := checkWiper(w); err != nil {
		return err
	}
	vals[w] = v
	return d.SetWipers(vals, 1<<w)
}

// Increment moves volatile wiper w one step toward terminal A (an 8-bit command; the chip
// stops at FullScale).
func (d *Dev) Increment(w int) error { return d.step(w, cmdInc) }

// Decrement moves volatile wiper w one step toward terminal B (the chip stops at 0).
func (d *Dev) Decrement(w int) error { return d.step(w, cmdDec) }

func (d *Dev) step(w int, cmd byte) error {
	if err := checkWiper(w); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.io.Lock()
	err := d.c.Tx([]byte{wiperReg[w]<<4 | cmd}, nil)
	d.io.Unlock()
	if err != nil {
		d.known[w] = -1
		return d.errorf("stepping wiper %d: %w", w, err)
	}
	if k := d.known[w]; k >= 0 {
		if cmd == cmdInc {
			d.known[w] = min(k+1, FullScale)
		} else {
			d.known[w] = max(k-1, 0)
		}
	}
	return nil
}

// SetWipers writes the volatile wipers whose bit is set in mask to vals (each 0..FullScale) in
// one transaction of continuous commands: an 8-bit increment or decrement for a wiper known to
// be one step away, a 16-bit write otherwise; a wiper already at its value is skipped. So a
// frame costs the address byte plus one or two bytes per changed wiper, the least the protocol
// allows. On an error every wiper of the transaction becomes unknown (to be written in full
// next time or read back).
func (d *Dev) SetWipers(vals [4]int, mask int) error {
	var buf [8]byte
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.appendWipers(buf[:0], vals, mask)
	if err != nil || len(b) == 0 {
		return err
	}
	d.io.Lock()
	err = d.c.Tx(b, nil)
	d.io.Unlock()
	if err != nil {
		for w := range 4 {
			if mask&(1<<w) != 0 {
				d.known[w] = -1
			}
		}
		return d.errorf("writing wipers: %w", err)
	}
	for w := range 4 {
		if mask&(1<<w) != 0 {
			d.known[w] = vals[w]
		}
	}
	return nil
}

// appendWipers appends to b the command bytes SetWipers sends (called with the lock held).
func (d *Dev) appendWipers(b []byte, vals [4]int, mask int) ([]byte, error) {
	for w := range 4 {
		if mask&(1<<w) == 0 {
			continue
		}
		v := vals[w]
		if v < 0 || v > FullScale {
			return nil, fmt.Errorf("mcp44x1: wiper %d: value %d out of range 0..%d", w, v, FullScale)
		}
		switch k := d.known[w]; {
		case k == v:
		case k >= 0 && v == k+1 && !d.opts.WritesOnly:
			b = append(b, wiperReg[w]<<4|cmdInc)
		case k >= 0 && v == k-1 && !d.opts.WritesOnly:
			b = append(b, wiperReg[w]<<4|cmdDec)
		default:
			c := writeCmd(wiperReg[w], v)
			b = append(b, c[0], c[1])
		}
	}
	return b, nil
}

// Known returns the wipers' values as last written or read (-1 for a wiper whose last
// transaction failed), without touching the bus.
func (d *Dev) Known() [4]int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.known
}

// TCON returns the TCON values New writes (TCON0, TCON1): the terminal bits D7:D0, D8 (reserved)
// 0.
func (d *Dev) TCON() [2]uint16 { return d.tcon }

// Check reads TCON and the wipers and tells whether the chip lost power since it was last
// set (TCON back at its power-up value or a wiper not as written): restored is true when it
// then wrote TCON and the wipers back. Call it now and then: a chip whose supply dropped
// comes back with every terminal connected and its wipers at their power-up values.
func (d *Dev) Check() (restored bool, err error) {
	lost := false
	for i, reg := range [2]byte{regTCON0, regTCON1} {
		v, err := d.read(reg)
		if err != nil {
			return false, d.errorf("reading TCON%d: %w", i, err)
		}
		lost = lost || v&tconTerminals != d.tcon[i]
	}
	d.mu.Lock()
	want := d.known
	d.mu.Unlock()
	var vals [4]int
	mask := 0
	for w := range 4 {
		v, err := d.read(wiperReg[w])
		if err != nil {
			return false, d.errorf("reading wiper %d: %w", w, err)
		}
		if want[w] >= 0 && int(v) != want[w] {
			vals[w], mask = want[w], mask|1<<w
			lost = true
		}
	}
	if !lost {
		return false, nil
	}
	if err := d.setTCON(); err != nil {
		return false, err
	}
	d.mu.Lock()
	for w := range 4 {
		if mask&(1<<w) != 0 {
			d.known[w] = -1 // force full writes
		}
	}
	d.mu.Unlock()
	if err := d.SetWipers(vals, mask); err != nil {
		return false, err
	}
	return true, nil
}

// NVWiper reads the MCP4461's non-volatile wiper w (what the wiper comes back to at power-up).
func (d *Dev) NVWiper(w int) (int, error) {
	if err := checkWiper(w); err != nil {
		return 0, err
	}
	if d.opts.Variant != MCP4461 {
		return 0, d.errorf("no non-volatile wipers (an MCP4461 has them)")
	}
	if err := d.waitEEPROM(); err != nil {
		return 0, err
	}
	v, err := d.read(nvReg[w])
	if err != nil {
		return 0, d.errorf("reading non-volatile wiper %d: %w", w, err)
	}
	d.mu.Lock()
	d.nv[w] = int(v)
	d.mu.Unlock()
	return int(v), nil
}

// ErrNotVolatile is returned by SaveNV on a chip without non-volatile wipers.
var ErrNotVolatile = errors.New("mcp44x1: no non-volatile wipers on an MCP4451")

// waitEEPROM waits until no EEPROM write cycle is under way (EEWA clear), polling STATUS.
func (d *Dev) waitEEPROM() error {
	d.mu.Lock()
	busy := d.nvBusy
	d.mu.Unlock()
	if !busy {
		return nil
	}
	deadline := d.opts.Clock.Now().Add(d.opts.EEPROMTimeout)
	for {
		s, err := d.Status()
		if err == nil && !s.EEPROMWriting {
			d.mu.Lock()
			d.nvBusy = false
			d.mu.Unlock()
			return nil
		}
		if !d.opts.Clock.Now().Before(deadline) {
			if err != nil {
				return err
			}
			return d.errorf("EEPROM write cycle still under way after %v", d.opts.EEPROMTimeout)
		}
		d.opts.Clock.Sleep(time.Millisecond)
	}
}

// SaveNV stores the volatile wipers' values in the MCP4461's EEPROM where they differ from
// what is stored and, unless force, where the wiper's last EEPROM write is older than
// Opts.NVInterval. It waits for each write cycle (up to 10 ms) before the next. It returns the
// wipers written. A wiper of unknown value, under WiperLock, or a chip under write protection
// is not written (the latter two give an error).
func (d *Dev) SaveNV(force bool) (saved []int, err error) {
	if d.opts.Variant != MCP4461 {
		return nil, ErrNotVolatile
	}
	now := d.opts.Clock.Now()
	for w := range 4 {
		d.mu.Lock()
		k, stored, at := d.known[w], d.nv[w], d.nvAt[w]
		d.mu.Unlock()
		if k < 0 || k == stored || (!force && !at.IsZero() && now.Sub(at) < d.opts.NVInterval) {
			continue
		}
		if err := d.waitEEPROM(); err != nil {
			return saved, err
		}
		s, err := d.Status()
		if err != nil {
			return saved, err
		}
		if s.WriteProtect {
			return saved, d.errorf("write-protected (WP pin): non-volatile wipers not saved")
		}
		if s.WiperLock[w] {
			return saved, d.errorf("wiper %d is locked (WiperLock): not saved", w)
		}
		c := writeCmd(nvReg[w], k)
		d.io.Lock()
		err = d.c.Tx(c[:], nil)
		d.io.Unlock()
		if err != nil {
			return saved, d.errorf("saving wiper %d: %w", w, err)
		}
		d.mu.Lock()
		d.nv[w], d.nvAt[w], d.nvBusy = k, now, true
		d.mu.Unlock()
		saved = append(saved, w)
	}
	if len(saved) > 0 {
		if err := d.waitEEPROM(); err != nil {
			return saved, err
		}
	}
	return saved, nil
}

var _ conn.Resource = (*Dev)(nil)
