package i2csim

import (
	"math/rand/v2"
	"sync"
)

// MCP23017 registers in BANK=0 order: A and B side by side.
const (
	mcpxIODIR = 0x00
	mcpxIPOL  = 0x02
	mcpxGPPU  = 0x0C
	mcpxGPIO  = 0x12
	mcpxOLAT  = 0x14
	mcpxLast  = 0x15
)

// MCP23017 is a simulated MCP23017 I/O expander (BANK=0, sequential addressing on). Inputs
// are pins a test connects to ground (a pressed button) or leaves open; outputs drive lamps.
// An input left open without its pull-up floats: each read of it gives a level drawn at
// random, as a CMOS input with nothing on it does. It is safe for concurrent use.
type MCP23017 struct {
	mu      sync.Mutex
	reg     [mcpxLast + 1]byte
	ptr     byte
	grounds [2]byte // pins held low from outside
	rng     *rand.Rand
	resets  int
}

// NewMCP23017 returns an expander at power-up: every pin an input, no pull-ups.
func NewMCP23017() *MCP23017 {
	m := &MCP23017{rng: rand.New(rand.NewPCG(23017, 1))}
	m.powerOn()
	return m
}

// powerOn sets the registers to their power-on reset values (datasheet table 3-3: IODIR
// FFh, every other register 00h).
func (m *MCP23017) powerOn() {
	m.reg = [mcpxLast + 1]byte{}
	m.reg[mcpxIODIR], m.reg[mcpxIODIR+1] = 0xFF, 0xFF
	m.ptr = 0
}

// Reset pulls the chip's RESET pin low (or its supply drops) and lets it go: every register
// back to its power-on value, so every pin an input without pull-up (buttons float, lamps go
// dark) until a driver sets the chip up again.
func (m *MCP23017) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.powerOn()
	m.resets++
}

// Ground connects pin (0..7) of port (0: A, 1: B) to ground, or releases it.
func (m *MCP23017) Ground(port, pin int, grounded bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if grounded {
		m.grounds[port] |= 1 << pin
	} else {
		m.grounds[port] &^= 1 << pin
	}
}

// Outputs returns the levels the output pins of port drive (input pins read 0).
func (m *MCP23017) Outputs(port int) byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reg[mcpxOLAT+port] &^ m.reg[mcpxIODIR+port]
}

// Tx implements Device.
func (m *MCP23017) Tx(w, r []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(w) > 0 {
		if w[0] > mcpxLast {
			return errNACK
		}
		m.ptr = w[0]
		for _, b := range w[1:] {
			switch {
			case m.ptr == mcpxGPIO || m.ptr == mcpxGPIO+1:
				m.reg[mcpxOLAT+m.ptr-mcpxGPIO] = b // writing GPIO writes the latch
			case m.ptr == 0x0E || m.ptr == 0x0F || m.ptr == 0x10 || m.ptr == 0x11:
				// INTF and INTCAP are read-only
			default:
				m.reg[m.ptr] = b
			}
			m.next()
		}
	}
	for i := range r {
		r[i] = m.read(m.ptr)
		m.next()
	}
	return nil
}

func (m *MCP23017) next() {
	m.ptr++
	if m.ptr > mcpxLast {
		m.ptr = 0
	}
}

func (m *MCP23017) read(a byte) byte {
	if a == mcpxGPIO || a == mcpxGPIO+1 {
		port := a - mcpxGPIO
		dir := m.reg[mcpxIODIR+port]
		// An input reads low when grounded, high when pulled up, anything when left floating;
		// an output reads its latch.
		floating := ^m.grounds[port] &^ m.reg[mcpxGPPU+port]
		level := ^m.grounds[port]&^floating | byte(m.rng.Uint32())&floating
		in := level ^ m.reg[mcpxIPOL+port]
		return in&dir | m.reg[mcpxOLAT+port]&^dir
	}
	return m.reg[a]
}

// Register returns the raw value of register a (BANK=0 addresses), for tests.
func (m *MCP23017) Register(a byte) byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a > mcpxLast {
		return 0
	}
	return m.reg[a]
}
