package rigdev

import (
	"context"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/rig"
)

func load(t *testing.T, name string) *rig.Rig {
	t.Helper()
	spec, err := rig.ReadFile("../../testdata/rig/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// logger is a slog.Handler that keeps each record as a line: its level, the component and
// the message ("WARN rig: fault: knobs2: ...").
type logger struct {
	t     *testing.T
	lines []string
	attrs string // the component's "NAME: "
}

// log returns a logger of every level into l.
func (l *logger) log() *slog.Logger { return slog.New(l) }

func (l *logger) Enabled(context.Context, slog.Level) bool { return true }

func (l *logger) Handle(_ context.Context, r slog.Record) error {
	l.lines = append(l.lines, r.Level.String()+" "+l.attrs+r.Message)
	return nil
}

func (l *logger) WithAttrs(as []slog.Attr) slog.Handler {
	for _, a := range as {
		if a.Key == "component" {
			l.attrs += a.Value.String() + ": "
		}
	}
	return l
}

func (l *logger) WithGroup(string) slog.Handler { return l }

func (l *logger) has(s string) bool {
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// open builds a simulated rig on a manual clock.
func open(t *testing.T, name string, opts SimOpts) (*Hardware, *Sim, *i2csim.ManualClock, *logger) {
	t.Helper()
	spec := load(t, name)
	clk := i2csim.NewManualClock()
	sim, env := Simulate(spec, clk, opts)
	lg := &logger{t: t}
	env.Logger = lg.log()
	h, err := Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	return h, sim, clk, lg
}

// settle steps the rig on its period until nothing moves.
func settle(t *testing.T, h *Hardware, sim *Sim, clk *i2csim.ManualClock) {
	t.Helper()
	for i := 0; ; i++ {
		h.Step()
		st := h.Status()
		moving := false
		for _, p := range st.Pots {
			moving = moving || p.Moving
		}
		for _, sv := range sim.Servos {
			moving = moving || sv.Moving()
		}
		if !moving {
			return
		}
		if i > 2000 {
			t.Fatal("the rig never settled")
		}
		clk.Advance(h.spec.Period())
	}
}

func TestMirror(t *testing.T) {
	h, sim, clk, lg := open(t, "sim-mirror.toml", SimOpts{Seed: 1, OscillatorError: 0.03})
	st := h.Status()
	for _, c := range st.Chips {
		if !c.OK {
			t.Fatalf("chip %s not OK: %s", c.Name, c.Error)
		}
	}
	for _, p := range st.Pots {
		if !p.OK {
			t.Errorf("pot %s: %s", p.Weight, p.Problem)
		}
	}
	// Every pot to a weight; the ones read back close their loop.
	var ws []WeightValue
	for i, w := range h.Weights() {
		ws = append(ws, WeightValue{w, float64(i%9-4) * 6})
	}
	if n := h.SetWeights(ws); n != 24 {
		t.Fatalf("SetWeights applied %d, want 24", n)
	}
	settle(t, h, sim, clk)
	st = h.Status()
	for _, p := range st.Pots {
		want := math.Max(-32, math.Min(32, p.Target))
		if p.Readback != "" {
			// Calibrated at its ends and read back: it shows its target.
			if math.Abs(p.Reading-want) > h.spec.Tolerance {
				t.Errorf("%s: read back %.3f, want %.3f within %g", p.Weight, p.Reading, want, h.spec.Tolerance)
			}
			continue
		}
		// Open loop: board i's oscillator runs 3%(i+1) fast on the nominal prescale, so its
		// pulses come out short by that much; the knob shows it.
		e := 0.03
		if strings.HasPrefix(p.Out, "knobs2") {
			e = 0.06
		}
		pulse := (1000 + 1000*(0.5+want/64)) / (1 + e)
		expect := ((pulse-1000)/1000 - 0.5) * 64
		got := (sim.Servos[p.Weight].Fraction()*2000 + 500 - 1000) / 1000
		if got := (got - 0.5) * 64; math.Abs(got-expect) > 0.4 {
			t.Errorf("%s: knob shows %.2f, want %.2f (target %.2f)", p.Weight, got, expect, want)
		}
	}
	if sim.Supplies["knobs1"].Brownouts() != 0 {
		t.Errorf("%d brown-outs with max_slewing 4", sim.Supplies["knobs1"].Brownouts())
	}
	// A weight change goes out within the SetWeights call: no waiting for the next frame.
	before := h.BusStats()["main"].Bytes
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 3}, 7}})
	if h.BusStats()["main"].Bytes == before {
		t.Error("SetWeights did not write at once")
	}
	// Weights the rig does not show are ignored.
	if n := h.SetWeights([]WeightValue{{rig.Weight{R: 5, A: 3}, 7}}); n != 0 {
		t.Errorf("SetWeights of a weight not shown applied %d", n)
	}
	if len(lg.lines) != 0 {
		t.Errorf("log: %q", lg.lines)
	}
}

