//go:build js && wasm

package main

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/playground"
)

// sessions are the open 2-D playgrounds, by id.
var (
	sessions = map[int]*playground.Session{}
	lastID   int
)

// session returns the session of argument 0.
func (a args) session() (*playground.Session, error) {
	id, err := a.num(0, "id")
	if err != nil {
		return nil, err
	}
	s, ok := sessions[id]
	if !ok {
		return nil, fmt.Errorf("mark1lab.%s: no session %d (closed, or never opened)", a.name, id)
	}
	return s, nil
}

// withSession is a call that changes the session of argument 0 and returns its state.
func withSession(change func(a args, s *playground.Session) error) call {
	return func(a args) (any, error) {
		s, err := a.session()
		if err != nil {
			return nil, err
		}
		if change != nil {
			if err := change(a, s); err != nil {
				return nil, err
			}
		}
		return rawJSON(s.StateJSON()), nil
	}
}

func sessionCalls() map[string]call {
	return map[string]call{
		"session": func(a args) (any, error) {
			var c playground.SessionConfig
			if len(a.v) > 0 && !a.v[0].IsUndefined() && !a.v[0].IsNull() {
				if err := a.json(0, "config", &c); err != nil {
					return nil, err
				}
			}
			s, err := playground.NewSession(c)
			if err != nil {
				return nil, err
			}
			lastID++
			sessions[lastID] = s
			return lastID, nil
		},
		"state": withSession(nil),
		"add": withSession(func(a args, s *playground.Session) error {
			x1, err := a.str(1, "x1")
			if err != nil {
				return err
			}
			x2, err := a.str(2, "x2")
			if err != nil {
				return err
			}
			label, err := a.str(3, "label")
			if err != nil {
				return err
			}
			return s.Add(x1, x2, label)
		}),
		"move": withSession(func(a args, s *playground.Session) error {
			i, err := a.num(1, "index")
			if err != nil {
				return err
			}
			x1, err := a.str(2, "x1")
			if err != nil {
				return err
			}
			x2, err := a.str(3, "x2")
			if err != nil {
				return err
			}
			return s.Move(i, x1, x2)
		}),
		"remove": withSession(func(a args, s *playground.Session) error {
			i, err := a.num(1, "index")
			if err != nil {
				return err
			}
			return s.Remove(i)
		}),
		"set": withSession(func(a args, s *playground.Session) error {
			text, err := a.str(1, "config")
			if err != nil {
				return err
			}
			return s.Set([]byte(text))
		}),
		"step":     withSession(func(a args, s *playground.Session) error { return s.Step() }),
		"epoch":    withSession(func(a args, s *playground.Session) error { return s.Epoch() }),
		"runToEnd": withSession(func(a args, s *playground.Session) error { return s.RunToEnd() }),
		"reset":    withSession(func(a args, s *playground.Session) error { return s.Reset() }),
		"loadCSV": withSession(func(a args, s *playground.Session) error {
			text, err := a.str(1, "text")
			if err != nil {
				return err
			}
			return s.LoadCSV(text)
		}),
		"csv": func(a args) (any, error) {
			s, err := a.session()
			if err != nil {
				return nil, err
			}
			return s.CSV(), nil
		},
		"traceCSV": func(a args) (any, error) {
			s, err := a.session()
			if err != nil {
				return nil, err
			}
			return s.TraceCSV(), nil
		},
		"close": func(a args) (any, error) {
			id, err := a.num(0, "id")
			if err != nil {
				return nil, err
			}
			delete(sessions, id)
			return nil, nil
		},
	}
}
