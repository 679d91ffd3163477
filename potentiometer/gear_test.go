package potentiometer

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// checkGear fails t unless every pot of r keeps the gear train's invariants: the wiper within
// the stops, the motor side within its limits and within the play of its wiper (as float64
// arithmetic rounds the bounds), the readings up to date, ratchet remainders within half a
// tooth.
func checkGear(t *testing.T, r *Rack, when string) {
	t.Helper()
	st := r.State()
	p := r.Params()
	h := p.Backlash / 2
	if p.Ideal {
		return
	}
	for i := range r.Len() {
		m, w := st.Motor[i], st.Wiper[i]
		if !(math.Abs(w) <= p.Range) {
			t.Fatalf("%s: pot %d wiper %v beyond the stops +-%v", when, i, w, p.Range)
		}
		if !(m-h <= p.Range) || !(m+h >= -p.Range) {
			t.Fatalf("%s: pot %d motor %v beyond its limits +-(%v + %v)", when, i, m, p.Range, h)
		}
		if !(m-h <= w && w <= m+h) {
			t.Fatalf("%s: pot %d motor %v, wiper %v: offset %v beyond the play %v", when, i, m, w, m-w, h)
		}
		if r.rd[i] != r.read(i, w) {
			t.Fatalf("%s: pot %d reading %v stale (wiper %v)", when, i, r.rd[i], w)
		}
	}
	for i, x := range st.RatchetRemainder {
		if !(math.Abs(x) <= 0.5) {
			t.Fatalf("%s: pot %d ratchet remainder %v teeth", when, i, x)
		}
	}
}

// gearConfigs are the racks the property tests run: the defaults with each drive, and harsh
// ones that hit the stops and the play often.
func gearConfigs() map[string]Params {
	ratchet := DefaultParams()
	ratchet.Drive = DriveRatchet
	harsh := DefaultParams()
	harsh.Range, harsh.Backlash, harsh.PulseJitter, harsh.MotorSpread = 2, 0.8, 0.6, 0.3
	harsh.WiperDrift, harsh.DriftInterval, harsh.Resolution = 3, 30, 0.3
	harshRatchet := harsh
	harshRatchet.Drive, harshRatchet.TeethPerIncrement = DriveRatchet, 2.5
	harshRatchet.RatchetMiss, harshRatchet.RatchetDouble = 0.2, 0.2
	odd := DefaultParams()
	odd.Range, odd.Backlash = 0.1, 0.37 // stops closer than the play
	return map[string]Params{"default": DefaultParams(), "ratchet": ratchet, "harsh": harsh,
		"harsh ratchet": harshRatchet, "odd": odd, "neutral": NeutralParams()}
}

// randomStep returns a step of a kind the machine sends (whole, gamma fractions) or an odd one
// (tiny, big, zero).
func randomStep(rng *rand.Rand) float64 {
	sign := float64(2*rng.IntN(2) - 1)
	switch rng.IntN(6) {
	case 0:
		return sign
	case 1:
		return sign * rng.Float64()
	case 2:
		return 0
	case 3:
		return sign * 1e-17 * rng.Float64()
	case 4:
		return sign * 10 * rng.Float64()
	}
	return sign * math.Ldexp(1, -rng.IntN(8))
}

// TestGearProperties runs random sequences of Drive, Sum, Advance and SetState and checks after
// every call: a Drive with a step s > 0 never decreases a driven pot's wiper, s < 0 never
// increases it, a pot with no step does not move; the wiper stays within +-Range, the motor
// side within the play of its wiper and its limits; any state the rack produces, or that
// SetState accepts, loads, drives and saves again.
func TestGearProperties(t *testing.T) {
	for name, p := range gearConfigs() {
		t.Run(name, func(t *testing.T) {
			const n = 9
			for seed := range uint64(8) {
				rng := newRNG(100 + seed)
				noise := newRNG(200 + seed)
				r := mustRack(t, n, p, newRNG(300+seed))
				var active []uint16
				for op := range 3000 {
					switch k := rng.IntN(10); {
					case k < 6: // Drive
						active = randomActive(rng, n, rng.Float64(), active)
						on, off := randomStep(rng), randomStep(rng)
						if rng.IntN(3) == 0 {
							off = 0
						}
						before := r.State()
						r.Drive(active, on, off, noise)
						after := r.State()
						step := make([]float64, n+1)
						for i := range n {
							step[i] = off
						}
						for _, i := range active {
							step[i] = on
						}
						step[n] = on
						for i, s := range step {
							w0, w1 := before.Wiper[i], after.Wiper[i]
							switch {
							case s > 0 && w1 < w0, s < 0 && w1 > w0:
								t.Fatalf("seed %d op %d: step %v moved pot %d's wiper from %v to %v", seed, op, s, i, w0, w1)
							case s == 0 && (w1 != w0 || after.Motor[i] != before.Motor[i]):
								t.Fatalf("seed %d op %d: pot %d with no step moved", seed, op, i)
							}
						}
					case k < 8: // Advance
						dt := []float64{0, 3, 3, 3, 7.5, 600, 360000}[rng.IntN(7)]
						r.Advance(dt, noise)
					case k < 9: // Sum
						active = randomActive(rng, n, rng.Float64(), active)
						if s := r.Sum(active, noise); math.IsNaN(s) || math.IsInf(s, 0) {
							t.Fatalf("seed %d op %d: Sum %v", seed, op, s)
						}
					default: // save and load, or load a nearby state
						st := r.State()
						b, err := json.Marshal(st)
						if err != nil {
							t.Fatal(err)
						}
						var st2 RackState
						if err := json.Unmarshal(b, &st2); err != nil {
							t.Fatal(err)
						}
						if rng.IntN(2) == 0 {
							perturb(rng, &st2, p)
						} else if err := r.SetState(st2); err != nil {
							t.Fatalf("seed %d op %d: own state refused: %v", seed, op, err)
						}
						c := mustRack(t, n, p, newRNG(999))
						if err := c.SetState(st2); err == nil {
							r = c // it loads: it must behave
						}
					}
					checkGear(t, r, "after op")
				}
			}
		})
	}
}

