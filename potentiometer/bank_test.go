package potentiometer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bankRacks builds k racks of n pots, ideal or (with analog, about one in three) analog with
// every flaw on and warm, with readings whose order of addition matters (fractions of very
// different sizes, both signs).
func bankRacks(t testing.TB, rng *rand.Rand, k, n int, analog bool) []*Rack {
	t.Helper()
	racks := make([]*Rack, k)
	for r := range racks {
		if analog && rng.IntN(3) == 0 {
			x := mustRack(t, n, DefaultParams(), newRNG(rng.Uint64()))
			for i := range n + 1 {
				x.p[i] = float64(x.lim*0.9) * math.Ldexp(rng.Float64()-0.5, -rng.IntN(40))
				x.m[i] = x.p[i]
			}
			x.refresh()
			x.Advance(4000, newRNG(rng.Uint64())) // warm: a rack gain other than 1
			racks[r] = x
			continue
		}
		racks[r] = mustRack(t, n, IdealParams(), nil)
		for i := range n + 1 {
			racks[r].p[i] = math.Ldexp(rng.Float64()-0.5, rng.IntN(60)-30)
		}
	}
	return racks
}

// bankActive returns m distinct indices below n, ascending or shuffled.
func bankActive(rng *rand.Rand, n, m int) []uint16 {
	active := make([]uint16, 0, m)
	for _, i := range rng.Perm(n)[:m] {
		active = append(active, uint16(i))
	}
	if rng.IntN(2) == 0 {
		slices.Sort(active)
	}
	return active
}

