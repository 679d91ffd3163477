package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/internal/labtest"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// TestHistorical runs every historical experiment quickly, one machine per condition (as the
// worksheets do): each report has its finding beside the record, its source named with its
// kind, tables, figures with data, its quick checks within their bands, and the same numbers when
// run again.
func TestHistorical(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, e := range Historical() {
		t.Run(e.Name, func(t *testing.T) {
			s := quickConfig(t, e, "seeds=1")
			r, err := e.Run(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %.2f s", e.Name, r.Seconds)
			if r.Name != e.Name || len(r.Findings) == 0 || len(r.Tables) == 0 || len(r.Figures) == 0 {
				t.Fatalf("%s: report %q with %d findings, %d tables, %d figures", e.Name, r.Name, len(r.Findings), len(r.Tables), len(r.Figures))
			}
			for _, f := range r.Findings {
				if f.Record == "" || f.Measured == "" || f.Gap == "" || f.Source == "" || math.IsNaN(f.Value) || !slices.Contains(report.SourceKinds, f.Kind) {
					t.Fatalf("%s: finding %+v", e.Name, f)
				}
			}
			labtest.HoldChecks(t, e.Name+" --seeds 1", r)
			for _, f := range r.Figures {
				n := len(f.Bars) + len(f.Grids)
				for _, s := range f.Series {
					n += len(s.X)
				}
				if n == 0 {
					t.Fatalf("%s: figure %s has no data", e.Name, f.Name)
				}
			}
			var buf bytes.Buffer
			if err := r.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "record:") {
				t.Fatalf("%s: text %v", e.Name, err)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Fatalf("%s: JSON: %v", e.Name, err)
			}
			if e.Name == "squares-circles" || e.Name == "figure4" {
				again, err := e.Run(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				a, err := json.Marshal(withoutTime(r))
				if err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(withoutTime(again))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Fatalf("%s: two runs differ", e.Name)
				}
			}
		})
	}
}

// TestQuickChecks runs every historical experiment's quick run as mark1 experiment NAME --quick
// does (the experiment's own number of machines), from two seeds: every figure it checks stays
// in its band. A machine that never learns falls outside (see the bands' "broken" figures).
func TestQuickChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, e := range Historical() {
		for _, seed := range []string{"1", "5"} {
			t.Run(e.Name+"/seed="+seed, func(t *testing.T) {
				r, err := e.Run(context.Background(), quickConfig(t, e, "seed="+seed))
				if err != nil {
					t.Fatal(err)
				}
				labtest.HoldChecks(t, fmt.Sprintf("%s --quick --seed %s", e.Name, seed), r)
			})
		}
	}
}

// TestSources: every historical figure the lab prints names its source and how near the source
// stands (primary, secondary, tertiary, unverified or assumed), in the listing and in the
// reports; a report whose figures come only from an encyclopedia or from nowhere found never
// calls them "the record".
func TestSources(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, e := range Historical() {
		t.Run(e.Name, func(t *testing.T) {
			if e.Record == "" || e.Source == "" || !slices.Contains(report.SourceKinds, e.Kind) {
				t.Errorf("%s: listed as %q (%q, %q)", e.Name, e.Record, e.Source, e.Kind)
			}
			r, err := e.Run(context.Background(), quickConfig(t, e, "seeds=1"))
			if err != nil {
				t.Fatal(err)
			}
			weak := true
			for _, f := range r.Findings {
				if f.Source == "" || !slices.Contains(report.SourceKinds, f.Kind) {
					t.Errorf("%s: finding %q without a source and its kind: %q, %q", e.Name, f.What, f.Source, f.Kind)
				}
				weak = weak && (f.Kind == report.Tertiary || f.Kind == report.Unverified)
			}
			var buf bytes.Buffer
			if err := r.WriteText(&buf); err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(buf.String(), "\n  record:", "")
			text = strings.Join(strings.Fields(text), " ")
			if weak && (strings.Contains(text, "the record") || strings.Contains(text, "record's")) {
				t.Errorf("%s: its figures come from a tertiary or no source, yet the text speaks of the record:\n%s", e.Name, buf.String())
			}
			if strings.Contains(text, "10,000 training cards") || strings.Contains(text, "2,000 new") {
				t.Errorf("%s --quick: the summary gives the full run's counts:\n%s", e.Name, r.Summary)
			}
		})
	}
}

func withoutTime(r *report.Report) *report.Report {
	c := *r
	c.Seconds = 0
	return &c
}

// TestFigure4Theory checks the two formulas against values worked by hand.
func TestFigure4Theory(t *testing.T) {
	// (10, 0), theta 10, R = 0.5: every connection lit, 2^-10.
	if got := ActivityBinomial(10, 0, 10, 0.5); math.Abs(got-1.0/1024) > 1e-15 {
		t.Fatalf("binomial (10,0,10) = %v", got)
	}
	// (1, 1), theta 1: the excitatory lit and the inhibitory dark, R(1-R).
	if got := ActivityBinomial(1, 1, 1, 0.3); math.Abs(got-0.21) > 1e-15 {
		t.Fatalf("binomial (1,1,1) = %v", got)
	}
	// Theta <= -y: always fires.
	if got := ActivityBinomial(3, 2, -2, 0.4); math.Abs(got-1) > 1e-12 {
		t.Fatalf("binomial theta -y = %v", got)
	}
	// Exact, (1, 1, 1) with k of n lit: k/n * (n-k)/(n-1).
	if got, want := ActivityExact(1, 1, 1, 400, 100), 100.0/400*300/399; math.Abs(got-want) > 1e-12 {
		t.Fatalf("exact (1,1,1) = %v, want %v", got, want)
	}
	// The exact law tends to the binomial on a large retina.
	if a, b := ActivityExact(6, 4, 2, 1_000_000, 500_000), ActivityBinomial(6, 4, 2, 0.5); math.Abs(a-b) > 1e-5 {
		t.Fatalf("exact %v, binomial %v", a, b)
	}
}

// quickConfig returns the settings of an experiment's quick run with the parameters given as
// NAME=VALUE.
func quickConfig(t testing.TB, e Experiment, set ...string) lab.Config {
	t.Helper()
	c := e.Defaults()
	c.Quick = true
	for _, s := range set {
		name, value, _ := strings.Cut(s, "=")
		if err := c.Set(name, value); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCanceled: every experiment stops with its context's error when its context has ended
// (mark1 ends a run's context on Ctrl-C).
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, e := range Historical() {
		t.Run(e.Name, func(t *testing.T) {
			r, err := e.Run(ctx, e.Defaults())
			if !errors.Is(err, context.Canceled) || r != nil {
				t.Fatalf("report %v, error %v; want context.Canceled", r != nil, err)
			}
		})
	}
}
