package potentiometer

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// quiet is an analog rack with every effect off; tests turn on the one they look at.
func quiet() Params { return Params{Range: math.Inf(1)} }

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

func mustRack(t testing.TB, n int, p Params, rng *rand.Rand) *Rack {
	t.Helper()
	r, err := NewRack(n, p, rng)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// randomActive returns a random ascending active list of about frac*n of n A-units.
func randomActive(rng *rand.Rand, n int, frac float64, dst []uint16) []uint16 {
	dst = dst[:0]
	for i := range n {
		if rng.Float64() < frac {
			dst = append(dst, uint16(i))
		}
	}
	return dst
}

func readings(r *Rack) []float64 {
	w := make([]float64, r.Len())
	r.Readings(w)
	return w
}

func TestIdealExact(t *testing.T) {
	tests := []struct {
		name  string
		steps func(rng *rand.Rand) (on, off float64)
	}{
		{"alpha", func(rng *rand.Rand) (float64, float64) { return float64(2*rng.IntN(2) - 1), 0 }},
		{"integers", func(rng *rand.Rand) (float64, float64) { return float64(rng.IntN(7) - 3), float64(rng.IntN(3) - 1) }},
		{"fractions", func(rng *rand.Rand) (float64, float64) { return rng.Float64() - 0.5, rng.Float64() - 0.5 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 200
			rng := newRNG(1)
			r := mustRack(t, n, IdealParams(), nil)
			want := make([]float64, n+1) // plain float64 weights, same operation order
			iw := make([]int, n+1)       // integer weights, for integer steps
			var active []uint16
			for step := range 2000 {
				active = randomActive(rng, n, 0.3, active)
				on, off := tt.steps(rng)
				r.Drive(active, on, off, nil)
				isActive := make([]bool, n+1)
				for _, i := range active {
					isActive[i] = true
				}
				isActive[n] = true
				for i := range want {
					if isActive[i] {
						want[i] += on
						iw[i] += int(on)
					} else {
						want[i] += off
						iw[i] += int(off)
					}
				}
				got := readings(r)
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: readings differ from plain arithmetic", step)
				}
				if tt.name != "fractions" {
					sum := iw[n]
					for _, i := range active {
						sum += iw[i]
					}
					for i := range iw {
						if got[i] != float64(iw[i]) || r.Pos(i) != float64(iw[i]) {
							t.Fatalf("step %d: pot %d = %v, integer arithmetic %d", step, i, got[i], iw[i])
						}
					}
					if s := r.Sum(active, nil); s != float64(sum) {
						t.Fatalf("step %d: Sum = %v, want %d", step, s, sum)
					}
				}
				r.Advance(3, nil)
			}
			if r.Gain() != 1 || r.Time() != 6000 {
				t.Fatalf("ideal rack: gain %v, time %v", r.Gain(), r.Time())
			}
		})
	}
}

func TestGammaConserves(t *testing.T) {
	const n = 300
	rng := newRNG(2)
	r := mustRack(t, n, IdealParams(), nil)
	total := func() float64 {
		s := 0.0
		for _, v := range readings(r) {
			s += v
		}
		return s
	}
	var active []uint16
	for step := range 1000 {
		active = randomActive(rng, n, rng.Float64(), active)
		d := float64(2*rng.IntN(2) - 1)
		N, a := float64(n+1), float64(len(active)+1)
		r.Drive(active, d*(N-a)/N, -d*a/N, nil)
		if tot := total(); math.Abs(tot) > 1e-9 {
			t.Fatalf("step %d: rack total %v, want 0", step, tot)
		}
	}
}

func TestEndStops(t *testing.T) {
	// The mechanical stops are on the pot's shaft at +-Range: a wiper driven into a stop
	// reaches it exactly, the motor side stops Backlash/2 further on (the play taken up), and
	// a reversal first takes up the play.
	tests := []struct {
		name          string
		backlash      float64
		steps         float64
		wantM, wantP  float64
		reverse       float64
		wantRevP      float64
		wantRevMotorM float64
	}{
		{"no backlash up", 0, 1, 3, 3, -1, 2, 2},
		{"no backlash down", 0, -1, -3, -3, 1, -2, -2},
		{"backlash up", 0.4, 1, 3.2, 3, -1, 2.4, 2.2},
		{"backlash down", 0.4, -1, -3.2, -3, 1, -2.4, -2.2},
		{"reversal within the play", 0.4, 1, 3.2, 3, -0.3, 3, 2.9},
		{"big step", 0, 100, 3, 3, -0.5, 2.5, 2.5},
		{"big step, backlash", 0.4, 100, 3.2, 3, -0.5, 2.9, 2.7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Range, p.Backlash = 3, tt.backlash
			r := mustRack(t, 2, p, nil)
			for range 10 {
				r.Drive([]uint16{0}, tt.steps, 0, nil)
			}
			st := r.State()
			if st.Motor[0] != tt.wantM || st.Wiper[0] != tt.wantP {
				t.Fatalf("at the stop: motor %v wiper %v, want %v %v", st.Motor[0], st.Wiper[0], tt.wantM, tt.wantP)
			}
			if st.Motor[1] != 0 || st.Wiper[1] != 0 {
				t.Fatalf("undriven pot moved: %v %v", st.Motor[1], st.Wiper[1])
			}
			r.Drive([]uint16{0}, tt.reverse, 0, nil)
			st = r.State()
			if math.Abs(st.Motor[0]-tt.wantRevMotorM) > 1e-12 || math.Abs(st.Wiper[0]-tt.wantRevP) > 1e-12 {
				t.Fatalf("after reversal: motor %v wiper %v, want %v %v", st.Motor[0], st.Wiper[0], tt.wantRevMotorM, tt.wantRevP)
			}
		})
	}
	// Drift does not push shafts through the stops either, and keeps each motor side within
	// its limits and the play of its wiper.
	p := quiet()
	p.Range, p.Backlash, p.WiperDrift, p.DriftInterval = 1, 0.3, 50, 60
	r := mustRack(t, 100, p, nil)
	rng := newRNG(3)
	all := make([]uint16, 100)
	for i := range all {
		all[i] = uint16(i)
	}
	stops := 0
	for step := range 100 {
		r.Drive(all[:step], float64(step%3-1), 0, rng)
		r.Advance(60, rng)
		st := r.State()
		for i := range r.Len() {
			if math.Abs(st.Wiper[i]) > 1 || math.Abs(st.Motor[i]) > 1.15 || st.Motor[i]-0.15 > st.Wiper[i] || st.Motor[i]+0.15 < st.Wiper[i] {
				t.Fatalf("step %d: pot %d drifted to motor %v, wiper %v: beyond the stops or the play", step, i, st.Motor[i], st.Wiper[i])
			}
			if math.Abs(st.Wiper[i]) == 1 {
				stops++
			}
		}
	}
	if stops == 0 {
		t.Fatal("drift never reached a stop: the test tests nothing")
	}
}

