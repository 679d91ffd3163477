//go:build js && wasm

package main

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/playground"
)

// panels are the open retina panels, by id (numbered with the sessions).
var panels = map[int]*playground.Retina{}

// panel returns the retina panel of argument 0.
func (a args) panel() (*playground.Retina, error) {
	id, err := a.num(0, "id")
	if err != nil {
		return nil, err
	}
	r, ok := panels[id]
	if !ok {
		return nil, fmt.Errorf("mark1lab.%s: no retina %d (closed, or never opened)", a.name, id)
	}
	return r, nil
}

// withPanel is a call that changes the panel of argument 0 and returns its state.
func withPanel(change func(a args, r *playground.Retina) error) call {
	return func(a args) (any, error) {
		r, err := a.panel()
		if err != nil {
			return nil, err
		}
		if change != nil {
			if err := change(a, r); err != nil {
				return nil, err
			}
		}
		return r.State(), nil
	}
}

func retinaCalls() map[string]call {
	return map[string]call{
		"retina": func(a args) (any, error) {
			var c playground.RetinaConfig
			if len(a.v) > 0 && !a.v[0].IsUndefined() && !a.v[0].IsNull() {
				if err := a.json(0, "config", &c); err != nil {
					return nil, err
				}
			}
			r, err := playground.NewRetina(c)
			if err != nil {
				return nil, err
			}
			lastID++
			panels[lastID] = r
			return lastID, nil
		},
		"retinaState": withPanel(nil),
		"draw": withPanel(func(a args, r *playground.Retina) error {
			var cells []int
			if err := a.json(1, "cells", &cells); err != nil {
				return err
			}
			return r.Draw(cells)
		}),
		"show": withPanel(func(a args, r *playground.Retina) error {
			card, err := a.str(1, "card")
			if err != nil {
				return err
			}
			return r.Show(card)
		}),
		"teach": withPanel(func(a args, r *playground.Retina) error {
			class, err := a.num(1, "class")
			if err != nil {
				return err
			}
			return r.Teach(class)
		}),
		"train": withPanel(func(a args, r *playground.Retina) error {
			set := ""
			if len(a.v) > 1 && !a.v[1].IsUndefined() && !a.v[1].IsNull() {
				set, _ = a.str(1, "set")
			}
			epochs := 10
			if len(a.v) > 2 && !a.v[2].IsUndefined() && !a.v[2].IsNull() {
				n, err := a.num(2, "epochs")
				if err != nil {
					return err
				}
				epochs = n
			}
			return r.Train(set, epochs)
		}),
		"retinaSet": withPanel(func(a args, r *playground.Retina) error {
			var c playground.RetinaConfig
			if err := a.json(1, "config", &c); err != nil {
				return err
			}
			return r.Set(c)
		}),
		"closeRetina": func(a args) (any, error) {
			id, err := a.num(0, "id")
			if err != nil {
				return nil, err
			}
			delete(panels, id)
			return nil, nil
		},
	}
}
