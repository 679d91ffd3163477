package playground

import (
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// The retina panel: the Mark I itself as the feature map. A drawing of 20x20 cells (or a
// built-in card) is shown to a machine of package machine (the retina's optics and cells, the
// plug-board's A-units, the R-units' pots), which answers; one correction teaches it the
// class the card should be, or it trains on a built-in set as mark1 train does, with the
// analog flaws on or off.

// RetinaConfig sets up a retina panel.
type RetinaConfig struct {
	// Card is a built-in card to show first: builtin:NAME/INDEX (the INDEX-th card of the set,
	// from 0), or "" for none.
	Card string `json:"card"`
	// Set is the built-in set whose classes the machine answers (default: the card's set, else
	// ef).
	Set string `json:"set"`
	// Analog turns the machine's analog flaws on (mark1's default machine); off, it is ideal
	// (mark1's --ideal).
	Analog bool `json:"analog"`
	// Seed is the machine's seed (0: 1), as mark1's --seed.
	Seed uint64 `json:"seed"`
}

// Retina is a retina panel: a machine and the card it is shown.
type Retina struct {
	cfg     RetinaConfig
	set     *images.Set
	m       *machine.Machine
	stim    retina.Stimulus
	shown   string // what the machine is shown: "drawing", a card's name, or ""
	drawing [retina.N]bool
	snap    machine.Snapshot
	trained int // presentations that trained
	epochs  []machine.EpochStats
	result  *machine.Result // the training accuracy after Train, as mark1 train reports it
}

// NewRetina returns a panel set up by c, showing its card if it names one.
func NewRetina(c RetinaConfig) (*Retina, error) {
	r := &Retina{cfg: c}
	if c.Seed == 0 {
		r.cfg.Seed = 1
	}
	setName := c.Set
	var card int
	if c.Card != "" {
		name, i, err := parseCard(c.Card)
		if err != nil {
			return nil, err
		}
		if setName == "" {
			setName = name
		}
		if name != setName {
			return nil, fmt.Errorf("card %s: not a card of the set %s", c.Card, setName)
		}
		card = i
	}
	if setName == "" {
		setName = "ef"
	}
	if err := r.build(setName); err != nil {
		return nil, err
	}
	if c.Card != "" {
		if err := r.showCard(card); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// parseCard reads builtin:NAME/INDEX.
func parseCard(spec string) (string, int, error) {
	rest, ok := strings.CutPrefix(spec, "builtin:")
	name, idx, ok2 := strings.Cut(rest, "/")
	i, err := strconv.Atoi(idx)
	if !ok || !ok2 || err != nil || i < 0 {
		return "", 0, fmt.Errorf("card %q: want builtin:NAME/INDEX (builtin:ef/0)", spec)
	}
	return name, i, nil
}

// machineConfig is the panel's machine, as mark1 train builds it from --seed and --ideal.
func (r *Retina) machineConfig() machine.Config {
	c := machine.Default()
	if !r.cfg.Analog {
		c = c.Ideal()
	}
	c.Seed = r.cfg.Seed
	return c
}

// build makes a fresh machine for the built-in set name's classes.
func (r *Retina) build(name string) error {
	set, err := lab.BuiltinSet(name)
	if err != nil {
		return fmt.Errorf("set %s: %w", name, err)
	}
	m, err := machine.New(r.machineConfig(), set.Classes)
	if err != nil {
		return err
	}
	r.set, r.m, r.trained, r.epochs, r.result = set, m, 0, nil, nil
	r.cfg.Set = name
	r.snap = machine.Snapshot{}
	r.shown = ""
	return nil
}

// Set changes the panel's set-up (the fields of c given: analog, seed, set): a fresh machine,
// shown again what it was shown.
func (r *Retina) Set(c RetinaConfig) error {
	old := r.cfg
	r.cfg.Analog = c.Analog
	if c.Seed != 0 {
		r.cfg.Seed = c.Seed
	}
	name := r.cfg.Set
	if c.Set != "" {
		name = c.Set
	}
	shown, drawing := r.shown, r.drawing
	if err := r.build(name); err != nil {
		r.cfg = old
		return err
	}
	if shown == "drawing" {
		return r.draw(drawing)
	}
	return nil
}

// Show shows the machine a built-in card of its set (builtin:NAME/INDEX), without learning.
func (r *Retina) Show(card string) error {
	name, i, err := parseCard(card)
	if err != nil {
		return err
	}
	if name != r.cfg.Set {
		return fmt.Errorf("card %s: the machine answers the classes of %s", card, r.cfg.Set)
	}
	return r.showCard(i)
}

func (r *Retina) showCard(i int) error {
	if i >= len(r.set.Cards) {
		return fmt.Errorf("card builtin:%s/%d: the set has %d cards (0..%d)", r.cfg.Set, i, len(r.set.Cards), len(r.set.Cards)-1)
	}
	r.m.PrepareImage(r.set.Cards[i].Image, &r.stim)
	r.shown = fmt.Sprintf("builtin:%s/%d", r.cfg.Set, i)
	r.present()
	return nil
}

// Draw shows the machine a drawing: 400 cells, row by row from the top, 1 for ink.
func (r *Retina) Draw(cells []int) error {
	if len(cells) != retina.N {
		return fmt.Errorf("drawing: %d cells, want %d (20 rows of 20)", len(cells), retina.N)
	}
	var d [retina.N]bool
	for i, v := range cells {
		if v != 0 && v != 1 {
			return fmt.Errorf("drawing: cell %d is %d: want 0 or 1", i, v)
		}
		d[i] = v == 1
	}
	return r.draw(d)
}

func (r *Retina) draw(d [retina.N]bool) error {
	img := image.NewGray(image.Rect(0, 0, retina.Cols, retina.Rows))
	for i, ink := range d {
		c := color.Gray{Y: 255}
		if ink {
			c = color.Gray{}
		}
		img.SetGray(i%retina.Cols, i/retina.Cols, c)
	}
	r.drawing = d
	r.m.PrepareImage(img, &r.stim)
	r.shown = "drawing"
	r.present()
	return nil
}

// present shows the card without learning and keeps what the machine did.
func (r *Retina) present() {
	r.m.Present(&r.stim)
	r.m.Snapshot(&r.snap, false)
}

// Teach presents the card shown as class (an index into the classes) and lets the rule
// correct the machine: one correction.
func (r *Retina) Teach(class int) error {
	if r.shown == "" {
		return fmt.Errorf("teach: nothing shown: draw, or pick a card")
	}
	if class < 0 || class >= len(r.set.Classes) {
		return fmt.Errorf("teach: class %d: want 0..%d (%s)", class, len(r.set.Classes)-1, strings.Join(r.set.Classes, ", "))
	}
	r.m.Train(&r.stim, class)
	r.trained++
	r.m.Snapshot(&r.snap, false)
	return nil
}

// Train trains the machine on the built-in set name, epochs at most, as mark1 train --data
// builtin:NAME --epochs EPOCHS --seed SEED [--ideal] does (stopping after an epoch without a
// correction), and then evaluates it on the set as mark1 train does. A set of other classes
// than the machine's starts a fresh machine for them.
func (r *Retina) Train(name string, epochs int) error {
	if epochs < 1 || epochs > 1000 {
		return fmt.Errorf("train: epochs %d: want 1..1000", epochs)
	}
	if name == "" {
		name = r.cfg.Set
	}
	if name != r.cfg.Set {
		if err := r.build(name); err != nil {
			return err
		}
	}
	var deck *machine.Deck
	var err error
	if r.m.Config().Retina.Ideal {
		deck, err = r.m.PrepareBits(r.set)
	} else {
		deck, err = r.m.Prepare(r.set)
	}
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	for e := 1; e <= epochs; e++ {
		st := r.m.Epoch(deck, nil)
		st.Epoch = len(r.epochs) + 1
		r.epochs = append(r.epochs, st)
		r.trained += st.Cards
		if st.Corrections == 0 {
			break
		}
	}
	c, err := r.m.Clone()
	if err != nil {
		return err
	}
	res := c.Evaluate(deck)
	r.result = &res
	if r.shown != "" {
		r.present()
	} else {
		r.m.Snapshot(&r.snap, false)
	}
	return nil
}

// RetinaState is what the panel shows.
type RetinaState struct {
	// Shown is what the machine was last shown: "drawing", builtin:NAME/INDEX, or "".
	Shown string `json:"shown"`
	// Drawing is the last drawing (400 cells, 1 ink); Cells the S-units that fired at the last
	// presentation (400, row by row from the top); Levels each cell's analog level now.
	Drawing []int     `json:"drawing"`
	Cells   []int     `json:"cells"`
	Levels  []float32 `json:"levels"`
	// AUnits are the A-units that fired (512 0/1), Active how many.
	AUnits []int `json:"aunits"`
	Active int   `json:"active"`
	// Sums are the R-units' inputs; Answer the class answered (an index into Classes, -1
	// before any presentation) and AnswerName its name.
	Sums       []float64 `json:"sums"`
	Answer     int       `json:"answer"`
	AnswerName string    `json:"answerName"`
	Classes    []string  `json:"classes"`
	Set        string    `json:"set"`
	Cards      int       `json:"cards"`
	// Trained counts the presentations that trained; Epochs are Train's epochs as mark1 train
	// --json reports them, Accuracy the training accuracy after them (null before).
	Trained  int                  `json:"trained"`
	Epochs   []machine.EpochStats `json:"epochs"`
	Accuracy *machine.Result      `json:"accuracy"`
	Analog   bool                 `json:"analog"`
	Seed     uint64               `json:"seed"`
	RUnits   int                  `json:"rUnits"`
	Coding   string               `json:"coding"`
	Clock    float64              `json:"clock"`
	// Command is the mark1 command that trains the same machine on the set.
	Command string `json:"command"`
}

// State returns the panel's state.
func (r *Retina) State() *RetinaState {
	s := &RetinaState{Shown: r.shown, Classes: r.set.Classes, Set: r.cfg.Set, Cards: len(r.set.Cards), Trained: r.trained,
		Epochs: r.epochs, Accuracy: r.result, Analog: r.cfg.Analog, Seed: r.cfg.Seed, RUnits: r.m.RUnits(), Coding: r.m.Coding(),
		Clock: r.m.Clock(), Answer: -1, Drawing: make([]int, retina.N), Cells: make([]int, retina.N), Levels: make([]float32, retina.N),
		AUnits: make([]int, r.m.AUnits()), Sums: make([]float64, r.m.RUnits())}
	if s.Epochs == nil {
		s.Epochs = []machine.EpochStats{}
	}
	for i, ink := range r.drawing {
		if ink {
			s.Drawing[i] = 1
		}
	}
	if r.snap.Count > 0 {
		for i := range retina.N {
			if r.snap.S.Get(i) {
				s.Cells[i] = 1
			}
		}
		copy(s.Levels, r.snap.Levels[:])
		for i := range s.AUnits {
			if r.snap.A[i/64]>>(uint(i)%64)&1 != 0 {
				s.AUnits[i] = 1
			}
		}
		s.Active = r.snap.Active
		copy(s.Sums, r.snap.Sums)
		s.Answer = r.snap.Predicted
		if s.Answer >= 0 && s.Answer < len(r.set.Classes) {
			s.AnswerName = r.set.Classes[s.Answer]
		}
	}
	s.Command = fmt.Sprintf("mark1 train --data builtin:%s --seed %d", r.cfg.Set, r.cfg.Seed)
	if !r.cfg.Analog {
		s.Command += " --ideal"
	}
	if n := len(r.epochs); n > 0 {
		s.Command += fmt.Sprintf(" --epochs %d", n)
	}
	return s
}
