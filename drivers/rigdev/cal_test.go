package rigdev

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/rig"
)

// calOpen opens a fresh simulation of the rig file (as after a restart that power-cycled the
// chips) keeping its calibration in calFile; change, when not nil, alters the simulation before
// Open.
func calOpen(t *testing.T, spec *rig.Rig, calFile string, recal bool, change func(*Sim)) (*Hardware, *Sim, *i2csim.ManualClock, *logger) {
	t.Helper()
	clk := i2csim.NewManualClock()
	sim, env := Simulate(spec, clk, SimOpts{Seed: 11})
	if change != nil {
		change(sim)
	}
	lg := &logger{t: t}
	env.Log, env.CalFile, env.Recalibrate = lg.log, calFile, recal
	h, err := Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	return h, sim, clk, lg
}

// travels returns how far each read-back pot's servo moved, in whole travels of its pot's
// range (1000-2000 us: 90 of the simulated servo's 180 degrees).
func travels(sim *Sim) map[string]float64 {
	m := map[string]float64{}
	for _, w := range []string{"R0.A16", "R0.A17", "R0.A18", "R0.A19"} {
		m[w] = sim.Servos[w].Travelled() / 90
	}
	return m
}

func readCalFile(t *testing.T, path string) calFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cf calFile
	if err := json.Unmarshal(b, &cf); err != nil {
		t.Fatal(err)
	}
	return cf
}

// The first start sweeps the read-back servos to both ends and keeps their ends in the file;
// the next starts read them, check them and do not sweep; a pot whose read-back changed (its
// knob slipped on the shaft) fails the check and is swept alone; Recalibrate sweeps them all.
func TestCalibrationKept(t *testing.T) {
	spec := load(t, "sim-mirror.toml")
	file := filepath.Join(t.TempDir(), "rig.toml.cal")

	h, sim, _, lg := calOpen(t, spec, file, false, nil)
	first, firstConv := h.BusStats()["main"].Bytes, sim.ADS1115["readback"].Conversions()
	for w, n := range travels(sim) {
		if n < 1.9 {
			t.Errorf("first start: %s's servo moved %.2f travels, want a sweep (2: to one end, the other, back)", w, n)
		}
	}
	cf := readCalFile(t, file)
	if len(cf.Pots) != 4 || cf.Version != calVersion || cf.Rig != spec.File {
		t.Fatalf("calibration file: %+v", cf)
	}
	ends := h.Ends()
	if !lg.has("rig: calibration: 4 read-back pots, 0 from " + file + ", 4 swept; saved to " + file) {
		t.Errorf("log %q", lg.lines)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}

	// A restart: no sweep, the stored ends, nothing written.
	h, sim, clk, lg := calOpen(t, spec, file, false, nil)
	for w, n := range travels(sim) {
		if n > 0.05 {
			t.Errorf("second start: %s's servo moved %.2f travels: it was swept again", w, n)
		}
	}
	// Each pot is read once, by the check (the first start: at both ends, and by the loop).
	second, conv := h.BusStats()["main"].Bytes, sim.ADS1115["readback"].Conversions()
	if firstConv != 3*4 || conv != 4 || second >= first {
		t.Errorf("second start: %d conversions and %d bytes on the bus, the first %d and %d", conv, second, firstConv, first)
	}
	t.Logf("starts: the first %d conversions, %d bytes; the second %d, %d", firstConv, first, conv, second)
	for w, e := range h.Ends() {
		if e != ends[w] {
			t.Errorf("%s: ends %v, stored %v", w, e, ends[w])
		}
	}
	if !lg.has("4 from "+file+", 0 swept") || lg.has("saved") {
		t.Errorf("log %q", lg.lines)
	}
	if info2, err := os.Stat(file); err != nil || !info2.ModTime().Equal(info.ModTime()) {
		t.Errorf("the file was rewritten with nothing new")
	}
	// The stored ends are right: the knobs read back their targets.
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 16}, 20}, {rig.Weight{R: 0, A: 19}, -25}})
	settle(t, h, sim, clk)
	for _, p := range h.Status().Pots {
		if p.Readback != "" && (!p.OK || math.Abs(p.Reading-p.Target) > spec.Tolerance) {
			t.Errorf("%s: reads %.3f, target %.3f (%s)", p.Weight, p.Reading, p.Target, p.Problem)
		}
	}

	// R0.A17's knob slipped on its shaft: it reads 0.1 of the travel low. Found, swept alone.
	slip := func(s *Sim) {
		sv := s.Servos["R0.A17"]
		s.ADS1115["readback"].SetInput(1, func() float64 { return 3.3 * (sv.Fraction() - 0.1) })
	}
	h, sim, _, lg = calOpen(t, spec, file, false, slip)
	for w, n := range travels(sim) {
		if swept := n > 1.9; swept != (w == "R0.A17") {
			t.Errorf("after the slip: %s's servo moved %.2f travels", w, n)
		}
	}
	if !lg.has("calibration_check: pot R0.A17: at position 0.500 it reads") || !lg.has("3 from "+file+", 1 swept (R0.A17 read back off their stored ends: swept again); saved to "+file) {
		t.Errorf("log %q", lg.lines)
	}
	got, was := h.Ends()["R0.A17"], ends["R0.A17"]
	if math.Abs(got[0]-(was[0]-0.33)) > 0.01 || math.Abs(got[1]-(was[1]-0.33)) > 0.01 {
		t.Errorf("R0.A17's new ends %v, want the old %v less 0.33 V", got, was)
	}
	for _, e := range readCalFile(t, file).Pots {
		if e.Weight == "R0.A17" && (e.V0 != got[0] || e.V1 != got[1]) {
			t.Errorf("the file keeps R0.A17 at %v %v, want %v", e.V0, e.V1, got)
		}
	}

	// Asked to: every pot swept.
	_, sim, _, _ = calOpen(t, spec, file, true, slip)
	for w, n := range travels(sim) {
		if n < 1.9 {
			t.Errorf("recalibrating: %s's servo moved %.2f travels", w, n)
		}
	}
}

