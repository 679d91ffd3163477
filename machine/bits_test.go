package machine

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/retina"
)

// A deck from PrepareBits trains a machine whose retina is ideal exactly as Prepare's deck
// does: the same answers, corrections and clock, the same snapshot, the same saved state, byte
// for byte, after training, evaluating and idling, whatever the pots.
func TestPrepareBitsIsPrepare(t *testing.T) {
	digits := loadIDX(t, "train")
	for _, tc := range []struct {
		name string
		set  *images.Set
		cfg  func() Config
	}{
		{"letters, ideal, shuffled", loadSet(t, "letters"), func() Config {
			c := Default().Ideal()
			c.RUnits = 26
			return c
		}},
		{"digits, ideal, one-hot", digits, func() Config { return digitsConfig(true) }},
		{"E/F, gamma rule, file order", loadSet(t, "ef"), func() Config {
			c := Default().Ideal()
			c.Rule, c.Order = Gamma, OrderFile
			return c
		}},
		{"digits, ideal retina, analog pots", digits, func() Config {
			c := digitsConfig(false)
			c.Retina = Default().Ideal().Retina
			return c
		}},
		{"shapes, local wiring, interleaved", loadSet(t, "shapes"), func() Config {
			c := Default().Ideal()
			c.Wiring, c.LocalUnits, c.Order = WiringLocal, 300, OrderInterleave
			return c
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := New(tc.cfg(), tc.set.Classes)
			if err != nil {
				t.Fatal(err)
			}
			b, err := New(tc.cfg(), tc.set.Classes)
			if err != nil {
				t.Fatal(err)
			}
			da, err := a.Prepare(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			db, err := b.PrepareBits(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if !db.Compact() || db.Stimuli != nil || db.Len() != da.Len() {
				t.Fatalf("PrepareBits: compact %v, %d stimuli, %d cards of %d", db.Compact(), len(db.Stimuli), db.Len(), da.Len())
			}
			for i := range da.Class {
				if da.Polarity(i) != db.Polarity(i) || da.Class[i] != db.Class[i] {
					t.Fatalf("card %d: polarity %v/%v, class %d/%d", i, da.Polarity(i), db.Polarity(i), da.Class[i], db.Class[i])
				}
			}
			var sa, sb Snapshot
			for e := range 4 {
				ea, eb := a.Epoch(da, nil), b.Epoch(db, nil)
				if ea != eb {
					t.Fatalf("epoch %d: %+v with Prepare, %+v with PrepareBits", e+1, ea, eb)
				}
				a.Snapshot(&sa, true)
				b.Snapshot(&sb, true)
				if !sameSnapshot(&sa, &sb) {
					t.Fatalf("epoch %d: the snapshots differ", e+1)
				}
			}
			if ra, rb := a.Evaluate(da), b.Evaluate(db); ra.Correct != rb.Correct || ra.Accuracy != rb.Accuracy {
				t.Fatalf("evaluation: %+v and %+v", ra, rb)
			}
			for _, m := range []*Machine{a, b} {
				if err := m.Idle(3600); err != nil {
					t.Fatal(err)
				}
			}
			var fa, fb bytes.Buffer
			if err := a.WriteState(&fa); err != nil {
				t.Fatal(err)
			}
			if err := b.WriteState(&fb); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fa.Bytes(), fb.Bytes()) {
				t.Fatal("the saved states differ")
			}
		})
	}
}

func sameSnapshot(a, b *Snapshot) bool {
	if a.Clock != b.Clock || a.Count != b.Count || a.Card != b.Card || a.Predicted != b.Predicted || a.S != b.S ||
		a.Levels != b.Levels || a.Active != b.Active || len(a.A) != len(b.A) || len(a.Pots) != len(b.Pots) {
		return false
	}
	for i := range a.A {
		if a.A[i] != b.A[i] {
			return false
		}
	}
	for r := range a.Pots {
		for i := range a.Pots[r] {
			if a.Pots[r][i] != b.Pots[r][i] {
				return false
			}
		}
	}
	for i := range a.Sums {
		if a.Sums[i] != b.Sums[i] {
			return false
		}
	}
	return true
}

// The analog retina's cards cannot be kept as bits, and PrepareBits says why.
func TestPrepareBitsAnalog(t *testing.T) {
	set := loadSet(t, "ef")
	m, err := New(Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.PrepareBits(set); err == nil || !strings.Contains(err.Error(), "an analog retina sees a card differently at every presentation") {
		t.Fatalf("PrepareBits on an analog machine: %v", err)
	}
}

// A presentation from a compact deck allocates nothing.
func TestPrepareBitsNoAllocation(t *testing.T) {
	set := loadSet(t, "letters")
	cfg := Default().Ideal()
	cfg.RUnits = 26
	m, err := New(cfg, set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	d, err := m.PrepareBits(set)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	if a := testing.AllocsPerRun(2000, func() {
		m.presentCard(d, k%d.Len(), d.Class[k%d.Len()], true)
		k++
	}); a != 0 {
		t.Fatalf("%v allocations per presentation", a)
	}
}

// wholeSet is 60,000 real 28x28 digits: testdata's 600 MNIST training digits, a hundred times.
func wholeSet(b *testing.B) *images.Set {
	small := loadIDX(b, "train")
	set := &images.Set{Name: "mnist x100", Classes: small.Classes}
	for range 100 {
		set.Cards = append(set.Cards, small.Cards...)
	}
	return set
}

// BenchmarkWholeTraining is a whole training as mark1 train runs it on 60,000 28x28 digits:
// the optics, the A-units and 10 epochs (ideal machine, ten R-units one-hot, file order, light
// figures), with Prepare's deck and with PrepareBits' (which keeps each card's A-units after
// the first pass). Side by side in one run; scripts/bench-whole.sh puts scikit-learn's fit of
// the same cards' features beside them.
func BenchmarkWholeTraining(b *testing.B) {
	set := wholeSet(b)
	cfg := digitsConfig(true)
	cfg.Order = OrderFile
	cfg.Retina.Polarity = retina.LightFigure
	for _, mode := range []string{"Prepare", "PrepareBits"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				m, err := New(cfg, set.Classes)
				if err != nil {
					b.Fatal(err)
				}
				prep := m.Prepare
				if mode == "PrepareBits" {
					prep = m.PrepareBits
				}
				d, err := prep(set)
				if err != nil {
					b.Fatal(err)
				}
				for range 10 {
					m.Epoch(d, nil)
				}
			}
		})
	}
}

// Idle refuses to take the clock past MaxClock: the state it would save could not be loaded.
func TestIdleBoundedByMaxClock(t *testing.T) {
	set := loadSet(t, "ef")
	m, err := New(Default().Ideal(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	for m.Clock()+MaxIdle <= MaxClock {
		if err := m.Idle(MaxIdle); err != nil {
			t.Fatal(err)
		}
	}
	before := m.Clock()
	if err := m.Idle(MaxIdle); err == nil || !strings.Contains(err.Error(), "past the most a machine keeps") {
		t.Fatalf("Idle past MaxClock: %v", err)
	}
	if m.Clock() != before {
		t.Fatalf("a refused Idle moved the clock from %v to %v", before, m.Clock())
	}
	var buf bytes.Buffer
	if err := m.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadState(&buf, "m.state"); err != nil {
		t.Fatalf("the state of a machine idled to the limit does not load: %v", err)
	}
}
