package trace

import (
	"math/big"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// Stepper runs a rule one presentation at a time, keeping only the weights and the epoch under
// way: Run records its steps into a Trace, and a host that shows the rule live (the browser
// lab) asks for one presentation at a time without keeping them all.
type Stepper struct {
	c     Config
	d     *Data
	xs    []exact.Vec
	w     exact.Vec
	start exact.Vec
	epoch int      // the epoch under way, from 1
	next  int      // the next sample of the epoch
	n     int      // presentations so far
	k     int      // updates so far (the k of eta(k))
	end   EpochEnd // the epoch under way
	seen  map[string]int

	done, converged bool
	repeats         int

	pocket                  exact.Vec
	pocketMisses, pocketRun int
	run                     int  // the current weights' run of samples met
	tried                   bool // the current weights were compared with the pocket's
	inPocket                bool // the current weights are the pocket's
}

// NewStepper returns a stepper of the rule c on the data d (validated), at its start.
func NewStepper(d *Data, c Config) (*Stepper, error) {
	if err := c.Validate(d); err != nil {
		return nil, err
	}
	s := &Stepper{c: c, d: d, xs: make([]exact.Vec, len(d.Points)), repeats: -1}
	for i, p := range d.Points {
		s.xs[i] = c.Bias.Augment(p.X)
	}
	s.w = exact.Zeros(len(s.xs[0]))
	if c.Init != nil {
		s.w = c.Init.Clone()
	}
	s.start = s.w.Clone()
	s.seen = map[string]int{s.w.String(): 0}
	if c.Pocket != NoPocket {
		s.pocket, s.pocketMisses, s.inPocket = s.w.Clone(), s.Misses(s.w), true
	}
	return s, nil
}

// Misses counts the samples the weights w do not meet.
func (s *Stepper) Misses(w exact.Vec) int {
	n := 0
	for i, x := range s.xs {
		if !s.c.Met(s.d.Points[i].Y, w.Dot(x)) {
			n++
		}
	}
	return n
}

// Next presents the next sample and returns the step, with the epoch's summary when the step
// ended an epoch (nil otherwise). Call it only while not Done.
func (s *Stepper) Next() (Step, *EpochEnd) {
	if s.next == 0 {
		s.epoch++
		s.end = EpochEnd{Epoch: s.epoch}
		if s.c.Rule == Batch {
			s.end.Sum = exact.Zeros(len(s.w))
		}
	}
	i := s.next
	x, y := s.xs[i], s.d.Points[i].Y
	s.n++
	sc := s.w.Dot(x)
	st := Step{N: s.n, Epoch: s.epoch, Sample: i, X: x, Y: y, Score: sc,
		Signed: new(big.Rat).Mul(exact.Int(int64(y)), sc), Met: s.c.Met(y, sc), Before: s.w.Clone()}
	switch {
	case !st.Met:
		s.end.Mistakes++
		if s.c.Rule == Batch {
			// The batch rule's increment is that of the update at the epoch's end.
			s.end.Sum.AddScaled(exact.Int(int64(y)), x)
			break
		}
		s.k++
		st.Eta = s.c.Rate(s.k)
		s.w.AddScaled(new(big.Rat).Mul(st.Eta, exact.Int(int64(y))), x)
		s.run, s.tried, s.inPocket = 0, false, false
	case s.c.Pocket != NoPocket:
		s.run++
		switch {
		case s.inPocket:
			// The pocket's run is the longest its weights made.
			s.pocketRun = max(s.pocketRun, s.run)
		case s.run > s.pocketRun && !s.tried:
			s.tried = true
			misses := s.Misses(s.w)
			if s.c.Pocket == PocketRun || misses < s.pocketMisses {
				s.pocket, s.pocketMisses, s.pocketRun, s.inPocket = s.w.Clone(), misses, s.run, true
				st.Pocketed = true
			}
		}
	}
	st.W = s.w.Clone()
	s.next++
	if s.next < len(s.xs) {
		return st, nil
	}
	// The epoch's end.
	s.next = 0
	if s.c.Rule == Batch && s.end.Mistakes > 0 {
		s.k++
		eta := s.c.Rate(s.k)
		for _, v := range s.end.Sum {
			v.Mul(v, eta)
		}
		s.w.AddScaled(exact.Int(1), s.end.Sum)
	}
	s.end.W = s.w.Clone()
	end := s.end
	switch key := s.w.String(); {
	case end.Mistakes == 0:
		s.converged, s.done = true, true
	case s.c.Schedule == Constant && s.seenBefore(key):
		s.done = true
	case s.epoch >= s.c.epochs():
		s.done = true
	}
	return st, &end
}

// seenBefore reports whether the weights key ended an earlier epoch (or started the trace),
// noting the epoch that they repeat, and otherwise remembers them as this epoch's.
func (s *Stepper) seenBefore(key string) bool {
	if e, ok := s.seen[key]; ok {
		s.repeats = e
		return true
	}
	s.seen[key] = s.epoch
	return false
}

// Done reports whether the trace has ended: an epoch met every sample, the weights cycle, or
// the most epochs have run.
func (s *Stepper) Done() bool { return s.done }

// Converged reports whether an epoch met every sample.
func (s *Stepper) Converged() bool { return s.converged }

// Repeats returns, when the rule cycles, the epoch whose end weights the last epoch's repeat
// (0 for the start); -1 otherwise.
func (s *Stepper) Repeats() int { return s.repeats }

// Start returns the initial weights.
func (s *Stepper) Start() exact.Vec { return s.start.Clone() }

// W returns the current weights (the stepper's own: do not change them).
func (s *Stepper) W() exact.Vec { return s.w }

// Xs returns the augmented samples (the stepper's own: do not change them).
func (s *Stepper) Xs() []exact.Vec { return s.xs }

// Presentations returns the presentations so far; Updates the updates (changes of the
// weights) so far; Epoch the epoch under way or last ended, and InEpoch the presentations made
// of it (0 at an epoch's end).
func (s *Stepper) Presentations() int { return s.n }

// Updates returns the number of updates so far.
func (s *Stepper) Updates() int { return s.k }

// Epoch returns the epoch under way, or the last one ended (0 before the first presentation).
func (s *Stepper) Epoch() int { return s.epoch }

// InEpoch returns the presentations made of the epoch under way (0 at an epoch's end).
func (s *Stepper) InEpoch() int { return s.next }

// Pocket returns the pocket's weights (a copy) and the samples they do not meet; nil without a
// pocket.
func (s *Stepper) Pocket() (exact.Vec, int) {
	if s.pocket == nil {
		return nil, 0
	}
	return s.pocket.Clone(), s.pocketMisses
}
