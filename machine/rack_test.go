package machine_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/machine/machinetest"
)

// TestHardwareRack drives an ideal machine whose first R-unit is a fake hardware rack: it
// learns exactly as the simulated one, the machine keeps the first hardware error and goes on,
// and it cannot be saved.
func TestHardwareRack(t *testing.T) {
	set, err := builtin.Load("ef")
	if err != nil {
		t.Fatal(err)
	}
	cfg := machine.Default().Ideal()
	cfg.Order = machine.OrderFile
	sim, err := machine.New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	hw, err := machine.New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	fake := machinetest.New(hw.AUnits() - 1)
	if err := hw.SetRack(0, fake); err == nil {
		t.Fatal("SetRack took a rack of the wrong size")
	}
	fake = machinetest.New(hw.AUnits())
	if err := hw.SetRack(0, fake); err != nil {
		t.Fatal(err)
	}
	ds, err := sim.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	dh, err := hw.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a, b := sim.Epoch(ds, nil), hw.Epoch(dh, nil)
		if a != b {
			t.Fatalf("epochs differ: simulated %+v, hardware %+v", a, b)
		}
	}
	w := sim.Weights(nil, 0)
	for i, v := range fake.W {
		if v != w[i] {
			t.Fatalf("pot %d: hardware %v, simulated %v", i, v, w[i])
		}
	}
	if hw.Err() != nil {
		t.Fatal(hw.Err())
	}
	// A fault: the first error is kept, the machine goes on.
	boom := errors.New("i2c: NACK at 0x2c")
	fake.Fail = boom
	hw.Epoch(dh, nil)
	fake.Fail = errors.New("later")
	hw.Epoch(dh, nil)
	if err := hw.Err(); !errors.Is(err, boom) || !strings.Contains(err.Error(), "rack 0") {
		t.Fatalf("Err() = %v, want the first fault, naming rack 0", err)
	}
	fake.Fail = nil
	if err := hw.Halt(); err != nil || fake.Halted != 1 {
		t.Fatalf("Halt: %v, %d halts", err, fake.Halted)
	}
	var buf bytes.Buffer
	if err := hw.WriteState(&buf); err == nil || !strings.Contains(err.Error(), "not simulated") {
		t.Fatalf("saving a machine with a hardware rack: %v", err)
	}
}
