package patchboard

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/retina"
)

// plainFire is the definition of the A-units, one plug at a time: the indices of the units
// whose lit excitatory plugs minus lit inhibitory plugs reach theta.
func plainFire(b *Board, s *retina.Bits) []uint16 {
	var active []uint16
	for a, u := range b.Units {
		n := 0
		for _, p := range u.Exc {
			if s.Get(int(p)) {
				n++
			}
		}
		for _, p := range u.Inh {
			if s.Get(int(p)) {
				n--
			}
		}
		if n >= u.Theta {
			active = append(active, uint16(a))
		}
	}
	return active
}

// randomBits returns S-states with each S-unit on with probability p.
func randomBits(rng *rand.Rand, p float64) retina.Bits {
	var s retina.Bits
	for i := range retina.N {
		s.Set(i, rng.Float64() < p)
	}
	return s
}

// checkFire compares Fire with plainFire on random S-states of many densities (both sides of
// the half-lit switch to the complement) and on the test stimuli.
func checkFire(t *testing.T, b *Board, rng *rand.Rand) {
	t.Helper()
	var states []retina.Bits
	for _, p := range []float64{0, 0.01, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99, 1} {
		for range 5 {
			states = append(states, randomBits(rng, p))
		}
	}
	var half retina.Bits // exactly N/2 on, then one more
	for i := range retina.N / 2 {
		half.Set(2*i, true)
	}
	states = append(states, half)
	half.Set(1, true)
	states = append(states, half)
	states = append(states, testStimuli()[:50]...)

	words := (b.Len() + 63) / 64
	for k := range states {
		s := &states[k]
		dst := make([]uint64, words+1)
		for i := range dst {
			dst[i] = ^uint64(0) // garbage Fire must clear
		}
		active := make([]uint16, 3, b.Len())
		got := b.Fire(s, dst, active)
		want := plainFire(b, s)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("state %d (%d on): Fire active = %v, want %v", k, s.Count(), got, want)
		}
		var wantBits []uint64 = make([]uint64, words)
		for _, a := range want {
			wantBits[a/64] |= 1 << (a % 64)
		}
		if !slices.Equal(dst[:words], wantBits) {
			t.Fatalf("state %d (%d on): Fire A-bits = %x, want %x", k, s.Count(), dst[:words], wantBits)
		}
		if dst[words] != ^uint64(0) {
			t.Fatalf("state %d: Fire wrote past word %d of dst", k, words)
		}
	}
}

func TestFireMatchesPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, tt := range []struct {
		name  string
		board func() (*Board, error)
	}{
		{"default MarkI", func() (*Board, error) { return MarkI(DefaultMarkI(), rng) }},
		{"MarkI 65 units", func() (*Board, error) { return MarkI(MarkIParams{65, 5, 3, 2, 40}, rng) }},
		{"MarkI no inhibition", func() (*Board, error) { return MarkI(MarkIParams{100, 4, 0, 2, 40}, rng) }},
		{"MarkI dense no limit", func() (*Board, error) { return MarkI(MarkIParams{130, 150, 150, 3, 0}, rng) }},
		{"MarkI full plugs", func() (*Board, error) { return MarkI(MarkIParams{3, 400, 0, 400, 0}, rng) }},
		{"MarkI 1000 units", func() (*Board, error) { return MarkI(MarkIParams{1000, 10, 6, 3, 40}, rng) }},
		{"Identity", func() (*Board, error) { return Identity(), nil }},
		{"Local r1", func() (*Board, error) { return Local(300, 1, rng) }},
		{"Local r2", func() (*Board, error) { return Local(512, 2, rng) }},
		{"Local r5", func() (*Board, error) { return Local(64, 5, rng) }},
		// The largest counts the byte counters hold (theta+inh = 128, exc-theta = 127), and one
		// past them, which takes the 16-bit counters.
		{"byte counters at their limit", func() (*Board, error) { return MarkI(MarkIParams{4, 128, 127, 1, 0}, rng) }},
		{"one past the byte limit", func() (*Board, error) { return MarkI(MarkIParams{4, 128, 128, 1, 0}, rng) }},
		{"struct literal", func() (*Board, error) {
			return &Board{Units: []Unit{
				{Exc: []uint16{399, 0, 5}, Inh: []uint16{7}, Theta: 2},
				{Exc: []uint16{7}, Theta: 1},
				{Exc: []uint16{1, 2, 3}, Inh: []uint16{4, 5, 6}, Theta: 3},
			}}, nil
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.board()
			if err != nil {
				t.Fatal(err)
			}
			checkFire(t, b, rng)
			if strings.Contains(tt.name, "byte") && b.c.small != !strings.HasPrefix(tt.name, "one past") {
				t.Fatalf("byte counters used = %v", b.c.small)
			}
		})
	}
}