func TestBacklash(t *testing.T) {
	const b = 0.3
	tests := []struct {
		name     string
		reverse  float64 // first reverse move (negative)
		further  float64 // then this much more in the same direction
		wantMove float64 // total wiper movement after both
	}{
		{"less than play", -0.1, -0.1, 0},
		{"just the play", -0.15, -0.15, 0},
		{"beyond the play", -0.2, -0.6, -(0.8 - b)},
		{"one pulse", -1, 0, -(1 - b)},
		{"no reversal", 0.5, 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := quiet()
			p.Backlash = b
			r := mustRack(t, 1, p, nil)
			r.Drive([]uint16{0}, 5, 0, nil)
			if got := r.Pos(0); math.Abs(got-(5-b/2)) > 1e-12 {
				t.Fatalf("after 5 up from rest: wiper %v, want %v", got, 5-b/2)
			}
			before := r.Pos(0)
			r.Drive([]uint16{0}, tt.reverse, 0, nil)
			r.Drive([]uint16{0}, tt.further, 0, nil)
			if got := r.Pos(0) - before; math.Abs(got-tt.wantMove) > 1e-9 {
				t.Fatalf("wiper moved %v, want %v", got, tt.wantMove)
			}
			if r.Pos(1) != r.Pos(0) { // the bias pot went the same way
				t.Fatalf("bias pot %v and pot 0 %v moved differently", r.Pos(1), r.Pos(0))
			}
		})
	}
}

func TestResolution(t *testing.T) {
	tests := []struct {
		res, pos, want float64
	}{
		{0.2, 0.33, 0.4},
		{0.2, 0.29, 0.2},
		{0.2, -0.33, -0.4},
		{0.2, 1.0, 1.0},
		{0.5, 1.2, 1.0},
		{0.5, 1.3, 1.5},
		{0, 0.33, 0.33},
	}
	for _, tt := range tests {
		p := quiet()
		p.Resolution = tt.res
		r := mustRack(t, 1, p, nil)
		r.Drive([]uint16{0}, tt.pos, 0, nil)
		got := readings(r)
		if math.Abs(got[0]-tt.want) > 1e-12 || r.Pos(0) != tt.pos {
			t.Errorf("res %v, wiper %v: reading %v (pos %v), want %v", tt.res, tt.pos, got[0], r.Pos(0), tt.want)
		}
		if s := r.Sum([]uint16{0}, nil); math.Abs(s-2*tt.want) > 1e-12 {
			t.Errorf("res %v, wiper %v: Sum %v, want %v", tt.res, tt.pos, s, 2*tt.want)
		}
	}
}

func TestTolerance(t *testing.T) {
	p := quiet()
	p.Tolerance = 0.02
	r := mustRack(t, 5000, p, newRNG(4))
	all := make([]uint16, 5000)
	for i := range all {
		all[i] = uint16(i)
	}
	r.Drive(all, 3, 0, nil)
	w := readings(r)
	g := r.State().TrackGain
	var sum, sq float64
	for i, v := range w {
		if v != 3*g[i] {
			t.Fatalf("pot %d reading %v, want 3 * gain %v", i, v, g[i])
		}
		sum += g[i]
		sq += (g[i] - 1) * (g[i] - 1)
	}
	if sd := math.Sqrt(sq / float64(len(g))); math.Abs(sd-0.02) > 0.002 {
		t.Fatalf("track gain spread %v, want 0.02", sd)
	}
}

func TestJitterAndSpread(t *testing.T) {
	const n = 4000
	p := quiet()
	p.MotorSpread, p.PulseJitter = 0.05, 0.1
	all := make([]uint16, n)
	for i := range all {
		all[i] = uint16(i)
	}
	run := func(build, noise uint64) []float64 {
		r := mustRack(t, n, p, newRNG(build))
		rng := newRNG(noise)
		r.Drive(all, 1, 0, rng)
		st := r.State()
		for i, m := range st.Motor {
			if k := st.MotorGain[i]; m < k*(1-p.PulseJitter) || m > k*(1+p.PulseJitter) {
				t.Fatalf("pot %d: travel %v outside motor gain %v +- %v", i, m, k, p.PulseJitter)
			}
			if st.Wiper[i] != m {
				t.Fatalf("pot %d: wiper %v, motor %v without backlash", i, st.Wiper[i], m)
			}
		}
		return st.Motor
	}
	a, b := run(1, 1), run(1, 1)
	if !slices.Equal(a, b) {
		t.Fatal("same seeds gave different travel")
	}
	for _, seeds := range [][2]uint64{{2, 1}, {1, 2}} {
		if c := run(seeds[0], seeds[1]); slices.Equal(a, c) {
			t.Fatalf("seeds %v gave the same travel as 1, 1", seeds)
		}
	}
	// The motor gains have the spread asked for.
	r := mustRack(t, n, p, newRNG(5))
	var sq float64
	for _, k := range r.State().MotorGain {
		sq += (k - 1) * (k - 1)
	}
	if sd := math.Sqrt(sq / (n + 1)); math.Abs(sd-0.05) > 0.005 {
		t.Fatalf("motor gain spread %v, want 0.05", sd)
	}
}

