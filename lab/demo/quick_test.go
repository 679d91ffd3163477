package demo

import (
	"testing"

	"github.com/mark1-perceptron/mark1/lab/report"
)

// TestQuickChecks runs every course demonstration as its quick run does (mark1 lab DEMO
// --quick: the defaults) and holds each check in its band.
func TestQuickChecks(t *testing.T) {
	loss, err := LossChecks(LossConfig{})
	if err != nil {
		t.Fatal(err)
	}
	_, stats, err := Regions(RegionsConfig{})
	if err != nil {
		t.Fatal(err)
	}
	_, methods, err := Masking(MaskingConfig{})
	if err != nil {
		t.Fatal(err)
	}
	_, results, err := BooleanReport(0)
	if err != nil {
		t.Fatal(err)
	}
	_, curve, err := PocketDigits(PocketConfig{})
	if err != nil {
		t.Fatal(err)
	}
	_, f, err := FisherLSQReport(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, checks := range map[string][]report.Check{
		"loss": loss, "regions": RegionsChecks(stats), "masking": MaskingChecks(methods),
		"boolean": BooleanChecks(results), "digits": PocketChecks(curve), "fisher-lsq": FisherLSQChecks(f),
	} {
		if len(checks) == 0 {
			t.Errorf("%s: no checks", name)
		}
		for _, c := range checks {
			if testing.Verbose() {
				t.Logf("%s: %s = %.4g [%g, %g]", name, c.What, c.Value, c.Min, c.Max)
			}
			if !c.Within() {
				t.Errorf("%s: %s = %g, outside %g to %g", name, c.What, c.Value, c.Min, c.Max)
			}
		}
	}
}

// TestQuickChecksFail: the checks catch a demonstration whose effect is gone. A pocket that
// keeps the perceptron's current weights is no better than the perceptron; a middle class as
// large as the others is not masked; a limit of 3 epochs learns no Boolean function.
func TestQuickChecksFail(t *testing.T) {
	_, curve, err := PocketDigits(PocketConfig{})
	if err != nil {
		t.Fatal(err)
	}
	curve.PocketIn, curve.PocketTest = curve.PLAIn, curve.PLATest
	if failing(PocketChecks(curve)) == 0 {
		t.Error("a pocket that is the perceptron passes the digits' checks")
	}
	_, methods, err := Masking(MaskingConfig{Middle: 40})
	if err != nil {
		t.Fatal(err)
	}
	if failing(MaskingChecks(methods)) == 0 {
		t.Error("least squares answering the middle class passes the masking checks")
	}
	_, results, err := BooleanReport(3)
	if err != nil {
		t.Fatal(err)
	}
	if failing(BooleanChecks(results)) == 0 {
		t.Error("3 epochs pass the Boolean checks")
	}
	for _, r := range results[:3] { // AND, OR, NOT: computed, the rule not stopped
		if !r.Computes || r.Trace.Converged {
			t.Errorf("%s in 3 epochs: computes %v, converged %v; want the weights right and the rule not stopped", r.Function.Name, r.Computes, r.Trace.Converged)
		}
	}
}

func failing(checks []report.Check) int {
	n := 0
	for _, c := range checks {
		if !c.Within() {
			n++
		}
	}
	return n
}
