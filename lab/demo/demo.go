package demo

import (
	"github.com/mark1-perceptron/mark1/lab"
)

// All returns the demonstrations, in the order mark1 lab lists them. A new demonstration is a
// file of this package that declares its lab.Demo (parameters, defaults, ranges, help) and
// its run, and a line here.
func All() []lab.Demo {
	return []lab.Demo{
		compareDemo(), novikoffDemo(), nonSeparableDemo(), outliersDemo(), flawsDemo(), forgetDemo(), aunitsDemo(), fieldsDemo(),
		traceDemo(), geometryDemo(), lossDemo(), regionsDemo(), maskingDemo(), booleanDemo(), digitsDemo(), fisherLSQDemo(), lsqDemo(), circleDemo(),
	}
}

// Find returns the demonstration of that name.
func Find(name string) (lab.Demo, bool) { return lab.Find(All(), name) }

// The quick runs: a demonstration of the lecture notes' ideas runs smaller data, fewer epochs
// and machines; one of the course's, which takes well under a second already, its default
// run. Either adds the checks of its effect, with the bands a working machine keeps them in.
var (
	lessonQuick = &lab.Quick{Help: "the demo's quick run: its own data, sizes and machines, in seconds, with the checks the tests hold (leave out the flags that set them)", Sets: "data, sizes and machines"}
	courseQuick = &lab.Quick{Help: "the demo's own default run with the checks of its effect that the tests hold (leave out the demo's other flags)", Sets: "data and sizes"}
)

// courseQuickNote is the note a quick run of a course demonstration adds to its report.
const courseQuickNote = "--quick: the demonstration's own default run (it takes well under a second), with the checks of its effect that the tests hold."

// seedParam is a demonstration's own --seed (one without the machine's settings).
func seedParam(help string, quickSets bool) lab.Param {
	return lab.Param{Name: "seed", Kind: lab.Uint, Default: "1", Min: 1, Want: "seeds start at 1", Help: help, QuickSets: quickSets}
}

// holds is a check's figure for a statement: 1 when it holds, 0 when not.
func holds(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}