// countingSource counts the numbers drawn from it.
type countingSource struct {
	rand.Source
	n int
}

func (c *countingSource) Uint64() uint64 { c.n++; return c.Source.Uint64() }

func TestDraws(t *testing.T) {
	src := &countingSource{Source: rand.NewPCG(1, 2)}
	rng := rand.New(src)
	// Ideal: no draws anywhere (nil noise must work too).
	r := mustRack(t, 50, IdealParams(), rng)
	r.Drive([]uint16{1, 2}, 1, -0.5, rng)
	r.Sum([]uint16{1, 2}, rng)
	r.Advance(1e6, rng)
	if src.n != 0 {
		t.Fatalf("ideal rack drew %d numbers", src.n)
	}
	// Jitter: one uniform (one Uint64) per moved pot.
	p := quiet()
	p.PulseJitter = 0.1
	r = mustRack(t, 50, p, nil)
	for _, tt := range []struct {
		active  []uint16
		on, off float64
		want    int
	}{
		{[]uint16{1, 2, 3}, 1, 0, 4},
		{[]uint16{1, 2, 3}, 0, 0, 0},
		{[]uint16{1, 2, 3}, 0, 1, 47},
		{[]uint16{1, 2, 3}, 1, -1, 51},
		{nil, 1, 0, 1},
	} {
		src.n = 0
		r.Drive(tt.active, tt.on, tt.off, rng)
		if src.n != tt.want {
			t.Errorf("Drive(%v, %v, %v): %d draws, want %d", tt.active, tt.on, tt.off, src.n, tt.want)
		}
	}
	// Ratchet with slips: one uniform per relay stroke, none for the teeth carried over.
	p = quiet()
	p.Drive, p.TeethPerIncrement, p.RatchetMiss, p.PulseJitter = DriveRatchet, 2, 0.1, 0.1
	r = mustRack(t, 50, p, nil)
	for _, tt := range []struct {
		active  []uint16
		on, off float64
		want    int
	}{
		{[]uint16{1, 2, 3}, 1, 0, 8},     // 2 strokes each for 4 pots
		{[]uint16{1, 2, 3}, 0.2, 0, 0},   // 0.4 teeth each: carried
		{[]uint16{1, 2, 3}, 0.2, 0, 4},   // 0.8 teeth due: one stroke each, -0.2 carried
		{[]uint16{1, 2, 3}, 0.35, 0, 4},  // 0.5 teeth due: a tie rounds away from zero, one stroke
		{[]uint16{1, 2, 3}, 0.25, 0, 0},  // -0.5 + 0.5 teeth: nothing due
		{[]uint16{1, 2, 3}, -3, 0, 24},   // 6 strokes each
		{[]uint16{1, 2, 3}, 0, 0.5, 47},  // one stroke for each of 47 other pots
		{[]uint16{1, 2, 3}, 0, 0.1, 0},   // a fifth of a tooth: carried
		{[]uint16{1, 2, 3}, 0, 0.15, 47}, // 0.5 teeth due: one stroke
	} {
		src.n = 0
		r.Drive(tt.active, tt.on, tt.off, rng)
		if src.n != tt.want {
			t.Errorf("ratchet Drive(%v, %v, %v): %d draws, want %d", tt.active, tt.on, tt.off, src.n, tt.want)
		}
	}
}

func TestDriftVariance(t *testing.T) {
	tests := []struct {
		name  string
		dt    float64
		total float64 // s of machine time
	}{
		{"presentations", 3, 4 * 3600},
		{"odd steps", 7, 2 * 3600},
		{"long steps", 1000, 10 * 3600},
		{"one step", 36000, 36000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 20000
			p := quiet()
			p.WiperDrift, p.DriftInterval = 0.05, 60
			r := mustRack(t, n, p, nil)
			rng := newRNG(6)
			for range int(tt.total / tt.dt) {
				r.Advance(tt.dt, rng)
			}
			elapsed := r.Time() - r.State().DriftElapsed // time covered by the batches
			want := p.WiperDrift * p.WiperDrift * elapsed / 3600
			var sq float64
			for i := range r.Len() {
				sq += r.Pos(i) * r.Pos(i)
			}
			got := sq / float64(r.Len())
			if math.Abs(got/want-1) > 0.05 {
				t.Fatalf("variance %v after %v s, want %v", got, elapsed, want)
			}
			if elapsed < tt.total-60 {
				t.Fatalf("batches covered %v of %v s", elapsed, tt.total)
			}
		})
	}
}

func TestDriftBatches(t *testing.T) {
	p := DefaultParams()
	p.TrackDrift = 0
	p.DriftInterval = 60
	r := mustRack(t, 100, p, newRNG(7))
	rng := newRNG(8)
	all := make([]uint16, 100)
	for i := range all {
		all[i] = uint16(i)
	}
	r.Drive(all, 10, 0, rng)
	last := readings(r)
	lastPos := r.State().Wiper
	batches := 0
	for step := 1; step <= 200; step++ {
		r.Advance(3, rng)
		now := readings(r)
		pos := r.State().Wiper
		batch := step%20 == 0 // every 60 s of machine time
		if moved := !slices.Equal(pos, lastPos); moved != batch {
			t.Fatalf("step %d (t = %v s): wipers moved = %v, want %v", step, r.Time(), moved, batch)
		}
		if !batch && !slices.Equal(now, last) {
			t.Fatalf("step %d: readings changed between batches", step)
		}
		if batch {
			batches++
		}
		last, lastPos = now, pos
	}
	if batches != 10 {
		t.Fatalf("%d batches, want 10", batches)
	}
}