// A pot whose rig file entry changed (its pulses at the ends) is swept; so are pots whose stored
// ends cannot be right (the same at both ends, beyond any ADC); a calibration file that
// is not one is reported and every pot swept, and it is replaced by a good one; without a file
// every start sweeps.
func TestCalibrationFileProblems(t *testing.T) {
	spec := load(t, "sim-mirror.toml")
	file := filepath.Join(t.TempDir(), "rig.toml.cal")
	calOpen(t, spec, file, false, nil)
	good := readCalFile(t, file)

	changed := load(t, "sim-mirror.toml")
	for i := range changed.Pots {
		if changed.Pots[i].Weight == (rig.Weight{R: 0, A: 18}) {
			// Wider both ways: the middle, where the check reads it, stays at 1500 us, so only
			// the entry's key can tell its ends moved.
			changed.Pots[i].MinPulse -= 100e3
			changed.Pots[i].MaxPulse += 100e3
		}
	}
	_, sim, _, _ := calOpen(t, changed, file, false, nil)
	for w, n := range travels(sim) {
		if swept := n > 1.7; swept != (w == "R0.A18") {
			t.Errorf("R0.A18's max_us changed: %s's servo moved %.2f travels", w, n)
		}
	}

	with := func(f func(*calPot)) string {
		cf := good
		cf.Pots = append([]calPot{}, good.Pots...)
		for i := range cf.Pots {
			f(&cf.Pots[i])
		}
		b, err := json.Marshal(cf)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct{ name, bad string }{
		{"not json", "not json"},
		{"version 9", `{"version": 9, "pots": []}`},
		{"ends that read the same", with(func(e *calPot) { e.V1 = e.V0 })}, // no read-back
		{"ends no ADC reads", with(func(e *calPot) { e.V0 = 1e300 })},
		{"another channel", with(func(e *calPot) { e.Out += "0" })},
		{"the same", with(func(e *calPot) { e.Drive += "" })}, // kept (the control)
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := c.bad
			if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			_, sim, _, lg := calOpen(t, spec, file, false, nil)
			control := bad == with(func(e *calPot) {})
			for w, n := range travels(sim) {
				if swept := n > 1.9; swept == control {
					t.Errorf("file %.60q: %s's servo moved %.2f travels", bad, w, n)
				}
			}
			if bad[0] != '{' || bad[1] == '"' && strings.Contains(bad, `"version": 9`) {
				if !lg.has("rig: calibration: " + file + ": ") {
					t.Errorf("file %q: log %q", bad, lg.lines)
				}
			}
			if cf := readCalFile(t, file); len(cf.Pots) != 4 {
				t.Errorf("file %q: replaced by %+v", bad, cf)
			}
		})
	}

	// A folder where the file should be: reported, kept in memory.
	dir := filepath.Join(t.TempDir(), "rig.toml.cal")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	h, _, _, lg := calOpen(t, spec, dir, false, nil)
	if len(h.Ends()) != 4 || !lg.has("not saved") {
		t.Errorf("a folder for a file: %d pots calibrated; log %q", len(h.Ends()), lg.lines)
	}

	// In memory only: every start sweeps, nothing is written or logged.
	_, sim, _, lg = calOpen(t, spec, "", false, nil)
	for w, n := range travels(sim) {
		if n < 1.9 {
			t.Errorf("no file: %s's servo moved %.2f travels", w, n)
		}
	}
	if len(lg.lines) != 0 {
		t.Errorf("no file: log %q", lg.lines)
	}
}

