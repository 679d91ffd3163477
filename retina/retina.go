package retina

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Retina is one machine's photocell field: the per-cell sensitivities (fixed when the machine is
// built) and the lagged conductance of every cell, plus scratch space for Prepare. A Retina is
// not safe for concurrent use.
type Retina struct {
	p Params

	sens  [N]float64 // per-cell sensitivity, 1 + Spread*z
	level [N]float64 // current conductance of each cell (light 1 at nominal lamp = 1)
	shown [N]float32 // Ideal mode: the light of the last card, which stands for the levels
	last  *Stimulus  // Ideal mode: the card whose light is still to be copied into shown

	thr  float64 // comparator threshold in conductance: Threshold^Gamma
	band float64 // noise is drawn only within +-band of thr (8 sigma)

	// exp factors for the lag, for the current dt (latch time and end of presentation).
	fDt                            float64
	fOK                            bool
	riseL, decayL, riseEnd, decEnd float64

	sc scratch // Prepare's buffers
}

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
	if !p.Ideal {
		if rng == nil {
			if p.Spread != 0 {
				return nil, fmt.Errorf("retina: new: %w", errNoRNG)
			}
		} else {
			for i := range r.sens {
				r.sens[i] = max(0, 1+p.Spread*rng.NormFloat64())
			}
		}
		r.thr = math.Pow(p.Threshold, p.Gamma)
		r.band = noiseBandSigmas * p.DarkNoise
	}
	r.Reset()
	return r, nil
}

// Params returns the retina's parameters.
func (r *Retina) Params() Params { return r.p }

