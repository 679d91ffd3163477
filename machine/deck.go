package machine

import (
	"errors"
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/retina"
)

// Deck is a card set prepared for one machine: the optics of every card computed once.
type Deck struct {
	Stimuli []retina.Stimulus
	Class   []int    // the machine's class number of each card, -1 if unknown
	Source  []string // where each card came from
}

// Len returns the number of cards.
func (d *Deck) Len() int { return len(d.Stimuli) }

// Prepare runs the machine's optics on every card of set. Classes are matched by label: every
// class of set must be one of the machine's classes (a set may hold only some of them, in any
// order); a set with labels the machine does not know is refused, naming them.
func (m *Machine) Prepare(set *images.Set) (*Deck, error) {
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
	d := &Deck{
		Stimuli: make([]retina.Stimulus, len(set.Cards)),
		Class:   make([]int, len(set.Cards)),
		Source:  make([]string, len(set.Cards)),
	}
	for i, c := range set.Cards {
		if c.Class < 0 || c.Class >= len(set.Classes) {
			return nil, fmt.Errorf("machine: data %s: card %d (%s) has class number %d of %d", set.Name, i, c.Source, c.Class, len(set.Classes))
		}
		m.retina.Prepare(c.Image, &d.Stimuli[i])
		d.Class[i] = toMachine[c.Class]
		d.Source[i] = c.Source
	}
	return d, nil
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
	return nil
}
