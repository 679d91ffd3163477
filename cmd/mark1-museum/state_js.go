//go:build js

package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/mark1-perceptron/mark1/museum/health"
	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
)

// pageState is what the page can read of the machine (globalThis.mark1State()): for the
// staff's own page scripts and for the browser test, which checks that the camera's picture
// reached the retina and that the machine answered it.
type pageState struct {
	Experiment string        `json:"experiment"`
	Mode       string        `json:"mode"`
	Kind       string        `json:"kind"`   // the last presentation: train, test, shown, taught
	Answer     string        `json:"answer"` // the machine's answer to it ("" before the first)
	Retina     []string      `json:"retina"` // the S-units of the last presentation, a row each: # on, . off
	Health     health.Status `json:"health"`
}

// expose gives the page globalThis.mark1State(), a JSON string of pageState.
func expose(s *session.Session, ex *exhibit) {
	var f session.Frame
	js.Global().Set("mark1State", js.FuncOf(func(js.Value, []js.Value) any {
		s.Snapshot(&f)
		st := pageState{Experiment: f.Experiment, Mode: f.Mode.String(), Kind: f.Kind.String(), Health: ex.mon.Snapshot()}
		if f.Answer >= 0 && f.Answer < len(f.Classes) {
			st.Answer = f.Classes[f.Answer]
		}
		var row strings.Builder
		for r := range retina.Rows {
			row.Reset()
			for c := range retina.Cols {
				if f.Machine.S.Get(r*retina.Cols + c) {
					row.WriteByte('#')
				} else {
					row.WriteByte('.')
				}
			}
			st.Retina = append(st.Retina, row.String())
		}
		b, err := json.Marshal(st)
		if err != nil {
			return `{"error":` + strconv.Quote(err.Error()) + `}`
		}
		return string(b)
	}))
}
