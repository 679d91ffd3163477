package rigdev

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

var _ machine.Rack = (*LoopRack)(nil)

const time2min = 2 * time.Minute

// In the loop on simulated chips with read-back noise, the machine learns a two-class
// built-in set, and the weights it uses are the ones read back.
func TestLoopLearns(t *testing.T) {
	t.Parallel()
	h, sim, _, lg := open(t, "sim-loop.toml", SimOpts{Seed: 7, Noise: 5e-3})
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := h.Rig().MachineConfig()
	if err != nil {
		t.Fatal(err)
	}
	set, err := builtin.Load(strings.TrimPrefix(h.Rig().Machine.Data, "builtin:"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetRack(0, racks[0]); err != nil {
		t.Fatal(err)
	}
	deck, err := m.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	epochs := 0
	for epochs < h.Rig().Machine.Epochs {
		st := m.Epoch(deck, nil)
		epochs++
		t.Logf("epoch %d: %d mistakes", epochs, st.Mistakes)
		if st.Mistakes == 0 {
			break
		}
	}
	if err := m.Err(); err != nil {
		t.Fatalf("rack error: %v", err)
	}
	res := m.Evaluate(deck)
	if res.Accuracy < 0.95 {
		t.Errorf("accuracy %.3f after %d epochs, want at least 0.95", res.Accuracy, epochs)
	}
	// The machine's weights are the read-back ones: not the integers it drove to, but within
	// the tolerance of them.
	w := m.Weights(nil, 0)
	targets := make([]float64, len(w))
	racks[0].Targets(targets)
	offInteger, far := 0, 0
	for i := range w {
		if w[i] != math.Round(w[i]) {
			offInteger++
		}
		if math.Abs(w[i]-targets[i]) > h.Rig().Tolerance+0.01 {
			far++
			t.Errorf("weight %d: read back %.3f, target %.3f", i, w[i], targets[i])
		}
	}
	if offInteger < len(w)/2 {
		t.Errorf("only %d of %d weights differ from an integer: are they read back?", offInteger, len(w))
	}
	// The sums are the read-back weights of the firing A-units and the bias.
	m.Present(&deck.Stimuli[7])
	sum := w[len(w)-1]
	for a := range len(w) - 1 {
		if m.Last().A[a/64]&(1<<(a%64)) != 0 {
			sum += w[a]
		}
	}
	if got := m.Last().Sums[0]; got != sum {
		t.Errorf("the machine's sum %v, the read-back weights' %v", got, sum)
	}
	// And they are what the ADCs show of the wipers: the chip's wiper, through its
	// nonlinearity, in increments.
	chip := sim.MCP44x1["pots0"]
	wiper := float64(chip.Wiper(0))
	if math.Abs(w[0]-(wiper/256-0.5)*64) > 0.5 {
		t.Errorf("weight 0 reads %.3f, the wiper stands at %v (%.3f)", w[0], wiper, (wiper/256-0.5)*64)
	}
	t.Logf("accuracy %.3f after %d epochs; weights %.2f; %d corrections, %d read-backs; log %q",
		res.Accuracy, epochs, w, h.Status().Stats.Corrections, h.Status().Stats.Reads, lg.lines)
}

// A flaky bus and a chip that loses power while the machine learns: the machine goes on, the
// faults are reported, and in the end every pot stands where the learning put it.
func TestLoopFaults(t *testing.T) {
	t.Parallel()
	h, sim, clk, lg := open(t, "sim-loop.toml", SimOpts{Seed: 8, Noise: 2e-3})
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := h.Rig().MachineConfig()
	if err != nil {
		t.Fatal(err)
	}
	set, err := builtin.Load("leftright")
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetRack(0, racks[0]); err != nil {
		t.Fatal(err)
	}
	deck, err := m.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	bus := sim.Bus("main")
	// The daemon's frame loop runs beside the machine: a frame per card here.
	daemon := func(done int) bool {
		clk.Advance(h.Rig().Period())
		h.Step()
		return true
	}
	bus.Inject(i2csim.Fault{Addr: i2csim.AnyAddr, Kind: i2csim.NACK, Prob: 0.05})
	m.Epoch(deck, func(done int) bool {
		switch done {
		case 10: // pots1's wires come loose for a while
			bus.Inject(i2csim.Fault{Addr: 0x2D, Kind: i2csim.Timeout, Count: 6})
			clk.Advance(h.Rig().Check)
		case 20: // pots2's supply drops
			sim.MCP44x1["pots2"].PowerCycle()
			clk.Advance(h.Rig().Check)
		}
		return daemon(done)
	})
	bus.ClearFaults()
	for range 3 {
		m.Epoch(deck, daemon)
	}
	clk.Advance(time2min)
	h.Step()
	if err := h.Settle(time2min); err != nil {
		t.Fatal(err)
	}
	if res := m.Evaluate(deck); res.Accuracy < 0.95 {
		t.Errorf("accuracy %.3f after a faulty epoch and 3 clean ones", res.Accuracy)
	}
	targets := make([]float64, racks[0].Len())
	racks[0].Targets(targets)
	w := m.Weights(nil, 0)
	for i := range w {
		if math.Abs(w[i]-targets[i]) > h.Rig().Tolerance+0.01 {
			t.Errorf("pot %d reads %.3f, target %.3f: a correction was lost", i, w[i], targets[i])
		}
	}
	for _, want := range []string{"fault: pots1", "recovered: pots1", "power_loss: pots2"} {
		if !lg.has(want) {
			t.Errorf("%q not reported: %q", want, lg.lines)
		}
	}
	t.Logf("machine error kept: %v", m.Err())
	t.Logf("log: %q", lg.lines)
}

// A chip that does not answer when the rig opens: the corrections made meanwhile are owed to
// its pots and land when it answers.
func TestLoopChipMissingAtOpen(t *testing.T) {
	spec := load(t, "sim-loop.toml")
	clk := i2csim.NewManualClock()
	sim, env := Simulate(spec, clk, SimOpts{Seed: 9})
	chip := sim.Bus("main").Detach(0x2C)
	lg := &logger{t: t}
	env.Logger = lg.log()
	h, err := Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	if err := racks[0].Drive([]uint16{1}, 2, 0); err != nil {
		t.Logf("Drive while pots0 is missing: %v", err)
	}
	if _, err := racks[0].Sum([]uint16{1}); err == nil {
		t.Error("a sum over a pot never read back did not fail")
	}
	if err := sim.Bus("main").Attach(0x2C, chip); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	h.Step()
	if err := h.Settle(time.Minute); err != nil {
		t.Fatal(err)
	}
	if w := sim.MCP44x1["pots0"].Wiper(1); w != 128+8 {
		t.Errorf("R0.A1's wiper %d, want 136: the correction made while its chip was missing was lost", w)
	}
	if !lg.has("recovered: pots0") {
		t.Errorf("log %q", lg.lines)
	}
}

// A held rig moves no pot, and says so: a Drive on it is an error, not a silent "done"
// (issue 18). Resume lets the next Drive move the pots.
func TestLoopDriveOnAHeldRig(t *testing.T) {
	t.Parallel()
	h, _, _, _ := open(t, "sim-loop.toml", SimOpts{Seed: 2})
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	rk := racks[0]
	before := make([]float64, rk.Len())
	if err := rk.Readings(before); err != nil {
		t.Fatal(err)
	}
	h.Hold()
	err = rk.Drive([]uint16{0, 4}, 3, 0)
	if err == nil || !strings.Contains(err.Error(), "the rig is held") {
		t.Fatalf("Drive on a held rig: %v", err)
	}
	after := make([]float64, rk.Len())
	if err := rk.Readings(after); err != nil {
		t.Fatal(err)
	}
	for i := range before {
		if after[i] != before[i] {
			t.Errorf("pot %d moved on a held rig: %v to %v", i, before[i], after[i])
		}
	}
	h.Resume()
	if h.Held() {
		t.Fatal("still held after Resume")
	}
	if err := rk.Drive([]uint16{0, 4}, 3, 0); err != nil {
		t.Fatal(err)
	}
	if err := rk.Readings(after); err != nil {
		t.Fatal(err)
	}
	if d := after[0] - before[0]; math.Abs(d-3) > 0.5 {
		t.Errorf("R0.A0 moved %+.2f after Resume, want +3 within the tolerance", d)
	}
}

// OutputStep is the weight of one step of each pot's output: a 257-step wiper of range 32
// moves 0.25 increments a step.
func TestOutputStep(t *testing.T) {
	t.Parallel()
	h, _, _, _ := open(t, "sim-loop.toml", SimOpts{Seed: 2})
	for _, w := range h.Weights() {
		if got := h.OutputStep(w); got != 0.25 {
			t.Errorf("%s: step %v, want 0.25", w, got)
		}
	}
}

// The simulated wipers power up at mid-scale, as the datasheet's chips do (an MCP4451's
// volatile wipers; an MCP4461's EEPROM ships at mid-scale), and read back a little off zero:
// each resistor string's nonlinearity, within one step. Whether those offsets already separate
// left from right is chance: TestLoopPowerUp counts, over the simulated chips' seeds 1..10 at
// hwbridge's default noise, the rigs that need no correction in their first epoch (docs/rig.md
// and the README quote the figure: seed 1 is the one).
func TestLoopPowerUp(t *testing.T) {
	t.Parallel()
	var lucky []uint64
	ran := 0
	for seed := uint64(1); seed <= 10; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			ran++
			h, sim, _, _ := open(t, "sim-loop.toml", SimOpts{Seed: seed})
			for _, chip := range sim.MCP44x1 {
				for w := range 4 {
					if chip.Wiper(w) != 128 {
						t.Fatalf("seed %d: a wiper at %d after power-up and calibration, want 128 (mid-scale)", seed, chip.Wiper(w))
					}
				}
			}
			racks, err := h.LoopRacks()
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := h.Rig().MachineConfig()
			if err != nil {
				t.Fatal(err)
			}
			set, err := builtin.Load("leftright")
			if err != nil {
				t.Fatal(err)
			}
			m, err := machine.New(cfg, set.Classes)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.SetRack(0, racks[0]); err != nil {
				t.Fatal(err)
			}
			deck, err := m.Prepare(set)
			if err != nil {
				t.Fatal(err)
			}
			if st := m.Epoch(deck, nil); st.Corrections == 0 {
				lucky = append(lucky, seed)
			}
		})
	}
	// The count is over the ten seeds: not checked when -run picks some of them, or when one
	// failed (as a loop stopped by its t.Fatal did not check it).
	if ran < 10 {
		t.Logf("%d of the 10 seeds ran: the seeds needing no correction are not counted", ran)
		return
	}
	if t.Failed() {
		return
	}
	if len(lucky) != 1 || lucky[0] != 1 {
		t.Errorf("seeds needing no correction in the first epoch: %v; docs/rig.md says seed 1 only", lucky)
	}
}