func TestFaultsLoseNothing(t *testing.T) {
	h, sim, clk, lg := open(t, "sim-mirror.toml", SimOpts{Seed: 2})
	settle(t, h, sim, clk)
	bus := sim.Bus("main")
	set := func(v float64) {
		var ws []WeightValue
		for _, w := range h.Weights() {
			ws = append(ws, WeightValue{w, v})
		}
		h.SetWeights(ws)
	}
	check := func(v float64) {
		t.Helper()
		for _, p := range h.Status().Pots {
			sv := sim.Servos[p.Weight]
			got := ((sv.Fraction()*180-45)/90 - 0.5) * 64
			if math.Abs(got-v) > 0.6 {
				t.Errorf("%s shows %.2f, want %.2f", p.Weight, got, v)
			}
		}
	}
	// knobs2 stops answering: reported, knobs1 goes on.
	bus.Inject(i2csim.Fault{Addr: 0x41, Kind: i2csim.NACK})
	set(10)
	for range 40 {
		h.Step()
		clk.Advance(h.spec.Period())
	}
	st := h.Status()
	var bad []string
	for _, c := range st.Chips {
		if !c.OK {
			bad = append(bad, c.Name)
		}
	}
	if len(bad) != 1 || bad[0] != "knobs2" || !lg.has("WARN rig: fault: knobs2: knobs2 (PCA9685 0x41 on bus main): writing failed after 3 tries") {
		t.Fatalf("faulty chips %v; log %q", bad, lg.lines)
	}
	for _, p := range st.Pots {
		if p.Out[:6] == "knobs2" && (p.OK || !strings.Contains(p.Problem, "knobs2 is faulty")) {
			t.Errorf("pot %s on the faulty board: ok %v, %q", p.Weight, p.OK, p.Problem)
		}
	}
	if got := sim.Servos["R0.A0"].Fraction(); math.Abs(got-(0.25+0.5*(0.5+10.0/64))) > 0.01 {
		t.Errorf("knobs1 did not go on: R0.A0 at %.3f", got)
	}
	// The wire is fixed; meanwhile the targets moved on. The latest ones are written.
	set(-12)
	bus.ClearFaults()
	for range 3000 {
		h.Step()
		clk.Advance(h.spec.Period())
		if h.Status().Chips[1].OK && !moving(h) {
			break
		}
	}
	if !lg.has("INFO rig: recovered: knobs2") {
		t.Errorf("no recovery logged: %q", lg.lines)
	}
	settle(t, h, sim, clk)
	check(-12)

	// A stuck bus: every chip faulty; freed, every chip back and every target restored.
	bus.SetStuck(true)
	set(5)
	for range 20 {
		h.Step()
		clk.Advance(h.spec.Period())
	}
	for _, c := range h.Status().Chips {
		if c.OK && c.Kind == "PCA9685" {
			t.Errorf("chip %s OK on a stuck bus", c.Name)
		}
	}
	bus.SetStuck(false)
	for range 3000 {
		h.Step()
		clk.Advance(h.spec.Period())
		if allOK(h) && !moving(h) {
			break
		}
	}
	settle(t, h, sim, clk)
	check(5)

	// A flaky bus: one transaction in five fails; the retries hide it.
	bus.Inject(i2csim.Fault{Addr: i2csim.AnyAddr, Kind: i2csim.NACK, Prob: 0.2})
	for i := range 20 {
		set(float64(i%5) * 3)
		h.Step()
		clk.Advance(h.spec.Period())
	}
	set(9)
	bus.ClearFaults()
	for range 3000 {
		h.Step()
		clk.Advance(h.spec.Period())
		if allOK(h) && !moving(h) {
			break
		}
	}
	settle(t, h, sim, clk)
	check(9)
	t.Logf("bus: %+v", h.BusStats()["main"])
}

