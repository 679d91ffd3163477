package retina

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
)

// Retina is one machine's photocell field: the per-cell sensitivities (fixed when the machine is
// built) and the lagged conductance of every cell, plus what Prepare keeps between cards.
//
// A Retina is not safe for concurrent use, with one exception: Levels, State and Params only
// read, so they may be called concurrently with each other (from a window or a hardware bridge
// on another goroutine), but not concurrently with Prepare, Expose, Reset or SetState.
type Retina struct {
	p Params

	sens  [N]float64 // per-cell sensitivity, 1 + Spread*z
	level [N]float64 // current conductance of each cell (light 1 at nominal lamp = 1)
	shown [N]float32 // Ideal mode: the light of the last card, when last is nil
	last  *Stimulus  // Ideal mode: the last card shown, whose light stands for the levels

	thr  float64 // comparator threshold in conductance: Threshold^Gamma
	band float64 // noise is drawn only within +-band of thr (8 sigma)

	// Physical bounds: Light <= lamp32 <= Lamp; G and level of cell i <= gmax[i] =
	// sens[i]*Lamp^Gamma, G <= gmax32[i] <= gmax[i].
	lamp32 float32
	gmax   [N]float64
	gmax32 [N]float32

	// exp factors for the lag, for the current dt (latch time and end of presentation).
	fDt                            float64
	fOK                            bool
	riseL, decayL, riseEnd, decEnd float64
	saved                          [N]float64 // Expose: the levels before, when dt is 0
	xs                             [N]float64 // Expose: the readings less the threshold (the AVX2 kernel's)
	noisy                          Bits       // Expose: the cells in the noise band (the AVX2 kernel's)

	pow   power    // light^Gamma
	rot   rotation // of the card
	reach float64  // blur weights reach this many sigmas beyond a cell
	cache []*axes  // the separable weights of the last image sizes, most recent first
	plane *axes    // the focal plane's weights (rotated cards)
	sc    scratch  // Prepare's buffers
}

// Expose takes the cells two at a time: every word of Bits holds an even number of them.
var _ = [1]struct{}{}[N%2]

// noiseBandSigmas is how far from the threshold, in noise sigmas, a cell's dark noise is still
// drawn. Beyond 8 sigma the chance that the noise flips the comparator is below 1e-15
// (P(Z > 8) = 6.2e-16), so skipping the draw there is exact for any practical run.
const noiseBandSigmas = 8

// New builds a retina with parameters p. It draws every cell's sensitivity from rng (N standard
// normal draws, in cell order, whatever Spread is, so that machines with the same seed and
// different Spread have proportional spreads); in Ideal mode, it draws nothing and rng may be
// nil. rng may also be nil when Spread is 0. The cells start as Reset leaves them.
func New(p Params, rng *rand.Rand) (*Retina, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r := &Retina{p: p}
	for i := range r.sens {
		r.sens[i] = 1
	}
	r.rot = turn(p.Rotation)
	if !p.Ideal {
		if rng == nil {
			if p.Spread != 0 {
				return nil, fmt.Errorf("retina: spread: %v with a nil rng, want a random source to draw the sensitivities", p.Spread)
			}
		} else {
			for i := range r.sens {
				r.sens[i] = min(max(0, 1+float64(p.Spread*detmath.Normal(rng))), maxSensitivity(p.Spread))
			}
		}
		r.pow.init(p.Gamma)
		r.thr = r.pow.eval(p.Threshold)
		r.band = noiseBandSigmas * p.DarkNoise
		r.reach = tailReach(p.Blur)
		r.lamp32 = below32(p.Lamp)
		r.bounds()
	}
	r.Reset()
	return r, nil
}

// sensSigmas bounds the drawn sensitivities at 1 + sensSigmas*Spread: a draw beyond 10 sigmas
// (probability 1e-23) is clamped, and a state with a larger sensitivity is refused.
const sensSigmas = 10

// maxSensitivity is the largest sensitivity a retina of this spread draws.
func maxSensitivity(spread float64) float64 { return 1 + float64(sensSigmas*spread) }

// below32 returns the largest float32 at or below x >= 0.
func below32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		f = math.Nextafter32(f, 0)
	}
	return f
}

// bounds computes each cell's largest conductance from its sensitivity.
func (r *Retina) bounds() {
	top := r.pow.eval(r.p.Lamp)
	for i, s := range r.sens {
		r.gmax[i] = s * top
		r.gmax32[i] = below32(r.gmax[i])
	}
}

// LampLevel returns Lamp^Gamma, the conductance of a cell of sensitivity 1 under white paper
// and the lamps: a cell of sensitivity s never exceeds s*LampLevel() (Ideal: 1). It only reads.
func (r *Retina) LampLevel() float64 {
	if r.p.Ideal {
		return 1
	}
	return r.pow.eval(r.p.Lamp)
}

