package patchboard

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/retina"
)

// sameWiring reports whether two boards have the same units and fan-out limit (nil and empty
// plug lists count as equal).
func sameWiring(a, b *Board) bool {
	if a.FanOut != b.FanOut || len(a.Units) != len(b.Units) {
		return false
	}
	for i := range a.Units {
		u, v := a.Units[i], b.Units[i]
		if u.Theta != v.Theta || !slices.Equal(u.Exc, v.Exc) || !slices.Equal(u.Inh, v.Inh) {
			return false
		}
	}
	return true
}

// fanOuts returns the number of A-units each S-unit feeds.
func fanOuts(b *Board) [retina.N]int {
	var fan [retina.N]int
	for _, u := range b.Units {
		for _, s := range u.Exc {
			fan[s]++
		}
		for _, s := range u.Inh {
			fan[s]++
		}
	}
	return fan
}

// paramsName names a case of MarkI's parameters.
func paramsName(p MarkIParams) string {
	return fmt.Sprintf("a=%d,exc=%d,inh=%d,theta=%d,fanout=%d", p.AUnits, p.Exc, p.Inh, p.Theta, p.FanOut)
}

func TestMarkIDeterministic(t *testing.T) {
	p := DefaultMarkI()
	a, err := MarkI(p, rand.New(rand.NewPCG(42, 1)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := MarkI(p, rand.New(rand.NewPCG(42, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !sameWiring(a, b) {
		t.Error("MarkI with the same seed gave different boards")
	}
	for seed := uint64(43); seed < 48; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			c, err := MarkI(p, rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if sameWiring(a, c) {
				t.Errorf("MarkI with seeds 42 and %d gave the same board", seed)
			}
		})
	}
}

func TestMarkIHonoursFanOut(t *testing.T) {
	for _, p := range []MarkIParams{
		DefaultMarkI(),
		{AUnits: 400, Exc: 30, Inh: 10, Theta: 1, FanOut: 40},   // exactly 400*40 plugs
		{AUnits: 1000, Exc: 10, Inh: 6, Theta: 3, FanOut: 40},   // exactly 400*40 plugs
		{AUnits: 512, Exc: 20, Inh: 11, Theta: 5, FanOut: 40},   // 15872 of 16000 plugs
		{AUnits: 64, Exc: 50, Inh: 50, Theta: 10, FanOut: 16},   // exactly 400*16 plugs
		{AUnits: 3, Exc: 200, Inh: 200, Theta: 1, FanOut: 3},    // every S-unit in every unit
		{AUnits: 9, Exc: 150, Inh: 50, Theta: 1, FanOut: 5},     // fan-out below the unit count
		{AUnits: 2000, Exc: 3, Inh: 2, Theta: 2, FanOut: 25},    // exactly 400*25 plugs
		{AUnits: 100, Exc: 200, Inh: 100, Theta: 50, FanOut: 0}, // no limit
	} {
		t.Run(paramsName(p), func(t *testing.T) {
			limit := p.FanOut
			if limit == 0 {
				limit = p.AUnits
			}
			worst := 0
			for seed := uint64(1); seed <= 20; seed++ {
				b, err := MarkI(p, rand.New(rand.NewPCG(seed, 3)))
				if err != nil {
					t.Fatalf("%+v seed %d: %v", p, seed, err)
				}
				if err := b.Validate(); err != nil {
					t.Fatalf("%+v seed %d: %v", p, seed, err)
				}
				if b.Len() != p.AUnits || b.FanOut != p.FanOut {
					t.Fatalf("%+v: %d A-units, fan-out %d", p, b.Len(), b.FanOut)
				}
				for a, u := range b.Units {
					if len(u.Exc) != p.Exc || len(u.Inh) != p.Inh || u.Theta != p.Theta {
						t.Fatalf("%+v: a%d has (%d, %d, %d)", p, a, len(u.Exc), len(u.Inh), u.Theta)
					}
					if !slices.IsSorted(u.Exc) || !slices.IsSorted(u.Inh) {
						t.Fatalf("%+v: plugs of a%d not in ascending order", p, a)
					}
				}
				fan := fanOuts(b)
				worst = max(worst, slices.Max(fan[:]))
			}
			if worst > limit {
				t.Errorf("%+v: largest fan-out %d, over the limit %d", p, worst, limit)
			}
			t.Logf("%+v: largest fan-out over 20 seeds %d", p, worst)
		})
	}
}

func TestMarkIErrors(t *testing.T) {
	for _, tt := range []struct {
		p    MarkIParams
		want string
	}{
		{MarkIParams{0, 6, 4, 2, 40}, "patchboard: a_units: 0, want 1..65536"},
		{MarkIParams{65537, 1, 0, 1, 0}, "patchboard: a_units: 65537, want 1..65536"},
		{MarkIParams{512, 0, 4, 1, 40}, "patchboard: exc: 0, want 1..400"},
		{MarkIParams{512, 6, -1, 2, 40}, "patchboard: inh: -1, want 0..399"},
		{MarkIParams{10, 300, 101, 2, 0}, "patchboard: exc, inh: 300+101 plugs per A-unit, but there are only 400 S-units"},
		{MarkIParams{512, 6, 4, 2, -1}, "patchboard: fanout: -1, want 0..65536"},
		{MarkIParams{65536, 100, 0, 1, 0}, "patchboard: a_units: 65536 A-units of 100 plugs need 6553600 plugs, over the limit 4194304"},
		{MarkIParams{512, 20, 12, 2, 40}, "patchboard: fanout: 512 A-units of 32 plugs need 16384 plugs, over the 16000 that 400 S-units with fan-out 40 allow (raise fanout to at least 41)"},
		{MarkIParams{401, 30, 10, 2, 40}, "patchboard: fanout: 401 A-units of 40 plugs need 16040 plugs, over the 16000 that 400 S-units with fan-out 40 allow (raise fanout to at least 41)"},
		{MarkIParams{512, 6, 4, 0, 40}, "patchboard: theta: 0, want 1..6 (the excitatory plugs per A-unit)"},
		{MarkIParams{512, 6, 4, 7, 40}, "patchboard: theta: 7, want 1..6 (the excitatory plugs per A-unit)"},
	} {
		t.Run(paramsName(tt.p), func(t *testing.T) {
			b, err := MarkI(tt.p, rand.New(rand.NewPCG(1, 1)))
			if err == nil || err.Error() != tt.want {
				t.Errorf("MarkI(%+v) = %v, %v; want error %q", tt.p, b, err, tt.want)
			}
		})
	}
}

func TestFanOutFor(t *testing.T) {
	for _, a := range []int{1, 512, 513, 1454, 1455, 4096, 65536} {
		t.Run(fmt.Sprintf("a=%d", a), func(t *testing.T) {
			p := DefaultMarkI()
			p.AUnits, p.FanOut = a, FanOutFor(a)
			if a <= 512 && p.FanOut != MarkIFanOut {
				t.Errorf("FanOutFor(%d) = %d, want the historical %d", a, p.FanOut, MarkIFanOut)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("FanOutFor(%d) = %d: %v", a, p.FanOut, err)
			}
		})
	}
	p := DefaultMarkI()
	p.AUnits, p.FanOut = 4096, FanOutFor(4096)
	b, err := MarkI(p, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 4096 {
		t.Fatalf("board of %d A-units, want 4096", b.Len())
	}
}

func TestDefaultMarkI(t *testing.T) {
	p := DefaultMarkI()
	if p.AUnits != 512 || p.FanOut != 40 {
		t.Errorf("DefaultMarkI() = %+v, want 512 A-units and fan-out 40 (historical)", p)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

// localCentre returns a cell from which every excitatory plug of u lies within radius and every
// inhibitory plug within (radius, 2*radius], or -1.
func localCentre(u Unit, radius int) int {
	d2 := func(c int, s uint16) int {
		dr, dc := c/retina.Cols-int(s)/retina.Cols, c%retina.Cols-int(s)%retina.Cols
		return dr*dr + dc*dc
	}
next:
	for c := range retina.N {
		for _, s := range u.Exc {
			if d2(c, s) > radius*radius {
				continue next
			}
		}
		for _, s := range u.Inh {
			if d := d2(c, s); d <= radius*radius || d > 4*radius*radius {
				continue next
			}
		}
		return c
	}
	return -1
}

func TestLocal(t *testing.T) {
	for _, tt := range []struct{ units, radius int }{{512, 1}, {512, 2}, {512, 3}, {200, 4}, {50, 10}, {1500, 2}} {
		t.Run(fmt.Sprintf("units=%d,radius=%d", tt.units, tt.radius), func(t *testing.T) {
			b, err := Local(tt.units, tt.radius, rand.New(rand.NewPCG(5, uint64(tt.radius))))
			if err != nil {
				t.Fatalf("Local(%d, %d): %v", tt.units, tt.radius, err)
			}
			if err := b.Validate(); err != nil {
				t.Fatalf("Local(%d, %d): %v", tt.units, tt.radius, err)
			}
			if b.Len() != tt.units || b.FanOut != MarkIFanOut {
				t.Fatalf("Local(%d, %d): %d units, fan-out %d", tt.units, tt.radius, b.Len(), b.FanOut)
			}
			full := 0
			for a, u := range b.Units {
				if u.Theta != localTheta || len(u.Exc) > localExc || len(u.Inh) > localInh {
					t.Fatalf("Local(%d, %d): a%d has (%d, %d, %d)", tt.units, tt.radius, a, len(u.Exc), len(u.Inh), u.Theta)
				}
				if len(u.Exc) == localExc && len(u.Inh) == localInh {
					full++
				}
				if !slices.IsSorted(u.Exc) || !slices.IsSorted(u.Inh) {
					t.Fatalf("Local(%d, %d): plugs of a%d not in ascending order", tt.units, tt.radius, a)
				}
				if localCentre(u, tt.radius) < 0 {
					t.Fatalf("Local(%d, %d): a%d %v is not centre-surround", tt.units, tt.radius, a, u)
				}
			}
			fan := fanOuts(b)
			t.Logf("Local(%d, %d): %d of %d units with all %d+%d plugs; largest fan-out %d",
				tt.units, tt.radius, full, b.Len(), localExc, localInh, slices.Max(fan[:]))
			again, err := Local(tt.units, tt.radius, rand.New(rand.NewPCG(5, uint64(tt.radius))))
			if err != nil || !sameWiring(b, again) {
				t.Errorf("Local(%d, %d) with the same seed gave a different board (%v)", tt.units, tt.radius, err)
			}
		})
	}
}

func TestLocalErrors(t *testing.T) {
	for _, tt := range []struct {
		units, radius int
		want          string
	}{
		{0, 2, "patchboard: 0 A-units, want 1..65536"},
		{65537, 2, "patchboard: 65537 A-units, want 1..65536"},
		{512, 0, "patchboard: local radius 0, want 1..10"},
		{512, 11, "patchboard: local radius 11, want 1..10"},
		{8001, 2, "patchboard: 8001 local A-units need at least 16002 plugs, over the 16000 that 400 S-units with fan-out 40 allow"},
		{8000, 1, "patchboard: cannot place local A-unit"},
	} {
		t.Run(fmt.Sprintf("units=%d,radius=%d", tt.units, tt.radius), func(t *testing.T) {
			_, err := Local(tt.units, tt.radius, rand.New(rand.NewPCG(1, 1)))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Local(%d, %d) error %v, want %q", tt.units, tt.radius, err, tt.want)
			}
		})
	}
}

// CheckLocal takes every board Local wires at its own radius, and refuses one wired at another
// radius, by another preset, or edited (a state file's configuration must describe its wiring).
func TestCheckLocal(t *testing.T) {
	// The boards are wired here, for the cases after; each check is a case.
	boards := map[int]*Board{}
	for r := 1; r <= MaxLocalRadius; r++ {
		b, err := Local(512, r, rand.New(rand.NewPCG(7, uint64(r))))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprintf("radius=%d,checked-at=%d", r, r), func(t *testing.T) {
			if err := CheckLocal(b, r); err != nil {
				t.Errorf("Local(512, %d) checked at radius %d: %v", r, r, err)
			}
		})
		boards[r] = b
	}
	for r := 1; r <= MaxLocalRadius; r++ {
		for _, other := range []int{r - 1, r + 1} {
			if other < 1 || other > MaxLocalRadius {
				continue
			}
			t.Run(fmt.Sprintf("radius=%d,checked-at=%d", r, other), func(t *testing.T) {
				if err := CheckLocal(boards[r], other); err == nil || !strings.Contains(err.Error(), "radius") {
					t.Errorf("Local(512, %d) checked at radius %d: %v, want an error naming the radius", r, other, err)
				}
			})
		}
	}
	mark, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(u *Unit)) *Board {
		b := &Board{Units: slices.Clone(boards[2].Units), FanOut: MarkIFanOut}
		f(&b.Units[3])
		return b
	}
	for _, tc := range []struct {
		name   string
		b      *Board
		radius int
		want   string
	}{
		{"identity", Identity(), 2, "a0: threshold 1, not the 2 of a local wiring"},
		{"Mark I", mark, 2, "a0: no centre has its excitatory plugs within radius 2"},
		{"no fan-out limit", &Board{Units: boards[2].Units}, 2, "fan-out limit 0, not the 40 of a local wiring"},
		{"threshold", edit(func(u *Unit) { u.Theta = 3 }), 2, "a3: threshold 3"},
		{"one excitatory plug", edit(func(u *Unit) { u.Exc = u.Exc[:1] }), 2, "a3: 1 excitatory plugs, want 2..7"},
		{"five inhibitory plugs", edit(func(u *Unit) { u.Inh = []uint16{0, 1, 2, 3, 4} }), 2, "a3: 5 inhibitory plugs, want at most 4"},
		{"a far plug", edit(func(u *Unit) { u.Inh = []uint16{0} }), 2, "a3: no centre"},
		{"radius 0", boards[2], 0, "patchboard: local radius 0, want 1..10"},
		{"radius 11", boards[2], 11, "patchboard: local radius 11, want 1..10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckLocal(tc.b, tc.radius); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			}
		})
	}
}
