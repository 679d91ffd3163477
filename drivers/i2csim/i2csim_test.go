package i2csim

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestPCA9685Registers(t *testing.T) {
	clk := NewManualClock()
	p := NewPCA9685(clk, 0)
	// PRE_SCALE ignores writes while awake; MODE1 starts asleep (0x11).
	if err := p.Tx([]byte{0x00, 0x20}, nil); err != nil { // wake, AI
		t.Fatal(err)
	}
	tx(t, p, []byte{0xFE, 0x79}, nil)
	if p.Register(0xFE) != 0x1E {
		t.Error("PRE_SCALE written while awake")
	}
	tx(t, p, []byte{0x00, 0x30}, nil)
	tx(t, p, []byte{0xFE, 0x79}, nil)
	tx(t, p, []byte{0x00, 0x20}, nil)
	clk.Advance(PCAOscillatorStart) // the outputs are off until the oscillator runs
	if p.Register(0xFE) != 0x79 || p.Period() != 19988480*time.Nanosecond {
		t.Errorf("PRE_SCALE %#x, period %v", p.Register(0xFE), p.Period())
	}
	// Auto-increment: one write covers channel 0 and 1.
	tx(t, p, []byte{0x06, 0, 0, 0x33, 0x01, 0x00, 0x01, 0x33, 0x02}, nil)
	if p.Pulse(0) != p.Pulse(1) || p.Pulse(0) < 1495*time.Microsecond || p.Pulse(0) > 1505*time.Microsecond {
		t.Errorf("pulses %v %v, want 1.5 ms", p.Pulse(0), p.Pulse(1))
	}
	var r [4]byte
	tx(t, p, []byte{0x0A}, r[:])
	if r != [4]byte{0x00, 0x01, 0x33, 0x02} {
		t.Errorf("read back % x", r)
	}
	// Without AI every byte lands on the same register.
	tx(t, p, []byte{0x00, 0x00}, nil)
	tx(t, p, []byte{0x08, 0x10, 0x20}, nil)
	if p.Register(0x08) != 0x20 || p.Register(0x09) != 0x01 {
		t.Errorf("without AI: %#x %#x", p.Register(0x08), p.Register(0x09))
	}
	// Full off wins over full on.
	tx(t, p, []byte{0x00, 0x20}, nil)
	tx(t, p, []byte{0x0E, 0, 0x10, 0, 0x10}, nil)
	if p.Pulse(2) != 0 {
		t.Error("full off did not win")
	}
	p.PowerCycle()
	if p.Register(0) != 0x11 || p.Pulse(0) != 0 {
		t.Error("PowerCycle kept state")
	}
}

func TestMCP44x1Commands(t *testing.T) {
	clk := NewManualClock()
	m := NewMCP44x1(clk, true, 1)
	// An increment of a non-volatile wiper is invalid: NACK, the commands before it done.
	err := m.Tx([]byte{0x04, 0x24}, nil)
	if err == nil || m.Wiper(0) != 129 {
		t.Errorf("inc W0 then inc NV W0: %v, W0 %d", err, m.Wiper(0))
	}
	// An EEPROM write keeps EEWA set and refuses non-volatile commands until it ends.
	if err := m.Tx([]byte{0x20, 0x40}, nil); err != nil {
		t.Fatal(err)
	}
	var st [2]byte
	tx(t, m, []byte{0x5C}, st[:])
	if st[1]&0x10 == 0 || st[0] != 1 || st[1]&0x82 != 0x82 {
		t.Errorf("STATUS % x during the EEPROM write", st)
	}
	if err := m.Tx([]byte{0x30, 0x40}, nil); err == nil {
		t.Error("a non-volatile write during the EEPROM cycle was accepted")
	}
	if err := m.Tx([]byte{0x10, 0x40}, nil); err != nil {
		t.Errorf("a volatile write during the EEPROM cycle: %v", err)
	}
	clk.Advance(5 * time.Millisecond)
	if m.NVWiper(0) != 0x40 || m.NVWrites() != 1 {
		t.Errorf("NV W0 %d after %d writes", m.NVWiper(0), m.NVWrites())
	}
	// Reads: the command, then two bytes in a later transaction.
	tx(t, m, []byte{0x1C}, nil)
	var r [2]byte
	tx(t, m, nil, r[:])
	if r != [2]byte{0, 0x40} {
		t.Errorf("read W1 % x", r)
	}
	if NewMCP44x1(clk, false, 1).Tx([]byte{0x20, 0x00}, nil) == nil {
		t.Error("an MCP4451 accepted a non-volatile write")
	}
}

