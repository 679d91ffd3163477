package demo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/internal/labtest"
	"github.com/mark1-perceptron/mark1/lab/problem"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// config returns a demonstration's settings: its defaults, then the parameters given as
// NAME=VALUE, with the cards and problems its Cards parameters name loaded (built-in and
// generated cards only, as a test needs).
func config(t testing.TB, d lab.Demo, quick bool, set ...string) lab.Config {
	t.Helper()
	c := d.Defaults()
	c.Quick = quick
	for _, s := range set {
		name, value, _ := strings.Cut(s, "=")
		if err := c.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Params {
		if p.Kind != lab.Cards || quick {
			continue
		}
		spec := c.String(p.Name)
		if spec == "" || spec == "none" {
			continue
		}
		var data any
		var err error
		switch {
		case strings.HasPrefix(spec, "problem:"):
			var s problem.Spec
			if s, err = problem.Parse(strings.TrimPrefix(spec, "problem:")); err == nil {
				data, err = s.Generate()
			}
		case strings.HasPrefix(spec, "builtin:"):
			data, err = lab.BuiltinSet(strings.TrimPrefix(spec, "builtin:"))
		default:
			set, gerr := lab.GenSet(strings.TrimPrefix(spec, "gen:"))
			if set != nil {
				set.Name = spec
			}
			data, err = set, gerr
		}
		if err != nil {
			t.Fatalf("--%s %s: %v", p.Name, spec, err)
		}
		c.SetData(p.Name, data)
	}
	return c
}

// TestRegistry: every demonstration is described whole: a name of its own, its help, its
// parameters with defaults of their kind within their ranges, and a quick run that sets some
// of them.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			if seen[d.Name] || d.Name == "" || d.Help == "" || d.Args == "" || d.Usage == "" || d.Run == nil {
				t.Fatalf("%+v", d)
			}
			seen[d.Name] = true
			if f, ok := Find(d.Name); !ok || f.Name != d.Name {
				t.Errorf("Find(%q) = %q, %v", d.Name, f.Name, ok)
			}
			params := map[string]bool{}
			quickSets := 0
			for _, p := range d.Params {
				if params[p.Name] || p.Help == "" {
					t.Errorf("--%s: twice, or without help", p.Name)
				}
				params[p.Name] = true
				if p.QuickSets {
					quickSets++
				}
				if p.Kind == lab.Cards && d.Uses&lab.UsesCards == 0 {
					t.Errorf("--%s: cards in a demonstration that does not use them", p.Name)
				}
				if p.DefaultWith != "" && !slices.ContainsFunc(d.Params, func(q lab.Param) bool { return q.Name == p.DefaultWith }) {
					t.Errorf("--%s: its default goes with --%s, which it does not have", p.Name, p.DefaultWith)
				}
			}
			// The defaults are of their kind (reading one would panic) and within their ranges.
			c := d.Defaults()
			for _, p := range d.Params {
				switch p.Kind {
				case lab.Int:
					c.Int(p.Name)
				case lab.Uint:
					c.Uint(p.Name)
				case lab.Float:
					c.Float(p.Name)
				case lab.Bool:
					c.Bool(p.Name)
				case lab.Points:
					c.Points(p.Name)
				default:
					c.String(p.Name)
				}
			}
			if err := c.Check(); err != nil {
				t.Errorf("the defaults: %v", err)
			}
			if d.Quick != nil && quickSets == 0 {
				t.Error("a quick run that sets none of the parameters")
			}
		})
	}
	if _, ok := Find("knn"); ok {
		t.Error("Find found knn")
	}
}

// TestQuickChecks runs every demonstration's quick run (mark1 lab DEMO --quick): each carries
// checks, and every figure it checks stays in its band.
func TestQuickChecks(t *testing.T) {
	for _, d := range All() {
		if d.Quick == nil {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			if testing.Short() && d.Quick == lessonQuick {
				t.Skip("short")
			}
			r, err := d.Run(context.Background(), config(t, d, true))
			if err != nil {
				t.Fatal(err)
			}
			if testing.Verbose() {
				for _, c := range r.Checks {
					t.Logf("%s = %.4g [%g, %g]", c.What, c.Value, c.Min, c.Max)
				}
			}
			labtest.HoldChecks(t, d.Name+" --quick", r)
		})
	}
}

// runnable are settings with which each demonstration runs (the defaults, or the least data
// the ones that need it take).
var runnable = map[string][]string{
	"compare":  {"data=problem:xor"},
	"trace":    {"point=1,2,+1", "point=2,0,-1"},
	"geometry": {"point=1,2,+1", "point=2,0,-1"},
	"lsq":      {"point=1,2,+1", "point=2,0,-1"},
	"flaws":    {"data=builtin:ef", "epochs=2", "seeds=1"},
	"forget":   {"data=builtin:ef", "epochs=2", "seeds=1"},
	"aunits":   {"data=builtin:ef", "epochs=2", "seeds=1"},
	"fields":   {"data=builtin:ef", "epochs=2"},
}

// TestCanceled: every demonstration stops with its context's error when its context has ended
// (mark1 ends a run's context on Ctrl-C).
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, d := range All() {
		t.Run(d.Name, func(t *testing.T) {
			r, err := d.Run(ctx, config(t, d, false, runnable[d.Name]...))
			if !errors.Is(err, context.Canceled) || r != nil {
				t.Fatalf("report %v, error %v; want context.Canceled", r != nil, err)
			}
		})
	}
}

// TestQuickRefusal: a quick run refuses the parameters it sets itself, naming them.
func TestQuickRefusal(t *testing.T) {
	for _, tc := range []struct {
		demo string
		set  []string
		want string
	}{
		{"loss", []string{"points=10"}, "--quick runs the demo's own data and sizes: leave out --points"},
		{"fisher-lsq", []string{"point=0,0,1", "seed=2"}, "--quick runs the demo's own data and sizes: leave out --point, --seed"},
		{"flaws", []string{"data=builtin:ef"}, "--quick runs the demo's own data, sizes and machines: leave out --data"},
		{"outliers", []string{"seed=2"}, ""},
	} {
		t.Run(tc.demo, func(t *testing.T) {
			d, _ := Find(tc.demo)
			c := d.Defaults()
			for _, s := range tc.set {
				name, value, _ := strings.Cut(s, "=")
				if err := c.Set(name, value); err != nil {
					t.Fatal(err)
				}
			}
			err := d.QuickRefusal(c.Values)
			if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && (got != tc.want || !lab.IsParamError(err)) {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
}

// TestQuickChecksFail: the checks catch a demonstration whose effect is gone. A pocket that
// keeps the perceptron's current weights is no better than the perceptron; a middle class as
// large as the others is not masked; a limit of 3 epochs learns no Boolean function.
func TestQuickChecksFail(t *testing.T) {
	ctx := context.Background()
	_, curve, err := digitsReport(ctx, pocketConfig{Updates: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	curve.PocketIn, curve.PocketTest = curve.PLAIn, curve.PLATest
	if failing(pocketChecks(curve)) == 0 {
		t.Error("a pocket that is the perceptron passes the digits' checks")
	}
	_, methods, err := maskingReport(ctx, maskingConfig{N: 30, Middle: 40, Noise: 0.7, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if failing(maskingChecks(methods)) == 0 {
		t.Error("least squares answering the middle class passes the masking checks")
	}
	_, results, err := booleanReport(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if failing(booleanChecks(results)) == 0 {
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
