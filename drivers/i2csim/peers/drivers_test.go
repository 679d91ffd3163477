package peers

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/mark1-perceptron/mark1/drivers/ads1115"
	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/panel"
	"github.com/mark1-perceptron/mark1/drivers/pca9685"
)

// needPeers skips unless MARK1_PEER_TEST=1 (scripts/rig-test.sh sets it after
// drivers/i2csim/peers/install.sh), and then fails, not skips, when the drivers cannot run.
func needPeers(t *testing.T) {
	t.Helper()
	if os.Getenv("MARK1_PEER_TEST") != "1" {
		t.Skip("MARK1_PEER_TEST is not 1 (scripts/rig-test.sh runs the independent drivers after installing them)")
	}
	if err := Check(); err != nil {
		t.Fatal(err)
	}
}

// rig is one simulated bus "1" on a manual clock, served to a peer driver.
type rig struct {
	clk *i2csim.ManualClock
	bus *i2csim.Bus
	srv *Server
}

func newRig(t *testing.T) *rig {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	return &rig{clk, bus, &Server{Buses: map[int]i2c.Bus{1: bus}, Clock: clk}}
}

func (r *rig) attach(t *testing.T, addr uint16, d i2csim.Device) {
	t.Helper()
	if err := r.bus.Attach(addr, d); err != nil {
		t.Fatal(err)
	}
}