func TestADS1115Conversion(t *testing.T) {
	clk := NewManualClock()
	a := NewADS1115(clk, 1)
	a.Noise = 0
	a.SetInput(2, func() float64 { return 1.024 })
	// Single-shot AIN2, +-2.048 V, 128 SPS: 0x8000 | 0x6000 | 0x0400 | 0x0100 | 0x0080.
	if err := a.Tx([]byte{1, 0xE5, 0x80}, nil); err != nil {
		t.Fatal(err)
	}
	var c [2]byte
	tx(t, a, []byte{1}, c[:])
	if c[0]&0x80 != 0 {
		t.Error("OS reads 1 during the conversion")
	}
	clk.Advance(time.Second / 128 * 21 / 20) // (1 + OscError) / rate
	tx(t, a, []byte{1}, c[:])
	var v [2]byte
	tx(t, a, []byte{0}, v[:])
	if c[0]&0x80 == 0 || v != [2]byte{0x40, 0x00} {
		t.Errorf("config % x, conversion % x; want OS 1 and 0x4000 (half of +-2.048 V)", c, v)
	}
}

func TestBusFaults(t *testing.T) {
	clk := NewManualClock()
	b := NewBus("1", clk, 1)
	if err := b.Attach(0x40, NewPCA9685(clk, 0)); err != nil {
		t.Fatal(err)
	}
	if err := b.Attach(0x40, NewMCP23017()); err == nil {
		t.Error("two chips at one address")
	}
	var e *Error
	if err := b.Tx(0x41, []byte{0}, nil); !errors.As(err, &e) || e.Kind != NACK || !strings.Contains(err.Error(), "remote I/O error") {
		t.Errorf("an empty address: %v", err)
	}
	b.Inject(Fault{Addr: 0x40, Kind: Timeout, Skip: 1, Count: 2})
	var fails int
	for range 5 {
		if b.Tx(0x40, []byte{0}, []byte{0}) != nil {
			fails++
		}
	}
	if fails != 2 {
		t.Errorf("%d failures, want 2 after 1 skipped", fails)
	}
	var trace strings.Builder
	b.SetTrace(&trace)
	b.SetStuck(true)
	if err := b.Tx(0x40, []byte{0}, nil); err == nil || !strings.Contains(trace.String(), "FAILED: connection timed out") {
		t.Errorf("stuck: %v, trace %q", err, trace.String())
	}
	b.ClearFaults()
	s := b.Stats()
	if s.Transactions != 7 || s.Failed != 4 {
		t.Errorf("stats %+v", s)
	}
	if a := b.Addresses(); len(a) != 1 || a[0] != 0x40 {
		t.Errorf("addresses %v", a)
	}
}

// TestMCP44x1AddressPointer: the chip keeps the memory address of the last valid command
// byte, whatever its command, and a read without a command reads there (DS51929A figure 2-4,
// note 3). The simulator once moved it on read commands only.
func TestMCP44x1AddressPointer(t *testing.T) {
	m := NewMCP44x1(NewManualClock(), false, 1)
	var r [2]byte
	for _, tc := range []struct {
		name string
		w    []byte
		want [2]byte
	}{
		{"read W0", []byte{0x0C}, [2]byte{0, 0x80}},
		{"write W1", []byte{0x10, 0x42}, [2]byte{0, 0x42}},
		{"increment W2", []byte{0x64}, [2]byte{0, 0x81}},
		{"write TCON1", []byte{0xA0, 0x0F}, [2]byte{1, 0x0F}},
		{"decrement W3", []byte{0x78}, [2]byte{0, 0x7F}},
	} {
		if err := m.Tx(tc.w, nil); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := m.Tx(nil, r[:]); err != nil || r != tc.want {
			t.Errorf("after %s, a bare read gives % x (%v), want % x", tc.name, r, err, tc.want)
		}
	}
	// An invalid command (a write to STATUS) leaves the pointer where it was.
	if err := m.Tx([]byte{0x50, 0x00}, nil); err == nil {
		t.Error("a write to STATUS was acknowledged")
	}
	if _ = m.Tx(nil, r[:]); r != [2]byte{0, 0x7F} {
		t.Errorf("after a refused command, a bare read gives % x, want W3's 00 7f", r)
	}
}

