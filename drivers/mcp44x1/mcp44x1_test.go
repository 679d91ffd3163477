package mcp44x1

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

const addr = 0x2C

// initOps is what New sends to an MCP4451 at 0x2C whose wipers stand at mid-scale: TCON0 and
// TCON1 in one transaction of two 16-bit writes (terminal bits D7:D0 all 1, the reserved D8
// 0), and the four wiper reads (00h, 01h, 06h, 07h: the command, then two bytes with a STOP
// between). An MCP4461's New reads STATUS first (statusOps).
func initOps() []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: addr, W: []byte{0x40, 0xFF, 0xA0, 0xFF}},
		{Addr: addr, W: []byte{0x0C}}, {Addr: addr, R: []byte{0x00, 0x80}},
		{Addr: addr, W: []byte{0x1C}}, {Addr: addr, R: []byte{0x00, 0x80}},
		{Addr: addr, W: []byte{0x6C}}, {Addr: addr, R: []byte{0x00, 0x80}},
		{Addr: addr, W: []byte{0x7C}}, {Addr: addr, R: []byte{0x00, 0x80}},
	}
}

// statusOps is an MCP4461's STATUS read (command 0x5C), its fixed bits D8, D7, D1 set.
var statusOps = []i2ctest.IO{{Addr: addr, W: []byte{0x5C}}, {Addr: addr, R: []byte{0x01, 0x82}}}

