package potentiometer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// MaxPots is the largest number of A-unit pots a rack may have: active lists hold uint16
// indices.
const MaxPots = 1 << 16

// minGain is the floor of the drawn motor and track gains: a motor or track that far off would
// have been replaced.
const minGain = 0.5

// Rack is one R-unit's pots: n A-unit pots (indices 0..n-1) and the bias pot (index n). It is
// not safe for concurrent use.
type Rack struct {
	prm   Params
	n     int
	ideal bool

	m  []float64 // motor positions (ideal: the same array as p)
	p  []float64 // wiper positions
	k  []float64 // motor gains
	g  []float64 // track gains
	rd []float64 // readings g*quantize(p) (ideal: the same array as p)

	t      float64 // machine time, s
	acc    float64 // machine time since the last drift batch, s
	gain   float64 // rack gain at t
	half   float64 // Backlash/2
	perRes float64 // 1/Resolution (0 if continuous)
	mark   []bool  // scratch for Drive's inactive pots, all false between calls
	jitter bool    // per-pulse jitter on
}

// NewRack builds the rack of one R-unit with n A-unit pots and a bias pot, all at 0. rng draws
// the fixed per-pot motor and track gains; it may be nil in ideal mode or when MotorSpread and
// Tolerance are both 0.
func NewRack(n int, p Params, rng *rand.Rand) (*Rack, error) {
	if n < 0 || n > MaxPots {
		return nil, fmt.Errorf("potentiometer: %d A-unit pots, want 0..%d", n, MaxPots)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r := &Rack{prm: p, n: n, ideal: p.Ideal, mark: make([]bool, n), gain: 1}
	r.p = make([]float64, n+1)
	r.k = make([]float64, n+1)
	r.g = make([]float64, n+1)
	for i := range r.k {
		r.k[i], r.g[i] = 1, 1
	}
	if r.ideal {
		r.m, r.rd = r.p, r.p
		return r, nil
	}
	if (p.MotorSpread > 0 || p.Tolerance > 0) && rng == nil {
		return nil, errors.New("potentiometer: NewRack needs a random source for the motor and track spreads")
	}
	r.m = make([]float64, n+1)
	r.rd = make([]float64, n+1)
	r.half = p.Backlash / 2
	if p.Resolution > 0 {
		r.perRes = 1 / p.Resolution
	}
	r.jitter = p.PulseJitter > 0
	for i := range r.k {
		if p.MotorSpread > 0 {
			r.k[i] = max(minGain, 1+p.MotorSpread*rng.NormFloat64())
		}
		if p.Tolerance > 0 {
			r.g[i] = max(minGain, 1+p.Tolerance*rng.NormFloat64())
		}
	}
	r.refresh()
	return r, nil
}

// Params returns the rack's parameters.
func (r *Rack) Params() Params { return r.prm }

// Len returns the number of pots, n+1: the A-unit pots and the bias pot (index n).
func (r *Rack) Len() int { return r.n + 1 }

// Time returns the rack's machine time in seconds.
func (r *Rack) Time() float64 { return r.t }

// Gain returns the rack gain at the rack's machine time (1 in ideal mode), the factor Sum
// applies to the readings.
func (r *Rack) Gain() float64 { return r.gain }

// Pos returns the wiper position of pot i (0..n, n = bias) in increments: the weight before the
// track's resolution and tolerance, the rack gain and the contact noise.
func (r *Rack) Pos(i int) float64 { return r.p[i] }

// Readings copies each pot's reading into dst (len Len(): A-unit pots first, the bias pot
// last): track gain times the wiper position rounded to the track's resolution, in increments.
// Readings carry neither the rack gain nor contact noise, which belong to the sum (see Sum and
// Gain). In ideal mode they are the exact weights.
func (r *Rack) Readings(dst []float64) {
	copy(dst[:r.n+1], r.rd)
}

// Sum is the R-unit's input: the bias reading plus the readings of the active pots, times the
// rack gain, plus contact noise drawn once for the whole sum (sigma ContactNoise*sqrt(a+1) for
// a = len(active)). active holds distinct A-unit indices below Len()-1; an index out of range
// panics. The readings are added in four interleaved partial sums, so integer weights sum
// exactly. In ideal mode the sum is exact, unscaled and noiseless, and noise is not used (it
// may be nil); otherwise noise must not be nil if ContactNoise > 0.
func (r *Rack) Sum(active []uint16, noise *rand.Rand) float64 {
	rd := r.rd[:r.n]
	var s0, s1, s2, s3 float64
	a := active
	for len(a) >= 4 {
		s0 += rd[a[0]]
		s1 += rd[a[1]]
		s2 += rd[a[2]]
		s3 += rd[a[3]]
		a = a[4:]
	}
	for _, i := range a {
		s0 += rd[i]
	}
	s := r.rd[r.n] + ((s0 + s1) + (s2 + s3))
	if r.ideal {
		return s
	}
	s *= r.gain
	if r.prm.ContactNoise > 0 {
		s += r.prm.ContactNoise * math.Sqrt(float64(len(active)+1)) * noise.NormFloat64()
	}
	return s
}

// Drive sends correction pulses: the motors of every active pot and of the bias pot move
// onActive increments, and, if onInactive != 0, the motor of every other A-unit pot moves
// onInactive increments (the gamma rule). Steps may be fractional; their sign is the direction.
// active holds distinct A-unit indices below Len()-1. In ideal mode the wipers move exactly
// the steps and noise is not used (it may be nil); otherwise noise draws the per-pulse jitter,
// once per moved pot, and must not be nil if PulseJitter > 0. Non-finite steps panic.
func (r *Rack) Drive(active []uint16, onActive, onInactive float64, noise *rand.Rand) {
	if math.IsNaN(onActive) || math.IsInf(onActive, 0) || math.IsNaN(onInactive) || math.IsInf(onInactive, 0) {
		panic(fmt.Sprintf("potentiometer: Drive(%v, %v): non-finite steps", onActive, onInactive))
	}
	n := r.n
	if r.ideal {
		p := r.p[:n]
		if onActive != 0 {
			for _, i := range active {
				p[i] += onActive
			}
			r.p[n] += onActive
		}
		if onInactive != 0 {
			mark := r.mark[:n]
			for _, i := range active {
				mark[i] = true
			}
			for i := range p {
				if mark[i] {
					mark[i] = false
				} else {
					p[i] += onInactive
				}
			}
		}
		return
	}
	if onActive != 0 {
		p := r.p[:n]
		for _, i := range active {
			_ = p[i] // bounds: A-unit pots only
			r.move(int(i), onActive, noise)
		}
		r.move(n, onActive, noise)
	}
	if onInactive != 0 {
		mark := r.mark[:n]
		for _, i := range active {
			mark[i] = true
		}
		for i := range mark {
			if mark[i] {
				mark[i] = false
			} else {
				r.move(i, onInactive, noise)
			}
		}
	}
}

// move drives pot i's motor by s nominal increments and lets the wiper follow through the
// backlash (analog mode only).
func (r *Rack) move(i int, s float64, noise *rand.Rand) {
	travel := s * r.k[i]
	if r.jitter {
		travel *= 1 + r.prm.PulseJitter*(2*noise.Float64()-1)
	}
	// Explicit comparisons rather than min and max: the values are never NaN, and the
	// builtins' NaN and signed-zero handling costs more than the whole backlash model.
	lim := r.prm.Range
	m := r.m[i] + travel
	if m > lim {
		m = lim
	} else if m < -lim {
		m = -lim
	}
	r.m[i] = m
	p0 := r.p[i]
	p := p0
	if m > p+r.half {
		p = m - r.half
	} else if m < p-r.half {
		p = m + r.half
	}
	if p > lim {
		p = lim
	} else if p < -lim {
		p = -lim
	}
	if p != p0 {
		r.p[i] = p
		r.rd[i] = r.read(i, p)
	}
}

// read returns the reading of pot i with its wiper at p: track gain times p rounded to the
// track's resolution.
func (r *Rack) read(i int, p float64) float64 {
	if res := r.prm.Resolution; res > 0 {
		p = res * math.RoundToEven(p*r.perRes)
	}
	return r.g[i] * p
}

// refresh recomputes every reading (analog mode).
func (r *Rack) refresh() {
	for i, p := range r.p {
		r.rd[i] = r.read(i, p)
	}
}

// Advance lets dt seconds of machine time pass (dt >= 0; negative or non-finite dt panics).
// The rack gain follows the warm-up curve; the wipers drift in batches: once DriftInterval
// seconds have accumulated, every wiper takes one Gaussian step of variance
// WiperDrift^2*elapsed/3600 (exact however dt compares with the interval) and the readings are
// refreshed. Between batches nothing is computed per pot. In ideal mode Advance only counts
// time and noise is not used (it may be nil); otherwise noise must not be nil if WiperDrift > 0.
func (r *Rack) Advance(dt float64, noise *rand.Rand) {
	if !(dt >= 0) || math.IsInf(dt, 0) {
		panic(fmt.Sprintf("potentiometer: Advance(%v): want a finite dt >= 0", dt))
	}
	r.t += dt
	if r.ideal {
		return
	}
	r.gain = r.gainAt(r.t)
	if r.prm.WiperDrift > 0 {
		r.acc += dt
		if r.acc >= r.prm.DriftInterval {
			r.drift(noise)
		}
	}
}

// gainAt is the rack gain after t seconds of machine time.
func (r *Rack) gainAt(t float64) float64 {
	if r.ideal || r.prm.TrackDrift == 0 {
		return 1
	}
	return 1 + r.prm.TrackDrift*(1-math.Exp(-t/r.prm.TrackTau))
}

// drift applies the accumulated wiper drift to every pot.
func (r *Rack) drift(noise *rand.Rand) {
	sd := r.prm.WiperDrift * math.Sqrt(r.acc/3600)
	r.acc = 0
	lim := r.prm.Range
	for i := range r.p {
		r.p[i] = min(max(r.p[i]+sd*noise.NormFloat64(), -lim), lim)
	}
	r.refresh()
}