// Params returns the retina's parameters. It only reads.
func (r *Retina) Params() Params { return r.p }

// Stimulus is a card as the optics project it onto the field, prepared once by Prepare and shown
// any number of times by Expose. It belongs to the retina that prepared it: G includes that
// retina's cell sensitivities. Expose only reads it.
type Stimulus struct {
	// Light is the light falling on each cell (row*Cols+col), averaged over the cell's area:
	// 0 (black) to Lamp (white paper under the lamps). In Ideal mode it is the plain area
	// average of the luminance, 0..1.
	Light [N]float32
	// G is each cell's target conductance under that light: sensitivity * Light^Gamma, the
	// level the cell relaxes toward, 0..sensitivity*Lamp^Gamma (Ideal: Light itself).
	G [N]float32

	// ideal caches the ideal comparator's output for this card (a pure function of Light and
	// the polarity), so that an ideal presentation costs a copy; idealOK says Prepare filled it.
	ideal   Bits
	pol     int8 // the card's resolved polarity plus one; 0: not prepared
	idealOK bool
}

// IdealBits returns the S-unit states the ideal retina shows for the card, and true, when an
// ideal retina prepared it; the zero Bits and false otherwise.
func (s *Stimulus) IdealBits() (Bits, bool) { return s.ideal, s.idealOK }

// Polarity returns the card's polarity as Prepare resolved it: DarkFigure or LightFigure (with
// AutoPolarity, decided from the card's border). A Stimulus that Prepare did not fill reports
// DarkFigure.
func (s *Stimulus) Polarity() Polarity {
	if s.pol == int8(LightFigure)+1 {
		return LightFigure
	}
	return DarkFigure
}

// polarity returns the polarity Expose uses for s: the resolved one when Prepare filled s,
// otherwise the retina's (DarkFigure for AutoPolarity).
func (r *Retina) polarity(s *Stimulus) Polarity {
	if s.pol == 0 && r.p.Polarity == LightFigure {
		return LightFigure
	}
	return s.Polarity()
}

// Reset puts every cell at rest: the level it reaches with no card in the holder, that is with
// the Surround luminance (white paper by default) under the lamps. New starts there.
func (r *Retina) Reset() {
	if r.p.Ideal {
		r.last = nil
		for i := range r.shown {
			r.shown[i] = float32(r.p.Surround)
		}
		return
	}
	g := r.pow.eval(r.p.Lamp * r.p.Surround)
	for i := range r.level {
		r.level[i] = min(r.sens[i]*g, r.gmax[i])
	}
}

// Rest lets dt seconds pass with no card in the holder: every cell relaxes toward its rest
// level (the Surround under the lamps, as Reset leaves it) with its first-order lag, rising
// with RiseTau or decaying with DecayTau, in closed form. Levels stay between their old value
// and the rest level. In Ideal mode the cells have no lag: they are at rest at once. A dt that
// is negative or NaN counts as 0.
func (r *Retina) Rest(dt float64) {
	if !(dt > 0) {
		return
	}
	if r.p.Ideal {
		r.Reset()
		return
	}
	g := r.pow.eval(r.p.Lamp * r.p.Surround)
	rise, decay := lagFactor(dt, r.p.RiseTau), lagFactor(dt, r.p.DecayTau)
	for i, c := range r.level {
		target := min(r.sens[i]*g, r.gmax[i])
		f := decay
		if target > c {
			f = rise
		}
		// target + (c-target)*f, the product rounded alone (no fused multiply-add).
		r.level[i] = target + float64((c-target)*f)
	}
}

// lagFactor is exp(-t/tau), with tau = 0 an instant response.
func lagFactor(t, tau float64) float64 {
	if tau == 0 {
		if t > 0 {
			return 0
		}
		return 1
	}
	return detmath.Exp(-t / tau)
}

// factors refreshes the cached lag factors for presentations of dt seconds.
func (r *Retina) factors(dt float64) {
	if r.fOK && dt == r.fDt {
		return
	}
	latch := min(r.p.Latch, dt)
	r.riseL = lagFactor(latch, r.p.RiseTau)
	r.decayL = lagFactor(latch, r.p.DecayTau)
	r.riseEnd = lagFactor(dt, r.p.RiseTau)
	r.decEnd = lagFactor(dt, r.p.DecayTau)
	r.fDt, r.fOK = dt, true
}

