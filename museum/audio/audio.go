// Package audio synthesises the Mark I's sound, with no audio files: the click of the relays
// when a correction is made, and the whir of the potentiometers' motors, louder the more of
// them turn. A Synth is an endless stream of 32-bit float stereo samples (what ebiten's audio
// package plays with NewPlayerF32); the window tells it of clicks and of how many motors turn
// (Motors counts them as the dials on the screen turn). Volume and mute apply to every
// sample: muted, the stream is silence.
//
// It has no ebiten and no sound card: the tests read the samples.
package audio

import (
	"encoding/binary"
	"math"
	"sync"
)

// SampleRate is the rate of the stream, in samples a second.
const SampleRate = 48000

// Synth is the machine's sound. Its methods may be called from any goroutine; Read from one.
type Synth struct {
	mu      sync.Mutex
	volume  float64
	muted   bool
	clicks  int     // relay clicks waiting to start
	motors  float64 // motors turning now
	level   float64 // the whir's level, following motors smoothly (Read's)
	phase   [3]float64
	noise   uint32
	hum     float64 // low-passed noise for the gears
	active  [maxClicks]click
	gap     int // samples until the next waiting click may start
	samples uint64
}

// click is one relay's click under way.
type click struct {
	t    int     // samples since it started (-1: free)
	amp  float64 // its loudness
	freq float64 // its ring
}

const (
	maxClicks = 12
	clickLen  = SampleRate * 40 / 1000 // a click lasts 40 ms
	clickGap  = SampleRate * 6 / 1000  // relays of one correction close 6 ms apart
	// FullWhir is the number of motors turning at which the whir is at its loudest: more
	// make it no louder (the original's motors were in one room).
	FullWhir = 600
)

// New returns a silent Synth at volume.
func New(volume float64) *Synth {
	s := &Synth{volume: clamp01(volume), noise: 0x9E3779B9}
	for i := range s.active {
		s.active[i].t = -1
	}
	return s
}

func clamp01(v float64) float64 {
	if !(v >= 0) {
		return 0
	}
	return min(v, 1)
}

// SetVolume sets the loudness, 0..1.
func (s *Synth) SetVolume(v float64) {
	s.mu.Lock()
	s.volume = clamp01(v)
	s.mu.Unlock()
}

// Volume returns the loudness.
func (s *Synth) Volume() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.volume
}

// SetMuted mutes the sound or lets it play.
func (s *Synth) SetMuted(m bool) {
	s.mu.Lock()
	s.muted = m
	s.mu.Unlock()
}

// Muted reports whether the sound is muted.
func (s *Synth) Muted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.muted
}

// Click makes n relays click (a correction: one relay an R-unit corrected), one after another.
func (s *Synth) Click(n int) {
	if n <= 0 {
		return
	}
	s.mu.Lock()
	s.clicks = min(s.clicks+n, maxClicks)
	s.mu.Unlock()
}

// SetMotors says how many motors turn now.
func (s *Synth) SetMotors(n int) {
	s.mu.Lock()
	s.motors = float64(max(0, n))
	s.mu.Unlock()
}

func (s *Synth) rand() float64 {
	x := s.noise
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	s.noise = x
	return float64(float64(x)/float64(1<<31)) - 1
}

// Read implements io.Reader: interleaved stereo float32 little-endian samples, as many whole
// frames (8 bytes) as fit in p. It never ends and does not allocate.
func (s *Synth) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(p) / 8
	target := min(s.motors, FullWhir) / FullWhir
	gain := s.volume
	if s.muted {
		gain = 0
	}
	for i := range n {
		v := s.next(target) * gain
		v = max(-1, min(1, v))
		bits := math.Float32bits(float32(v))
		binary.LittleEndian.PutUint32(p[8*i:], bits)
		binary.LittleEndian.PutUint32(p[8*i+4:], bits)
	}
	return n * 8, nil
}

// next returns the next sample (before the volume), with the whir heading for level target.
func (s *Synth) next(target float64) float64 {
	s.samples++
	// Clicks: start the waiting ones a few milliseconds apart.
	if s.gap > 0 {
		s.gap--
	} else if s.clicks > 0 {
		for i := range s.active {
			if s.active[i].t < 0 {
				s.active[i] = click{t: 0, amp: 0.55 + float64(0.15*s.rand()), freq: 2300 + float64(500*s.rand())}
				break
			}
		}
		s.clicks--
		s.gap = clickGap
	}
	out := 0.0
	for i := range s.active {
		c := &s.active[i]
		if c.t < 0 {
			continue
		}
		t := float64(c.t) / SampleRate
		// A sharp hit (noise, 1.5 ms) and the armature's ring (decaying in 6 ms).
		env := math.Exp(-t / 0.006)
		hit := 0.0
		if t < 0.0015 {
			hit = s.rand() * (1 - t/0.0015)
		}
		out += float64(c.amp * (float64(0.6*hit) + float64(0.5*env*math.Sin(2*math.Pi*c.freq*t))))
		c.t++
		if c.t >= clickLen {
			c.t = -1
		}
	}
	// The whir: the motors' hum (a 100 Hz fundamental and two harmonics) and their gears'
	// rumble, in proportion to the motors turning; the level glides (about 40 ms) so that it
	// does not crackle.
	s.level += float64((target - s.level) * (1.0 / (0.04 * SampleRate)))
	if s.level > 1e-6 {
		for k, f := range [3]float64{100, 200, 310} {
			s.phase[k] += f / SampleRate
			if s.phase[k] >= 1 {
				s.phase[k]--
			}
		}
		s.hum += float64((s.rand() - s.hum) * 0.08)
		tone := float64(0.5*math.Sin(2*math.Pi*s.phase[0])) + float64(0.3*math.Sin(2*math.Pi*s.phase[1])) + float64(0.15*math.Sin(2*math.Pi*s.phase[2]))
		out += float64(0.45 * s.level * (float64(0.7*tone) + float64(0.9*s.hum)))
	} else {
		s.level = 0
	}
	return out
}