// In the loop the digital pots are not swept at a restart either: their wipers stay where
// they were (the machine's weights), and the bus carries a small part of the first start's
// bytes.
func TestCalibrationKeptLoop(t *testing.T) {
	spec := load(t, "sim-loop.toml")
	file := filepath.Join(t.TempDir(), "loop.toml.cal")
	// The ADCs' inputs, watched: the lowest and highest wiper voltage each pot was read at.
	var lo, hi map[string]float64
	watch := func(s *Sim) {
		lo, hi = map[string]float64{}, map[string]float64{}
		for _, p := range spec.Pots {
			chip, w, name := s.MCP44x1[p.Out.Chip], p.Out.Channel, p.Weight.String()
			lo[name], hi[name] = math.Inf(1), math.Inf(-1)
			s.ADS1115[p.Readback.Chip].SetInput(p.Readback.Channel, func() float64 {
				v := chip.Voltage(w)
				lo[name], hi[name] = math.Min(lo[name], v), math.Max(hi[name], v)
				return v
			})
		}
	}
	h, _, _, _ := calOpen(t, spec, file, false, watch)
	first := h.BusStats()["main"].Bytes
	for name := range lo {
		if lo[name] > 0.05 || hi[name] < 3.25 {
			t.Errorf("first start: %s read at %.3f-%.3f V: not swept", name, lo[name], hi[name])
		}
	}
	h, sim, _, lg := calOpen(t, spec, file, false, watch)
	second := h.BusStats()["main"].Bytes
	for name := range lo {
		if lo[name] < 1.5 || hi[name] > 1.8 {
			t.Errorf("second start: %s read at %.3f-%.3f V: swept again", name, lo[name], hi[name])
		}
	}
	if second >= first || !lg.has("16 from "+file+", 0 swept") {
		t.Errorf("second start: %d bytes (the first %d); log %q", second, first, lg.lines)
	}
	for name, chip := range sim.MCP44x1 {
		for w := range 4 {
			if chip.Wiper(w) != 128 {
				t.Errorf("%s wiper %d at %d after the second start, want 128 (not swept)", name, w, chip.Wiper(w))
			}
		}
	}
	if strings.Contains(strings.Join(lg.lines, "\n"), "calibration_check") {
		t.Errorf("a check failed: %q", lg.lines)
	}
}

// readCal keeps only entries whose ends can calibrate a pot, and of two for the same pot the
// newer.
func TestReadCal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.cal")
	const text = `{"version": 1, "pots": [
		{"weight": "R0.A1", "out": "k:1", "readback": "a:1", "drive": "d", "v0": 0.5, "v1": 0.5},
		{"weight": "R0.A2", "out": "k:2", "readback": "a:2", "drive": "d", "v0": 0.5, "v1": 25},
		{"weight": "R0.A3", "out": "k:3", "readback": "a:3", "drive": "d", "v0": 0.5, "v1": 2.5, "time": "2020-01-01T00:00:00Z"},
		{"weight": "R0.A3", "out": "k:3", "readback": "a:3", "drive": "d", "v0": 0.4, "v1": 2.4, "time": "2021-01-01T00:00:00Z"},
		{"weight": "R0.A3", "out": "k:3", "readback": "a:3", "drive": "d", "v0": 0.3, "v1": 2.3, "time": "2019-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := readCal(file)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := m["R0.A3|k:3|a:3|d"]; len(m) != 1 || !ok || e.V0 != 0.4 {
		t.Errorf("readCal = %+v", m)
	}
	if m, err := readCal(filepath.Join(t.TempDir(), "none")); m != nil || err != nil {
		t.Errorf("a missing file: %v, %v", m, err)
	}
	if _, err := readCal(t.TempDir()); err == nil {
		t.Error("a folder read as a calibration file")
	}
}
