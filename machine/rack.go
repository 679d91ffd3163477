package machine

import (
	"math/rand/v2"
	"strconv"

	"github.com/mark1-perceptron/mark1/potentiometer"
)

// Rack is one R-unit's bank of weights as the machine uses it: simulated potentiometers, or
// real hardware (servos turning pots, digital potentiometers). Weights are in increments; the
// bias pot is the last of Len() pots. Every method that may touch a bus can fail: the machine
// keeps the first error (see Machine.Err) and goes on.
//
// A rack may also offer, found by interface assertion: Advance(dt float64) (machine time
// passes: drift and warm-up of simulated pots), State and SetState (hidden state, for saving;
// see Stater), Halt() error (stop motion and go inert), and String() string.
type Rack interface {
	// Len returns the number of pots: the A-unit pots, then the bias pot.
	Len() int
	// Sum returns the R-unit's input: the bias pot plus the pots of the active A-units.
	Sum(active []uint16) (float64, error)
	// Drive moves the bias pot and the active A-units' pots onActive increments and every
	// other pot onInactive increments.
	Drive(active []uint16, onActive, onInactive float64) error
	// Readings copies every pot's reading into dst (len Len()), A-units first, the bias last.
	Readings(dst []float64) error
}

// Advancer is a rack that changes as machine time passes (simulated drift and warm-up).
type Advancer interface {
	Advance(dt float64)
}

// Stater is a rack whose whole hidden state can be saved and restored: a machine can be
// saved only when all its racks are Staters.
type Stater interface {
	State() potentiometer.RackState
	SetState(potentiometer.RackState) error
}

// Halter is a rack that can stop its motion and go inert (periph's conn.Resource.Halt).
type Halter interface {
	Halt() error
}

// SimRack is a simulated rack of potentiometers bound to the random stream its noise comes
// from (per-pulse jitter, contact noise, drift). It never fails.
type SimRack struct {
	*potentiometer.Rack
	noise *rand.Rand
}

// NewSimRack binds a simulated rack to its noise stream (nil is fine for an ideal rack).
func NewSimRack(r *potentiometer.Rack, noise *rand.Rand) *SimRack { return &SimRack{r, noise} }

// Sum returns the R-unit's input (see potentiometer.Rack.Sum).
func (s *SimRack) Sum(active []uint16) (float64, error) { return s.Rack.Sum(active, s.noise), nil }

// Drive sends correction pulses (see potentiometer.Rack.Drive).
func (s *SimRack) Drive(active []uint16, onActive, onInactive float64) error {
	s.Rack.Drive(active, onActive, onInactive, s.noise)
	return nil
}

// Readings copies the pots' readings (see potentiometer.Rack.Readings).
func (s *SimRack) Readings(dst []float64) error {
	s.Rack.Readings(dst)
	return nil
}

// Advance lets machine time pass (see potentiometer.Rack.Advance).
func (s *SimRack) Advance(dt float64) { s.Rack.Advance(dt, s.noise) }

// String names the rack.
func (s *SimRack) String() string { return "simulated rack of " + strconv.Itoa(s.Len()) + " pots" }

var (
	_ Rack     = (*SimRack)(nil)
	_ Advancer = (*SimRack)(nil)
	_ Stater   = (*SimRack)(nil)
)