func TestSumNoise(t *testing.T) {
	tests := []struct{ n, active int }{{100, 30}, {512, 0}, {512, 256}}
	for _, tt := range tests {
		p := quiet()
		p.ContactNoise = 0.05
		r := mustRack(t, tt.n, p, nil)
		active := make([]uint16, tt.active)
		for i := range active {
			active[i] = uint16(2 * i)
		}
		r.Drive(active, 2, 0, nil)
		mean := float64(2 * (tt.active + 1))
		rng := newRNG(9)
		const draws = 40000
		var sq, sum float64
		for range draws {
			d := r.Sum(active, rng) - mean
			sum += d
			sq += d * d
		}
		want := p.ContactNoise * p.ContactNoise * float64(tt.active+1)
		if got := sq / draws; math.Abs(got/want-1) > 0.05 {
			t.Errorf("n %d, %d active: noise variance %v, want %v", tt.n, tt.active, got, want)
		}
		if m := sum / draws; math.Abs(m) > 5*math.Sqrt(want/draws) {
			t.Errorf("n %d, %d active: noise mean %v, want 0", tt.n, tt.active, m)
		}
	}
}

func TestRackGain(t *testing.T) {
	p := quiet()
	p.TrackDrift, p.TrackTau = -0.01, 1800
	r := mustRack(t, 10, p, nil)
	r.Drive([]uint16{1, 4, 7}, 5, 0, nil)
	active := []uint16{1, 4}
	for _, tt := range []struct{ dt, t float64 }{
		{0, 0}, {3, 3}, {1797, 1800}, {1800, 3600}, {36000, 39600},
	} {
		r.Advance(tt.dt, nil)
		gain := 1 - 0.01*(1-math.Exp(-tt.t/1800))
		if math.Abs(r.Gain()-gain) > 1e-15 {
			t.Errorf("t = %v: gain %v, want %v", tt.t, r.Gain(), gain)
		}
		if s := r.Sum(active, nil); math.Abs(s-15*gain) > 1e-12 {
			t.Errorf("t = %v: Sum %v, want %v", tt.t, s, 15*gain)
		}
		if w := readings(r); w[1] != 5 {
			t.Errorf("t = %v: reading %v, want 5 (readings carry no rack gain)", tt.t, w[1])
		}
	}
	if g := r.Gain(); math.Abs(g-0.99) > 1e-6 {
		t.Errorf("warm gain %v, want 0.99", g)
	}
}

// play runs a random analog session on r: drives (alpha and gamma), sums and advances.
func play(r *Rack, rng, noise *rand.Rand, steps int) []float64 {
	var out []float64
	active := make([]uint16, 0, r.Len())
	n := r.Len() - 1
	for range steps {
		active = randomActive(rng, n, 0.4, active)
		s := r.Sum(active, noise)
		out = append(out, s)
		switch rng.IntN(3) {
		case 0:
			r.Drive(active, float64(2*rng.IntN(2)-1), 0, noise)
		case 1:
			N, a := float64(n+1), float64(len(active)+1)
			d := float64(2*rng.IntN(2) - 1)
			r.Drive(active, d*(N-a)/N, -d*a/N, noise)
		}
		r.Advance(3*rng.Float64()+1, noise)
	}
	return append(out, readings(r)...)
}

func TestStateRoundTrip(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive, ratchet.TeethPerIncrement = DriveRatchet, 2.5
	for _, p := range []Params{DefaultParams(), IdealParams(), ratchet} {
		const n = 64
		r := mustRack(t, n, p, newRNG(10))
		ctl, noise := newRNG(11), newRNG(12)
		play(r, ctl, noise, 500)

		b, err := json.Marshal(r.State())
		if err != nil {
			t.Fatal(err)
		}
		var st RackState
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		c := mustRack(t, n, p, newRNG(99)) // other build draws: SetState replaces them
		if err := c.SetState(st); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(readings(c), readings(r)) || c.Time() != r.Time() || c.Gain() != r.Gain() {
			t.Fatal("restored rack differs")
		}
		// Continue both with copies of the same streams.
		pcgA, pcgB := rand.NewPCG(13, 14), rand.NewPCG(13, 14)
		outA := play(r, rand.New(pcgA), rand.New(rand.NewPCG(15, 16)), 500)
		outB := play(c, rand.New(pcgB), rand.New(rand.NewPCG(15, 16)), 500)
		if !slices.Equal(outA, outB) {
			t.Fatalf("ideal=%v, drive %s: restored rack did not continue bit for bit", p.Ideal, p.Drive)
		}
		sa, sb := r.State(), c.State()
		ja, err := json.Marshal(sa)
		if err != nil {
			t.Fatal(err)
		}
		jb, err := json.Marshal(sb)
		if err != nil {
			t.Fatal(err)
		}
		if string(ja) != string(jb) {
			t.Fatalf("ideal=%v, drive %s: final states differ", p.Ideal, p.Drive)
		}
	}
}

// cloneState returns a deep copy of s.
func cloneState(s RackState) RackState {
	s.Motor, s.Wiper = slices.Clone(s.Motor), slices.Clone(s.Wiper)
	s.MotorGain, s.TrackGain = slices.Clone(s.MotorGain), slices.Clone(s.TrackGain)
	s.RatchetRemainder = slices.Clone(s.RatchetRemainder)
	return s
}

