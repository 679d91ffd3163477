package i2csim

import (
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// tconPOR is TCON0 and TCON1 at power-up: every terminal connected, every pot out of its
// hardware shutdown configuration (D7:D0 all 1), D8 reserved (read as 1, see tconReserved).
const tconPOR = 0x1FF

// tconReserved is TCON's D8. The MCP4461's sheet (DS22265, registers 4-2 and 4-3) marks it
// reserved; other drivers (ESPHome mcp4461, Klipper and Smoothieware mcp4451) write it 0.
// The simulated chip ignores what is written there and reads it as 1, as Microchip's sheets
// of the same generation do with reserved bits ("Reserved: forced to 1", DS22107B register
// 4-1). That reading of D8 is not checked against a sheet; a driver must not depend on it.
const tconReserved = 0x100

// MCP44x1 memory map (4-bit addresses of the command byte) and commands.
const (
	mcpW0      = 0x0
	mcpW1      = 0x1
	mcpNVW0    = 0x2
	mcpNVW1    = 0x3
	mcpTCON0   = 0x4
	mcpStatus  = 0x5
	mcpW2      = 0x6
	mcpW3      = 0x7
	mcpNVW2    = 0x8
	mcpNVW3    = 0x9
	mcpTCON1   = 0xA
	mcpCmdWr   = 0
	mcpCmdInc  = 1
	mcpCmdDec  = 2
	mcpCmdRead = 3
	mcpFull    = 0x100
)

// mcpWiperAddr are the volatile wipers' addresses, wiper 0..3; mcpNVAddr the non-volatile ones.
var (
	mcpWiperAddr = [4]byte{mcpW0, mcpW1, mcpW2, mcpW3}
	mcpNVAddr    = [4]byte{mcpNVW0, mcpNVW1, mcpNVW2, mcpNVW3}
)

// MCP44x1 is a simulated MCP4451 (volatile) or MCP4461 (non-volatile wipers in EEPROM): four
// 257-step potentiometers whose terminals A sit at Vref and B at ground. It is safe for
// concurrent use.
type MCP44x1 struct {
	clock Clock
	nv    bool

	// EEPROMWrite is how long a non-volatile write keeps EEWA set (the datasheet's maximum is
	// 10 ms). Default 5 ms.
	EEPROMWrite time.Duration
	// Vref is the voltage across each pot (terminal A), volts. Default 3.3.
	Vref float64

	mu       sync.Mutex
	wiper    [4]int
	nvWiper  [4]int
	tcon     [2]int
	locked   [4]bool // WiperLock
	wp       bool    // write-protect pin
	busyTill time.Time
	pending  []func() // non-volatile values stored at the end of the EEPROM cycle
	readAddr byte
	nvWrites int
	inl      [4][mcpFull + 1]float64
}

// NewMCP44x1 returns an MCP4461 (nonVolatile) or an MCP4451 at power-up: wipers at mid-scale
// (the MCP4461 loads them from its EEPROM, which leaves the factory at mid-scale), every
// terminal connected. seed draws each resistor string's nonlinearity (within one step).
func NewMCP44x1(clock Clock, nonVolatile bool, seed uint64) *MCP44x1 {
	if clock == nil {
		clock = WallClock{}
	}
	m := &MCP44x1{clock: clock, nv: nonVolatile, EEPROMWrite: 5 * time.Millisecond, Vref: 3.3}
	m.nvWiper = [4]int{0x80, 0x80, 0x80, 0x80}
	rng := rand.New(rand.NewPCG(seed, 0x4451))
	for w := range 4 {
		// Integral nonlinearity: a random walk of the steps' errors, pinned at both ends and
		// kept within one step (the datasheet's INL is within +-1 LSB).
		x := 0.0
		for k := 1; k < mcpFull; k++ {
			x += float64((float64(rng.Float64()) - 0.5) * 0.3)
			x = max(-0.9, min(0.9, x))
			m.inl[w][k] = x
		}
	}
	m.powerOn()
	return m
}

func (m *MCP44x1) powerOn() {
	if m.nv {
		m.wiper = m.nvWiper
	} else {
		m.wiper = [4]int{0x80, 0x80, 0x80, 0x80}
	}
	m.tcon = [2]int{tconPOR, tconPOR}
	m.busyTill = time.Time{}
	m.pending = nil
	m.readAddr = 0
}

// PowerCycle makes the chip lose power and come back: volatile wipers to their power-up
// values, TCON to all terminals connected, an EEPROM write still under way lost (one whose
// t_WC has passed is stored, and the wiper comes back from it).
func (m *MCP44x1) PowerCycle() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.settle()
	m.powerOn()
}