// Expose shows the prepared card s for dt seconds of machine time and writes the S-unit states
// to out. Each cell relaxes from its current level c0 toward its target G with a first-order
// lag, c(t) = G + (c0-G)*exp(-t/tau), tau = RiseTau when G > c0 and DecayTau otherwise (the
// closed form is exact: the approach is monotone). The comparators read the cells at Latch (or
// at dt when dt < Latch), adding Gaussian dark noise of sigma DarkNoise drawn from noise (only
// for cells within 8 sigma of the threshold, see noiseBandSigmas, in cell order; no noise when
// noise is nil); the cells are left at their level at dt, which stays between c0 and G. With
// the card's polarity (Stimulus.Polarity) DarkFigure a cell is on when its reading is below the
// threshold conductance Threshold^Gamma; with LightFigure when above.
//
// In Ideal mode a cell is on when its Light is below one half (above for LightFigure), and its
// level becomes its Light; dt and noise are unused.
//
// A dt that is negative or NaN counts as 0 (the cells are read at once and keep their levels).
// Expose does not allocate; the exp factors are cached for the last dt.
func (r *Retina) Expose(s *Stimulus, dt float64, noise *rand.Rand, out *Bits) {
	pol := r.polarity(s)
	if r.p.Ideal {
		r.last = s
		if s.idealOK {
			*out = s.ideal
			return
		}
		idealBits(&s.Light, pol, out)
		return
	}
	if !(dt > 0) {
		dt = 0
	}
	r.factors(dt)
	fLatch := [2]float64{r.decayL, r.riseL} // indexed by the sign bit of level - target
	fEnd := [2]float64{r.decEnd, r.riseEnd}
	thr := r.thr
	band2 := r.band * r.band // noise is drawn where (reading - threshold)^2 < band2
	if noise == nil {
		band2 = 0
	}
	light := pol == LightFigure
	// A factor of exactly 1 (no time passes: dt = 0, or dt far below a time constant) must
	// leave the level exactly as it is; G + (c0-G)*1 could differ from c0 in the last bit.
	frozen := fEnd[0] == 1 || fEnd[1] == 1
	if frozen {
		r.saved = r.level
	}
	sigma := r.p.DarkNoise
	r.exposeLoop(s, &fLatch, &fEnd, thr, band2, sigma, light, noise, out)
	if frozen {
		for i, c0 := range r.saved[:] {
			if d := c0 - float64(s.G[i]); fEnd[math.Float64bits(d)>>63] == 1 {
				r.level[i] = c0
			}
		}
	}
}

// exposeGo is Expose's loop over the cells: the new levels, the readings at the latch less
// the threshold with their dark noise, and the S-unit states.
func (r *Retina) exposeGo(s *Stimulus, fLatch, fEnd *[2]float64, thr, band2, sigma float64, light bool, noise *rand.Rand, out *Bits) {
	// Every cell, two at a time, without a branch that the card's pattern would make
	// unpredictable, except the dark noise: it is drawn only for the few cells near the
	// threshold (on the digits about 5% of them), in cell order.
	for w := range Words {
		base := w * 64
		n := min(64, N-base) // even
		g := s.G[base : base+n]
		c := r.level[base : base+n]
		c = c[:len(g)]
		var word uint64 // the bits enter at the top and move down two places per step
		for j := 0; j+1 < len(g); j += 2 {
			ga, ca := float64(g[j]), c[j]
			gb, cb := float64(g[j+1]), c[j+1]
			da, db := ca-ga, cb-gb
			// Rising (G above the level, d < 0) or decaying: the sign bit of d picks the
			// factors. The conversions keep each product rounded (no fused multiply-add), as
			// amd64 computes it, so that architectures that fuse give the same results.
			ka, kb := math.Float64bits(da)>>63, math.Float64bits(db)>>63
			// The readings at the latch, less the threshold.
			xa := ga + float64(da*fLatch[ka]) - thr
			xb := gb + float64(db*fLatch[kb]) - thr
			// The new levels lie between c0 and G: with a factor below 1, round(d*f) is
			// strictly smaller than d in magnitude, so G + round(d*f) cannot pass c0.
			c[j] = ga + float64(da*fEnd[ka])
			c[j+1] = gb + float64(db*fEnd[kb])
			if float64(xa*xa) < band2 {
				xa += float64(sigma * detmath.Normal(noise))
			}
			if float64(xb*xb) < band2 {
				xb += float64(sigma * detmath.Normal(noise))
			}
			// On when the reading is below the threshold (above for LightFigure): the sign
			// bit of x (or of 0-x, which is +0, not -0, when x is +0).
			if light {
				xa, xb = 0-xa, 0-xb
			}
			word = word>>2 | math.Float64bits(xa)>>1&(1<<62) | math.Float64bits(xb)&(1<<63)
		}
		out[w] = word >> (64 - uint(n))
	}
}