func TestSetStateRejects(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive = DriveRatchet
	noSpread := DefaultParams()
	noSpread.MotorSpread, noSpread.Tolerance, noSpread.TrackSpread = 0, 0, 0
	noDrift := DefaultParams()
	noDrift.WiperDrift, noDrift.TrackDrift = 0, 0
	racks := map[string]Params{"default": DefaultParams(), "ratchet": ratchet, "ideal": IdealParams(),
		"no spread": noSpread, "no drift": noDrift}
	goods := map[string]RackState{}
	for name, p := range racks {
		r := mustRack(t, 4, p, newRNG(17))
		rng := newRNG(18)
		r.Drive([]uint16{1}, 2, 0, rng)
		r.Drive([]uint16{2}, -0.7, 0.3, rng)
		r.Advance(100, rng)
		goods[name] = r.State()
	}
	tests := []struct {
		rack string
		name string
		mod  func(s *RackState)
		want string
	}{
		{"default", "empty", func(s *RackState) { *s = RackState{} }, "potentiometer: motor: 0 values, want 5"},
		{"default", "short wiper", func(s *RackState) { s.Wiper = s.Wiper[:4] }, "potentiometer: wiper: 4 values, want 5"},
		{"default", "long gain", func(s *RackState) { s.TrackGain = append(s.TrackGain, 1) }, "potentiometer: track_gain: 6 values"},
		{"default", "remainders without a ratchet", func(s *RackState) { s.RatchetRemainder = make([]float64, 5) }, "ratchet_remainder: 5 values, want 0"},
		{"ratchet", "no remainders", func(s *RackState) { s.RatchetRemainder = nil }, "ratchet_remainder: 0 values, want 5"},
		{"default", "NaN motor", func(s *RackState) { s.Motor[2] = math.NaN() }, "potentiometer: motor[2]: NaN, want a finite number"},
		{"default", "Inf wiper", func(s *RackState) { s.Wiper[0] = math.Inf(-1) }, "potentiometer: wiper[0]: -Inf, want a finite number"},
		{"default", "NaN bias gain", func(s *RackState) { s.MotorGain[4] = math.NaN() }, "motor_gain[4] (bias pot): NaN"},
		{"ratchet", "Inf remainder", func(s *RackState) { s.RatchetRemainder[3] = math.Inf(1) }, "ratchet_remainder[3]: +Inf, want a finite number"},
		{"default", "beyond stop", func(s *RackState) { s.Wiper[3], s.Motor[3] = 65, 65 }, "potentiometer: wiper[3]: 65, want within the end stops at +-64"},
		{"default", "below stop", func(s *RackState) { s.Wiper[3], s.Motor[3] = -64.1, -64.1 }, "wiper[3]: -64.1, want within the end stops"},
		{"default", "motor beyond its limit", func(s *RackState) { s.Wiper[3], s.Motor[3] = 64, 64.2 }, "potentiometer: motor[3]: 64.2, want within the motor-side limits at +-64.15"},
		{"default", "motor out of the play", func(s *RackState) { s.Motor[0] = s.Wiper[0] + 0.2 }, "want within backlash/2 = 0.15 of its wiper"},
		{"default", "motor out of the play below", func(s *RackState) { s.Motor[0] = s.Wiper[0] - 0.16 }, "potentiometer: motor[0]: "},
		{"default", "zero gain", func(s *RackState) { s.MotorGain[1] = 0 }, "potentiometer: motor_gain[1]: 0, want 0.5..1.5"},
		{"default", "negative track gain", func(s *RackState) { s.TrackGain[1] = -1 }, "potentiometer: track_gain[1]: -1, want 0.5..1.5"},
		{"default", "gain beyond the clamp", func(s *RackState) { s.TrackGain[1] = 1.6 }, "track_gain[1]: 1.6, want 0.5..1.5"},
		{"no spread", "gain without a spread", func(s *RackState) { s.MotorGain[2] = 1.01 }, "potentiometer: motor_gain[2]: 1.01, want 1 (its spread is 0)"},
		{"no spread", "track gain without a tolerance", func(s *RackState) { s.TrackGain[4] = 0.99 }, "track_gain[4] (bias pot): 0.99, want 1"},
		{"no spread", "factor without a spread", func(s *RackState) { s.TrackFactor = 1.1 }, "potentiometer: track_factor: 1.1, want 1"},
		{"default", "negative factor", func(s *RackState) { s.TrackFactor = -0.1 }, "potentiometer: track_factor: -0.1, want 0..2"},
		{"default", "factor beyond the clamp", func(s *RackState) { s.TrackFactor = 2.5 }, "track_factor: 2.5, want 0..2"},
		{"default", "NaN factor", func(s *RackState) { s.TrackFactor = math.NaN() }, "track_factor: NaN, want a finite number"},
		{"default", "warm fraction above 1", func(s *RackState) { s.WarmLeft = 1.5 }, "potentiometer: warm_left: 1.5, want 0..1"},
		{"default", "negative warm fraction", func(s *RackState) { s.WarmLeft = -0.1 }, "potentiometer: warm_left: -0.1, want 0..1"},
		{"no drift", "warming without track drift", func(s *RackState) { s.WarmLeft = 0.5 }, "potentiometer: warm_left: 0.5, want 1"},
		{"no drift", "drift time without drift", func(s *RackState) { s.DriftElapsed = 5 }, "potentiometer: drift_elapsed_s: 5, want 0"},
		{"default", "negative time", func(s *RackState) { s.Time = -1 }, "potentiometer: time_s: -1, want >= 0"},
		{"default", "NaN time", func(s *RackState) { s.Time = math.NaN() }, "potentiometer: time_s: NaN, want a finite number"},
		{"default", "Inf elapsed", func(s *RackState) { s.DriftElapsed = math.Inf(1) }, "potentiometer: drift_elapsed_s: +Inf, want a finite number"},
		{"default", "negative elapsed", func(s *RackState) { s.DriftElapsed = -1 }, "potentiometer: drift_elapsed_s: -1, want >= 0 and < drift_interval_s 600"},
		{"default", "a whole interval elapsed", func(s *RackState) { s.DriftElapsed = 600 }, "drift_elapsed_s: 600, want >= 0 and < drift_interval_s 600"},
		{"ratchet", "remainder beyond half a tooth", func(s *RackState) { s.RatchetRemainder[1] = 0.6 }, "potentiometer: ratchet_remainder[1]: 0.6 teeth, want within half a tooth"},
		{"ratchet", "remainder below half a tooth", func(s *RackState) { s.RatchetRemainder[4] = -0.51 }, "ratchet_remainder[4] (bias pot): -0.51 teeth"},
		{"ideal", "motor off the wiper", func(s *RackState) { s.Motor[0] = 1 }, "potentiometer: motor[0]: 1, want the wiper's 0"},
		{"ideal", "gain", func(s *RackState) { s.MotorGain[0] = 1.1 }, "potentiometer: motor_gain[0]: 1.1, want 1"},
		{"ideal", "track gain", func(s *RackState) { s.TrackGain[3] = 0.9 }, "potentiometer: track_gain[3]: 0.9, want 1"},
		{"ideal", "drift time", func(s *RackState) { s.DriftElapsed = 1 }, "potentiometer: drift_elapsed_s: 1, want 0"},
		{"ideal", "track factor", func(s *RackState) { s.TrackFactor = 1.2 }, "potentiometer: track_factor: 1.2, want 1"},
		{"ideal", "warm fraction", func(s *RackState) { s.WarmLeft = 0.5 }, "potentiometer: warm_left: 0.5, want 1"},
		{"ideal", "remainders", func(s *RackState) { s.RatchetRemainder = []float64{0, 0, 0, 0, 0} }, "ratchet_remainder: 5 values, want 0"},
		{"ideal", "NaN wiper", func(s *RackState) { s.Wiper[1], s.Motor[1] = math.NaN(), math.NaN() }, "motor[1]: NaN, want a finite number"},
	}
	for _, tt := range tests {
		t.Run(tt.rack+": "+tt.name, func(t *testing.T) {
			r := mustRack(t, 4, racks[tt.rack], newRNG(19))
			r.Drive([]uint16{3}, 1, 0, newRNG(20))
			before := r.State()
			st := cloneState(goods[tt.rack])
			tt.mod(&st)
			err := r.SetState(st)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "potentiometer: ") {
				t.Fatalf("SetState: %v, want an error containing %q", err, tt.want)
			}
			if after := r.State(); !reflect.DeepEqual(after, before) {
				t.Fatal("failed SetState changed the rack")
			}
		})
	}
	for name, good := range goods {
		r := mustRack(t, 4, racks[name], newRNG(21))
		if err := r.SetState(good); err != nil {
			t.Fatalf("%s: good state: %v", name, err)
		}
		if !reflect.DeepEqual(r.State(), good) {
			t.Fatalf("%s: state did not round-trip", name)
		}
	}
}

