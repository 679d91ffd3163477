// Package labtest holds what the tests of the lab's experiments and lessons share.
package labtest

import (
	"testing"

	"github.com/mark1-perceptron/mark1/lab/report"
)

// HoldChecks fails the test for a quick run's report without checks or with a figure out of
// its band.
func HoldChecks(t testing.TB, name string, r *report.Report) {
	t.Helper()
	if len(r.Checks) == 0 {
		t.Errorf("%s: a quick run without checks", name)
	}
	for _, c := range r.Checks {
		if !c.Within() {
			t.Errorf("%s: %s = %g, outside %g to %g", name, c.What, c.Value, c.Min, c.Max)
		}
	}
}
