package mcp44x1

import (
	"fmt"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

// The MCP4451/4461's datasheet tables, typed here from the sheets and from other projects'
// drivers, not from this package or the simulator, with where each row comes from:
//
//	DS22265  MCP444X/446X (MCP4461), Microchip 2010: the features list (pdfslide.us copy),
//	         6.2.4 and 7.2-7.6 (elcodis.com and datasheetandpdf.com page copies)
//	DS22107B MCP454X/456X/464X/466X (the dual non-volatile family): 4.1.1, 4.2.2.1, 7.8
//	DS22096B MCP453X/455X/463X/465X (the dual volatile family): 4.1.1
//	DS51929A MCP46XX evaluation board user's guide: figure 2-4 and its notes
//	ESPHome  esphome/components/mcp4461 (mcp4461.h, mcp4461.cpp)
//	p1ngb4ck p1ngb4ck/MCP4461 MCP4461.h (the STATUS and TCON bit comments)
//	riot     riotnetwork/MCP4461 MCP4461.h (the register addresses)
//	Klipper  klippy/extras/mcp4451.py; Smoothieware src/modules/utils/currentcontrol/mcp4451.h
//
// The MCP4451's own sheet (DS22264, MCP443X/445X) was not at hand: no row below is taken from
// it. Where a row is about the volatile part, its source is the volatile dual family's sheet.

// memoryMap: DS22265 4.2 (memory map), as ESPHome's Mcp4461Addresses (shifted 4 bits), riot's
// defines, Klipper's WiperRegisters and Smoothieware's addresses give it.
var memoryMap = []struct {
	addr byte
	name string
	ref  string
}{
	{0x00, "volatile wiper 0", "ESPHome VW0 0x00, riot, Klipper, Smoothieware"},
	{0x01, "volatile wiper 1", "ESPHome VW1 0x10, riot, Klipper, Smoothieware"},
	{0x02, "non-volatile wiper 0", "riot WIPER0_EEPROM, ESPHome NV = VW + 0x20"},
	{0x03, "non-volatile wiper 1", "riot WIPER1_EEPROM"},
	{0x04, "TCON0", "ESPHome TCON0 0x40, riot, Klipper 0x04, Smoothieware 0x40"},
	{0x05, "STATUS", "ESPHome STATUS 0x50, riot MCP_4461_STATUS"},
	{0x06, "volatile wiper 2", "ESPHome VW2 0x60, riot, Klipper, Smoothieware"},
	{0x07, "volatile wiper 3", "ESPHome VW3 0x70, riot, Klipper, Smoothieware"},
	{0x08, "non-volatile wiper 2", "riot WIPER2_EEPROM"},
	{0x09, "non-volatile wiper 3", "riot WIPER3_EEPROM"},
	{0x0A, "TCON1", "ESPHome TCON1 0xA0, riot, Klipper 0x0a, Smoothieware 0xA0"},
}

// Command bits C1:C0 of the command byte AD3:AD0 C1 C0 D9 D8: DS22265 7.1-7.2 (table 7-1),
// DS51929A figure 2-5 ("0 0 = Write Data, 0 1 = INCR, 1 0 = DECR, 1 1 = Read Data"),
// ESPHome Mcp4461Commands (WRITE 0x00, INCREMENT 0x04, DECREMENT 0x08, READ 0x0C).
var commands = map[string]byte{"write": 0x00, "increment": 0x04, "decrement": 0x08, "read": 0x0C}

// statusBits: DS22265 register 4-1 (STATUS, 05h), as ESPHome's update_write_protection_status_
// and get_status_register_ ("D8, D7 and R1 bits are hardlocked to 1") and p1ngb4ck's comment
// ("D8:D7: Reserved D6: WL3 D5:WL2 D4:EEWA D3:WL1 D2:WL0 D1:Reserved D0: WP") give it.
var statusBits = map[string]int{"WP": 0, "WL0": 2, "WL1": 3, "EEWA": 4, "WL2": 5, "WL3": 6}

const statusReservedOnes = 1<<8 | 1<<7 | 1<<1 // D8, D7, D1: reserved, read 1

// tconBits: DS22265 registers 4-2 and 4-3 (TCON0 04h: pots 0 and 1; TCON1 0Ah: pots 2 and 3),
// as ESPHome's calc_terminal_connector_byte_ and p1ngb4ck's comment ("D8: Reserved D7:R1HW
// D6: R1A D5:R1W D4:R1B D3:R0HW D2:R0A D1:R0W D0: R0B") give them.
var tconBits = map[string]int{"RxB": 0, "RxW": 1, "RxA": 2, "RxHW": 3}

const (
	tconPowerOn   = 0xFF // D7:D0 at power-up: every terminal connected (ESPHome: "on POR ... resets TCON to all terminals connected"; DS22107B 4.1.1: TCON loaded with its default)
	midScale      = 0x80 // 8-bit parts, 257 taps (DS22265 features); ESPHome "default wiper state is 128 / 0x80h"
	fullScale     = 0x100
	eepromWriteMs = 10 // t_WC maximum: ESPHome EEPROM_WRITE_TIMEOUT_MS = 10 ("t_WC up to 10 ms")
)

func TestDatasheetMemoryMap(t *testing.T) {
	ours := map[byte]string{wiperReg[0]: "volatile wiper 0", wiperReg[1]: "volatile wiper 1", wiperReg[2]: "volatile wiper 2",
		wiperReg[3]: "volatile wiper 3", nvReg[0]: "non-volatile wiper 0", nvReg[1]: "non-volatile wiper 1",
		nvReg[2]: "non-volatile wiper 2", nvReg[3]: "non-volatile wiper 3", regTCON0: "TCON0", regTCON1: "TCON1", regStatus: "STATUS"}
	clk := i2csim.NewManualClock()
	chip := i2csim.NewMCP44x1(clk, true, 1)
	for _, row := range memoryMap {
		t.Run(row.name, func(t *testing.T) {
			if ours[row.addr] != row.name {
				t.Errorf("%02Xh: the driver has %q, the datasheet %q (%s)", row.addr, ours[row.addr], row.name, row.ref)
			}
			// The simulated MCP4461 acknowledges a read command at every address of the map.
			var r [2]byte
			if err := chip.Tx([]byte{row.addr<<4 | commands["read"]}, r[:]); err != nil {
				t.Errorf("%02Xh (%s): the simulated MCP4461 refused a read: %v", row.addr, row.name, err)
			}
		})
	}
	if cmdWrite != commands["write"] || cmdInc != commands["increment"] || cmdDec != commands["decrement"] || cmdRead != commands["read"] {
		t.Errorf("the driver's command bits %#x %#x %#x %#x, the datasheet's %v", cmdWrite, cmdInc, cmdDec, cmdRead, commands)
	}
}

func TestDatasheetStatusAndTCON(t *testing.T) {
	if statusFixed != statusReservedOnes {
		t.Errorf("the driver's MCP4461 STATUS fixed bits %#x, DS22265 register 4-1 %#x", statusFixed, statusReservedOnes)
	}
	for w, name := range []string{"WL0", "WL1", "WL2", "WL3"} {
		t.Run(name, func(t *testing.T) {
			if statusWL[w] != 1<<statusBits[name] {
				t.Errorf("%s: the driver's bit %#x, the datasheet's D%d", name, statusWL[w], statusBits[name])
			}
		})
	}
	if statusWP != 1<<statusBits["WP"] || statusEEWA != 1<<statusBits["EEWA"] {
		t.Errorf("WP %#x, EEWA %#x: want D%d, D%d", statusWP, statusEEWA, statusBits["WP"], statusBits["EEWA"])
	}
	for name, bit := range map[string]int{"TerminalB": TerminalB, "TerminalW": TerminalW, "TerminalA": TerminalA, "ShutdownHW": ShutdownHW} {
		t.Run(name, func(t *testing.T) {
			want := map[string]string{"TerminalB": "RxB", "TerminalW": "RxW", "TerminalA": "RxA", "ShutdownHW": "RxHW"}[name]
			if bit != 1<<tconBits[want] {
				t.Errorf("%s = %#x, the datasheet's %s is D%d", name, bit, want, tconBits[want])
			}
		})
	}

	clk := i2csim.NewManualClock()
	for _, nv := range []bool{false, true} {
		t.Run(fmt.Sprintf("nv=%v", nv), func(t *testing.T) {
			chip := i2csim.NewMCP44x1(clk, nv, 1)
			var r [2]byte
			tx(t, chip, []byte{0x5C}, r[:])
			st := int(r[0])<<8 | int(r[1])
			if st&statusReservedOnes != statusReservedOnes {
				t.Errorf("nv %v: simulated STATUS %#x without the reserved ones %#x", nv, st, statusReservedOnes)
			}
			if st&(1<<statusBits["EEWA"]) != 0 {
				t.Errorf("nv %v: EEWA set at power-up", nv)
			}
			for _, reg := range []byte{0x4C, 0xAC} {
				tx(t, chip, []byte{reg}, r[:])
				if r[1] != tconPowerOn {
					t.Errorf("nv %v: TCON at %02Xh reads %02x %02x at power-up, want terminal bits %02x", nv, reg>>4, r[0], r[1], tconPowerOn)
				}
			}
			// TCON1 holds pots 2 and 3 in the same bit positions as TCON0 pots 0 and 1: clearing
			// R3W (D5 of TCON1) grounds wiper 3 only.
			if err := chip.Tx([]byte{0xA0, tconPowerOn &^ (1 << (4 + tconBits["RxW"]))}, nil); err != nil {
				t.Fatal(err)
			}
			if chip.Voltage(3) != 0 || chip.Voltage(2) == 0 || chip.Voltage(0) == 0 {
				t.Errorf("nv %v: R3W cleared: wipers at %.2f %.2f %.2f %.2f V, want only wiper 3 at 0", nv, chip.Voltage(0), chip.Voltage(1), chip.Voltage(2), chip.Voltage(3))
			}
		})
	}
	// The driver writes the terminal bits of its options in those positions.
	d, _, _, _ := sim(t, MCP4451)
	if d.TCON() != [2]uint16{tconPowerOn, tconPowerOn} {
		t.Errorf("the driver's TCON with every terminal connected: %#x, want %#x", d.TCON(), tconPowerOn)
	}
}

func TestDatasheetPowerOnWipers(t *testing.T) {
	clk := i2csim.NewManualClock()
	// DS22096B 4.1.1 (the volatile family): the volatile wipers load mid-scale.
	v := i2csim.NewMCP44x1(clk, false, 1)
	// DS22107B 4.1.1 (the non-volatile family): each volatile wiper loads its non-volatile one.
	n := i2csim.NewMCP44x1(clk, true, 1)
	if err := n.Tx([]byte{0x20, 0x11}, nil); err != nil { // NV wiper 0 = 11h
		t.Fatal(err)
	}
	clk.Advance(eepromWriteMs * time.Millisecond)
	if err := v.Tx([]byte{0x00, 0x11}, nil); err != nil {
		t.Fatal(err)
	}
	v.PowerCycle()
	n.PowerCycle()
	for w := range 4 {
		want := midScale
		if w == 0 {
			if n.Wiper(0) != 0x11 {
				t.Errorf("MCP4461 wiper 0 = %#x after power-up, want its non-volatile 0x11", n.Wiper(0))
			}
		} else if n.Wiper(w) != want {
			t.Errorf("MCP4461 wiper %d = %#x after power-up, want %#x", w, n.Wiper(w), want)
		}
		if v.Wiper(w) != want {
			t.Errorf("MCP4451 wiper %d = %#x after power-up, want mid-scale %#x", w, v.Wiper(w), want)
		}
	}
	if MidScale != midScale || FullScale != fullScale {
		t.Errorf("the driver's MidScale %d, FullScale %d; want %d, %d", MidScale, FullScale, midScale, fullScale)
	}
}

func TestDatasheetCommands(t *testing.T) {
	clk := i2csim.NewManualClock()
	chip := i2csim.NewMCP44x1(clk, true, 1)
	// DS22265 7.6 and 7.7: increment and decrement only on the volatile wipers 00h, 01h, 06h,
	// 07h, up to 100h and down to 0; to a non-volatile address they are not acknowledged.
	tx(t, chip, []byte{0x01, 0x00}, nil) // W0 = 100h
	if err := chip.Tx([]byte{0x04}, nil); err != nil || chip.Wiper(0) != fullScale {
		t.Errorf("increment at 100h: %v, wiper %#x; want acknowledged, 100h", err, chip.Wiper(0))
	}
	tx(t, chip, []byte{0x10, 0x00}, nil)
	if err := chip.Tx([]byte{0x18}, nil); err != nil || chip.Wiper(1) != 0 {
		t.Errorf("decrement at 0: %v, wiper %#x", err, chip.Wiper(1))
	}
	for _, c := range []byte{0x24, 0x38, 0x84, 0x98, 0x44, 0x58, 0xA4} {
		if err := chip.Tx([]byte{c}, nil); err == nil {
			t.Errorf("command byte %02x (increment or decrement of %02Xh) acknowledged", c, c>>4)
		}
	}
	// DS22265 7.3: an invalid command is not acknowledged and the commands after it in the
	// transaction are ignored until the next START.
	before := chip.Wiper(2)
	if err := chip.Tx([]byte{0x24, 0x64}, nil); err == nil || chip.Wiper(2) != before {
		t.Errorf("a command after an invalid one: %v, wiper 2 %d -> %d", err, before, chip.Wiper(2))
	}
	// DS22107B 7.8: while the EEPROM is written, only commands to volatile memory are
	// accepted; EEWA (STATUS D4) is set. The cycle takes at most t_WC = 10 ms.
	if err := chip.Tx([]byte{0x30, 0x55}, nil); err != nil {
		t.Fatal(err)
	}
	var r [2]byte
	tx(t, chip, []byte{0x5C}, r[:])
	if int(r[1])&(1<<statusBits["EEWA"]) == 0 {
		t.Errorf("STATUS %02x %02x during the EEPROM write: EEWA clear", r[0], r[1])
	}
	for _, c := range [][]byte{{0x00, 1}, {0x10, 1}, {0x40, 0xFF}, {0x60, 1}, {0x70, 1}, {0xA0, 0xFF}} {
		if err := chip.Tx(c, nil); err != nil {
			t.Errorf("volatile command % x during the EEPROM write refused: %v", c, err)
		}
	}
	if err := chip.Tx([]byte{0x20, 0x01}, nil); err == nil {
		t.Error("a non-volatile write during the EEPROM write was accepted")
	}
	clk.Advance(eepromWriteMs * time.Millisecond)
	tx(t, chip, []byte{0x5C}, r[:])
	if int(r[1])&(1<<statusBits["EEWA"]) != 0 || chip.NVWiper(1) != 0x55 {
		t.Errorf("after t_WC: STATUS %02x %02x, NV wiper 1 %#x; want EEWA clear, 55h", r[0], r[1], chip.NVWiper(1))
	}
	// The driver waits for t_WC with a margin.
	d, _, _, _ := sim(t, MCP4461)
	if d.opts.EEPROMTimeout < eepromWriteMs*time.Millisecond {
		t.Errorf("the driver waits %v for an EEPROM write, t_WC is up to %d ms", d.opts.EEPROMTimeout, eepromWriteMs)
	}
}

// TestDatasheetAddresses: DS22265 6.2.4: the address is 0101 1 A1 A0 (0x2C-0x2F).
func TestDatasheetAddresses(t *testing.T) {
	for a := uint16(0); a < 0x80; a++ {
		t.Run(fmt.Sprintf("addr=%#02x", a), func(t *testing.T) {
			_, err := New(i2csim.NewBus("1", nil, 1), &Opts{Addr: a})
			valid := a>>2 == 0b01011
			// A valid address reaches the (empty) bus and fails there; an invalid one is refused
			// before.
			if got := err != nil && !isRange(err); got != valid && a != 0 {
				t.Errorf("address %#x: %v", a, err)
			}
		})
	}
}

func isRange(err error) bool {
	s := err.Error()
	return contains(s, "out of range") || contains(s, "8-bit form")
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// tx runs one transaction with the simulated chip, failing the test if the chip refuses it.
func tx(t *testing.T, chip *i2csim.MCP44x1, w, r []byte) {
	t.Helper()
	if err := chip.Tx(w, r); err != nil {
		t.Fatalf("Tx(% x): %v", w, err)
	}
}