func TestParamsValidate(t *testing.T) {
	mod := func(f func(p *Params)) Params { p := DefaultParams(); f(&p); return p }
	tests := []struct {
		name string
		p    Params
		want string // "" = valid
	}{
		{"default", DefaultParams(), ""},
		{"ideal", IdealParams(), ""},
		{"no stops", mod(func(p *Params) { p.Range = math.Inf(1) }), ""},
		{"no drift", mod(func(p *Params) { p.WiperDrift, p.DriftInterval = 0, 0 }), ""},
		{"no warm-up", mod(func(p *Params) { p.TrackDrift, p.TrackTau = 0, 0 }), ""},
		{"warms up", mod(func(p *Params) { p.TrackDrift = 0.05 }), ""},
		{"zero range", mod(func(p *Params) { p.Range = 0 }), "potentiometer: range: 0, want more than 0, at most 1e+06 or +Inf"},
		{"negative range", mod(func(p *Params) { p.Range = -3 }), "potentiometer: range: -3, want more than 0, at most 1e+06 or +Inf"},
		{"NaN range", mod(func(p *Params) { p.Range = math.NaN() }), "range: NaN"},
		{"NaN resolution", mod(func(p *Params) { p.Resolution = math.NaN() }), "potentiometer: resolution: NaN, want 0..1e+06"},
		{"negative backlash", mod(func(p *Params) { p.Backlash = -0.1 }), "potentiometer: backlash: -0.1, want 0..1e+06"},
		{"Inf spread", mod(func(p *Params) { p.MotorSpread = math.Inf(1) }), "potentiometer: motor_spread: +Inf, want 0..1"},
		{"negative tolerance", mod(func(p *Params) { p.Tolerance = -1 }), "potentiometer: tolerance: -1, want 0..1"},
		{"jitter 1", mod(func(p *Params) { p.PulseJitter = 1 }), "potentiometer: pulse_jitter: 1, want 0 or more, less than 1"},
		{"negative drift", mod(func(p *Params) { p.WiperDrift = -1 }), "potentiometer: wiper_drift: -1, want 0..1e+06"},
		{"no interval", mod(func(p *Params) { p.DriftInterval = 0 }), "potentiometer: drift_interval_s: 0, want at least 1 s (wiper_drift is 0.05)"},
		{"negative interval", mod(func(p *Params) { p.DriftInterval = -60 }), "potentiometer: drift_interval_s: -60, want 0 (off), or 1..1e+12"},
		{"gain to zero", mod(func(p *Params) { p.TrackDrift = -1 }), "potentiometer: track_drift: -1, want more than -0.5, at most 1"},
		{"no tau", mod(func(p *Params) { p.TrackTau = 0 }), "potentiometer: track_tau_s: 0, want at least 1 s (track_drift is -0.01)"},
		{"noise NaN", mod(func(p *Params) { p.ContactNoise = math.NaN() }), "potentiometer: contact_noise: NaN, want 0..1e+06"},
		{"ideal NaN", func() Params { p := IdealParams(); p.Backlash = math.NaN(); return p }(), "backlash: NaN"},
		{"neutral", NeutralParams(), ""},
		{"zero value drive", mod(func(p *Params) { p.Drive = "" }), ""},
		{"ratchet", mod(func(p *Params) { p.Drive = DriveRatchet }), ""},
		{"fine ratchet", mod(func(p *Params) { p.Drive, p.TeethPerIncrement = DriveRatchet, MaxTeeth }), ""},
		{"motor ignores teeth", mod(func(p *Params) { p.TeethPerIncrement = 0 }), ""},
		{"warms most", mod(func(p *Params) { p.TrackDrift = -0.49 }), ""},
		{"warm gain to zero", mod(func(p *Params) { p.TrackDrift = -0.5 }), "potentiometer: track_drift: -0.5, want more than -0.5, at most 1"},
		{"negative track spread", mod(func(p *Params) { p.TrackSpread = -0.1 }), "potentiometer: track_spread: -0.1, want 0..1"},
		{"stepper", mod(func(p *Params) { p.Drive = "stepper" }), `potentiometer: drive: "stepper", want motor or ratchet`},
		{"toothless ratchet", mod(func(p *Params) { p.Drive, p.TeethPerIncrement = DriveRatchet, 0 }), "potentiometer: teeth_per_increment: 0, want more than 0 (drive is ratchet)"},
		{"too fine", mod(func(p *Params) { p.TeethPerIncrement = 1001 }), "teeth_per_increment: 1001"},
		{"NaN teeth", mod(func(p *Params) { p.TeethPerIncrement = math.NaN() }), "potentiometer: teeth_per_increment: NaN, want 0..1000"},
		{"negative miss", mod(func(p *Params) { p.RatchetMiss = -0.1 }), "potentiometer: ratchet_miss: -0.1, want 0 or more, less than 1"},
		{"always slips", mod(func(p *Params) { p.RatchetMiss, p.RatchetDouble = 0.5, 0.5 }), "potentiometer: ratchet_double: 0.5, want < 1 - ratchet_miss"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRack(3, tt.p, newRNG(1))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("NewRack: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "potentiometer: ")):
				t.Fatalf("NewRack: %v, want an error containing %q", err, tt.want)
			}
		})
	}
	for _, n := range []int{-1, MaxPots + 1} {
		if _, err := NewRack(n, IdealParams(), nil); err == nil {
			t.Errorf("NewRack(%d) accepted", n)
		}
	}
	if _, err := NewRack(3, DefaultParams(), nil); err == nil {
		t.Error("NewRack with spreads and no random source accepted")
	}
}

