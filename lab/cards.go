package lab

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// GenSet draws a generated set from its spec without the "gen:" prefix (see images/gen).
func GenSet(spec string) (*images.Set, error) {
	s, err := gen.Parse(spec)
	if err != nil {
		return nil, err
	}
	return gen.Generate(s)
}

// BuiltinSet loads a built-in set, named "builtin:NAME" as the reports write it.
func BuiltinSet(name string) (*images.Set, error) {
	s, err := builtin.Load(name)
	if err != nil {
		return nil, err
	}
	s.Name = "builtin:" + name
	return s, nil
}

// DescribeMachine says what a machine configuration is, for a report's conditions.
func DescribeMachine(c machine.Config) string {
	flaws := "every analog flaw on"
	if c.IsIdeal() {
		flaws = "ideal (no analog flaw)"
	}
	rule := c.Rule.String() + " rule"
	if c.Rule == machine.Alpha {
		// The 1958 paper's alpha system gains on every reinforcement; the machine's is the 1962 one.
		rule = "alpha rule (error correction, its 1962 sense)"
	}
	return fmt.Sprintf("%s A-units (x, y, theta) = (%d, %d, %d), %s, %s, %s", report.Thousands(c.MarkI.AUnits), c.MarkI.Exc, c.MarkI.Inh, c.MarkI.Theta, english.Count(c.RUnits, "R-unit"), rule, flaws)
}

// WithAUnits returns cfg with n A-units on the random board (the fan-out limit following, as
// the command line's --a-units does).
func WithAUnits(cfg machine.Config, n int) machine.Config {
	cfg.MarkI.AUnits = n
	cfg.MarkI.FanOut = patchboard.FanOutFor(n)
	return cfg
}