func TestIdentityIsPhiOfXEqualsX(t *testing.T) {
	b := Identity()
	if b.Len() != retina.N {
		t.Fatalf("Identity has %d A-units, want %d", b.Len(), retina.N)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	dst := make([]uint64, retina.Words)
	active := make([]uint16, 0, retina.N)
	for _, p := range []float64{0, 0.1, 0.5, 0.9, 1} {
		// Drawn here, so that a case run alone sees the S-units it sees after the others.
		s := randomBits(rng, p)
		t.Run(fmt.Sprintf("p=%v", p), func(t *testing.T) {
			active = b.Fire(&s, dst, active)
			if !slices.Equal(dst, s[:]) {
				t.Fatalf("p=%v: A-bits %x, want the S-bits %x", p, dst, s)
			}
			if len(active) != s.Count() {
				t.Fatalf("p=%v: %d A-units fire, want %d", p, len(active), s.Count())
			}
			for _, a := range active {
				if !s.Get(int(a)) {
					t.Fatalf("p=%v: A-unit %d fires but S-unit %d is off", p, a, a)
				}
			}
		})
	}
}

func TestFireZeroAllocations(t *testing.T) {
	b, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	stim := testStimuli()
	dst := make([]uint64, (b.Len()+63)/64)
	active := make([]uint16, 0, b.Len())
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		s := stim[i%len(stim)]
		if i%2 == 1 { // and light figures: the complement path
			for k := range s {
				s[k] = ^s[k]
			}
		}
		active = b.Fire(&s, dst, active)
		i++
	})
	if allocs != 0 {
		t.Errorf("Fire allocates %v times per call, want 0", allocs)
	}
}

func TestStructLiteralBoard(t *testing.T) {
	var s retina.Bits
	s.Set(0, true)
	s.Set(1, true)
	s.Set(21, true)
	b := &Board{Units: []Unit{
		{Exc: []uint16{0, 1}, Inh: []uint16{21}, Theta: 1}, // 2-1 >= 1: fires
		{Exc: []uint16{0, 1}, Inh: []uint16{21}, Theta: 2}, // 2-1 < 2
		{Exc: []uint16{21}, Theta: 1},                      // fires
		{Exc: []uint16{2, 3}, Theta: 1},                    // nothing lit
	}}
	dst := make([]uint64, 1)
	if got := b.Fire(&s, dst, nil); !slices.Equal(got, []uint16{0, 2}) || dst[0] != 0b101 {
		t.Fatalf("Fire = %v, bits %b; want [0 2], bits 101", got, dst[0])
	}
	// Replacing Units is noticed.
	b.Units = []Unit{{Exc: []uint16{2}, Theta: 1}, {Exc: []uint16{1}, Theta: 1}}
	if got := b.Fire(&s, dst, nil); !slices.Equal(got, []uint16{1}) || dst[0] != 0b10 {
		t.Fatalf("after replacing Units: Fire = %v, bits %b; want [1], bits 10", got, dst[0])
	}
	// Changing a unit in place needs Compile.
	b.Units[0].Exc[0] = 0
	if err := b.Compile(); err != nil {
		t.Fatal(err)
	}
	if got := b.Fire(&s, dst, nil); !slices.Equal(got, []uint16{0, 1}) {
		t.Fatalf("after Compile: Fire = %v, want [0 1]", got)
	}
}

func TestFirePanicsOnInvalidBoard(t *testing.T) {
	for _, tt := range []struct {
		name string
		b    *Board
		want string
	}{
		{"empty", &Board{}, "patchboard: no A-units"},
		{"unknown S-unit", &Board{Units: []Unit{{Exc: []uint16{400}, Theta: 1}}}, "patchboard: unknown S-unit 400 in a0 (S-units are 0..399)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); fmt.Sprint(r) != tt.want {
					t.Errorf("Fire panicked with %v, want %q", r, tt.want)
				}
			}()
			var s retina.Bits
			tt.b.Fire(&s, make([]uint64, 1), nil)
		})
	}
}

func TestFireIgnoresBitsPastTheField(t *testing.T) {
	b, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	dst := make([]uint64, (b.Len()+63)/64)
	for _, p := range []float64{0, 0.2, 0.8} {
		// Drawn here, so that a case run alone sees the S-units it sees after the others.
		s := randomBits(rng, p)
		t.Run(fmt.Sprintf("p=%v", p), func(t *testing.T) {
			want := slices.Clone(b.Fire(&s, dst, nil))
			s[retina.Words-1] |= ^uint64(lastWord)
			if got := b.Fire(&s, dst, nil); !slices.Equal(got, want) {
				t.Errorf("p=%v: with stray bits past S-unit 399 Fire = %v, want %v", p, got, want)
			}
		})
	}
}

func TestFirePanicsOnShortDst(t *testing.T) {
	b := Identity()
	defer func() {
		want := "patchboard: Fire: dst has 6 words, want at least 7 for 400 A-units"
		if r := recover(); fmt.Sprint(r) != want {
			t.Errorf("Fire with a short dst: panic %v, want %q", r, want)
		}
	}()
	var s retina.Bits
	b.Fire(&s, make([]uint64, retina.Words-1, 100), nil)
}
