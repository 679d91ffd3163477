package main

import (
	"errors"
	"flag"
	"time"
)

// paceValue is a wait that may be left to the rig: a duration of 0 or more, or "auto" (kept as
// a negative duration), which the help shows as "(default auto)" rather than "-1ns".
type paceValue time.Duration

func (p *paceValue) String() string {
	if p == nil || *p < 0 {
		return "auto"
	}
	return time.Duration(*p).String()
}

func (p *paceValue) Set(s string) error {
	if s == "auto" {
		*p = -1
		return nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("want a duration such as 500ms or 2s, or auto")
	case d < 0:
		return errors.New("want a duration of 0 or more, or auto")
	}
	*p = paceValue(d)
	return nil
}

// paceFlag defines a flag of a wait that defaults to auto: the duration it returns is
// negative for auto.
func paceFlag(fs *flag.FlagSet, name, usage string) *time.Duration {
	d := time.Duration(-1)
	fs.Var((*paceValue)(&d), name, usage)
	return &d
}
