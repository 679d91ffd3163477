package potentiometer

import (
	"math"
	"slices"
	"testing"
)

// TestRatchetRemainder follows a ratchet pot through steps: it moves by whole teeth of
// 1/TeethPerIncrement, rounding the teeth due (the step's plus the remainder carried) to the
// nearest whole number, never against the step, and carries the rest.
func TestRatchetRemainder(t *testing.T) {
	tests := []struct {
		name     string
		teeth    float64
		steps    []float64
		wantPos  []float64
		wantRest []float64
	}{
		{"whole steps", 1, []float64{1, 1, -1}, []float64{1, 2, 1}, []float64{0, 0, 0}},
		{"fractions carried", 1, []float64{0.4, 0.4, 0.4}, []float64{0, 1, 1}, []float64{0.4, -0.2, 0.2}},
		{"tie away from zero", 1, []float64{0.5, -0.5, -0.5}, []float64{1, 0, -1}, []float64{-0.5, 0, 0.5}},
		{"four teeth", 4, []float64{0.3, -0.1, -0.1}, []float64{0.25, 0.25, 0}, []float64{0.2, -0.2, 0.4}},
		{"two and a half teeth", 2.5, []float64{1, 1, 1}, []float64{1.2, 2, 3.2}, []float64{-0.5, 0, -0.5}},
		{"half a tooth per increment", 0.5, []float64{1, 1, -0.2}, []float64{2, 2, 2}, []float64{-0.5, 0, -0.1}},
		{"tiny step against a half tooth", 1, []float64{0.5, 1e-17}, []float64{1, 1}, []float64{-0.5, -0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NeutralParams()
			p.Drive, p.TeethPerIncrement = DriveRatchet, tt.teeth
			r := mustRack(t, 0, p, nil)
			for i, s := range tt.steps {
				before := r.Pos(0)
				r.Drive(nil, s, 0, nil)
				st := r.State()
				if math.Abs(r.Pos(0)-tt.wantPos[i]) > 1e-12 || math.Abs(st.RatchetRemainder[0]-tt.wantRest[i]) > 1e-12 {
					t.Fatalf("step %d (%v): wiper %v, remainder %v teeth, want %v, %v", i, s, r.Pos(0), st.RatchetRemainder[0], tt.wantPos[i], tt.wantRest[i])
				}
				if (s > 0 && r.Pos(0) < before) || (s < 0 && r.Pos(0) > before) {
					t.Fatalf("step %d (%v) moved the wiper from %v to %v", i, s, before, r.Pos(0))
				}
			}
		})
	}
}

// TestRatchetFollowsCommands runs a long random gamma sequence on a ratchet without slips,
// backlash or spreads: every pot stays within half a tooth of the travel commanded so far.
func TestRatchetFollowsCommands(t *testing.T) {
	for _, teeth := range []float64{1, 3, 2.5, 0.5} {
		const n = 100
		p := NeutralParams()
		p.Drive, p.TeethPerIncrement = DriveRatchet, teeth
		r := mustRack(t, n, p, nil)
		want := make([]float64, n+1)
		ctl := newRNG(60)
		var active []uint16
		for range 5000 {
			active = randomActive(ctl, n, ctl.Float64(), active)
			y := float64(2*ctl.IntN(2) - 1)
			N, a := float64(n+1), float64(len(active)+1)
			on, off := y*(N-a)/N, -y*a/N
			r.Drive(active, on, off, nil)
			for i := range n {
				want[i] += off
			}
			for _, i := range active {
				want[i] += on - off
			}
			want[n] += on
		}
		for i, w := range want {
			if d := math.Abs(r.Pos(i)-w) * teeth; d > 0.5+1e-9 {
				t.Fatalf("teeth %v: pot %d at %v, commanded %v: %v teeth apart", teeth, i, r.Pos(i), w, d)
			}
		}
	}
}

// TestRatchetSlips checks the slip probabilities: over many strokes, the fractions of missed
// and double strokes, seen in the travel, are RatchetMiss and RatchetDouble.
func TestRatchetSlips(t *testing.T) {
	tests := []struct{ miss, double float64 }{{0.01, 0.005}, {0.2, 0}, {0, 0.3}, {0.1, 0.1}}
	for _, tt := range tests {
		const n, strokes = 2000, 10
		p := NeutralParams()
		p.Drive, p.TeethPerIncrement, p.RatchetMiss, p.RatchetDouble = DriveRatchet, strokes, tt.miss, tt.double
		r := mustRack(t, n, p, nil)
		all := make([]uint16, n)
		for i := range all {
			all[i] = uint16(i)
		}
		noise := newRNG(61)
		const drives = 10
		for range drives {
			r.Drive(all, 1, 0, noise) // 10 strokes per pot
		}
		var teeth float64
		for i := range r.Len() {
			teeth += r.Pos(i) * strokes
		}
		total := float64((n + 1) * drives * strokes)
		got := teeth / total // 1 - miss + double
		sd := math.Sqrt((tt.miss + tt.double) / total)
		if want := 1 - tt.miss + tt.double; math.Abs(got-want) > 5*sd+1e-12 {
			t.Errorf("miss %v, double %v: %v teeth per stroke, want %v", tt.miss, tt.double, got, want)
		}
	}
}