// Stimulus is a card as the optics project it onto the field, prepared once by Prepare and shown
// any number of times by Expose. It belongs to the retina that prepared it: G includes that
// retina's cell sensitivities.
type Stimulus struct {
	// Light is the light falling on each cell (row*Cols+col), averaged over the cell's area:
	// 0 (black) to Lamp (white paper under the lamps). In Ideal mode it is the plain area
	// average of the luminance, 0..1.
	Light [N]float32
	// G is each cell's target conductance under that light: sensitivity * Light^Gamma, the
	// level the cell relaxes toward (Ideal: Light itself).
	G [N]float32

	// ideal caches the ideal comparator's output for this card (a pure function of Light), so
	// that an ideal presentation costs a copy; idealPol is the Polarity it was computed for,
	// plus one (0: not computed). Prepare fills it.
	ideal    Bits
	idealPol int8
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
	g := math.Pow(r.p.Lamp*r.p.Surround, r.p.Gamma)
	for i := range r.level {
		r.level[i] = r.sens[i] * g
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
	return math.Exp(-t / tau)
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
// for cells within 8 sigma of the threshold, see noiseBandSigmas; no noise when noise is nil);
// the cells are left at their level at dt. A DarkFigure cell is on when its reading is below
// the threshold conductance Threshold^Gamma; a LightFigure cell when above.
//
// In Ideal mode a cell is on when its Light is below one half (above for LightFigure), and its
// level becomes its Light; dt and noise are unused.
//
// A dt that is negative or NaN counts as 0 (the cells are read at once and keep their levels).
// Expose does not allocate; the exp factors are cached for the last dt.
func (r *Retina) Expose(s *Stimulus, dt float64, noise *rand.Rand, out *Bits) {
	if r.p.Ideal {
		r.exposeIdeal(s, out)
		return
	}
	if !(dt > 0) {
		dt = 0
	}
	r.factors(dt)
	fLatch := [2]float64{r.decayL, r.riseL} // indexed by the sign bit of level - target
	fEnd := [2]float64{r.decEnd, r.riseEnd}
	thr, sigma := r.thr, r.p.DarkNoise
	band2 := r.band * r.band // noise is drawn where (reading - threshold)^2 < band2
	if noise == nil {
		band2 = 0
	}
	light := r.p.Polarity == LightFigure
	for w := range Words {
		base := w * 64
		n := min(64, N-base)
		g := s.G[base : base+n]
		c := r.level[base : base+n]
		c = c[:len(g)]
		var word uint64
		for j, gv := range g {
			gj, cj := float64(gv), c[j]
			d := cj - gj
			// Rising (G above the level, d < 0) or decaying: the sign bit of d picks the
			// factors without a branch the card's pattern would make unpredictable.
			k := math.Float64bits(d) >> 63
			fl, fe := fLatch[k], fEnd[k]
			// The conversions keep each product rounded (no fused multiply-add), as amd64
			// computes it, so that architectures that fuse give the same results from the
			// same factors.
			x := gj + float64(d*fl) - thr // the reading at the latch, less the threshold
			c[j] = gj + float64(d*fe)
			if float64(x*x) < band2 {
				x += float64(sigma * noise.NormFloat64())
			}
			// On when the reading is below the threshold (above for LightFigure): the sign
			// bit of x (or of 0-x, which is +0, not -0, when x is +0).
			if light {
				x = 0 - x
			}
			word |= math.Float64bits(x) >> 63 << (uint(j) & 63)
		}
		out[w] = word
	}
}

// exposeIdeal is Expose in Ideal mode: a fixed threshold of one half on the light, taken from
// the card's cache when Prepare filled it. The cells keep no lagged state; the card is
// remembered for Levels.
func (r *Retina) exposeIdeal(s *Stimulus, out *Bits) {
	r.last = s
	if s.idealPol == int8(r.p.Polarity)+1 {
		*out = s.ideal
		return
	}
	idealBits(&s.Light, r.p.Polarity, out)
}

// idealBits thresholds the light at one half: on below it (above it for LightFigure).
func idealBits(light *[N]float32, pol Polarity, out *Bits) {
	if pol == LightFigure {
		for w := range Words {
			base := w * 64
			var word uint64
			for j, v := range light[base : base+min(64, N-base)] {
				// v > 0.5: the sign bit of 0.5 - v (+0 when equal), without a branch.
				word |= uint64(math.Float32bits(0.5-v)>>31) << uint(j)
			}
			out[w] = word
		}
		return
	}
	for w := range Words {
		base := w * 64
		var word uint64
		for j, v := range light[base : base+min(64, N-base)] {
			word |= uint64(math.Float32bits(v-0.5)>>31) << uint(j)
		}
		out[w] = word
	}
}

// syncShown copies the light of the last ideal card into shown.
func (r *Retina) syncShown() {
	if r.last != nil {
		r.shown = r.last.Light
		r.last = nil
	}
}

// Levels writes each cell's current analog level (its conductance; 1 is white paper under the
// nominal lamp for a cell of nominal sensitivity) to dst, which must have length at least N.
func (r *Retina) Levels(dst []float32) {
	dst = dst[:N]
	if r.p.Ideal {
		r.syncShown()
		copy(dst, r.shown[:])
		return
	}
	for i, v := range r.level {
		dst[i] = float32(v)
	}
}

// State is a retina's saved state: everything that, with the same Params, lets a retina continue
// bit for bit. It holds plain fields for JSON.
type State struct {
	// Sensitivity is each cell's fixed sensitivity factor, N values in cell order.
	Sensitivity []float64 `json:"sensitivity"`
	// Level is each cell's current conductance, N values in cell order.
	Level []float64 `json:"level"`
}

// State returns a copy of the retina's state.
func (r *Retina) State() State {
	st := State{
		Sensitivity: append([]float64(nil), r.sens[:]...),
		Level:       append([]float64(nil), r.level[:]...),
	}
	if r.p.Ideal {
		r.syncShown()
		for i, v := range r.shown {
			st.Level[i] = float64(v)
		}
	}
	return st
}

// SetState restores a state saved by State from a retina with the same Params. Stimuli prepared
// before SetState carry the old sensitivities: prepare them again. On error the retina is
// unchanged.
func (r *Retina) SetState(st State) error {
	if len(st.Sensitivity) != N {
		return fmt.Errorf("retina: state: %d sensitivities, want %d", len(st.Sensitivity), N)
	}
	if len(st.Level) != N {
		return fmt.Errorf("retina: state: %d levels, want %d", len(st.Level), N)
	}
	for i, v := range st.Sensitivity {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("retina: state: sensitivity of cell %d is %v, want a finite number >= 0", i, v)
		}
	}
	for i, v := range st.Level {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("retina: state: level of cell %d is %v, want a finite number >= 0", i, v)
		}
	}
	copy(r.sens[:], st.Sensitivity)
	copy(r.level[:], st.Level)
	if r.p.Ideal {
		r.last = nil
		for i, v := range st.Level {
			r.shown[i] = float32(v)
		}
	}
	return nil
}