// mustBank is NewBank that fails the test on an error.
func mustBank(t testing.TB, racks []*Rack) *Bank {
	t.Helper()
	b, err := NewBank(racks)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A bank sums what SumRacks sums, bit for bit, with either kernel (the AVX2 one where it runs,
// and the Go one everywhere), for 1 to 30 racks (every lane count a register holds, and past
// one pass of twelve), ideal and analog (gain and contact noise drawn in rack order), 0 to 700
// pots, every length of the active list modulo 4, and after drives through the bank, through
// a rack's own Drive (with and without the gamma rule's inactive step), drift batches (through
// the bank's Advance and a rack's own) and SetState. Each trial draws from its own stream: one
// can be rerun alone (-run 'TestBankSumsAsSumRacks/trial=17$').
func TestBankSumsAsSumRacks(t *testing.T) {
	for trial := range 300 {
		t.Run(fmt.Sprintf("trial=%d", trial), func(t *testing.T) { bankTrial(t, trial) })
	}
}

// bankTrial is one trial of TestBankSumsAsSumRacks.
func bankTrial(t *testing.T, trial int) {
	rng := rand.New(rand.NewPCG(21, uint64(trial)))
	k, n := 1+rng.IntN(30), rng.IntN(700)
	if trial < 20 {
		n = trial // the smallest racks, none of them an A-unit pot first
	}
	racks := bankRacks(t, rng, k, n, trial%2 == 1)
	b := mustBank(t, racks)
	noise := newRNG(rng.Uint64())
	want, got, gotGo := make([]float64, k), make([]float64, k), make([]float64, b.stride)
	for step := range 12 {
		active := bankActive(rng, n, rng.IntN(n+1))
		seed := rng.Uint64()
		SumRacks(racks, active, newRNG(seed), want)
		b.Sum(active, newRNG(seed), got)
		if !sumGo(b.rows, b.stride, k, active, n, gotGo) {
			t.Fatal("sumGo refused indices below n")
		}
		for r := range k {
			if math.Float64bits(got[r]) != math.Float64bits(want[r]) {
				t.Fatalf("%d racks of %d pots, %d active, step %d, rack %d: bank %v, SumRacks %v",
					k, n, len(active), step, r, got[r], want[r])
			}
			if racks[r].ideal {
				if g := b.rows[n*b.stride+r] + gotGo[r]; math.Float64bits(g) != math.Float64bits(want[r]) {
					t.Fatalf("step %d, rack %d: Go kernel %v, SumRacks %v", step, r, g, want[r])
				}
			}
		}
		r := rng.IntN(k)
		on := math.Ldexp(rng.Float64()-0.5, rng.IntN(6)-4)
		switch rng.IntN(7) {
		case 0, 1:
			b.Drive(r, active, on, 0, noise)
		case 2:
			b.Drive(r, active, on, -on/3, noise)
		case 3:
			racks[r].Drive(active, on, 0, noise)
		case 4:
			t0 := racks[r].Time()
			b.Advance(700, noise) // past the drift interval: a batch for every analog rack
			if racks[r].Time() != t0+700 {
				t.Fatalf("rack %d's time %v after 700 s from %v", r, racks[r].Time(), t0)
			}
		case 5:
			racks[r].Advance(700, noise)
		case 6:
			x := racks[r]
			st := x.State()
			for i := range st.Wiper {
				st.Wiper[i] = float64(x.lim*0.9) * math.Ldexp(rng.Float64()-0.5, -rng.IntN(20))
			}
			st.Motor = slices.Clone(st.Wiper)
			if err := x.SetState(st); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// NewBank refuses no racks and racks of different sizes (the first rack's size or a later
// one's); the bank keeps its own list, so that the caller may reuse its slice.
func TestNewBank(t *testing.T) {
	eight := mustRack(t, 8, IdealParams(), nil)
	nine := mustRack(t, 9, IdealParams(), nil)
	for _, c := range []struct {
		name  string
		racks []*Rack
		err   string // "" when NewBank must return a bank
	}{
		{"one rack", []*Rack{eight}, ""},
		{"one size", []*Rack{eight, eight, eight}, ""},
		{"no rack", nil, "potentiometer: NewBank: no racks"},
		{"the second rack larger", []*Rack{eight, nine}, "potentiometer: NewBank: rack 1 has 9 A-unit pots, rack 0 has 8"},
		{"the last rack smaller", []*Rack{nine, nine, eight}, "potentiometer: NewBank: rack 2 has 8 A-unit pots, rack 0 has 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := NewBank(c.racks)
			switch {
			case c.err == "" && (err != nil || b == nil):
				t.Fatalf("NewBank: %v, %v; want a bank", b, err)
			case c.err != "" && (err == nil || err.Error() != c.err || b != nil):
				t.Fatalf("NewBank: %v, %v; want the error %q", b, err, c.err)
			}
			if b != nil {
				c.racks[0] = nil // the caller's slice, reused
				b.Sum(nil, nil, make([]float64, len(c.racks)))
			}
		})
	}
}

// An active index past the A-unit pots panics, as SumRacks' does, rather than reading another
// row: at every place in the list (in a group of four or in the tail) and with every kernel
// (4, 8, 12 lanes, and 12 then 8).
func TestBankSumOutOfRange(t *testing.T) {
	for _, k := range []int{1, 5, 9, 17} {
		racks := make([]*Rack, k)
		for r := range racks {
			racks[r] = mustRack(t, 8, IdealParams(), nil)
		}
		b := mustBank(t, racks)
		for _, active := range [][]uint16{{8}, {1, 8}, {8, 1, 2, 3}, {1, 2, 3, 9}, {1, 2, 3, 4, 5, 65535}} {
			t.Run(fmt.Sprintf("racks=%d/active=%v", k, active), func(t *testing.T) {
				defer func() {
					if recover() == nil {
						t.Errorf("%d racks of 8 A-unit pots, active %v: no panic", k, active)
					}
				}()
				b.Sum(active, nil, make([]float64, k))
			})
		}
	}
}

// The bank's Advance refuses what a rack's refuses, for ideal banks (checked once) and others.
func TestBankAdvanceRefuses(t *testing.T) {
	for _, analog := range []bool{false, true} {
		racks := bankRacks(t, rand.New(rand.NewPCG(5, 6)), 3, 4, analog)
		racks[0] = mustRack(t, 4, DefaultParams(), newRNG(9)) // one analog rack at least
		if !analog {
			racks[0] = mustRack(t, 4, IdealParams(), nil)
		}
		b := mustBank(t, racks)
		for _, dt := range []float64{-1, math.NaN(), math.Inf(1)} {
			t.Run(fmt.Sprintf("analog=%v/dt=%v", analog, dt), func(t *testing.T) {
				defer func() {
					if recover() == nil {
						t.Errorf("analog %v: Advance(%v): no panic", analog, dt)
					}
				}()
				b.Advance(dt, newRNG(1))
			})
		}
	}
}
