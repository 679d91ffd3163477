package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLabQuick runs every demo with a quick run (all but compare, trace and geometry, tools
// over the student's own data) and every experiment with --quick: each prints checks, and every
// figure they check lies in its band; a flag the quick run sets itself is refused.
func TestLabQuick(t *testing.T) {
	var runs [][]string
	for _, d := range []string{"novikoff", "nonseparable", "outliers", "flaws", "forget", "aunits", "fields",
		"loss", "regions", "masking", "boolean", "digits", "fisher-lsq", "lsq", "circle"} {
		runs = append(runs, []string{"lab", d, "--quick", "--json"})
	}
	runs = append(runs, []string{"experiment", "leftright", "--quick", "--json"}, []string{"experiment", "figure4", "--quick", "--json"})
	for _, args := range runs {
		t.Run(caseName(args), func(t *testing.T) {
			out := mustRun(t, args...)
			var r struct {
				Checks []struct {
					What            string
					Value, Min, Max float64
				} `json:"checks"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("mark1 %s: %v", strings.Join(args, " "), err)
			}
			if len(r.Checks) == 0 {
				t.Errorf("mark1 %s: no checks", strings.Join(args, " "))
			}
			for _, c := range r.Checks {
				if c.Value < c.Min || c.Value > c.Max {
					t.Errorf("mark1 %s: %s = %g, outside %g to %g", strings.Join(args, " "), c.What, c.Value, c.Min, c.Max)
				}
			}
		})
	}
	// The course's demos (the exact ones of lab/demo) refuse any flag of their own with --quick.
	for _, args := range [][]string{
		{"lab", "loss", "--quick", "--points", "10"},
		{"lab", "regions", "--quick", "--method", "perceptron"},
		{"lab", "masking", "--quick", "--middle", "30"},
		{"lab", "boolean", "--quick", "--epochs", "3"},
		{"lab", "digits", "--quick", "--updates", "100"},
		{"lab", "fisher-lsq", "--quick", "--point", "0,0,1", "--point", "1,1,-1"},
		{"lab", "lsq", "--quick", "--lambda", "2"},
		{"lab", "circle", "--quick", "--units", "10"},
	} {
		t.Run(caseName(args), func(t *testing.T) {
			code, _, errs := mark1(t, args...)
			if code != 2 || !strings.Contains(errs, "--quick runs the demo's own data and sizes: leave out "+args[3]) {
				t.Errorf("mark1 %s: exit %d, %q", strings.Join(args, " "), code, errs)
			}
		})
	}
	for _, args := range [][]string{
		{"lab", "flaws", "--quick", "--data", "builtin:ef"},
		{"lab", "forget", "--quick", "--hours", "5"},
		{"lab", "aunits", "--quick", "--counts", "64"},
		{"lab", "novikoff", "--quick", "--problems", "3"},
		{"lab", "nonseparable", "--quick", "--epochs", "3"},
		{"lab", "outliers", "--quick", "--draws", "2"},
	} {
		t.Run(caseName(args), func(t *testing.T) {
			code, _, errs := mark1(t, args...)
			if code != 2 || !strings.Contains(errs, "--quick runs the demo's own") {
				t.Errorf("mark1 %s: exit %d, %q", strings.Join(args, " "), code, errs)
			}
		})
	}
}