func playback(t *testing.T, ops []i2ctest.IO) *i2ctest.Playback {
	t.Helper()
	p := &i2ctest.Playback{Ops: ops, DontPanic: true}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Opts
		ops  []i2ctest.IO
		do   func(d *Dev) error
	}{
		{"new", Opts{}, nil, func(*Dev) error { return nil }},
		{"increment, decrement and write in one transaction", Opts{}, []i2ctest.IO{
			// W0 +1 (inc 0x04), W1 -1 (dec 0x18), W2 to 200 (write 0x60 0xC8), W3 unchanged.
			{Addr: addr, W: []byte{0x04, 0x18, 0x60, 0xC8}},
		}, func(d *Dev) error { return d.SetWipers([4]int{129, 127, 200, 128}, 0xF) }},
		{"writes only", Opts{WritesOnly: true}, []i2ctest.IO{
			{Addr: addr, W: []byte{0x00, 0x81, 0x10, 0x7F}},
		}, func(d *Dev) error { return d.SetWipers([4]int{129, 127, 128, 128}, 0xF) }},
		{"full scale sets D8", Opts{}, []i2ctest.IO{
			{Addr: addr, W: []byte{0x71, 0x00}},
		}, func(d *Dev) error { return d.SetWiper(3, 256) }},
		{"increment is one command byte", Opts{}, []i2ctest.IO{
			{Addr: addr, W: []byte{0x64}},
			{Addr: addr, W: []byte{0x08}},
		}, func(d *Dev) error {
			if err := d.Increment(2); err != nil {
				return err
			}
			return d.Decrement(0)
		}},
		{"repeated start reads in one transaction", Opts{RepeatedStart: true}, nil, nil},
		{"disconnected terminals", Opts{Disconnect: [4]int{TerminalA, 0, 0, ShutdownHW | TerminalW}}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ops := initOps()
			switch {
			case tc.opts.RepeatedStart:
				ops = ops[:1]
				for _, c := range []byte{0x0C, 0x1C, 0x6C, 0x7C} {
					ops = append(ops, i2ctest.IO{Addr: addr, W: []byte{c}, R: []byte{0, 0x80}})
				}
			case tc.opts.Disconnect != [4]int{}:
				// TCON0 = 0xFF without R0A (bit 2); TCON1 = 0xFF without R3HW and R3W (bits 7, 5).
				ops[0] = i2ctest.IO{Addr: addr, W: []byte{0x40, 0xFB, 0xA0, 0x5F}}
			}
			ops = append(ops, tc.ops...)
			p := playback(t, ops)
			d, err := New(p, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.do != nil {
				if err := tc.do(d); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestMCP4461ReadsNonVolatileWipers(t *testing.T) {
	ops := append(append([]i2ctest.IO{}, statusOps...), initOps()...)
	for _, c := range []byte{0x2C, 0x3C, 0x8C, 0x9C} {
		ops = append(ops, i2ctest.IO{Addr: addr, W: []byte{c}}, i2ctest.IO{Addr: addr, R: []byte{0, 0x80}})
	}
	// New reads each volatile wiper, then its non-volatile one: reorder to that interleaving.
	want := append([]i2ctest.IO{}, ops[:3]...)
	for w := range 4 {
		want = append(want, ops[3+2*w], ops[4+2*w], ops[11+2*w], ops[12+2*w])
	}
	p := playback(t, want)
	if _, err := New(p, &Opts{Variant: MCP4461}); err != nil {
		t.Fatal(err)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts Opts
		ops  []i2ctest.IO
		want string
	}{
		{"addr=0x58", Opts{Addr: 0x58}, nil, "8-bit form of 0x2c"},
		{"addr=0x40", Opts{Addr: 0x40}, nil, "out of range"},
		{"variant=7", Opts{Variant: 7}, nil, "unknown variant"},
		{"disconnect=0x10", Opts{Disconnect: [4]int{0x10}}, nil, "terminal bits"},
		// A chip that reads all zeros (SDA stuck low, or another chip) fails the fixed bits.
		{"mcp4461-status-zero", Opts{Variant: MCP4461}, []i2ctest.IO{{Addr: addr, W: []byte{0x5C}}, {Addr: addr, R: []byte{0, 0}}}, "fixed bits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := playback(t, tc.ops)
			_, err := New(p, &tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New(%+v) = %v, want an error with %q", tc.opts, err, tc.want)
			}
		})
	}
}

// sim returns a simulated chip on a simulated bus and a driver for it, on a manual clock.
func sim(t *testing.T, variant Variant) (*Dev, *i2csim.MCP44x1, *i2csim.Bus, *i2csim.ManualClock) {
	t.Helper()
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewMCP44x1(clk, variant == MCP4461, 1)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Variant: variant, Clock: clk, NVInterval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return d, chip, bus, clk
}

func TestSimulatedChip(t *testing.T) {
	d, chip, bus, _ := sim(t, MCP4451)
	before := bus.Stats()
	want := [4]int{0, 129, 256, 57}
	if err := d.SetWipers(want, 0xF); err != nil {
		t.Fatal(err)
	}
	// 0 and 256 and 57 are 16-bit writes, 129 an increment: 1 address byte + 2+1+2+2.
	if got := bus.Stats().Bytes - before.Bytes; got != 8 {
		t.Errorf("frame took %d bytes on the bus, want 8", got)
	}
	for w := range 4 {
		if chip.Wiper(w) != want[w] {
			t.Errorf("wiper %d = %d, want %d", w, chip.Wiper(w), want[w])
		}
		if v, err := d.Wiper(w); err != nil || v != want[w] {
			t.Errorf("Wiper(%d) = %d, %v", w, v, err)
		}
	}
	// Stepping at the ends stays there, as the chip does.
	if err := d.Increment(2); err != nil {
		t.Fatal(err)
	}
	if err := d.Decrement(0); err != nil {
		t.Fatal(err)
	}
	if chip.Wiper(2) != 256 || chip.Wiper(0) != 0 || d.Known()[2] != 256 || d.Known()[0] != 0 {
		t.Errorf("stepping past the ends: chip %d %d, known %v", chip.Wiper(0), chip.Wiper(2), d.Known())
	}
	if err := d.SetWiper(1, 300); err == nil {
		t.Error("SetWiper(1, 300) did not fail")
	}
}

func TestCheckRestoresAfterPowerLoss(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewMCP44x1(clk, false, 1)
	if err := bus.Attach(addr, chip); err != nil {
		t.Fatal(err)
	}
	d, err := New(bus, &Opts{Disconnect: [4]int{0, 0, TerminalB, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetWipers([4]int{10, 20, 30, 40}, 0xF); err != nil {
		t.Fatal(err)
	}
	if restored, err := d.Check(); err != nil || restored {
		t.Fatalf("Check on a healthy chip = %v, %v", restored, err)
	}
	chip.PowerCycle()
	if chip.TCON(1) != 0x1FF || chip.Wiper(0) != 128 {
		t.Fatal("the simulated chip did not lose its state")
	}
	restored, err := d.Check()
	if err != nil || !restored {
		t.Fatalf("Check after power loss = %v, %v", restored, err)
	}
	if chip.TCON(1)&0xFF != int(d.TCON()[1]) || chip.TCON(1) == 0x1FF {
		t.Errorf("TCON1 = %#x, want %#x", chip.TCON(1), d.TCON()[1])
	}
	for w, want := range []int{10, 20, 30, 40} {
		if chip.Wiper(w) != want {
			t.Errorf("wiper %d = %d after restore, want %d", w, chip.Wiper(w), want)
		}
	}
}

func TestSaveNVIsDebounced(t *testing.T) {
	d, chip, _, clk := sim(t, MCP4461)
	// New reads but never writes the EEPROM: a reboot costs no erase cycle.
	if chip.NVWrites() != 0 {
		t.Fatalf("New wrote the EEPROM %d times", chip.NVWrites())
	}
	// A learning run: the wiper changes a thousand times in ten minutes of 0.6 s steps, and
	// SaveNV is asked after every step.
	for i := range 1000 {
		if err := d.SetWiper(0, 100+i%50); err != nil {
			t.Fatal(err)
		}
		if _, err := d.SaveNV(false); err != nil {
			t.Fatal(err)
		}
		clk.Advance(600 * time.Millisecond)
	}
	// Once at the first call, then at most once a minute over 600 s.
	if n := chip.NVWrites(); n > 11 {
		t.Errorf("%d EEPROM writes for 1000 wiper changes, want at most 11", n)
	}
	// Nothing changed since: nothing is written, even forced.
	if err := d.SetWiper(0, chip.NVWiper(0)); err != nil {
		t.Fatal(err)
	}
	n := chip.NVWrites()
	if saved, err := d.SaveNV(true); err != nil || len(saved) != 0 || chip.NVWrites() != n {
		t.Errorf("SaveNV(true) of unchanged wipers saved %v (%v), %d writes", saved, err, chip.NVWrites()-n)
	}
	// At shutdown (forced) a changed wiper is stored at once, and survives a power cycle.
	if err := d.SetWiper(3, 222); err != nil {
		t.Fatal(err)
	}
	if saved, err := d.SaveNV(true); err != nil || len(saved) != 1 || saved[0] != 3 {
		t.Fatalf("SaveNV(true) = %v, %v", saved, err)
	}
	chip.PowerCycle()
	if chip.Wiper(3) != 222 {
		t.Errorf("wiper 3 came back at %d, want 222", chip.Wiper(3))
	}
}

func TestLockAndWriteProtect(t *testing.T) {
	d, chip, _, _ := sim(t, MCP4461)
	chip.SetWiperLock(1, true)
	if err := d.SetWiper(1, 5); err == nil {
		t.Error("writing a locked wiper did not fail")
	}
	if d.Known()[1] != -1 {
		t.Error("a failed write left the wiper's value known")
	}
	s, err := d.Status()
	if err != nil || !s.WiperLock[1] || s.WiperLock[0] {
		t.Errorf("Status = %+v, %v", s, err)
	}
	if err := d.SetWiper(0, 5); err != nil {
		t.Fatal(err)
	}
	chip.SetWriteProtect(true)
	if _, err := d.SaveNV(true); err == nil || !strings.Contains(err.Error(), "write-protected") {
		t.Errorf("SaveNV under WP = %v", err)
	}
}

func TestFaultsLoseNothing(t *testing.T) {
	d, chip, bus, _ := sim(t, MCP4451)
	bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.NACK, Count: 1})
	if err := d.SetWipers([4]int{129, 0, 0, 0}, 1); err == nil || !strings.Contains(err.Error(), "MCP4451@0x2c") {
		t.Fatalf("a NACK gave %v", err)
	}
	if chip.Wiper(0) != 128 {
		t.Fatal("a NACKed transaction changed the chip")
	}
	// The wiper's value is unknown after the failure, so the retry writes it in full (an
	// increment after a lost one would land one step short).
	before := bus.Stats().Bytes
	if err := d.SetWipers([4]int{129, 0, 0, 0}, 1); err != nil {
		t.Fatal(err)
	}
	if got := bus.Stats().Bytes - before; got != 3 || chip.Wiper(0) != 129 {
		t.Errorf("retry: %d bytes, wiper %d; want a 3-byte full write to 129", got, chip.Wiper(0))
	}
}

// chipWith wraps a simulated chip: hook sees every transaction first and may answer it.
type chipWith struct {
	*i2csim.MCP44x1
	hook func(w, r []byte) (handled bool, err error)
}

func (c *chipWith) Tx(w, r []byte) error {
	if ok, err := c.hook(w, r); ok {
		return err
	}
	return c.MCP44x1.Tx(w, r)
}

// TestMCP4451STATUSNotAssumed: the driver once refused an MCP4451 whose STATUS did not show
// the MCP4461's fixed bits (0x182); the volatile part's sheet is not the MCP4461's, and New
// must not depend on what an MCP4451's STATUS reads, or on its answering at 05h at all.
func TestMCP4451STATUSNotAssumed(t *testing.T) {
	for _, name := range []string{"STATUS reads 0", "05h not acknowledged"} {
		t.Run(name, func(t *testing.T) {
			clk := i2csim.NewManualClock()
			bus := i2csim.NewBus("1", clk, 1)
			chip := i2csim.NewMCP44x1(clk, false, 1)
			zero := false // the last command was a read of STATUS
			hook := func(w, r []byte) (bool, error) {
				if len(w) > 0 && w[0]>>4 == 5 && name == "05h not acknowledged" {
					return true, errors.New("NACK")
				}
				if len(w) == 0 && zero {
					zero = false
					clear(r)
					return true, nil
				}
				zero = len(w) == 1 && w[0] == 0x5C
				return false, nil
			}
			if err := bus.Attach(addr, &chipWith{chip, hook}); err != nil {
				t.Fatal(err)
			}
			d, err := New(bus, nil)
			if err != nil {
				t.Fatalf("New(MCP4451): %v", err)
			}
			if err := d.SetWiper(0, 42); err != nil || chip.Wiper(0) != 42 {
				t.Errorf("SetWiper: %v, wiper %d", err, chip.Wiper(0))
			}
		})
	}
}

// TestTCONReservedBit: TCON's D8 is reserved. The driver once wrote it 1 and compared all nine
// bits in Check, so on a chip reading D8 as 0 every Check found "lost power" and wrote the
// chip again. Now it writes D8 0 (as ESPHome, Klipper and Smoothieware do) and compares the
// terminal bits only, whatever D8 reads.
func TestTCONReservedBit(t *testing.T) {
	for _, d8 := range []byte{0, 1} {
		t.Run(fmt.Sprintf("D8=%d", d8), func(t *testing.T) {
			clk := i2csim.NewManualClock()
			bus := i2csim.NewBus("1", clk, 1)
			chip := i2csim.NewMCP44x1(clk, false, 1)
			var last byte
			hook := func(w, r []byte) (bool, error) {
				if len(w) > 0 {
					last = w[len(w)-1]
					if len(w) == 1 {
						last = w[0]
					}
				}
				if len(w) == 0 && len(r) == 2 && (last == 0x4C || last == 0xAC) {
					if err := chip.Tx(nil, r); err != nil {
						return true, err
					}
					r[0] = r[0]&^1 | d8
					return true, nil
				}
				return false, nil
			}
			if err := bus.Attach(addr, &chipWith{chip, hook}); err != nil {
				t.Fatal(err)
			}
			d, err := New(bus, &Opts{Disconnect: [4]int{0, TerminalA, 0, 0}})
			if err != nil {
				t.Fatal(err)
			}
			if d.TCON()[0]&0x100 != 0 || d.TCON()[1]&0x100 != 0 {
				t.Errorf("TCON written with D8 set: %#x", d.TCON())
			}
			n := bus.Stats().Transactions
			if restored, err := d.Check(); err != nil || restored {
				t.Errorf("D8 reads %d: Check on a healthy chip = %v, %v", d8, restored, err)
			}
			// Check reads TCON0, TCON1 and four wipers (two transactions each), and writes nothing.
			if got := bus.Stats().Transactions - n; got != 12 {
				t.Errorf("D8 reads %d: Check made %d transactions, want 12", d8, got)
			}
		})
	}
}

// TestReadIsOneExchange: a read is a command and then, in another transaction, the data. A
// command of another goroutine in between moves the chip's address pointer, and the read gets
// another register's value. The driver once made the two transactions without holding
// anything: here another goroutine writes wiper 1 right after the read command of wiper 0.
func TestReadIsOneExchange(t *testing.T) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	chip := i2csim.NewMCP44x1(clk, false, 1)
	var d *Dev
	armed := false
	done := make(chan error, 1)
	hook := func(w, r []byte) (bool, error) {
		if armed && len(w) == 1 && w[0] == 0x0C && len(r) == 0 {
			armed = false
			go func() { done <- d.SetWiper(1, 7) }()
			time.Sleep(50 * time.Millisecond) // time for the other goroutine to reach the chip
		}
		return false, nil
	}
	if err := bus.Attach(addr, &chipWith{chip, hook}); err != nil {
		t.Fatal(err)
	}
	var err error
	if d, err = New(bus, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.SetWiper(0, 200); err != nil {
		t.Fatal(err)
	}
	armed = true
	v, err := d.Wiper(0)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err != nil || v != 200 {
		t.Errorf("Wiper(0) = %d, %v while another goroutine wrote wiper 1; want 200", v, err)
	}
	if chip.Wiper(1) != 7 {
		t.Errorf("wiper 1 = %d, want 7", chip.Wiper(1))
	}
}