// SetWiperLock sets WiperLock on a wiper of an MCP4461 (a high-voltage command on the real
// chip): the wiper then refuses every change. WiperLock is a feature of the non-volatile
// parts (DS22265, "Features": nonvolatile memory, WiperLock technology): on an MCP4451 it
// does nothing.
func (m *MCP44x1) SetWiperLock(w int, locked bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.nv && w >= 0 && w < 4 {
		m.locked[w] = locked
	}
}

// SetWriteProtect sets the MCP4461's WP pin: non-volatile writes are refused. The MCP4451 has
// no WP pin and nothing to protect: on it this does nothing.
func (m *MCP44x1) SetWriteProtect(wp bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.wp = wp && m.nv
}

// Wiper returns volatile wiper w's value (0..256).
func (m *MCP44x1) Wiper(w int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.wiper[w]
}

// NVWiper returns non-volatile wiper w's stored value.
func (m *MCP44x1) NVWiper(w int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.settle()
	return m.nvWiper[w]
}

// NVWrites returns how many EEPROM write cycles the chip has done (the EEPROM wears out).
func (m *MCP44x1) NVWrites() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.nvWrites
}

// TCON returns TCON0 (i = 0) or TCON1.
func (m *MCP44x1) TCON(i int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tcon[i]
}

// Voltage returns wiper w's voltage against ground: Vref times the wiper's share of the
// resistor string, with the string's nonlinearity; a wiper disconnected or shut down by TCON
// reads ground, one with terminal B open reads Vref.
func (m *MCP44x1) Voltage(w int) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tcon[w/2] >> (4 * (w % 2)) & 0xF // RxHW RxA RxW RxB
	hw, a, wc, b := t&8 != 0, t&4 != 0, t&2 != 0, t&1 != 0
	switch {
	case !hw || !wc || !a:
		return 0
	case !b:
		return m.Vref
	}
	k := m.wiper[w]
	return m.Vref * (float64(k) + m.inl[w][k]) / mcpFull
}

// settle ends an EEPROM write cycle whose time is up (called with the lock held).
func (m *MCP44x1) settle() {
	if !m.busyTill.IsZero() && !m.clock.Now().Before(m.busyTill) {
		for _, f := range m.pending {
			f()
		}
		m.pending = nil
		m.busyTill = time.Time{}
	}
}

// statusReserved are the STATUS bits the MCP4461's sheet fixes at 1 (DS22265 register 4-1:
// D8, D7 and D1 reserved). The MCP4451 has no WiperLock, WP pin or EEPROM, so its WL, WP and
// EEWA bits never read 1; for the rest the simulated MCP4451 answers the MCP4461's reserved
// bits: its own sheet (DS22264) was not at hand to say otherwise, and the driver checks
// none of its STATUS bits.
const statusReserved = 0x182

func (m *MCP44x1) status() int {
	s := statusReserved
	if m.wp {
		s |= 1 << 0
	}
	for w, bit := range [4]int{2, 3, 5, 6} {
		if m.locked[w] {
			s |= 1 << bit
		}
	}
	if !m.busyTill.IsZero() {
		s |= 1 << 4 // EEWA
	}
	return s
}