// TestMCP44x1ReservedBits: TCON's D8 is reserved (reads 1 whatever is written); the MCP4451,
// volatile, has no WiperLock or WP, so its STATUS never shows them.
func TestMCP44x1ReservedBits(t *testing.T) {
	m := NewMCP44x1(NewManualClock(), false, 1)
	if err := m.Tx([]byte{0x40, 0xFF, 0xA0, 0x0F}, nil); err != nil {
		t.Fatal(err)
	}
	if m.TCON(0) != 0x1FF || m.TCON(1) != 0x10F {
		t.Errorf("TCON %#x %#x after writing D8 = 0, want 0x1ff 0x10f", m.TCON(0), m.TCON(1))
	}
	m.SetWiperLock(0, true)
	m.SetWriteProtect(true)
	var st [2]byte
	tx(t, m, []byte{0x5C}, st[:])
	if st != [2]byte{0x01, 0x82} {
		t.Errorf("MCP4451 STATUS % x with WiperLock and WP asked for, want 01 82", st)
	}
	if err := m.Tx([]byte{0x00, 0x10}, nil); err != nil || m.Wiper(0) != 0x10 {
		t.Errorf("an MCP4451 wiper refused a write (%v): it has no WiperLock", err)
	}
}

// TestMCP23017FloatAndReset: an input without pull-up and with nothing on it reads anything;
// a reset puts every register back to its power-on value (IODIR FFh, the rest 00h), so
// pulled-up buttons float and lamps go dark.
func TestMCP23017FloatAndReset(t *testing.T) {
	m := NewMCP23017()
	// GPA0 pulled up, GPA1 floating, GPA2 grounded; GPB0 an output driven high.
	for _, w := range [][]byte{{0x0C, 0x01}, {0x01, 0xFE}, {0x15, 0x01}} {
		if err := m.Tx(w, nil); err != nil {
			t.Fatal(err)
		}
	}
	m.Ground(0, 2, true)
	var highs [3]int
	for range 64 {
		var r [1]byte
		tx(t, m, []byte{0x12}, r[:])
		for pin := range 3 {
			highs[pin] += int(r[0] >> pin & 1)
		}
	}
	if highs[0] != 64 || highs[2] != 0 || highs[1] < 8 || highs[1] > 56 {
		t.Errorf("high in 64 reads: pulled-up %d, floating %d, grounded %d; want 64, some, 0", highs[0], highs[1], highs[2])
	}
	if m.Outputs(1) != 0x01 {
		t.Fatalf("GPB0 not driven: %08b", m.Outputs(1))
	}
	m.Reset()
	if m.Register(0x00) != 0xFF || m.Register(0x01) != 0xFF || m.Register(0x0C) != 0 || m.Register(0x15) != 0 || m.Outputs(1) != 0 {
		t.Errorf("after reset: IODIRA %02x IODIRB %02x GPPUA %02x OLATB %02x, lamps %08b", m.Register(0x00), m.Register(0x01), m.Register(0x0C), m.Register(0x15), m.Outputs(1))
	}
}

// tx runs one transaction with a simulated chip, failing the test if the chip refuses it.
func tx(t *testing.T, d interface{ Tx(w, r []byte) error }, w, r []byte) {
	t.Helper()
	if err := d.Tx(w, r); err != nil {
		t.Fatalf("Tx(% x): %v", w, err)
	}
}
