// Package machine assembles the Mark I Perceptron: the retina of photocells, the plug-board of
// threshold A-units, and one rack of motor-driven potentiometers per R-unit, and runs
// Rosenblatt's learning rules on them.
//
// One presentation (Present or Train) is the hot loop: the retina latches the card's S-states,
// the plug-board fires the A-units, each R-unit sums its rack through the active A-units, and
// on a correction the racks' motors turn. It does not allocate.
//
// With Config.Ideal and any fixed wiring the machine is exactly the textbook fixed-increment
// perceptron (Duda, Hart & Stork): weights and bias from zero, an update whenever
// y * w.phi <= 0.
package machine

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// Rack is one R-unit's bank of weights as the machine uses it: the simulated racks of the
// potentiometer package satisfy it, and so can real hardware. Weights are in increments.
type Rack interface {
	// Sum returns the R-unit's input: the bias pot plus the pots of the active A-units.
	Sum(active []uint16, noise *rand.Rand) float64
	// Drive moves the bias pot and the active A-units' pots onActive increments and every
	// other pot onInactive increments.
	Drive(active []uint16, onActive, onInactive float64, noise *rand.Rand)
	// Advance lets dt seconds of machine time pass.
	Advance(dt float64, noise *rand.Rand)
	// Readings copies every pot's reading, A-units first and the bias pot last.
	Readings(dst []float64)
}

// Streams of the seed: each purpose draws from its own stream, so that changing one part of an
// experiment (say, the analog parameters) does not change another (the wiring).
const (
	streamWiring = iota + 1
	streamRetina
	streamPots
	streamNoise
	streamOrder
)

// Machine is a Mark I Perceptron. It is not safe for concurrent use.
type Machine struct {
	cfg     Config
	classes []string
	codes   [][]int8  // [class][R-unit]: +1, -1 or 0 (neutral)
	codef   []float64 // codes flattened, as decide multiplies them

	retina *retina.Retina
	board  *patchboard.Board
	racks  []Rack

	noiseSrc, orderSrc *rand.PCG
	noise, order       *rand.Rand

	clock float64 // machine time, s
	count uint64  // presentations so far

	obs Observer

	// scratch of the hot loop
	s      retina.Bits
	a      []uint64
	active []uint16
	sums   []float64
	ev     Event
	perm   []int
}

// New builds a machine for the given classes (labels, in class-number order). The
// configuration is validated; the wiring, cell and motor spreads are drawn from cfg.Seed.
func New(cfg Config, classes []string) (*Machine, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	codes, err := buildCodes(cfg.Coding, cfg.Codes, len(classes), cfg.RUnits)
	if err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	m := &Machine{cfg: cfg, classes: append([]string(nil), classes...)}
	seed := cfg.Seed
	if m.board, err = BuildBoard(cfg); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	m.cfg.Board = m.board
	if m.retina, err = retina.New(cfg.Retina, rand.New(rand.NewPCG(seed, streamRetina))); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	potRNG := rand.New(rand.NewPCG(seed, streamPots))
	n := m.board.Len()
	m.racks = make([]Rack, cfg.RUnits)
	for r := range m.racks {
		rack, err := potentiometer.NewRack(n, cfg.Pots, potRNG)
		if err != nil {
			return nil, fmt.Errorf("machine: rack %d: %w", r, err)
		}
		m.racks[r] = rack
	}
	m.noiseSrc = rand.NewPCG(seed, streamNoise)
	m.orderSrc = rand.NewPCG(seed, streamOrder)
	m.noise, m.order = rand.New(m.noiseSrc), rand.New(m.orderSrc)
	m.setCodes(codes)
	m.a = make([]uint64, (n+63)/64)
	m.active = make([]uint16, 0, n)
	m.sums = make([]float64, cfg.RUnits)
	m.ev.Sums = m.sums
	m.ev.Moves = make([]Move, 0, cfg.RUnits)
	return m, nil
}

// BuildBoard returns the plug-board cfg describes: cfg.Board if set, else the preset wired from
// the seed's wiring stream (the same board New builds).
func BuildBoard(cfg Config) (*patchboard.Board, error) {
	var b *patchboard.Board
	var err error
	switch {
	case cfg.Board != nil:
		b, err = cfg.Board, cfg.Board.Validate()
	case cfg.Wiring == WiringRandom:
		b, err = patchboard.MarkI(cfg.MarkI, rand.New(rand.NewPCG(cfg.Seed, streamWiring)))
	case cfg.Wiring == WiringIdentity:
		b = patchboard.Identity()
	case cfg.Wiring == WiringLocal:
		b, err = patchboard.Local(cfg.LocalUnits, cfg.LocalRadius, rand.New(rand.NewPCG(cfg.Seed, streamWiring)))
	default:
		err = fmt.Errorf("unknown preset %q (want random, identity, local or a wiring file)", cfg.Wiring)
	}
	if err != nil {
		return nil, fmt.Errorf("wiring: %w", err)
	}
	return b, nil
}

// Config returns the machine's configuration (Board is the wiring in use).
func (m *Machine) Config() Config { return m.cfg }

