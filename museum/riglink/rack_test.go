package riglink

import (
	"testing"

	"github.com/mark1-perceptron/mark1/machine"
)

// Handing back, the emulated weights are the last good read-backs plus every correction made
// since (queued, or sent and not yet followed), within the pots' range: nothing the machine
// learned is lost. Before any good read-back, they are the weights the machine drove.
func TestHandBackKeepsTheCorrections(t *testing.T) {
	m, err := machine.New(machine.Default().Ideal(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	l := &Link{wake: make(chan struct{}, 1)}
	for _, c := range []struct {
		name           string
		good, goodSent []float64 // nil: no good read-back yet
		drives         [][3]float64
		want           []float64
	}{
		{"no good read-back", nil, nil, [][3]float64{{1, 1, 0}}, nil},
		{"corrections since", []float64{0.9, -2.1, 3.05}, []float64{1, -2, 3}, [][3]float64{{1, 1, -1}, {1, 0.5, 0.25}}, nil},
		{"at the range", []float64{7.9, 0, 7.8}, []float64{8, 0, 8}, [][3]float64{{1, 1, 0}, {1, -3, 0}}, []float64{4.9, 0, 4.8}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rk, err := l.newRack(0, m.Rack(0))
			if err != nil {
				t.Fatal(err)
			}
			rk.n = 3 // A0, A1 and the bias
			rk.want, rk.rb, rk.rng, rk.allow = []float64{1, -2, 3}, []float64{1, -2, 3}, []float64{8, 8, 8}, []float64{0.5, 0.5, 0.5}
			rk.emulated = false
			if c.good != nil {
				rk.good, rk.goodSent, rk.hasGood = c.good, c.goodSent, true
				rk.want = append([]float64(nil), c.goodSent...)
			}
			before := append([]float64(nil), rk.want...)
			for _, d := range c.drives {
				if err := rk.Drive([]uint16{uint16(d[0]) - 1}, d[1], d[2]); err != nil { // A0 active
					t.Fatal(err)
				}
			}
			driven := append([]float64(nil), rk.want...)
			if len(rk.ops) != len(c.drives) {
				t.Errorf("%d corrections queued, want %d", len(rk.ops), len(c.drives))
			}
			if !rk.handBack() || !rk.emulated || len(rk.ops) != 0 {
				t.Fatalf("not handed back: emulated %v, %d queued", rk.emulated, len(rk.ops))
			}
			want := c.want
			if want == nil {
				want = make([]float64, 3)
				for i := range want {
					base := before[i]
					if c.good != nil {
						base = c.good[i]
					}
					want[i] = clampTo(base, driven[i]-before[i], 8)
				}
			}
			var got [3]float64
			rk.Readings(got[:])
			for i := range want {
				if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
					t.Errorf("pot %d: %v after the hand-back, want %v (good %v, driven from %v to %v)", i, got[i], want[i], c.good, before, driven)
				}
			}
			if s, _ := rk.Sum([]uint16{1}); s != got[1]+got[2] {
				t.Errorf("the emulated sum is %v, want %v", s, got[1]+got[2])
			}
		})
	}
}
