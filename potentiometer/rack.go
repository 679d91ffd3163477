package potentiometer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// MaxPots is the largest number of A-unit pots a rack may have: active lists hold uint16
// indices.
const MaxPots = 1 << 16

// Rack is one R-unit's pots: n A-unit pots (indices 0..n-1) and the bias pot (index n). It is
// not safe for concurrent use.
type Rack struct {
	prm     Params
	n       int
	ideal   bool
	ratchet bool

	m   []float64 // motor-side (gear-train input) positions (ideal: the same array as p)
	p   []float64 // wiper (shaft) positions
	k   []float64 // motor gains
	g   []float64 // track gains
	rd  []float64 // readings g*quantize(p) (ideal: the same array as p)
	rem []float64 // ratchet: teeth commanded but not yet delivered, in [-1/2, 1/2]; else nil

	t      float64 // machine time, s
	acc    float64 // machine time since the last drift batch, s
	factor float64 // the rack's warm-up factor f
	coef   float64 // TrackDrift*f
	left   float64 // remaining warm-up fraction, exp(-t/TrackTau)
	gain   float64 // rack gain 1 + coef*(1 - left)
	warm   bool    // the rack gain changes (analog, TrackDrift != 0)
	lastDt float64 // the dt of the cached warm-up factor (-1: none)
	lastF  float64 // exp(-lastDt/TrackTau)

	half   float64 // Backlash/2
	lim    float64 // wiper (shaft) stops, Range
	mlim   float64 // motor-side limit, Range + Backlash/2 (see motorLimit)
	perRes float64 // 1/Resolution (0 if continuous)
	teeth  float64 // ratchet teeth per increment
	miss   float64 // ratchet: probability of a missed stroke
	slip   float64 // ratchet: probability of a missed or double stroke
	mark   []bool  // scratch for Drive's inactive pots, all false between calls
	jitter bool    // per-pulse jitter on (motor drive)
	ver    uint64  // counts the changes that may move a reading (Drive, SetState, a drift batch): a Bank's copy is stale when it differs
}