// run runs a peer script with its scenario and decodes its JSON result into out.
func (r *rig) run(t *testing.T, script string, scenario, out any) {
	t.Helper()
	b, err := json.Marshal(scenario)
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := Run(r.srv, 60*time.Second, script, string(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(stdout), out); err != nil {
		t.Fatalf("%s printed %q: %v", script, stdout, err)
	}
}

// pcaRegs are a PCA9685's MODE1, MODE2, the LEDn registers and PRE_SCALE.
func pcaRegs(p *i2csim.PCA9685) (mode1, mode2, prescale byte, led [64]byte) {
	for i := range led {
		led[i] = p.Register(byte(0x06 + i))
	}
	return p.Register(0x00), p.Register(0x01), p.Register(0xFE), led
}

// TestPeerPCA9685 runs the npm package pca9685 against the simulated board: the prescale for
// 50 Hz and the servo pulses it sets, as the datasheet's chip would make them; then our driver
// for the same pulses, register by register.
func TestPeerPCA9685(t *testing.T) {
	needPeers(t)
	pulses := [][2]int{{0, 1000}, {1, 1500}, {2, 2000}, {3, 500}, {4, 2500}, {15, 1234}}
	r := newRig(t)
	theirs := i2csim.NewPCA9685(r.clk, 25e6)
	r.attach(t, 0x40, theirs)
	var res struct{ Done bool }
	r.run(t, "pca9685.js", map[string]any{"address": 0x40, "frequency": 50, "pulses": pulses}, &res)
	if !res.Done {
		t.Fatal("pca9685.js did not finish")
	}
	mode1, mode2, pre, led := pcaRegs(theirs)
	// Datasheet 7.3.5, equation 1: prescale = round(osc / (4096 * rate)) - 1 = 121 at 50 Hz.
	if pre != 121 {
		t.Errorf("PRE_SCALE %d, want 121", pre)
	}
	// 7.3.1: SLEEP (bit 4) clear, so the oscillator runs; their MODE1 default 0x01 (ALLCALL).
	if mode1&0x10 != 0 || mode2 != 0x04 {
		t.Errorf("MODE1 %#02x MODE2 %#02x: asleep, or not totem-pole", mode1, mode2)
	}
	period := theirs.Period()
	if want := time.Duration(122 * 4096 * 1e9 / 25e6); period != want {
		t.Errorf("period %v, want %v (122 x 4096 ticks of 25 MHz)", period, want)
	}
	tick := float64(period) / 4096
	for _, p := range pulses {
		ch, us := p[0], p[1]
		on := int(led[4*ch]) | int(led[4*ch+1]&0x0F)<<8
		off := int(led[4*ch+2]) | int(led[4*ch+3]&0x0F)<<8
		// Their setPulseLength: ON 0, OFF round(us / (20 ms / 4096)) - 1.
		wantOff := int(math.Round(float64(us)/(20000.0/4096))) - 1
		if on != 0 || off != wantOff || led[4*ch+1]&0x10 != 0 || led[4*ch+3]&0x10 != 0 {
			t.Errorf("channel %d (%d us): ON %d OFF %d (full bits %#x %#x), want ON 0 OFF %d", ch, us, on, off, led[4*ch+1], led[4*ch+3], wantOff)
			continue
		}
		// 7.3.3: the output is high from count ON to count OFF: OFF - ON ticks.
		want := time.Duration(float64(off-on) * tick)
		if got := theirs.Pulse(ch); got != want {
			t.Errorf("channel %d: the simulated output is high %v, want %v (%d ticks)", ch, got, want, off-on)
		}
		t.Logf("theirs: channel %2d asked %4d us: OFF %4d, pulse %v (%+.1f us)", ch, us, off, theirs.Pulse(ch), float64(theirs.Pulse(ch)-time.Duration(us)*time.Microsecond)/1e3)
	}

	// Our driver, the same pulses, ON at 0 as theirs (no stagger).
	ours := i2csim.NewPCA9685(r.clk, 25e6)
	b2 := i2csim.NewBus("2", r.clk, 2)
	if err := b2.Attach(0x40, ours); err != nil {
		t.Fatal(err)
	}
	var chans []pca9685.Channel
	for _, p := range pulses {
		chans = append(chans, pca9685.Channel{Index: p[0], Calibration: pca9685.Calibration{MinPulse: 500 * time.Microsecond, MaxPulse: 2500 * time.Microsecond}})
	}
	d, err := pca9685.New(b2, &pca9685.Opts{Channels: chans, NoStagger: true, Clock: r.clk})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pulses {
		if err := d.SetPulse(p[0], time.Duration(p[1])*time.Microsecond); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	omode1, omode2, opre, oled := pcaRegs(ours)
	if opre != pre || omode2 != mode2 || omode1&0x10 != 0 {
		t.Errorf("ours: MODE1 %#02x MODE2 %#02x PRE_SCALE %d; theirs %#02x %#02x %d", omode1, omode2, opre, mode1, mode2, pre)
	}
	for _, p := range pulses {
		ch, us := p[0], p[1]
		off := int(led[4*ch+2]) | int(led[4*ch+3]&0x0F)<<8
		ooff := int(oled[4*ch+2]) | int(oled[4*ch+3]&0x0F)<<8
		// Ours rounds the pulse to the nearest tick of the true period; theirs is one tick
		// short of the nearest tick of a nominal 20 ms period (see TestDatasheetPulseExample).
		exact := float64(us) * 1000 / tick
		if math.Abs(float64(ooff)-exact) > 0.5 {
			t.Errorf("ours: channel %d (%d us): OFF %d, want %.2f rounded", ch, us, ooff, exact)
		}
		if d := ooff - off; d < 1 || d > 2 {
			t.Errorf("channel %d (%d us): our OFF %d, theirs %d: want ours 1 or 2 ticks longer", ch, us, ooff, off)
		}
		t.Logf("ours:   channel %2d asked %4d us: OFF %4d, pulse %v (%+.1f us)", ch, us, ooff, ours.Pulse(ch), float64(ours.Pulse(ch)-time.Duration(us)*time.Microsecond)/1e3)
	}
	t.Logf("registers: theirs MODE1 %#02x (AI off, ALLCALL on), ours %#02x (AI on, ALLCALL off); MODE2 %#02x both; PRE_SCALE %d both", mode1, omode1, mode2, pre)
}

// TestDatasheetPulseExample checks the simulated PCA9685 against the datasheet's own worked
// example (section 7.3.3, example 1): LED0_ON = 199h (409), LED0_OFF = 4CCh (1228) is a delay
// of 10% and a high time of 20% (819 counts) of the period. It runs without node.
func TestDatasheetPulseExample(t *testing.T) {
	clk := i2csim.NewManualClock()
	p := i2csim.NewPCA9685(clk, 25e6)
	for _, w := range [][]byte{{0x00, 0x20}, {0x06, 0x99, 0x01, 0xCC, 0x04}} {
		if err := p.Tx(w, nil); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(i2csim.PCAOscillatorStart) // the oscillator starts (7.3.1)
	if got, want := p.Pulse(0), time.Duration(float64(p.Period())*819/4096); got != want {
		t.Errorf("high for %v, want %v (819 of 4096 counts)", got, want)
	}
	// Example 2: LED4_ON = E65h (3685), LED4_OFF = CCBh (3275): 90% high, wrapping.
	if err := p.Tx([]byte{0x16, 0x65, 0x0E, 0xCB, 0x0C}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Pulse(4), time.Duration(float64(p.Period())*3686/4096); got != want {
		t.Errorf("example 2: high for %v, want %v (3686 of 4096 counts)", got, want)
	}
}

// adsCase is one read: channel, PGA full scale in mV, data rate.
type adsCase struct {
	Channel int `json:"channel"`
	PGA     int `json:"pga"`
	SPS     int `json:"sps"`
}

// TestPeerADS1x15 sets the simulated ADC's inputs (a digital pot's wiper among them) and reads
// them with the npm package ads1x15 at every gain and several data rates: each reading must be
// the input within one code (the datasheet's transfer function, section 8.3.3), or full scale
// where the input is beyond it.
func TestPeerADS1x15(t *testing.T) {
	needPeers(t)
	r := newRig(t)
	adc := i2csim.NewADS1115(r.clk, 7)
	adc.OscError, adc.Noise = 0, 0
	pot := i2csim.NewMCP44x1(r.clk, false, 3)
	if err := pot.Tx([]byte{0x00, 200, 0x10, 37}, nil); err != nil { // wiper 0 at 200, wiper 1 at 37
		t.Fatal(err)
	}
	inputs := [4]func() float64{func() float64 { return pot.Voltage(0) }, func() float64 { return pot.Voltage(1) }, func() float64 { return 0.2 }, func() float64 { return 0.0123 }}
	for ch, f := range inputs {
		adc.SetInput(ch, f)
	}
	r.attach(t, 0x48, adc)
	var reads []adsCase
	for _, pga := range []int{6144, 4096, 2048, 1024, 512, 256} {
		for _, sps := range []int{8, 128, 860} {
			for ch := range 4 {
				reads = append(reads, adsCase{ch, pga, sps})
			}
		}
	}
	var res struct{ MV []float64 }
	r.run(t, "ads1x15.js", map[string]any{"address": 0x48, "reads": reads}, &res)
	if len(res.MV) != len(reads) {
		t.Fatalf("%d readings for %d reads", len(res.MV), len(reads))
	}
	for i, c := range reads {
		v := inputs[c.Channel]() * 1000
		lsb := float64(c.PGA) / 32768
		want := math.Min(v, float64(c.PGA)-lsb) // a code saturates at 7FFFh
		if got := res.MV[i]; math.Abs(got-want) > lsb {
			t.Errorf("AIN%d at %.3f mV, +-%d mV, %d SPS: read %.4f mV, want %.4f within one code (%.4f mV)", c.Channel, v, c.PGA, c.SPS, got, want, lsb)
		}
	}
	t.Logf("%d readings of wiper voltages %.4f V and %.4f V and inputs 0.2 V and 12.3 mV at every gain and 8, 128, 860 SPS: each within one code", len(reads), pot.Voltage(0), pot.Voltage(1))

	// Their config word and ours for the same conversion (AIN0, +-4.096 V, 860 SPS).
	theirs := lastConfig(r.srv.Log(), 0x48, 0)
	b2 := i2csim.NewBus("2", r.clk, 2)
	adc2 := i2csim.NewADS1115(r.clk, 7)
	adc2.OscError, adc2.Noise = 0, 0
	adc2.SetInput(0, inputs[0])
	if err := b2.Attach(0x48, adc2); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{Bus: b2}
	d, err := ads1115.New(rec, &ads1115.Opts{MaxVoltage: 4096 * physic.MilliVolt, DataRate: 860 * physic.Hertz, Clock: r.clk})
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	ourCfg := lastConfig(rec.log, 0x48, 0)
	theirCfg := configFor(r.srv.Log(), 0x48, 0x4000|0x0200|0x00E0)
	if theirs == 0 || ourCfg == 0 || theirCfg == 0 {
		t.Fatalf("config writes not found: theirs %#04x, ours %#04x", theirCfg, ourCfg)
	}
	// Fields that decide the conversion: OS, MUX, PGA, MODE, DR (datasheet 8.6.3, table 8).
	const conv = 0xFFE0
	if ourCfg&conv != theirCfg&conv {
		t.Errorf("config for AIN0 +-4.096 V 860 SPS: ours %#04x, theirs %#04x", ourCfg, theirCfg)
	}
	if math.Abs(float64(v)/float64(physic.Volt)-pot.Voltage(0)) > 4.096/32768 {
		t.Errorf("ours read %v, input %.5f V", v, pot.Voltage(0))
	}
	t.Logf("config word for AIN0 +-4.096 V 860 SPS: theirs %#04x, ours %#04x (the comparator bits differ only: %#02x, %#02x)", theirCfg, ourCfg, theirCfg&0x1F, ourCfg&0x1F)
}

// TestPeerADS1x15Stale: the datasheet lets the ADS1115's data rate run 10% off (section 7.5,
// "data rate variation"); ads1x15 waits 1/rate + 1 ms and reads without looking at the OS bit.
// On a chip 5% slow, at 8 and 128 SPS, that wait ends before the conversion: ads1x15 reads the
// previous result (another channel's, or the power-up zero). Our driver, on the same chip,
// reads the new one.
func TestPeerADS1x15Stale(t *testing.T) {
	needPeers(t)
	for _, sps := range []int{8, 128, 860} {
		t.Run(fmt.Sprint(sps), func(t *testing.T) {
			r := newRig(t)
			adc := i2csim.NewADS1115(r.clk, 7)
			adc.OscError, adc.Noise = 0.05, 0
			for ch := range 3 {
				v := float64(ch + 1)
				adc.SetInput(ch, func() float64 { return v })
			}
			r.attach(t, 0x48, adc)
			reads := []adsCase{{0, 4096, sps}, {1, 4096, sps}, {2, 4096, sps}}
			var res struct{ MV []float64 }
			r.run(t, "ads1x15.js", map[string]any{"address": 0x48, "reads": reads}, &res)
			wait := math.Trunc(1000/float64(sps) + 1)
			conv := 1.05 * 1000 / float64(sps)
			fresh := []float64{1000, 2000, 3000}
			stale := wait < conv
			for i := range reads {
				got := res.MV[i]
				isFresh := math.Abs(got-fresh[i]) < 0.2
				if isFresh == stale {
					t.Errorf("read %d (AIN%d): %.3f mV; waits %.0f ms for a %.2f ms conversion: want stale %v", i, reads[i].Channel, got, wait, conv, stale)
				}
			}
			t.Logf("%d SPS, a chip 5%% slow: ads1x15 waits %.0f ms for a %.2f ms conversion and reads %.1f mV for 1000, 2000, 3000 mV", sps, wait, conv, res.MV)

			// Ours on the same chip reads fresh values.
			b2 := i2csim.NewBus("2", r.clk, 2)
			adc2 := i2csim.NewADS1115(r.clk, 7)
			adc2.OscError, adc2.Noise = 0.05, 0
			for ch := range 3 {
				v := float64(ch + 1)
				adc2.SetInput(ch, func() float64 { return v })
			}
			if err := b2.Attach(0x48, adc2); err != nil {
				t.Fatal(err)
			}
			d, err := ads1115.New(b2, &ads1115.Opts{MaxVoltage: 4096 * physic.MilliVolt, DataRate: physic.Frequency(sps) * physic.Hertz, Clock: r.clk})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range reads {
				v, err := d.Read(c.Channel)
				if err != nil {
					t.Fatal(err)
				}
				if mv := float64(v) / float64(physic.MilliVolt); math.Abs(mv-fresh[i]) > 0.2 {
					t.Errorf("ours, read %d: %.3f mV, want %.0f", i, mv, fresh[i])
				}
			}
		})
	}
}

// recorder is a bus that logs every transaction.
type recorder struct {
	i2c.Bus
	log []Tx
}

func (r *recorder) Tx(addr uint16, w, rd []byte) error {
	err := r.Bus.Tx(addr, w, rd)
	r.log = append(r.log, Tx{Addr: addr, W: append([]byte(nil), w...), R: append([]byte(nil), rd...), Err: err})
	return err
}

// lastConfig returns the last config word written to the ADS1115 at addr whose MUX is
// single-ended channel ch (0 if none).
func lastConfig(log []Tx, addr uint16, ch int) uint16 {
	var v uint16
	for _, tx := range log {
		if tx.Addr == addr && len(tx.W) == 3 && tx.W[0] == 1 {
			w := uint16(tx.W[1])<<8 | uint16(tx.W[2])
			if int(w>>12&7) == 4+ch {
				v = w
			}
		}
	}
	return v
}

// configFor returns the first config word written to addr whose MUX, PGA and DR bits are
// fields (0 if none).
func configFor(log []Tx, addr uint16, fields uint16) uint16 {
	for _, tx := range log {
		if tx.Addr == addr && len(tx.W) == 3 && tx.W[0] == 1 {
			w := uint16(tx.W[1])<<8 | uint16(tx.W[2])
			if w&0x7EE0 == fields {
				return w
			}
		}
	}
	return 0
}

// TestPeerMCP23017 sets pins with the npm package node-mcp23017: buttons with pull-ups on
// GPA0-3 (two pressed), lamps on GPB0-3; then our panel on the same pins, register by register.
func TestPeerMCP23017(t *testing.T) {
	needPeers(t)
	r := newRig(t)
	theirs := i2csim.NewMCP23017()
	r.attach(t, 0x20, theirs)
	theirs.Ground(0, 1, true)
	theirs.Ground(0, 3, true)
	sc := map[string]any{
		"address": 0x20,
		"modes":   [][]any{{0, "pullup"}, {1, "pullup"}, {2, "pullup"}, {3, "pullup"}, {8, "out"}, {9, "out"}, {10, "out"}, {11, "out"}},
		"writes":  [][]int{{8, 1}, {9, 0}, {10, 1}, {11, 1}},
		"reads":   []int{0, 1, 2, 3, 8, 9, 10, 11},
	}
	var res struct{ Read []bool }
	r.run(t, "mcp23017.js", sc, &res)
	want := []bool{true, false, true, false, true, false, true, true}
	if fmt.Sprint(res.Read) != fmt.Sprint(want) {
		t.Errorf("node-mcp23017 read %v, want %v (GPA1, GPA3 grounded; GPB0, 2, 3 driven high)", res.Read, want)
	}
	if got := theirs.Outputs(1); got != 0b1101 {
		t.Errorf("port B drives %08b, want 00001101", got)
	}
	regs := func(m *i2csim.MCP23017) [4]byte {
		return [4]byte{m.Register(0x00), m.Register(0x01), m.Register(0x0C), m.Register(0x15)}
	}
	// IODIRA: all inputs; IODIRB: GPB0-3 outputs; GPPUA: GPA0-3; OLATB: 1101.
	if got := regs(theirs); got != [4]byte{0xFF, 0xF0, 0x0F, 0x0D} {
		t.Errorf("theirs: IODIRA IODIRB GPPUA OLATB = % x, want ff f0 0f 0d", got)
	}

	// Our panel on the same pins, the same lamps lit, as the rig opens it (an Expander).
	ours := i2csim.NewMCP23017()
	b2 := i2csim.NewBus("2", r.clk, 2)
	if err := b2.Attach(0x20, ours); err != nil {
		t.Fatal(err)
	}
	e, err := panel.NewExpander(b2, 0x20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Inputs(0, []int{0, 1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	lamps, err := e.Lamps(1, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := lamps.Write(0b1101); err != nil {
		t.Fatal(err)
	}
	if got, want := regs(ours), regs(theirs); got != want {
		t.Errorf("IODIRA IODIRB GPPUA OLATB: ours % x, theirs % x", got, want)
	}
}
