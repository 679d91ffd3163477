// Package machine assembles the Mark I Perceptron: the retina of photocells, the plug-board of
// threshold A-units, and one rack of motor-driven potentiometers per R-unit (the emulator's
// arrangement: the record gives motor-driven pots in racks, not how many nor how they were
// grouped), and runs Rosenblatt's learning rules on them.
//
// One presentation (Present or Train) is the hot loop: the retina latches the card's S-states,
// the plug-board fires the A-units, each R-unit sums its rack through the active A-units, and
// on a correction the racks' motors turn. It does not allocate.
//
// With Config.Ideal and any fixed wiring the machine is exactly the textbook fixed-increment
// perceptron (Duda, Hart & Stork): weights and bias from zero, an update whenever
// y * w.phi <= 0.
//
// # Concurrency
//
// One goroutine drives the machine (Train, Present, Epoch, Evaluate, Idle, SetRack). Any other
// goroutine may meanwhile call Snapshot, Clock, Presentations, WriteState and Save: they wait
// for the presentation under way to finish and see the machine between two presentations. The
// parts returned by Retina, Board and Rack belong to the driving goroutine.
package machine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// Streams of the seed: each purpose draws from its own stream, so that changing one part of an
// experiment (say, the analog parameters) does not change another (the wiring).
const (
	streamWiring = iota + 1
	streamRetina
	streamPots
	streamNoise
	streamOrder
)

// Machine is a Mark I Perceptron. See the package documentation for what may be called
// concurrently.
type Machine struct {
	cfg     Config
	classes []string
	codes   [][]int8  // [class][R-unit]: +1, -1 or 0 (neutral)
	coding  string    // the coding in use: CodingOneHot, CodingBinary or CodingTable
	oneHot  bool      // codes are one-hot over the first len(classes) R-units: decide by argmax
	flip    []uint64  // decide's masks, [R-unit*classes + class]: the sign bit for a -1 code
	keep    []uint64  // all ones for a +1 or -1 code, 0 for a neutral one
	scores  []float64 // decide's scratch: each class's score

	retina *retina.Retina
	board  *patchboard.Board
	racks  []Rack
	adv    []Advancer // racks[r] as an Advancer, or nil
	// bank reads, drives and advances the racks' pots, several racks at once, when every rack
	// is a SimRack drawing from the machine's noise stream (their sums never fail), on every
	// processor (AVX2 kernels where there are some); else nil, and each rack is called in turn.
	bank *potentiometer.Bank
	err  error // the first error of a rack (see Err)

	noiseSrc, orderSrc *rand.PCG
	noise, order       *rand.Rand

	// mu is held during every presentation and by every reader from another goroutine.
	mu    sync.Mutex
	clock float64 // machine time, s
	count uint64  // presentations so far

	obs Observer

	// what the last presentation did, and scratch of the hot loop
	s retina.Bits
	a []uint64
	// active lists the firing A-units of the last presentation: activeBuf, or (a deck from
	// PrepareBits) the deck's own list, never written through (its capacity ends with it).
	active, activeBuf []uint16
	sums              []float64
	ev                Event
	perm              []int

	// the last card shown from a deck from PrepareBits, not yet shown to the retina (syncRetina)
	shownFrom  *deckBits
	shownCard  int
	shownStim  retina.Stimulus
	showOptics *retina.Retina
}

// New builds a machine for the given classes (labels, in class-number order). The
// configuration is validated; the wiring, cell and motor spreads are drawn from cfg.Seed.
func New(cfg Config, classes []string) (*Machine, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	if err := checkLabels(classes); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	codes, coding, err := buildCodes(cfg.Coding, cfg.Codes, len(classes), cfg.RUnits)
	if err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	m := &Machine{cfg: cfg, classes: append([]string(nil), classes...), coding: coding}
	seed := cfg.Seed
	if m.board, err = BuildBoard(cfg); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	m.cfg.Board = m.board
	if m.retina, err = retina.New(cfg.Retina, rand.New(rand.NewPCG(seed, streamRetina))); err != nil {
		return nil, fmt.Errorf("machine: %w", err)
	}
	potRNG := rand.New(rand.NewPCG(seed, streamPots))
	m.noiseSrc = rand.NewPCG(seed, streamNoise)
	m.orderSrc = rand.NewPCG(seed, streamOrder)
	m.noise, m.order = rand.New(m.noiseSrc), rand.New(m.orderSrc)
	n := m.board.Len()
	m.racks = make([]Rack, cfg.RUnits)
	for r := range m.racks {
		rack, err := potentiometer.NewRack(n, cfg.Pots, potRNG)
		if err != nil {
			return nil, fmt.Errorf("machine: rack %d: %w", r, err)
		}
		// The simulated racks draw their noise from the machine's noise stream, in the order
		// of the presentation, as the retina does.
		m.racks[r] = NewSimRack(rack, m.noise)
	}
	m.adv = make([]Advancer, len(m.racks))
	for r, rack := range m.racks {
		m.adv[r], _ = rack.(Advancer)
	}
	m.setBank()
	m.codes = codes
	m.oneHot = isOneHot(codes)
	m.setMasks()
	m.a = make([]uint64, (n+63)/64)
	m.activeBuf = make([]uint16, 0, n)
	m.active = m.activeBuf
	m.sums = make([]float64, cfg.RUnits)
	m.ev.Sums = m.sums
	m.ev.Moves = make([]Move, 0, cfg.RUnits)
	return m, nil
}