func moving(h *Hardware) bool {
	for _, p := range h.Status().Pots {
		if p.Moving {
			return true
		}
	}
	return false
}

func allOK(h *Hardware) bool {
	for _, c := range h.Status().Chips {
		if !c.OK {
			return false
		}
	}
	return true
}

func TestPowerLossRestored(t *testing.T) {
	h, sim, clk, lg := open(t, "sim-mirror.toml", SimOpts{Seed: 3})
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 2}, 16}})
	settle(t, h, sim, clk)
	before := sim.PCA9685["knobs1"].Pulse(2)
	sim.PCA9685["knobs1"].PowerCycle()
	if sim.PCA9685["knobs1"].Pulse(2) != 0 {
		t.Fatal("the simulated board kept its output")
	}
	clk.Advance(h.spec.Check)
	h.Step()
	if got := sim.PCA9685["knobs1"].Pulse(2); got != before || !lg.has("power_loss: knobs1") {
		t.Errorf("after the check: pulse %v, want %v; log %q", got, before, lg.lines)
	}
}

func TestNotFollowing(t *testing.T) {
	h, sim, clk, lg := open(t, "sim-mirror.toml", SimOpts{Seed: 4})
	settle(t, h, sim, clk)
	// R0.A17's knob slips on its shaft: it reads 0.1 of the travel low. The loop learns it.
	sv := sim.Servos["R0.A17"]
	sim.ADS1115["readback"].SetInput(1, func() float64 { return 3.3 * (sv.Fraction() - 0.05) })
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 17}, 8}})
	settle(t, h, sim, clk)
	p := h.Status().Pots[17]
	if p.Weight != "R0.A17" || !p.OK || math.Abs(p.Reading-8) > h.spec.Tolerance {
		t.Fatalf("a slipped knob: %+v", p)
	}
	// R0.A18's knob jams: its pot reads the same wherever the servo goes.
	sim.ADS1115["readback"].SetInput(2, func() float64 { return 1.2 })
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 18}, 20}})
	settle(t, h, sim, clk)
	p = h.Status().Pots[18]
	if p.OK || !strings.Contains(p.Problem, "does not follow") || !lg.has("not_following: pot R0.A18") {
		t.Errorf("a jammed knob: %+v; log %q", p, lg.lines)
	}
}

func TestWatchdogActions(t *testing.T) {
	h, sim, clk, _ := open(t, "sim-mirror.toml", SimOpts{Seed: 5})
	h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: 0}, 30}, {rig.Weight{R: 0, A: 1}, -30}})
	settle(t, h, sim, clk)
	// Hold: a target sent after holding is not written until the client speaks again.
	h.Hold()
	p0 := sim.PCA9685["knobs1"].Pulse(0)
	h.mu.Lock()
	h.setTarget(h.byWeight[rig.Weight{R: 0, A: 0}], -10)
	h.mu.Unlock()
	for range 10 {
		h.Step()
		clk.Advance(h.spec.Period())
	}
	if sim.PCA9685["knobs1"].Pulse(0) != p0 || !h.Status().Held {
		t.Error("a held rig moved")
	}
	// Park: every servo to its park position (weight 0).
	h.Park()
	settle(t, h, sim, clk)
	for _, w := range []string{"R0.A0", "R0.A1", "R0.bias"} {
		if f := sim.Servos[w].Fraction(); math.Abs(f-0.5) > 0.01 {
			t.Errorf("%s parked at %.3f of its travel, want the middle", w, f)
		}
	}
}

// The daemon's frame loop, HTTP handlers and a status page use the rig at once (run under the
// race detector by make race).
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	h, _, clk, _ := open(t, "sim-mirror.toml", SimOpts{Seed: 6})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			clk.Advance(h.spec.Period())
			h.Step()
		}
	}()
	for i := range 100 {
		h.SetWeights([]WeightValue{{rig.Weight{R: 0, A: i % 24}, float64(i%7 - 3)}})
		_ = h.Status()
		if i%50 == 0 {
			h.Hold()
		}
	}
	<-done
	if err := h.Settle(time.Minute); err != nil {
		t.Fatal(err)
	}
}
