package demo

import (
	"context"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

// TestLessons runs the lab's demonstrations small and checks what a student must see.
func TestLessons(t *testing.T) {
	ctx := context.Background()
	nov, err := novikoffReport(ctx, novikoffConfig{Problems: 20, Points: 40, Dim: 5, Margin: 0.05, Seed: 1, Cards: true, Machine: machine.Default()})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range nov.Data.([]novikoffRow) {
		if row.Gamma > 0 && float64(row.Corrections) > row.Bound {
			t.Fatalf("%s: %d corrections over the bound %v", row.Name, row.Corrections, row.Bound)
		}
		if strings.HasPrefix(row.Name, "random") && (row.Gamma <= 0 || !row.Converged) {
			t.Fatalf("%s: a separable problem without a bound: %+v", row.Name, row)
		}
	}
	ns, err := nonSeparableReport(ctx, nonSeparableConfig{Epochs: 30, Cards: 60, Seed: 1, Machine: machine.Default()})
	if err != nil {
		t.Fatal(err)
	}
	runs := ns.Data.(map[string]any)["runs"].([]nsRun)
	for i, run := range runs[:2] { // XOR and parity: never converge; the pocket never worsens
		for e, n := range run.Corrections {
			if n == 0 {
				t.Fatalf("case %d: epoch %d without a correction", i, e+1)
			}
			if e > 0 && run.Pocket[e] > run.Pocket[e-1] {
				t.Fatalf("case %d: the pocket's error rose at epoch %d", i, e+1)
			}
		}
		if run.Pocket[len(run.Pocket)-1] > run.LSQ+1e-9 && i == 0 {
			t.Logf("xor: pocket %v, least squares %v", run.Pocket[len(run.Pocket)-1], run.LSQ)
		}
	}
	out, err := outliersReport(ctx, outliersConfig{Draws: 5, Outliers: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	errs := out.Data.(map[string]any)["errors_per_draw"].([][][2]float64)
	lsqWorse, percWorse := 0.0, 0.0
	for _, d := range errs {
		lsqWorse += d[0][1] - d[0][0]
		percWorse += d[3][1] - d[3][0]
	}
	if lsqWorse <= 0 || percWorse > lsqWorse {
		t.Fatalf("outliers: least squares worse by %v, perceptron by %v", lsqWorse, percWorse)
	}
}

// TestCardLessons runs the demonstrations on the Mark I itself on small sets.
func TestCardLessons(t *testing.T) {
	ctx := context.Background()
	train, err := builtin.Load("ef")
	if err != nil {
		t.Fatal(err)
	}
	train.Name = "builtin:ef"
	cfg := machine.Default()
	cfg.MarkI.AUnits = 128
	c := cardsConfig{Train: train, Test: train, Machine: cfg, Epochs: 4, Seeds: 1}
	fl, err := flawsReport(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(fl.Tables[0].Rows) != len(machine.Flaws())+2 {
		t.Fatalf("flaws: %d rows", len(fl.Tables[0].Rows))
	}
	// gamma alone acts with nothing: identical to the ideal machine.
	for _, row := range fl.Tables[0].Rows {
		if row[0] == "gamma" && !strings.Contains(row[5], "no effect") {
			t.Fatalf("gamma alone: %q", row)
		}
	}
	fg, err := forgetReport(ctx, forgetConfig{cardsConfig: c, Hours: []float64{10, 1000}})
	if err != nil {
		t.Fatal(err)
	}
	rows := fg.Data.([][]forgetRow)
	ideal := rows[3]
	if ideal[0].Drift != 0 || ideal[2].Drift != 0 || ideal[2].TrainError != ideal[0].TrainError {
		t.Fatalf("the ideal machine drifted: %+v", ideal)
	}
	if all := rows[0]; all[2].Drift <= all[1].Drift || all[1].Drift <= 0 {
		t.Fatalf("drift does not grow with time: %+v", all)
	}
	au, err := aunitsReport(ctx, aunitsConfig{cardsConfig: c, Counts: []int{64}})
	if err != nil || len(au.Tables[0].Rows) != 2 {
		t.Fatalf("aunits: %v", err)
	}
	fi, err := fieldsReport(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if g := fi.Figures[0].Grids; len(g) != 1 || len(g[0].Values) != 400 {
		t.Fatalf("fields: %d maps", len(g))
	}
}
