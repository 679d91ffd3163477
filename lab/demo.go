package lab

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

// Demo describes one run of the lab, a demonstration (package lab/demo) or a historical
// experiment (package lab/experiment): its name, what it does, its parameters with their
// defaults and ranges, and the function that runs it. A host makes its settings from Params:
// mark1 its flags ("mark1 lab NAME -h"), the browser lab its page's URL parameters. Every
// default and every range is stated once, in the Params.
type Demo struct {
	Name string
	// Help says what the run shows, in a line. Args are its main parameters for a listing
	// ("[--epochs N --cards N]"), Usage its synopsis ("[--epochs N] [--cards N] [--quick]").
	Help, Args, Usage string
	Params            []Param
	// Uses says what the run takes from its host besides its parameters.
	Uses Uses
	// Quick, when not nil, is the run's quick run (Config.Quick): its own data and sizes, in
	// seconds, with checks (report.Check) of its effect that the tests hold.
	Quick *Quick
	// Run runs it: every demonstration and experiment has this signature. It returns ctx's
	// error soon after ctx ends, and a *ParamError for a parameter it cannot take.
	Run func(ctx context.Context, c Config) (*report.Report, error)
}

// Uses are what a run takes from its host besides its parameters.
type Uses int

const (
	// UsesMachine: the Mark I the host's machine settings describe (mark1's --seed, --flaws,
	// --config, ...), in Config.Machine.
	UsesMachine Uses = 1 << iota
	// UsesCards: Cards parameters, which the host loads within its memory budget
	// (Values.SetData). The lab gives the Mark I one R-unit for two classes and one per class
	// for more, so the host refuses a number of R-units or a coding.
	UsesCards
	// UsesWorkers: independent jobs, run Config.Workers at once.
	UsesWorkers
)

// Quick describes a run's quick run.
type Quick struct {
	// Help says what the quick run is (mark1's --quick help).
	Help string
	// Sets says what it sets itself, for the refusal of the parameters it sets (those with
	// QuickSets): "--quick runs the demo's own SETS: leave out --NAME".
	Sets string
}

// Config is what a run is given: its parameters' values and its host's settings.
type Config struct {
	// Values are the run's parameters, as given or by default.
	Values
	// Machine is the machine the host's settings describe (Uses UsesMachine; Default gives
	// machine.Default()).
	Machine machine.Config
	// MachineSet names the machine settings given to the host ("wiring", "a-units", ...), for
	// a run that sets some itself.
	MachineSet []string
	// Quick asks for the quick run (Demo.Quick).
	Quick bool
	// Workers bounds the jobs at once (0: one per core); the numbers do not depend on it.
	Workers int
	// Progress, when not nil, is told the jobs done out of the total, one call at a time.
	Progress func(done, total int)
	// Reserve, when not nil, charges memory the run is about to take (bytes) to the host's
	// budget, refusing what would go over it.
	Reserve func(what string, bytes int64) error
}

// Defaults returns the Config of a run with every parameter at its default and the default
// machine: what a run is given with no settings.
func (d Demo) Defaults() Config {
	return Config{Values: NewValues(d.Params), Machine: machine.Default()}
}

// QuickRefusal returns the refusal of a quick run given parameters it sets itself, or nil.
func (d Demo) QuickRefusal(v Values) error {
	if d.Quick == nil {
		return nil
	}
	var given string
	for _, p := range d.Params {
		if p.QuickSets && v.Given(p.Name) {
			if given != "" {
				given += ", "
			}
			given += "--" + p.Name
		}
	}
	if given == "" {
		return nil
	}
	return ParamErrorf("--quick runs the demo's own %s: leave out %s", d.Quick.Sets, given)
}

// Find returns the run of that name among runs.
func Find(runs []Demo, name string) (Demo, bool) {
	for _, d := range runs {
		if d.Name == name {
			return d, true
		}
	}
	return Demo{}, false
}

// ParamError is a run's refusal of its parameters (on mark1's command line, a usage error:
// exit status 2), before any work.
type ParamError struct{ Msg string }

func (e *ParamError) Error() string { return e.Msg }

// ParamErrorf returns a *ParamError with the message fmt.Sprintf makes.
func ParamErrorf(format string, a ...any) error {
	return &ParamError{Msg: fmt.Sprintf(format, a...)}
}

// IsParamError reports whether err is, or wraps, a *ParamError.
func IsParamError(err error) bool {
	var pe *ParamError
	return errors.As(err, &pe)
}