// NewRack builds the rack of one R-unit with n A-unit pots and a bias pot, all at 0, each motor
// side in the middle of its gear play, the rack cold. rng draws the fixed per-pot motor and
// track gains and the rack's warm-up factor; it may be nil in ideal mode or when MotorSpread
// and Tolerance are 0 and TrackDrift or TrackSpread is 0.
func NewRack(n int, p Params, rng *rand.Rand) (*Rack, error) {
	if n < 0 || n > MaxPots {
		return nil, fmt.Errorf("potentiometer: %d A-unit pots, want 0..%d", n, MaxPots)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r := &Rack{prm: p, n: n, ideal: p.Ideal, mark: make([]bool, n), factor: 1, left: 1, gain: 1, lastDt: -1}
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
	drawFactor := p.TrackDrift != 0 && p.TrackSpread > 0
	if (p.MotorSpread > 0 || p.Tolerance > 0 || drawFactor) && rng == nil {
		return nil, errors.New("potentiometer: NewRack needs a random source for the motor, track and warm-up spreads")
	}
	r.m = make([]float64, n+1)
	r.rd = make([]float64, n+1)
	r.half = p.Backlash / 2
	r.lim = p.Range
	r.mlim = motorLimit(p.Range, r.half)
	if p.Resolution > 0 {
		r.perRes = 1 / p.Resolution
	}
	if p.Drive == DriveRatchet {
		r.ratchet = true
		r.rem = make([]float64, n+1)
		r.teeth = p.TeethPerIncrement
		r.miss, r.slip = p.RatchetMiss, p.RatchetMiss+p.RatchetDouble
	} else {
		r.jitter = p.PulseJitter > 0
	}
	for i := range r.k {
		if p.MotorSpread > 0 {
			r.k[i] = clamp(1+float64(p.MotorSpread*detmath.Normal(rng)), MinGain, MaxGain)
		}
		if p.Tolerance > 0 {
			r.g[i] = clamp(1+float64(p.Tolerance*detmath.Normal(rng)), MinGain, MaxGain)
		}
	}
	if drawFactor {
		r.factor = clamp(1+float64(p.TrackSpread*detmath.Normal(rng)), 0, MaxTrackFactor)
	}
	r.setWarm()
	r.refresh()
	return r, nil
}

// setWarm derives the warm-up coefficient and the rack gain from the factor and the remaining
// warm-up fraction (analog mode).
func (r *Rack) setWarm() {
	r.warm = r.prm.TrackDrift != 0
	r.coef = float64(r.prm.TrackDrift * r.factor)
	r.gain = 1 + float64(r.coef*(1-r.left))
}

func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// motorLimit returns the motor-side limit for wiper stops at +-lim and half-play h: the largest
// float64 m with m - h <= lim as float64 arithmetic rounds it, so that a motor side anywhere
// up to it keeps its wiper within the stops and the motor side at it holds the wiper exactly at
// the stop. +Inf when lim is.
func motorLimit(lim, h float64) float64 {
	if math.IsInf(lim, 1) {
		return lim
	}
	m := lim + h
	for m-h > lim {
		m = math.Nextafter(m, math.Inf(-1))
	}
	for up := math.Nextafter(m, math.Inf(1)); up-h <= lim; up = math.Nextafter(m, math.Inf(1)) {
		m = up
	}
	return m
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
	return r.analogSum(r.rawSum(active), len(active), noise)
}

// rawSum is Sum before the rack gain and the noise: the bias reading plus the active pots'
// readings, in four interleaved partial sums.
func (r *Rack) rawSum(active []uint16) float64 {
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
	return r.rd[r.n] + ((s0 + s1) + (s2 + s3))
}

// analogSum finishes Sum from the raw sum s of a active pots: times the rack gain, plus the
// contact noise (analog mode; an ideal rack returns s).
func (r *Rack) analogSum(s float64, a int, noise *rand.Rand) float64 {
	return r.analogSumRoot(s, math.Sqrt(float64(a+1)), noise)
}

// analogSumRoot is analogSum with sqrt(a+1) given (SumRacks takes it once for every rack).
func (r *Rack) analogSumRoot(s, root float64, noise *rand.Rand) float64 {
	if r.ideal {
		return s
	}
	s = float64(s * r.gain)
	if r.prm.ContactNoise > 0 {
		s += float64(r.prm.ContactNoise * root * detmath.Normal(noise))
	}
	return s
}

// SumRacks writes to dst[r] what racks[r].Sum(active, noise) returns, bit for bit, calling
// them in order as far as noise is concerned: the raw sums (the same four interleaved partial
// sums of each rack, added in the same order) are computed two racks at a time, so that each
// active index is read once for both and there is no call per rack, and then each rack, in
// order, applies its gain and draws its contact noise. len(dst) >= len(racks).
func SumRacks(racks []*Rack, active []uint16, noise *rand.Rand, dst []float64) {
	dst = dst[:len(racks)]
	r := 0
	for ; r+1 < len(racks); r += 2 {
		x, y := racks[r], racks[r+1]
		if x.n != y.n {
			dst[r], dst[r+1] = x.rawSum(active), y.rawSum(active)
			continue
		}
		n := x.n
		rx, ry := x.rd[:n], y.rd[:n]
		var x0, x1, x2, x3, y0, y1, y2, y3 float64
		k := 0
		for ; k+3 < len(active); k += 4 {
			i0, i1, i2, i3 := active[k], active[k+1], active[k+2], active[k+3]
			x0 += rx[i0]
			y0 += ry[i0]
			x1 += rx[i1]
			y1 += ry[i1]
			x2 += rx[i2]
			y2 += ry[i2]
			x3 += rx[i3]
			y3 += ry[i3]
		}
		for _, i := range active[k:] {
			x0 += rx[i]
			y0 += ry[i]
		}
		dst[r] = x.rd[n] + ((x0 + x1) + (x2 + x3))
		dst[r+1] = y.rd[n] + ((y0 + y1) + (y2 + y3))
	}
	if r < len(racks) {
		dst[r] = racks[r].rawSum(active)
	}
	root := math.Sqrt(float64(len(active) + 1))
	for r, x := range racks {
		if !x.ideal {
			dst[r] = x.analogSumRoot(dst[r], root, noise)
		}
	}
}

// Drive sends correction pulses: the drives of every active pot and of the bias pot move
// onActive increments, and, if onInactive != 0, the drive of every other A-unit pot moves
// onInactive increments (the gamma rule). Steps may be fractional; their sign is the
// direction. active holds distinct A-unit indices below Len()-1. In ideal mode the wipers move
// exactly the steps and noise is not used (it may be nil). Otherwise a motor draws its pulse
// jitter from noise, once per moved pot, and a ratchet its slips, once per relay stroke; noise
// must not be nil if PulseJitter > 0 (motor) or RatchetMiss or RatchetDouble > 0 (ratchet).
// A wiper never moves against its step. Non-finite steps panic.
func (r *Rack) Drive(active []uint16, onActive, onInactive float64, noise *rand.Rand) {
	if math.IsNaN(onActive) || math.IsInf(onActive, 0) || math.IsNaN(onInactive) || math.IsInf(onInactive, 0) {
		panic(fmt.Sprintf("potentiometer: Drive(%v, %v): non-finite steps", onActive, onInactive))
	}
	r.ver++
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

// move sends pot i a step of s nominal increments through its drive (analog mode). The motor
// drive's play is turn's, written out here: this is the hot loop of an analog Drive, and a
// second call per pot costs a tenth of it.
func (r *Rack) move(i int, s float64, noise *rand.Rand) {
	if r.ratchet {
		r.stroke(i, s, noise)
		return
	}
	travel := float64(s * r.k[i])
	if r.jitter {
		u := float64(noise.Float64()) // rounded: the compiler may not fuse its product into 2*u
		travel = float64(travel * (1 + float64(r.prm.PulseJitter*(float64(2*u)-1))))
	}
	// As turn(i, travel).
	m0, p0 := r.m[i], r.p[i]
	p := p0
	m := m0 + travel
	if travel > 0 {
		if m >= r.mlim {
			m, p = r.mlim, r.lim
		} else if x := m - r.half; p < x {
			p = x
		}
	} else {
		if m <= -r.mlim {
			m, p = -r.mlim, -r.lim
		} else if x := m + r.half; p > x {
			p = x
		}
	}
	r.m[i] = m
	if p != p0 {
		r.p[i] = p
		r.rd[i] = r.read(i, p)
	}
}

// stroke sends pot i's ratchet the whole teeth due for a step of s increments: the controller
// adds the step's teeth to the pot's remainder, fires the nearest whole number of relay
// strokes (never against the step), and keeps the rest, within half a tooth. Each stroke
// misses its tooth with probability RatchetMiss and moves two with RatchetDouble.
func (r *Rack) stroke(i int, s float64, noise *rand.Rand) {
	due := float64(s*r.teeth) + r.rem[i]
	n := math.Round(due)
	if (s > 0 && n < 0) || (s < 0 && n > 0) {
		n = 0 // a rounding of due to -1/2 (+1/2) against the step: wait
	}
	r.rem[i] = due - n // exact: |due - n| <= 1/2
	strokes := math.Abs(n)
	if strokes == 0 {
		return
	}
	teeth := strokes
	if r.slip > 0 {
		for range int(strokes) {
			if u := noise.Float64(); u < r.miss {
				teeth--
			} else if u < r.slip {
				teeth++
			}
		}
		if teeth == 0 {
			return
		}
	}
	travel := float64(teeth*r.k[i]) / r.teeth
	if n < 0 {
		travel = -travel
	}
	r.turn(i, travel)
}

// turn moves pot i's motor side by travel increments and lets the wiper follow through the
// play: a motor side moving up pushes the wiper to m - Backlash/2 when it lags further behind,
// one moving down pulls it to m + Backlash/2, and otherwise the wiper stays put. The motor
// side stops at the motor-side limit, where it holds the wiper exactly at the end stop. The
// wiper never moves against travel, stays within the stops, and stays within the play of the
// motor side: m - Backlash/2 <= p <= m + Backlash/2, each bound as float64 arithmetic rounds
// it (the invariant SetState checks).
func (r *Rack) turn(i int, travel float64) {
	m0, p0 := r.m[i], r.p[i]
	p := p0
	m := m0 + travel
	// Explicit comparisons rather than min and max: the values are never NaN, and the
	// builtins' NaN and signed-zero handling costs more than the whole backlash model.
	if travel > 0 {
		if m >= r.mlim {
			m, p = r.mlim, r.lim // driven into the stop
		} else if x := m - r.half; p < x {
			p = x
		}
	} else {
		if m <= -r.mlim {
			m, p = -r.mlim, -r.lim
		} else if x := m + r.half; p > x {
			p = x
		}
	}
	r.m[i] = m
	if p != p0 {
		r.p[i] = p
		r.rd[i] = r.read(i, p)
	}
}

// read returns the reading of pot i with its wiper at p: track gain times p rounded to the
// track's resolution.
func (r *Rack) read(i int, p float64) float64 {
	if res := r.prm.Resolution; res > 0 {
		p = float64(res * math.RoundToEven(float64(p*r.perRes)))
	}
	return float64(r.g[i] * p)
}

// refresh recomputes every reading (analog mode).
func (r *Rack) refresh() {
	for i, p := range r.p {
		r.rd[i] = r.read(i, p)
	}
}

// Advance lets dt seconds of machine time pass (dt >= 0; negative or non-finite dt panics).
// The rack gain follows the warm-up curve: the remaining warm-up fraction is multiplied by
// exp(-dt/TrackTau), a factor computed once for each new dt and cached. The shafts drift in
// batches: once DriftInterval seconds have accumulated, every shaft (motor side and wiper
// together) takes one Gaussian step of variance WiperDrift^2*elapsed/3600 (exact however dt
// compares with the interval), stopped at the end stops, and the readings are refreshed.
// Between batches nothing is computed per pot. In ideal mode Advance only counts time and
// noise is not used (it may be nil); otherwise noise must not be nil if WiperDrift > 0.
func (r *Rack) Advance(dt float64, noise *rand.Rand) {
	checkDt(dt)
	r.t += dt
	if r.ideal {
		return
	}
	if r.warm {
		if dt != r.lastDt {
			r.lastDt, r.lastF = dt, detmath.Exp(-dt/r.prm.TrackTau)
		}
		r.left = float64(r.left * r.lastF)
		r.gain = 1 + float64(r.coef*(1-r.left))
	}
	if r.prm.WiperDrift > 0 {
		r.acc += dt
		if r.acc >= r.prm.DriftInterval {
			r.drift(noise)
		}
	}
}

// checkDt panics unless dt is a finite time step >= 0 (Advance's).
func checkDt(dt float64) {
	if !(dt >= 0) || math.IsInf(dt, 0) {
		panic(fmt.Sprintf("potentiometer: Advance(%v): want a finite dt >= 0", dt))
	}
}

// drift moves every shaft by its accumulated creep: the wiper and the motor side move
// together, so the play between them is kept and no later pulse undoes the drift; a shaft
// stops at the end stops.
func (r *Rack) drift(noise *rand.Rand) {
	sd := r.prm.WiperDrift * math.Sqrt(r.acc/3600)
	r.acc = 0
	r.ver++
	for i, p0 := range r.p {
		p := clamp(p0+float64(sd*detmath.Normal(noise)), -r.lim, r.lim)
		r.p[i] = p
		r.m[i] = r.follow(r.m[i]+(p-p0), p)
		r.rd[i] = r.read(i, p) // refresh, in the same pass
	}
}

// follow returns m moved by the fewest ulps that puts wiper p within its play,
// m - Backlash/2 <= p <= m + Backlash/2 as float64 arithmetic rounds it: a shift of the whole
// shaft rounds the motor side and the wiper separately.
func (r *Rack) follow(m, p float64) float64 {
	for m-r.half > p {
		m = math.Nextafter(m, math.Inf(-1))
	}
	for m+r.half < p {
		m = math.Nextafter(m, math.Inf(1))
	}
	return m
}