// perturb moves some of s's values to random places near or at the edges of what a rack can
// produce: wipers at or beyond the stops, motor sides at the edges of the play.
func perturb(rng *rand.Rand, s *RackState, p Params) {
	h := p.Backlash / 2
	lim := p.Range
	if math.IsInf(lim, 1) {
		lim = 100
	}
	for i := range s.Wiper {
		if rng.IntN(3) != 0 {
			continue
		}
		w := []float64{lim, -lim, lim * (2*rng.Float64() - 1), math.Nextafter(lim, 2*lim)}[rng.IntN(4)]
		m := w + []float64{h, -h, h * (2*rng.Float64() - 1), math.Nextafter(h, 1)}[rng.IntN(4)]
		s.Wiper[i], s.Motor[i] = w, m
	}
	for i := range s.RatchetRemainder {
		s.RatchetRemainder[i] = []float64{0.5, -0.5, rng.Float64() - 0.5}[rng.IntN(3)]
	}
}

// TestDriftKeptByPulses checks the gear-true drift: after 100 idle hours (a random walk of
// about 0.5 increments, more than the play) a forward pulse moves every wiper forward by the
// whole pulse from where it crept to, so the drift is neither erased nor able to turn a
// forward pulse backward, and a reversal then takes up the play from there.
func TestDriftKeptByPulses(t *testing.T) {
	const n = 2000
	p := NeutralParams()
	p.Backlash, p.WiperDrift = 0.3, DefaultParams().WiperDrift
	r := mustRack(t, n, p, nil)
	all := make([]uint16, n)
	for i := range all {
		all[i] = uint16(i)
	}
	r.Drive(all, 5, 0, nil) // the motors lead their wipers by the half-play
	start := r.State().Wiper
	noise := newRNG(40)
	for range 100 * 1200 {
		r.Advance(3, noise)
	}
	crept := r.State().Wiper
	var sq float64
	for i := range crept {
		sq += (crept[i] - start[i]) * (crept[i] - start[i])
	}
	if sd := math.Sqrt(sq / float64(len(crept))); math.Abs(sd-0.5) > 0.05 {
		t.Fatalf("100 h of drift moved the shafts by %v RMS, want 0.5", sd)
	}
	r.Drive(all, 1, 0, nil)
	for i, w := range r.State().Wiper {
		if math.Abs(w-(crept[i]+1)) > 1e-12 {
			t.Fatalf("pot %d: crept to %v, a pulse of +1 moved it to %v, want %v", i, crept[i], w, crept[i]+1)
		}
	}
	r.Drive(all, -1, 0, nil)
	for i, w := range r.State().Wiper {
		if math.Abs(w-(crept[i]+0.3)) > 1e-12 {
			t.Fatalf("pot %d: reversal from %v went to %v, want %v (the play taken up)", i, crept[i]+1, w, crept[i]+0.3)
		}
	}
}

func TestMotorLimit(t *testing.T) {
	tests := []struct{ lim, h float64 }{
		{64, 0.15}, {3, 0.2}, {1, 0}, {64, 0}, {0.1, 0.185}, {1e-300, 0.15}, {MaxIncrements, 0.15}, {0.3, 0.1}, {7, 1e-20},
	}
	for _, tt := range tests {
		m := motorLimit(tt.lim, tt.h)
		if !(m-tt.h <= tt.lim) || math.Nextafter(m, math.Inf(1))-tt.h <= tt.lim {
			t.Errorf("motorLimit(%v, %v) = %v: not the largest motor side that keeps the wiper within the stop", tt.lim, tt.h, m)
		}
		// A wiper driven into the stop reaches it exactly, from either side.
		p := quiet()
		p.Range, p.Backlash = tt.lim, 2*tt.h
		r := mustRack(t, 0, p, nil) // the bias pot alone
		for _, s := range []float64{1, -1} {
			r.Drive(nil, s*(2*tt.lim+4*tt.h+1), 0, nil)
			if w, mm := r.Pos(0), r.State().Motor[0]; w != s*tt.lim || mm != s*m {
				t.Errorf("Range %v, Backlash %v: driven to the stop at %v: wiper %v motor %v, want %v %v", tt.lim, 2*tt.h, s, w, mm, s*tt.lim, s*m)
			}
		}
	}
	if m := motorLimit(math.Inf(1), 0.15); !math.IsInf(m, 1) {
		t.Errorf("no stops: motor limit %v", m)
	}
}