// Classes returns the class labels in class-number order.
func (m *Machine) Classes() []string { return m.classes }

// Codes returns the code table: Codes()[class][r] is +1, -1 or 0 (neutral).
func (m *Machine) Codes() [][]int8 { return m.codes }

// Retina returns the machine's photocell field.
func (m *Machine) Retina() *retina.Retina { return m.retina }

// Board returns the plug-board.
func (m *Machine) Board() *patchboard.Board { return m.board }

// AUnits returns the number of A-units.
func (m *Machine) AUnits() int { return m.board.Len() }

// RUnits returns the number of R-units.
func (m *Machine) RUnits() int { return len(m.racks) }

// Rack returns R-unit r's rack.
func (m *Machine) Rack(r int) Rack { return m.racks[r] }

// SetRack replaces R-unit r's rack, for example with one backed by hardware. A machine whose
// racks are not all simulated cannot be saved.
func (m *Machine) SetRack(r int, rack Rack) { m.racks[r] = rack }

// Clock returns the machine time in seconds.
func (m *Machine) Clock() float64 { return m.clock }

// Presentations returns the number of presentations since the machine was built.
func (m *Machine) Presentations() uint64 { return m.count }

// Observe sets the observer told of every presentation (nil for none).
func (m *Machine) Observe(o Observer) { m.obs = o }

// Deck is a card set prepared for one machine: the optics of every card computed once.
type Deck struct {
	Stimuli []retina.Stimulus
	Class   []int    // class number of each card, -1 if unknown
	Source  []string // where each card came from
}

// Len returns the number of cards.
func (d *Deck) Len() int { return len(d.Stimuli) }

// Prepare runs the machine's optics on every card of set. The set's classes must be the
// machine's classes (the same labels, the same order).
func (m *Machine) Prepare(set *images.Set) (*Deck, error) {
	if len(set.Classes) != len(m.classes) {
		return nil, fmt.Errorf("machine: data %q has %d classes, the machine knows %d", set.Name, len(set.Classes), len(m.classes))
	}
	for i, c := range set.Classes {
		if c != m.classes[i] {
			return nil, fmt.Errorf("machine: data %q class %d is %q, the machine's is %q", set.Name, i, c, m.classes[i])
		}
	}
	d := &Deck{
		Stimuli: make([]retina.Stimulus, len(set.Cards)),
		Class:   make([]int, len(set.Cards)),
		Source:  make([]string, len(set.Cards)),
	}
	for i, c := range set.Cards {
		m.retina.Prepare(c.Image, &d.Stimuli[i])
		d.Class[i] = c.Class
		d.Source[i] = c.Source
	}
	return d, nil
}

// PrepareImage runs the optics on one image.
func (m *Machine) PrepareImage(img image.Image, dst *retina.Stimulus) { m.retina.Prepare(img, dst) }

// Move is one R-unit's correction in a presentation: the bias pot and the active A-units' pots
// were driven OnActive increments, every other pot OnInactive.
type Move struct {
	R                    int
	OnActive, OnInactive float64
}

// Event describes one presentation. Its slices belong to the machine and are valid only during
// the Observer call.
type Event struct {
	Clock     float64      // machine time at the end of the presentation, s
	Count     uint64       // presentation number, from 1
	Card      int          // index in the deck, or -1
	Class     int          // wanted class, -1 if unknown
	Predicted int          // the machine's answer
	S         *retina.Bits // S-unit states
	A         []uint64     // A-unit states, bit-packed
	Active    []uint16     // firing A-units, ascending
	Sums      []float64    // each R-unit's input before the correction
	Moves     []Move       // corrections made
	Learning  bool
}

// On reports whether R-unit r was on (its sum > 0).
func (e *Event) On(r int) bool { return e.Sums[r] > 0 }

// Observer follows presentations, for a window or a hardware bridge.
type Observer interface {
	Presented(e *Event)
}

// ObserverFunc adapts a function to Observer.
type ObserverFunc func(e *Event)

// Presented calls f(e).
func (f ObserverFunc) Presented(e *Event) { f(e) }

// Present shows a card without learning and returns the machine's answer.
func (m *Machine) Present(s *retina.Stimulus) int {
	return m.present(s, -1, -1, false)
}

// Train shows a card of the given class and applies the learning rule. It returns the
// machine's answer before the correction and the number of R-units that were corrected.
func (m *Machine) Train(s *retina.Stimulus, class int) (predicted, corrected int) {
	p := m.present(s, -1, class, true)
	return p, len(m.ev.Moves)
}

// present is the hot loop.
func (m *Machine) present(s *retina.Stimulus, card, class int, learn bool) int {
	dt := m.cfg.PresentationTime
	m.retina.Expose(s, dt, m.noise, &m.s)
	m.active = m.board.Fire(&m.s, m.a, m.active[:0])
	for r, rack := range m.racks {
		m.sums[r] = rack.Sum(m.active, m.noise)
	}
	pred := m.decide()
	moves := m.ev.Moves[:0]
	if learn {
		moves = m.learn(class, moves)
	}
	for _, rack := range m.racks {
		rack.Advance(dt, m.noise)
	}
	m.clock += dt
	m.count++
	m.ev.Moves = moves
	if m.obs != nil {
		m.ev.Clock, m.ev.Count, m.ev.Card, m.ev.Class, m.ev.Predicted = m.clock, m.count, card, class, pred
		m.ev.S, m.ev.A, m.ev.Active, m.ev.Learning = &m.s, m.a, m.active, learn
		m.obs.Presented(&m.ev)
	}
	return pred
}