var errNACK = errors.New("not acknowledged")

// wiperOf returns the wiper whose volatile (nv false) or non-volatile register is at addr.
func wiperOf(addr byte) (w int, nv bool, ok bool) {
	for i := range 4 {
		if mcpWiperAddr[i] == addr {
			return i, false, true
		}
		if mcpNVAddr[i] == addr {
			return i, true, true
		}
	}
	return 0, false, false
}

// Tx implements Device. The bytes written are a sequence of commands (the datasheet's
// continuous commands): a 16-bit write (command byte, data byte), an 8-bit increment or
// decrement, or a read, whose two data bytes (D8 in the first, D7..D0 in the second) the
// read part of this or a later transaction returns. An invalid command is not acknowledged:
// the commands before it in the transaction are done, the rest are not.
func (m *MCP44x1) Tx(w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.settle()
	for len(w) > 0 {
		c := w[0]
		addr, cmd, d98 := c>>4, (c>>2)&3, int(c&3)
		wi, isNV, isWiper := wiperOf(addr)
		if isNV && !m.nv || addr > mcpTCON1 {
			return errNACK
		}
		// Commands to non-volatile memory wait for the EEPROM write under way.
		if isNV && !m.busyTill.IsZero() {
			return errNACK
		}
		if (cmd == mcpCmdInc || cmd == mcpCmdDec) && (!isWiper || isNV) {
			return errNACK // only volatile wipers step (DS22265 7.6, 7.7)
		}
		if cmd == mcpCmdWr && addr == mcpStatus {
			return errNACK // STATUS is read-only
		}
		// The chip keeps the last memory address of a valid command byte, whatever the
		// command, and a read without a command byte reads there (DS51929A figure 2-4, note
		// 3: the device "retains the last Device Memory Address that it has received").
		m.readAddr = addr
		switch cmd {
		case mcpCmdWr:
			if len(w) < 2 {
				return errNACK // a write command needs its data byte
			}
			v := d98<<8 | int(w[1])
			w = w[2:]
			switch {
			case isWiper && m.locked[wi]:
				return errNACK
			case isWiper && isNV:
				if m.wp {
					return errNACK
				}
				v = min(v, mcpFull)
				m.nvWrites++
				m.busyTill = m.clock.Now().Add(m.EEPROMWrite)
				m.pending = append(m.pending, func() { m.nvWiper[wi] = v })
			case isWiper:
				m.wiper[wi] = min(v, mcpFull)
			case addr == mcpTCON0:
				m.tcon[0] = v&0xFF | tconReserved
			case addr == mcpTCON1:
				m.tcon[1] = v&0xFF | tconReserved
			default:
				return errNACK // STATUS is read-only
			}
		case mcpCmdInc, mcpCmdDec:
			if m.locked[wi] {
				return errNACK
			}
			w = w[1:]
			if cmd == mcpCmdInc {
				m.wiper[wi] = min(m.wiper[wi]+1, mcpFull)
			} else {
				m.wiper[wi] = max(m.wiper[wi]-1, 0)
			}
		case mcpCmdRead:
			w = w[1:]
		}
	}
	if len(r) > 0 {
		v := m.readReg(m.readAddr)
		for i := range r {
			if i%2 == 0 {
				r[i] = byte(v >> 8)
			} else {
				r[i] = byte(v)
			}
		}
	}
	return nil
}

func (m *MCP44x1) readReg(addr byte) int {
	wi, isNV, isWiper := wiperOf(addr)
	switch {
	case isWiper && isNV:
		return m.nvWiper[wi]
	case isWiper:
		return m.wiper[wi]
	case addr == mcpTCON0:
		return m.tcon[0]
	case addr == mcpTCON1:
		return m.tcon[1]
	case addr == mcpStatus:
		return m.status()
	}
	return 0x1FF // the data EEPROM, not modelled, reads erased
}
