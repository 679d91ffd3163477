//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/mark1-perceptron/mark1/lab/playground"
)

// call is one function of mark1lab: it reads its arguments and returns a value to marshal
// (rawJSON: JSON already written).
type call func(a args) (any, error)

// rawJSON is a call's result written as JSON already (a session's state).
type rawJSON []byte

// bind returns the JavaScript function of call, which returns [an error's text or null, the
// JSON of its result or undefined], a panic recovered into an error naming the call (the
// page's web/lab/api.js makes the API of these: errors thrown, JSON parsed).
func bind(name string, c call) js.Value {
	goFunc := js.FuncOf(func(this js.Value, in []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = []any{fmt.Sprintf("mark1lab.%s: %s", name, oneLine(fmt.Sprint(r))), js.Undefined()}
			}
		}()
		v, err := c(args{name: name, v: in})
		if err != nil {
			return []any{oneLine(err.Error()), js.Undefined()}
		}
		if v == nil {
			return []any{nil, js.Undefined()}
		}
		if raw, ok := v.(rawJSON); ok {
			return []any{nil, string(raw)}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return []any{fmt.Sprintf("mark1lab.%s: %s", name, oneLine(err.Error())), js.Undefined()}
		}
		return []any{nil, string(b)}
	})
	return goFunc.Value
}

// oneLine keeps a message to its first line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// args are a call's arguments.
type args struct {
	name string
	v    []js.Value
}

func (a args) arg(i int, what string) (js.Value, error) {
	if i >= len(a.v) || a.v[i].IsUndefined() || a.v[i].IsNull() {
		return js.Value{}, fmt.Errorf("mark1lab.%s: argument %d (%s) missing", a.name, i+1, what)
	}
	return a.v[i], nil
}

// str returns argument i as text (a number as JavaScript writes it).
func (a args) str(i int, what string) (string, error) {
	v, err := a.arg(i, what)
	if err != nil {
		return "", err
	}
	if v.Type() == js.TypeString {
		return v.String(), nil
	}
	return js.Global().Call("String", v).String(), nil
}

// num returns argument i as a whole number.
func (a args) num(i int, what string) (int, error) {
	v, err := a.arg(i, what)
	if err != nil {
		return 0, err
	}
	if v.Type() != js.TypeNumber || v.Float() != float64(v.Int()) {
		return 0, fmt.Errorf("mark1lab.%s: %s %s: want a whole number", a.name, what, js.Global().Call("String", v).String())
	}
	return v.Int(), nil
}

// json reads argument i (an object the wrapper sent as JSON text) into dst.
func (a args) json(i int, what string, dst any) error {
	s, err := a.str(i, what)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("mark1lab.%s: %s: not JSON: %w", a.name, what, err)
		}
		return fmt.Errorf("mark1lab.%s: %s: %w", a.name, what, err)
	}
	return nil
}

// extraCalls are calls a build adds (the tests' build: a call that panics).
var extraCalls = map[string]call{}

func main() {
	lab := js.Global().Get("Object").New()
	for name, c := range calls() {
		lab.Set(name, bind(name, c))
	}
	for name, c := range extraCalls {
		lab.Set(name, bind(name, c))
	}
	js.Global().Set("mark1labRaw", lab)
	if resolve := js.Global().Get("mark1labResolve"); resolve.Type() == js.TypeFunction {
		resolve.Invoke()
	}
	select {}
}

// calls are the functions of mark1lab.
func calls() map[string]call {
	c := map[string]call{
		"demos": func(a args) (any, error) { return playground.Demos(), nil },
		"run": func(a args) (any, error) {
			name, err := a.str(0, "name")
			if err != nil {
				return nil, err
			}
			query := ""
			if len(a.v) > 1 && !a.v[1].IsUndefined() && !a.v[1].IsNull() {
				query, _ = a.str(1, "query")
			}
			return playground.RunDemo(context.Background(), name, query)
		},
	}
	for name, f := range sessionCalls() {
		c[name] = f
	}
	for name, f := range retinaCalls() {
		c[name] = f
	}
	return c
}