// decide decodes the R-unit sums into a class: the class whose code agrees best with the sums
// (argmax of sum_r code[r]*sum[r]). For one-hot codes that is the largest sum; for a binary
// code whose pattern of firing R-units is in the table, it is exactly that class.
func (m *Machine) decide() int {
	r := len(m.sums)
	sums := m.sums[:r]
	best, bestScore := 0, 0.0
	for c := range m.codes {
		code := m.codef[c*r : c*r+r]
		score := 0.0
		for u, v := range code {
			score += v * sums[u]
		}
		if c == 0 || score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// setCodes installs a code table.
func (m *Machine) setCodes(codes [][]int8) {
	m.codes = codes
	m.codef = m.codef[:0]
	for _, code := range codes {
		for _, v := range code {
			m.codef = append(m.codef, float64(v))
		}
	}
}

// learn applies the rule for the wanted class and returns the moves made.
func (m *Machine) learn(class int, moves []Move) []Move {
	code := m.codes[class]
	for r, rack := range m.racks {
		y := float64(code[r])
		if y == 0 {
			continue
		}
		var on, off float64
		switch m.cfg.Rule {
		case Alpha:
			if y*m.sums[r] > 0 {
				continue
			}
			on = y
		case Forced:
			on = y
		case Gamma:
			if y*m.sums[r] > 0 {
				continue
			}
			// a of n pots are active (the bias pot always is): they share a gain of y*(n-a)
			// while all n-a inactive pots lose y*a/n each; the rack total is unchanged.
			n := float64(m.board.Len() + 1)
			a := float64(len(m.active) + 1)
			on, off = y*(n-a)/n, -y*a/n
		}
		rack.Drive(m.active, on, off, m.noise)
		moves = append(moves, Move{R: r, OnActive: on, OnInactive: off})
	}
	return moves
}

// EpochStats summarises one pass through a deck.
type EpochStats struct {
	Epoch       int     `json:"epoch"`
	Cards       int     `json:"cards"`
	Mistakes    int     `json:"mistakes"`    // presentations answered with the wrong class
	Corrections int     `json:"corrections"` // R-unit corrections made
	Clock       float64 `json:"clock_s"`     // machine time at the end
}

// Epoch trains on every card of the deck once, in deck order or shuffled from the machine's
// seed, calling step (if not nil) after each card.
func (m *Machine) Epoch(d *Deck, shuffle bool, step func(i int)) EpochStats {
	var st EpochStats
	order := m.orderOf(d.Len(), shuffle)
	for i, k := range order {
		pred := m.present(&d.Stimuli[k], k, d.Class[k], true)
		if pred != d.Class[k] {
			st.Mistakes++
		}
		st.Corrections += len(m.ev.Moves)
		if step != nil {
			step(i)
		}
	}
	st.Cards, st.Clock = d.Len(), m.clock
	return st
}

// orderOf returns the presentation order for n cards.
func (m *Machine) orderOf(n int, shuffle bool) []int {
	if cap(m.perm) < n {
		m.perm = make([]int, n)
	}
	p := m.perm[:n]
	for i := range p {
		p[i] = i
	}
	if shuffle {
		m.order.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	}
	return p
}

// Result is an evaluation of the machine on a deck, without learning.
type Result struct {
	Cards     int     `json:"cards"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
	Confusion [][]int `json:"confusion"` // [wanted][answered]
}

// Evaluate presents every card of the deck in order without learning.
func (m *Machine) Evaluate(d *Deck) Result {
	k := len(m.classes)
	res := Result{Cards: d.Len(), Confusion: make([][]int, k)}
	for i := range res.Confusion {
		res.Confusion[i] = make([]int, k)
	}
	for i := range d.Stimuli {
		pred := m.present(&d.Stimuli[i], i, d.Class[i], false)
		want := d.Class[i]
		if want >= 0 && want < k {
			res.Confusion[want][pred]++
			if pred == want {
				res.Correct++
			}
		}
	}
	if res.Cards > 0 {
		res.Accuracy = float64(res.Correct) / float64(res.Cards)
	}
	return res
}

// Weights returns R-unit r's pot readings: A-units first, then the bias, in increments.
func (m *Machine) Weights(r int) []float64 {
	w := make([]float64, m.board.Len()+1)
	m.racks[r].Readings(w)
	return w
}

// LastS returns the S-unit states of the last presentation.
func (m *Machine) LastS() *retina.Bits { return &m.s }

// LastA returns the A-unit states of the last presentation, bit-packed.
func (m *Machine) LastA() []uint64 { return m.a }

// LastSums returns the R-unit sums of the last presentation.
func (m *Machine) LastSums() []float64 { return m.sums }

var errNotSimulated = errors.New("a rack is not simulated")