// TestMotorAndRatchetAgree checks that the ratchet with one tooth per increment and no slips
// moves exactly like the motor without jitter for whole steps, spreads, backlash and stops
// included.
func TestMotorAndRatchetAgree(t *testing.T) {
	p := DefaultParams()
	p.PulseJitter, p.WiperDrift, p.ContactNoise = 0, 0, 0
	q := p
	q.Drive, q.RatchetMiss, q.RatchetDouble = DriveRatchet, 0, 0
	const n = 50
	a, b := mustRack(t, n, p, newRNG(62)), mustRack(t, n, q, newRNG(62))
	ctl := newRNG(63)
	var active []uint16
	for range 3000 {
		active = randomActive(ctl, n, 0.4, active)
		s := float64(2*ctl.IntN(2) - 1)
		if ctl.IntN(10) == 0 {
			s *= 30
		}
		a.Drive(active, s, 0, nil)
		b.Drive(active, s, 0, nil)
		if !slices.Equal(readings(a), readings(b)) || !slices.Equal(a.State().Motor, b.State().Motor) {
			t.Fatal("ratchet and motor differ on whole steps")
		}
	}
}

// TestTrackFactors checks the racks' warm-up factors: drawn once per rack around 1 with the
// spread asked for, within [0, MaxTrackFactor], so warm racks' gains differ.
func TestTrackFactors(t *testing.T) {
	p := NeutralParams()
	p.TrackDrift, p.TrackSpread = -0.01, 0.3
	build := newRNG(64)
	const racks = 4000
	var sum, sq float64
	gains := map[float64]bool{}
	for range racks {
		r := mustRack(t, 1, p, build)
		f := r.State().TrackFactor
		if f < 0 || f > MaxTrackFactor {
			t.Fatalf("factor %v", f)
		}
		sum += f
		sq += (f - 1) * (f - 1)
		r.Advance(1e6, nil)
		if want := 1 - 0.01*f; math.Abs(r.Gain()-want) > 1e-15 {
			t.Fatalf("warm gain %v, want %v", r.Gain(), want)
		}
		gains[r.Gain()] = true
	}
	if m, sd := sum/racks, math.Sqrt(sq/racks); math.Abs(m-1) > 0.02 || math.Abs(sd-0.3) > 0.02 {
		t.Fatalf("factors: mean %v, sd %v, want 1, 0.3", m, sd)
	}
	if len(gains) < racks/2 {
		t.Fatalf("only %d distinct warm gains for %d racks", len(gains), racks)
	}
	// The clamp holds for the widest spread.
	p.TrackSpread = 1
	for range 1000 {
		if f := mustRack(t, 0, p, build).State().TrackFactor; f < 0 || f > MaxTrackFactor {
			t.Fatalf("factor %v beyond the clamp", f)
		}
	}
	// Gains too.
	p = NeutralParams()
	p.MotorSpread, p.Tolerance = 1, 1 // the widest spreads
	st := mustRack(t, 1000, p, build).State()
	for i := range st.MotorGain {
		if st.MotorGain[i] < MinGain || st.MotorGain[i] > MaxGain || st.TrackGain[i] < MinGain || st.TrackGain[i] > MaxGain {
			t.Fatalf("pot %d: gains %v %v beyond the clamp", i, st.MotorGain[i], st.TrackGain[i])
		}
	}
}

// TestWarmUpClosedForm checks the cached closed form of the warm-up against exp(-t/TrackTau)
// for steps of every kind, and that a restored rack continues it bit for bit.
func TestWarmUpClosedForm(t *testing.T) {
	p := NeutralParams()
	p.TrackDrift, p.TrackSpread = -0.01, 0
	r := mustRack(t, 0, p, nil)
	ctl := newRNG(65)
	for step := range 20000 {
		dt := 3.0
		switch ctl.IntN(20) {
		case 0:
			dt = 0
		case 1:
			dt = 1000 * ctl.Float64()
		}
		r.Advance(dt, nil)
		want := 1 - 0.01*(1-math.Exp(-r.Time()/1800))
		if math.Abs(r.Gain()-want) > 1e-14 {
			t.Fatalf("step %d, t = %v: gain %v, want %v", step, r.Time(), r.Gain(), want)
		}
		if step == 10 {
			c := mustRack(t, 0, p, nil)
			if err := c.SetState(r.State()); err != nil {
				t.Fatal(err)
			}
			for range 1000 {
				dt := 3.0
				r.Advance(dt, nil)
				c.Advance(dt, nil)
				if r.Gain() != c.Gain() || r.State().WarmLeft != c.State().WarmLeft {
					t.Fatal("restored rack's warm-up differs")
				}
			}
		}
	}
}