func TestParamsJSON(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive, ratchet.TeethPerIncrement = DriveRatchet, 2.5
	for _, p := range []Params{DefaultParams(), IdealParams(), NeutralParams(), quiet(), ratchet} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q Params
		if err := json.Unmarshal(b, &q); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if q != p {
			t.Fatalf("round trip %s: got %+v, want %+v", b, q, p)
		}
	}
	b, err := json.Marshal(IdealParams())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"range":"+Inf"`) || !strings.Contains(string(b), `"ideal":true`) {
		t.Fatalf("ideal params encode as %s", b)
	}
	b, err = json.Marshal(ratchet)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"drive":"ratchet"`) || !strings.Contains(string(b), `"teeth_per_increment":2.5`) {
		t.Fatalf("ratchet params encode as %s", b)
	}
	var q Params
	if err := json.Unmarshal([]byte(`{"range": 12, "backlash": 0.5}`), &q); err != nil || q.Range != 12 || q.Backlash != 0.5 {
		t.Fatalf("decoded %+v, %v", q, err)
	}
	for _, bad := range []string{`{"range": "wide"}`, `{"range": true}`, `{"backlash": "1"}`, `[1]`} {
		if err := json.Unmarshal([]byte(bad), &q); err == nil {
			t.Errorf("decoded %s without error", bad)
		}
	}
}

func TestPanics(t *testing.T) {
	r := mustRack(t, 3, DefaultParams(), newRNG(1))
	rng := newRNG(2)
	for _, tt := range []struct {
		name string
		f    func()
	}{
		{"Drive NaN", func() { r.Drive(nil, math.NaN(), 0, rng) }},
		{"Drive Inf", func() { r.Drive(nil, 0, math.Inf(1), rng) }},
		{"Advance negative", func() { r.Advance(-1, rng) }},
		{"Advance NaN", func() { r.Advance(math.NaN(), rng) }},
		{"Sum bias index", func() { r.Sum([]uint16{3}, rng) }},
		{"Drive bias index", func() { r.Drive([]uint16{3}, 1, 0, rng) }},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f()
		}()
	}
}

func TestZeroAllocs(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive = DriveRatchet
	for _, p := range []Params{DefaultParams(), IdealParams(), ratchet} {
		r := mustRack(t, 512, p, newRNG(1))
		rng := newRNG(2)
		active := randomActive(rng, 512, 0.5, nil)
		if a := testing.AllocsPerRun(100, func() {
			r.Sum(active, rng)
			r.Drive(active, 1, 0, rng)
			r.Drive(active, 0.5, -0.5, rng)
			r.Advance(30, rng)
		}); a != 0 {
			t.Errorf("ideal=%v: %v allocations per presentation", p.Ideal, a)
		}
	}
}

// benchRack is a full Mark I rack (512 A-unit pots) with 256 active.
func benchRack(b *testing.B, p Params) (*Rack, []uint16, *rand.Rand) {
	r := mustRack(b, 512, p, newRNG(1))
	rng := newRNG(2)
	active := make([]uint16, 0, 256)
	for _, i := range rng.Perm(512)[:256] {
		active = append(active, uint16(i))
	}
	slices.Sort(active)
	r.Drive(active, 3, 0, rng)
	return r, active, rng
}

func BenchmarkSumIdeal(b *testing.B) {
	r, active, _ := benchRack(b, IdealParams())
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += r.Sum(active, nil)
	}
	_ = s
}

func BenchmarkSumAnalog(b *testing.B) {
	r, active, rng := benchRack(b, DefaultParams())
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += r.Sum(active, rng)
	}
	_ = s
}

func BenchmarkDriveIdeal(b *testing.B) {
	r, active, _ := benchRack(b, IdealParams())
	b.ReportAllocs()
	d := 1.0
	for b.Loop() {
		r.Drive(active, d, 0, nil)
		d = -d
	}
}

func BenchmarkDriveAnalog(b *testing.B) {
	r, active, rng := benchRack(b, DefaultParams())
	b.ReportAllocs()
	d := 1.0
	for b.Loop() {
		r.Drive(active, d, 0, rng)
		d = -d
	}
}

// BenchmarkDriveGammaAnalog drives all 513 pots (the gamma rule).
func BenchmarkDriveGammaAnalog(b *testing.B) {
	r, active, rng := benchRack(b, DefaultParams())
	b.ReportAllocs()
	d := 1.0
	for b.Loop() {
		r.Drive(active, d*256/513, -d*257/513, rng)
		d = -d
	}
}

