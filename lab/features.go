package lab

import (
	"fmt"
	"math/bits"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// featureMachine builds the ideal machine of cfg for the classes: the same plug-board (the
// wiring comes from the seed's own stream, whatever the flaws), an ideal retina, and a coding
// that fits any number of classes (the R-units take no part in the features).
func featureMachine(cfg machine.Config, classes []string) (*machine.Machine, error) {
	c := cfg.Ideal()
	c.Coding, c.Codes = machine.CodingAuto, nil
	return machine.New(c, classes)
}

// Features returns the A-unit states of the ideal machine cfg describes for every card of set,
// as features 0 or 1, with the cards' classes numbered as in classes (every label of set must
// be one of them; nil means set's own). With the identity wiring the features are the S-units:
// the raw pixels on the ideal retina.
func Features(cfg machine.Config, classes []string, set *images.Set) (*learn.Data, error) {
	if classes == nil {
		classes = set.Classes
	}
	m, err := featureMachine(cfg, classes)
	if err != nil {
		return nil, err
	}
	deck, err := m.Prepare(set)
	if err != nil {
		return nil, err
	}
	return deckFeatures(m, deck, classes), nil
}

// deckFeatures presents every card of deck to the ideal machine m and reads its A-units.
func deckFeatures(m *machine.Machine, deck *machine.Deck, classes []string) *learn.Data {
	n := m.AUnits()
	d := &learn.Data{Classes: classes, X: make([][]float64, deck.Len()), Y: make([]int, deck.Len())}
	flat := make([]float64, deck.Len()*n)
	for i := range deck.Stimuli {
		m.Present(&deck.Stimuli[i])
		x := flat[i*n : (i+1)*n : (i+1)*n]
		for w, word := range m.Last().A {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				if a := w*64 + b; a < n {
					x[a] = 1
				}
				word &= word - 1
			}
		}
		d.X[i], d.Y[i] = x, deck.Class[i]
	}
	return d
}

// ReceptiveField carries weights over the A-units of board (w[a] for A-unit a; a bias after
// them is ignored) back onto the retina: cell s gets the sum of w[a] over the A-units a with an
// excitatory plug from s, less the sum over those with an inhibitory plug from s. It is what an
// R-unit "looks for": a cell with a positive value pushes the R-unit on when lit (through the
// A-units it feeds), a negative one pushes it off. With the identity wiring it is the weights
// themselves, laid out as the 20x20 retina (row-major, row 0 on top).
func ReceptiveField(board *patchboard.Board, w []float64) ([]float64, error) {
	if len(w) < board.Len() {
		return nil, fmt.Errorf("lab: %d weights for %d A-units", len(w), board.Len())
	}
	field := make([]float64, retina.N)
	for a, u := range board.Units {
		for _, s := range u.Exc {
			field[s] += w[a]
		}
		for _, s := range u.Inh {
			field[s] -= w[a]
		}
	}
	return field, nil
}
