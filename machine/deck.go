package machine

import (
	"errors"
	"fmt"
	"image"
	"math/bits"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/hugepage"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// Deck is a card set prepared for one machine: the optics of every card computed once.
type Deck struct {
	// Stimuli are the cards as the retina's optics made them; nil in a deck from PrepareBits.
	Stimuli []retina.Stimulus
	Class   []int    // the machine's class number of each card, -1 if unknown
	Source  []string // where each card came from

	bits *deckBits // PrepareBits' cards
}

// deckBits are the cards of a deck from PrepareBits: what the ideal retina and the plug-board
// make of each, computed once.
type deckBits struct {
	board *patchboard.Unit // the first A-unit of the board that fired them (a clone shares it)
	set   *images.Set      // the cards' images, to show one again (syncRetina)
	s     []retina.Bits
	a     []uint64 // words A-unit words per card
	words int
	pol   []retina.Polarity
	// The firing A-units of card i, ascending, are act[off[i]:off[i+1]]: a presentation copies
	// them rather than finding them again in the A-unit words.
	act []uint16
	off []int
}

// Len returns the number of cards.
func (d *Deck) Len() int { return len(d.Class) }

// Polarity returns card i's polarity as the optics resolved it.
func (d *Deck) Polarity(i int) retina.Polarity {
	if d.bits != nil {
		return d.bits.pol[i]
	}
	return d.Stimuli[i].Polarity()
}

// Compact reports whether the deck holds each card's S- and A-unit states only (PrepareBits).
func (d *Deck) Compact() bool { return d.bits != nil }

// ActiveBytes returns the memory a deck from PrepareBits keeps for its cards' lists of firing
// A-units (2 bytes a firing A-unit), which depend on the cards; 0 for Prepare's deck.
func (d *Deck) ActiveBytes() int64 {
	if d.bits == nil {
		return 0
	}
	return 2 * int64(len(d.bits.act))
}

// Prepare runs the machine's optics on every card of set. Classes are matched by label: every
// class of set must be one of the machine's classes (a set may hold only some of them, in any
// order); a set with labels the machine does not know is refused, naming them.
func (m *Machine) Prepare(set *images.Set) (*Deck, error) {
	toMachine, err := m.classMap(set)
	if err != nil {
		return nil, err
	}
	d := &Deck{
		Stimuli: make([]retina.Stimulus, len(set.Cards)),
		Class:   make([]int, len(set.Cards)),
		Source:  make([]string, len(set.Cards)),
	}
	for i, c := range set.Cards {
		m.retina.Prepare(c.Image, &d.Stimuli[i])
		d.Class[i] = toMachine[c.Class]
		d.Source[i] = c.Source
	}
	return d, nil
}

// PrepareBits prepares set for a machine whose retina is ideal, keeping of each card only what
// its presentations use: the S-unit states the ideal retina shows (a pure function of the card)
// and the A-unit states the plug-board fires for them, 65 bytes plus 8 per 64 A-units and 2 per
// firing A-unit a card (their list, see ActiveBytes) where Prepare keeps 3,256 bytes. Presenting such a deck skips the optics and the A-units:
// the machine answers, learns and saves exactly as with Prepare's deck, bit for bit. The deck
// belongs to m and its clones (another machine's board would fire other A-units: there,
// its A-units are fired again), and keeps set's images to
// show the last card again for a snapshot or a saved state. An analog retina sees a card
// differently at every presentation (the cells' lags and noise): its machine needs Prepare.
func (m *Machine) PrepareBits(set *images.Set) (*Deck, error) {
	if !m.cfg.Retina.Ideal {
		return nil, errors.New("machine: an analog retina sees a card differently at every presentation (lags, noise): its cards cannot be kept as bits; prepare them whole")
	}
	toMachine, err := m.classMap(set)
	if err != nil {
		return nil, err
	}
	n := len(set.Cards)
	words := (m.board.Len() + 63) / 64
	// The large arrays are advised for huge pages before they are written (internal/hugepage).
	b := &deckBits{board: &m.board.Units[0], set: set, s: hugepage.Make[retina.Bits](n), a: hugepage.Make[uint64](n * words),
		words: words, pol: make([]retina.Polarity, n)}
	d := &Deck{Class: make([]int, n), Source: make([]string, n), bits: b}
	active := make([]uint16, 0, m.board.Len())
	b.off = make([]int, n+1)
	for i, c := range set.Cards {
		s, pol, ok := m.retina.PrepareIdeal(c.Image)
		if !ok {
			return nil, errors.New("machine: PrepareBits: the retina gave no ideal bits") // cannot happen with an ideal retina
		}
		b.s[i], b.pol[i] = s, pol
		active = m.board.Fire(&b.s[i], b.a[i*words:(i+1)*words], active[:0])
		b.off[i+1] = b.off[i] + len(active)
		d.Class[i] = toMachine[c.Class]
		d.Source[i] = c.Source
	}
	// The lists of firing A-units, in one allocation of their size, read from the A-unit words.
	b.act = hugepage.Make[uint16](b.off[n])
	for i := range n {
		k := b.off[i]
		for w, word := range b.a[i*words : (i+1)*words] {
			for word != 0 {
				b.act[k] = uint16(w*64 + bits.TrailingZeros64(word))
				k++
				word &= word - 1
			}
		}
	}
	return d, nil
}

// classMap maps set's class numbers to the machine's, checking every card's class.
func (m *Machine) classMap(set *images.Set) ([]int, error) {
	index := make(map[string]int, len(m.classes))
	for i, c := range m.classes {
		index[c] = i
	}
	toMachine := make([]int, len(set.Classes))
	var unknown []string
	for i, c := range set.Classes {
		k, ok := index[c]
		if !ok {
			unknown = append(unknown, c)
		}
		toMachine[i] = k
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("machine: data %s has %s the machine does not know: %s (the machine knows %s)",
			set.Name, plural(len(unknown), "a class", "classes"), listLabels(unknown), listLabels(m.classes))
	}
	for i, c := range set.Cards {
		if c.Class < 0 || c.Class >= len(set.Classes) {
			return nil, fmt.Errorf("machine: data %s: card %d (%s) has class number %d of %d", set.Name, i, c.Source, c.Class, len(set.Classes))
		}
	}
	return toMachine, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// PrepareImage runs the optics on one image.
func (m *Machine) PrepareImage(img image.Image, dst *retina.Stimulus) { m.retina.Prepare(img, dst) }

// ClassIndex returns the machine's class number of label, or -1.
func (m *Machine) ClassIndex(label string) int {
	for i, c := range m.classes {
		if c == label {
			return i
		}
	}
	return -1
}

// SetOptics changes the retina's optics settings for the cards prepared from now on: the
// placement (scale, offsets, rotation), the lamp, the surround and the polarity, as p has them.
// Every other field of p must be the retina's own: a built machine keeps its cells. The cells'
// sensitivities and current levels are kept. The ideal retina ignores the lamp.
func (m *Machine) SetOptics(p retina.Params) error {
	cur := m.retina.Params()
	q := cur
	q.Scale, q.OffsetX, q.OffsetY, q.Rotation = p.Scale, p.OffsetX, p.OffsetY, p.Rotation
	q.Lamp, q.Surround, q.Polarity = p.Lamp, p.Surround, p.Polarity
	if q != p {
		return errors.New("machine: optics: only the placement, lamp, surround and polarity of a built machine's retina can change")
	}
	r, err := retina.New(p, rand.New(rand.NewPCG(m.cfg.Seed, streamRetina)))
	if err != nil {
		return fmt.Errorf("machine: optics: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.syncRetina()
	st := m.retina.State()
	// A dimmer lamp lowers the largest level a cell can reach: the cells start the new
	// lighting no brighter than it allows.
	if !p.Ideal {
		limit := r.LampLevel()
		for i, v := range st.Level {
			st.Level[i] = min(v, st.Sensitivity[i]*limit)
		}
	}
	if err := r.SetState(st); err != nil {
		return fmt.Errorf("machine: optics: %w", err)
	}
	m.retina = r
	m.cfg.Retina = p
	m.showOptics = nil // it had the old optics
	return nil
}