// BenchmarkAdvance is one presentation's worth (3 s) of machine time on an analog rack,
// including its share of the drift batches (one per 200 presentations at the default 600 s).
func BenchmarkAdvance(b *testing.B) {
	r, _, rng := benchRack(b, DefaultParams())
	b.ReportAllocs()
	for b.Loop() {
		r.Advance(3, rng)
	}
}

// BenchmarkDriveGammaRatchet drives all 513 pots of a ratchet rack (the gamma rule): most
// steps are carried as remainders, the rest fire a stroke with a slip draw.
func BenchmarkDriveGammaRatchet(b *testing.B) {
	p := DefaultParams()
	p.Drive = DriveRatchet
	r, active, rng := benchRack(b, p)
	b.ReportAllocs()
	d := 1.0
	for b.Loop() {
		r.Drive(active, d*256/513, -d*257/513, rng)
		d = -d
	}
}

// BenchmarkAdvanceWarmUp is Advance without drift: the warm-up alone, a multiplication by the
// factor cached for the last dt.
func BenchmarkAdvanceWarmUp(b *testing.B) {
	p := DefaultParams()
	p.WiperDrift = 0
	r, _, rng := benchRack(b, p)
	b.ReportAllocs()
	for b.Loop() {
		r.Advance(3, rng)
	}
}

// TestUpgradeState loads states of the earlier model: wipers that drifted more than the play
// away from their motors, no warm-up fields. The upgraded state keeps every wiper, puts each
// motor side within the play, loads, and the rack goes on driving and saving.
func TestUpgradeState(t *testing.T) {
	ratchet := DefaultParams()
	ratchet.Drive = DriveRatchet
	for _, p := range []Params{DefaultParams(), ratchet, IdealParams()} {
		const n = 4
		old := RackState{
			Motor:     []float64{4, -64, 64, 0.3, 1e-3},
			Wiper:     []float64{5, -63.85, 63.85, -0.45, 1e-3 + 1e-17},
			MotorGain: []float64{1, 1.02, 0.98, 1.7, 1},
			TrackGain: []float64{1, 1, 1.01, 0.99, 1},
			Time:      3600, DriftElapsed: 300,
		}
		if p.Ideal {
			old.MotorGain, old.TrackGain, old.DriftElapsed = []float64{1, 1, 1, 1, 1}, []float64{1, 1, 1, 1, 1}, 0
		}
		r := mustRack(t, n, p, newRNG(70))
		if err := r.SetState(old); err == nil {
			t.Fatal("an earlier model's state loaded without an upgrade: the test tests nothing")
		}
		up := UpgradeState(p, old)
		if err := r.SetState(up); err != nil {
			t.Fatalf("ideal=%v, drive %s: upgraded state refused: %v", p.Ideal, p.Drive, err)
		}
		if !slices.Equal(up.Wiper, old.Wiper) {
			t.Fatalf("wipers moved: %v, were %v", up.Wiper, old.Wiper)
		}
		if !p.Ideal {
			if want := math.Exp(-2); math.Abs(up.WarmLeft-want) > 1e-15 {
				t.Fatalf("warm_left %v, want %v", up.WarmLeft, want)
			}
			if math.Abs(up.Motor[0]-4.85) > 1e-12 || math.Abs(up.Motor[3]+0.3) > 1e-12 {
				t.Fatalf("motors %v, want 4.85 and -0.3 for the pots that drifted beyond the play", up.Motor)
			}
		}
		checkGear(t, r, "upgraded")
		play(r, newRNG(71), newRNG(72), 200)
		checkGear(t, r, "after play")
		if err := mustRack(t, n, p, newRNG(73)).SetState(r.State()); err != nil {
			t.Fatalf("saved again: %v", err)
		}
	}
}

// SumRacks gives each rack what its Sum gives, bit for bit, with weights that make the order
// of the additions matter (fractions of very different sizes), for every number of active
// pots from none to all, an odd number of racks, a pair of different sizes, and analog racks
// among ideal ones, whose contact noise is drawn in rack order as calls of Sum in turn draw it.
func TestSumRacks(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	build := func(n int, analog bool) *Rack {
		p := IdealParams()
		if analog {
			p = DefaultParams()
		}
		r, err := NewRack(n, p, rand.New(rand.NewPCG(uint64(n), 3)))
		if err != nil {
			t.Fatal(err)
		}
		for i := range n + 1 {
			r.p[i] = math.Ldexp(rng.Float64()-0.5, rng.IntN(60)-30)
			if analog { // within the stops, the motor side with the wiper
				r.p[i] = float64(r.lim*0.9) * math.Ldexp(rng.Float64()-0.5, -rng.IntN(40))
				r.m[i] = r.p[i]
			}
		}
		if analog {
			r.refresh()
			r.Advance(4000, rand.New(rand.NewPCG(5, 6))) // warm: a rack gain other than 1
		}
		return r
	}
	racks := []*Rack{build(40, false), build(40, true), build(40, false), build(40, false), build(40, true),
		build(41, false), build(40, true)}
	if racks[1].Gain() == 1 || racks[1].Params().ContactNoise == 0 {
		t.Fatal("the analog racks have no gain or no contact noise")
	}
	dst := make([]float64, len(racks))
	for k := range 41 {
		active := make([]uint16, 0, k)
		for _, i := range rng.Perm(40)[:k] {
			active = append(active, uint16(i))
		}
		slices.Sort(active)
		seed := rng.Uint64()
		SumRacks(racks, active, rand.New(rand.NewPCG(seed, 1)), dst)
		noise := rand.New(rand.NewPCG(seed, 1))
		for r, rack := range racks {
			if want := rack.Sum(active, noise); math.Float64bits(dst[r]) != math.Float64bits(want) {
				t.Fatalf("%d active, rack %d: SumRacks %v, Sum %v", k, r, dst[r], want)
			}
		}
	}
}