// checkLabels refuses an empty, blank or repeated class label.
func checkLabels(classes []string) error {
	seen := make(map[string]bool, len(classes))
	for i, c := range classes {
		switch {
		case c == "":
			return fmt.Errorf("classes: class %d has an empty label", i)
		case seen[c]:
			return fmt.Errorf("classes: label %q appears twice", c)
		}
		seen[c] = true
	}
	return nil
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

// Classes returns the class labels in class-number order: the machine's own slice, fixed at
// New, which the caller must not change.
func (m *Machine) Classes() []string { return m.classes }

// Codes returns the code table: Codes()[class][r] is +1, -1 or 0 (neutral). It is the
// machine's own table, fixed at New, which the caller must not change.
func (m *Machine) Codes() [][]int8 { return m.codes }

// Coding returns the coding in use: CodingOneHot, CodingBinary or CodingTable. It is what
// CodingAuto chose, when the configuration asked for that.
func (m *Machine) Coding() string { return m.coding }

// Unused returns the R-units that no class's code trains (neutral in every code), in order:
// their sums take no part in any answer.
func (m *Machine) Unused() []int {
	var unused []int
	for r := range m.racks {
		used := false
		for _, code := range m.codes {
			used = used || code[r] != 0
		}
		if !used {
			unused = append(unused, r)
		}
	}
	return unused
}

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

// SetRack replaces R-unit r's rack, for example with one backed by hardware; it must have as
// many pots as the machine's racks. A machine whose racks are not all Staters cannot be saved.
func (m *Machine) SetRack(r int, rack Rack) error {
	if rack.Len() != m.board.Len()+1 {
		return fmt.Errorf("machine: rack %d: %d pots, want %d (%d A-units and the bias)", r, rack.Len(), m.board.Len()+1, m.board.Len())
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.racks[r] = rack
	m.adv[r], _ = rack.(Advancer)
	m.setBank()
	return nil
}

// setBank sets m.bank from the racks.
func (m *Machine) setBank() {
	m.bank = nil
	pots := make([]*potentiometer.Rack, 0, len(m.racks))
	for _, rack := range m.racks {
		s, ok := rack.(*SimRack)
		if !ok || s.noise != m.noise {
			return
		}
		pots = append(pots, s.Rack)
	}
	bank, err := potentiometer.NewBank(pots)
	if err != nil { // New makes every rack with the board's size and SetRack refuses another
		panic(fmt.Sprintf("machine: %v", err))
	}
	m.bank = bank
}

// Err returns the first error a rack reported (a hardware fault), or nil. The machine goes on
// after an error: a failed Sum counts as the value the rack returned with it, a failed Drive
// as whatever motion the rack made.
func (m *Machine) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// fail records the first rack error (called with the lock held).
func (m *Machine) fail(r int, err error) {
	if m.err == nil {
		m.err = fmt.Errorf("machine: rack %d: %w", r, err)
	}
}

// Halt stops every rack that can be halted (hardware: stop motion, go inert) and returns the
// first error.
func (m *Machine) Halt() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var first error
	for r, rack := range m.racks {
		if h, ok := rack.(Halter); ok {
			if err := h.Halt(); err != nil && first == nil {
				first = fmt.Errorf("machine: rack %d: %w", r, err)
			}
		}
	}
	return first
}

// Clock returns the machine time in seconds.
func (m *Machine) Clock() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.clock
}

// Presentations returns the number of presentations since the machine was built.
func (m *Machine) Presentations() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// Observe sets the observer told of every presentation (nil for none).
func (m *Machine) Observe(o Observer) { m.obs = o }

// Weights appends R-unit r's pot readings to dst and returns it: A-units first, then the
// bias, in increments. With a dst of capacity A-units + 1 it does not allocate.
func (m *Machine) Weights(dst []float64, r int) []float64 {
	n := len(dst)
	dst = slices.Grow(dst, m.board.Len()+1)[:n+m.board.Len()+1]
	w := dst[n:]
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.racks[r].Readings(w); err != nil {
		m.fail(r, err)
	}
	return dst
}

// Last is the last presentation as the goroutine that drives the machine sees it, without a
// copy: valid until the next presentation. Other goroutines use Machine.Snapshot, which
// copies it with the rest of the machine's state.
type Last struct {
	S    *retina.Bits // the S-unit states
	A    []uint64     // the A-unit states, bit-packed
	Sums []float64    // each R-unit's input
}

// Last returns the last presentation (see Last); it belongs to the driving goroutine.
func (m *Machine) Last() Last { return Last{S: &m.s, A: m.a, Sums: m.sums} }

var errNotSimulated = errors.New("a rack is not simulated")
