package audio

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"
)

// samples reads n seconds of the left channel.
func samples(s *Synth, secs float64) []float64 {
	n := int(secs * SampleRate)
	buf := make([]byte, 8*n)
	s.Read(buf)
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[8*i:])))
		if r := math.Float32frombits(binary.LittleEndian.Uint32(buf[8*i+4:])); float64(r) != out[i] {
			panic("the channels differ")
		}
	}
	return out
}

func rms(x []float64) float64 {
	sum := 0.0
	for _, v := range x {
		sum += v * v
	}
	return math.Sqrt(sum / float64(max(1, len(x))))
}

func peak(x []float64) float64 {
	p := 0.0
	for _, v := range x {
		p = max(p, math.Abs(v))
	}
	return p
}

const ms = SampleRate / 1000

func TestSilentUntilTold(t *testing.T) {
	if p := peak(samples(New(1), 0.5)); p != 0 {
		t.Errorf("a new synth's peak is %v, want silence", p)
	}
}

// TestClickIsATransient: a click is loud at once and gone within its 40 ms.
func TestClickIsATransient(t *testing.T) {
	s := New(1)
	s.Click(1)
	x := samples(s, 0.2)
	head, tail := peak(x[:5*ms]), peak(x[40*ms:])
	if head < 0.2 {
		t.Errorf("the click's first 5 ms peak at %.3f, want a sharp hit (at least 0.2)", head)
	}
	if tail != 0 {
		t.Errorf("after 40 ms the click still sounds (peak %.4f)", tail)
	}
	if e1, e2 := rms(x[:10*ms]), rms(x[20*ms:40*ms]); !(e2 < e1/5) {
		t.Errorf("the click does not decay: %.4f in the first 10 ms, %.4f at 20-40 ms", e1, e2)
	}
	// Three relays: three hits, 6 ms apart.
	s.Click(3)
	x = samples(s, 0.1)
	if rms(x[12*ms:14*ms]) < rms(x[9*ms:11*ms]) {
		t.Errorf("the third relay (at 12 ms) is not heard")
	}
}

// TestWhirGrowsWithMotors: the whir's level grows with the motors turning, and stops with them.
func TestWhirGrowsWithMotors(t *testing.T) {
	s := New(1)
	var prev float64
	for _, n := range []int{10, 100, 300, 600} {
		s.SetMotors(n)
		samples(s, 0.3) // the level glides there
		level := rms(samples(s, 0.5))
		if level <= prev*1.2 {
			t.Errorf("%d motors: level %.4f, not above %.4f (fewer motors)", n, level, prev)
		}
		prev = level
	}
	s.SetMotors(0)
	samples(s, 0.5)
	if p := peak(samples(s, 0.2)); p > 1e-3 {
		t.Errorf("no motor turns, yet the whir peaks at %.4f", p)
	}
}

func TestMuteAndVolume(t *testing.T) {
	loud, soft, muted := New(1), New(0.25), New(1)
	muted.SetMuted(true)
	for _, s := range []*Synth{loud, soft, muted} {
		s.SetMotors(400)
		s.Click(2)
	}
	a, b, c := rms(samples(loud, 0.5)), rms(samples(soft, 0.5)), samples(muted, 0.5)
	if p := peak(c); p != 0 {
		t.Errorf("muted, the peak is %v: want no sound at all", p)
	}
	if r := b / a; math.Abs(r-0.25) > 0.01 {
		t.Errorf("at volume 0.25 the level is %.3f of full volume's", r)
	}
	muted.SetMuted(false)
	if rms(samples(muted, 0.2)) == 0 {
		t.Errorf("unmuted, still silent")
	}
}

func TestReadDoesNotAllocate(t *testing.T) {
	s := New(1)
	s.SetMotors(200)
	buf := make([]byte, 8*1024)
	if n := testing.AllocsPerRun(50, func() { s.Click(1); s.Read(buf) }); n != 0 {
		t.Errorf("Read: %v allocations", n)
	}
}

func TestMotors(t *testing.T) {
	var m Motors
	pots := [][]float64{{0, 0, 0}, {0, 0}}
	if n := m.Update(pots, 1, 0.1, false); n != 0 {
		t.Errorf("a new machine: %d turning", n)
	}
	pots[0][1], pots[1][0] = 2, -1 // a correction: two pots move 2 and 1 increments
	if n := m.Update(pots, 1, 0.1, false); n != 2 {
		t.Errorf("%d turning, want 2", n)
	}
	// At 2 increments a second, the pot moving 1 arrives after 0.5 s, the other after 1 s.
	for range 4 {
		m.Update(pots, 1, 0.1, false)
	}
	if n := m.Update(pots, 1, 0.1, false); n != 1 {
		t.Errorf("after 0.6 s: %d turning, want 1", n)
	}
	for range 5 {
		m.Update(pots, 1, 0.1, false)
	}
	if n := m.Update(pots, 1, 0.1, false); n != 0 {
		t.Errorf("after 1.2 s: %d turning, want 0", n)
	}
	// Ten times faster: the same move takes a tenth of the time.
	pots[0][0] = 1
	m.Update(pots, 10, 0.01, false)
	if n := m.Update(pots, 10, 0.05, false); n != 0 {
		t.Errorf("at 10x, after 0.06 s: %d turning, want 0", n)
	}
	// At full speed, the pots that moved since the last update count.
	pots[0][2], pots[1][1] = 5, 5
	if n := m.Update(pots, math.Inf(1), 0.01, false); n != 2 {
		t.Errorf("at full speed: %d turning, want 2", n)
	}
	if n := m.Update(pots, math.Inf(1), 0.01, false); n != 0 {
		t.Errorf("at full speed, nothing moved: %d turning", n)
	}
}

// BenchmarkSynth is the cost of a 60th of a second of sound.
func BenchmarkSynth(b *testing.B) {
	s := New(1)
	s.SetMotors(300)
	buf := make([]byte, 8*SampleRate/60)
	b.ReportAllocs()
	for b.Loop() {
		s.Click(1)
		s.Read(buf)
	}
}

// With a rig, the whir follows its knobs: none turning is silence, all of them the whir at
// its loudest, and in between in proportion.
func TestRigMotors(t *testing.T) {
	for _, c := range []struct{ moving, knobs, want int }{
		{0, 24, 0}, {24, 24, FullWhir}, {6, 24, FullWhir / 4}, {1, 16, FullWhir / 16}, {3, 0, 0}, {30, 24, FullWhir},
	} {
		t.Run(fmt.Sprintf("%d of %d", c.moving, c.knobs), func(t *testing.T) {
			if got := RigMotors(c.moving, c.knobs); got != c.want {
				t.Errorf("RigMotors(%d, %d) = %d, want %d", c.moving, c.knobs, got, c.want)
			}
		})
	}
	// And the synthesiser makes the same whir of it as of the screen's motors.
	loud, quiet := New(1), New(1)
	loud.SetMotors(RigMotors(24, 24))
	quiet.SetMotors(RigMotors(2, 24))
	if l, q := rms(samples(loud, 0.5)), rms(samples(quiet, 0.5)); !(l > 3*q && q > 0) {
		t.Errorf("every knob turning: rms %.4f; two of 24: %.4f", l, q)
	}
}