// idealBits thresholds the light at one half: on below it (above for LightFigure). The light
// is float32(light[i]): a Stimulus's Light, or (PrepareIdeal) the means before they are stored.
func idealBits[T float32 | float64](light *[N]T, pol Polarity, out *Bits) {
	if pol == LightFigure {
		for w := range Words {
			base := w * 64
			var word uint64
			for j, v := range light[base : base+min(64, N-base)] {
				// v > 0.5: the sign bit of 0.5 - v (+0 when equal), without a branch.
				word |= uint64(math.Float32bits(0.5-float32(v))>>31) << uint(j)
			}
			out[w] = word
		}
		return
	}
	for w := range Words {
		base := w * 64
		var word uint64
		for j, v := range light[base : base+min(64, N-base)] {
			word |= uint64(math.Float32bits(float32(v)-0.5)>>31) << uint(j)
		}
		out[w] = word
	}
}

// Show makes s the card the ideal retina's cells show, as if Expose had just shown it (its
// levels, its state), without exposing it. An analog retina ignores it: its cells' levels are
// its own.
func (r *Retina) Show(s *Stimulus) {
	if r.p.Ideal {
		r.last = s
	}
}

// shownLight returns the light the ideal retina's cells show: the last card's, or what Reset or
// SetState left. It only reads.
func (r *Retina) shownLight() *[N]float32 {
	if r.last != nil {
		return &r.last.Light
	}
	return &r.shown
}

// Levels writes each cell's current analog level (its conductance; 1 is white paper under the
// nominal lamp for a cell of nominal sensitivity) to dst, which must have length at least N.
// Each level is finite and in [0, s*Lamp^Gamma], s the cell's sensitivity (Ideal: the light of
// the last card, [0, 1], read from its Stimulus, which must not be prepared again meanwhile).
// Levels only reads (see Retina).
func (r *Retina) Levels(dst []float32) {
	dst = dst[:N]
	if r.p.Ideal {
		copy(dst, r.shownLight()[:])
		return
	}
	for i, v := range r.level {
		// Rounded down at the bound, which is not always a float32.
		dst[i] = min(float32(v), r.gmax32[i])
	}
}

// State is a retina's saved state: everything that, with the same Params, lets a retina continue
// bit for bit. It holds plain fields for JSON.
type State struct {
	// Sensitivity is each cell's fixed sensitivity factor, N values in cell order.
	Sensitivity []float64 `json:"sensitivity"`
	// Level is each cell's current conductance, N values in cell order (Ideal: the light of the
	// last card).
	Level []float64 `json:"level"`
}

// State returns a copy of the retina's state. It only reads (see Retina).
func (r *Retina) State() State {
	st := State{
		Sensitivity: append([]float64(nil), r.sens[:]...),
		Level:       append([]float64(nil), r.level[:]...),
	}
	if r.p.Ideal {
		for i, v := range r.shownLight() {
			st.Level[i] = float64(v)
		}
	}
	return st
}

// SetState restores a state saved by State from a retina with the same Params. Stimuli prepared
// before SetState carry the old sensitivities: prepare them again. On error the retina is
// unchanged. Every state State returns is accepted.
func (r *Retina) SetState(st State) error {
	if len(st.Sensitivity) != N {
		return fmt.Errorf("retina: sensitivity: %d values, want %d", len(st.Sensitivity), N)
	}
	if len(st.Level) != N {
		return fmt.Errorf("retina: level: %d values, want %d", len(st.Level), N)
	}
	smax := maxSensitivity(r.p.Spread)
	if r.p.Ideal {
		smax = 1
	}
	for i, v := range st.Sensitivity {
		if !(v >= 0) || v > smax {
			return fmt.Errorf("retina: sensitivity: cell %d is %v, want 0..%v", i, v, smax)
		}
	}
	top := r.LampLevel()
	for i, v := range st.Level {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("retina: level: cell %d is %v, want a finite number >= 0", i, v)
		}
		if !r.p.Ideal && v > st.Sensitivity[i]*top {
			return fmt.Errorf("retina: level: cell %d is %v, above its largest conductance %v (sensitivity times lamp^gamma)", i, v, st.Sensitivity[i]*top)
		}
		if r.p.Ideal && v > 1 {
			return fmt.Errorf("retina: level: cell %d is %v, want 0..1 (the ideal retina's light)", i, v)
		}
	}
	copy(r.sens[:], st.Sensitivity)
	copy(r.level[:], st.Level)
	if r.p.Ideal {
		r.last = nil
		for i, v := range st.Level {
			r.shown[i] = float32(v)
		}
	} else {
		r.bounds()
	}
	return nil
}
