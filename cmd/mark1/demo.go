package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/machine"
)

// cmdDemo trains an analog and an ideal machine side by side on a built-in set, printing each
// epoch's errors and, at the end, what the analog machine's retina saw and what it answered.
func cmdDemo(args []string, stdout, _ io.Writer) error {
	fs := newFlags("demo", "[--data SPEC] [--epochs N]", stdout)
	data := fs.String("data", "builtin:letters", "cards to learn")
	epochs := fs.Int("epochs", 15, "passes through the cards")
	seed := fs.Uint64("seed", machine.Default().Seed, "seed of every random choice")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *epochs < 1 {
		return usageErr("--epochs must be at least 1")
	}
	set, err := loadData(*data)
	if err != nil {
		return err
	}
	cfg := machine.Default()
	cfg.Seed = *seed
	if len(set.Classes) > cfg.RUnits {
		cfg.RUnits = len(set.Classes) // one R-unit per class, like the lecture notes' one-vs-all
	}
	analog, err := machine.New(cfg, set.Classes)
	if err != nil {
		return err
	}
	ideal, err := machine.New(cfg.Ideal(), set.Classes)
	if err != nil {
		return err
	}
	da, err := analog.Prepare(set)
	if err != nil {
		return err
	}
	di, err := ideal.Prepare(set)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "The Mark I Perceptron learns %s: %d cards of %d classes.\n", *data, len(set.Cards), len(set.Classes))
	fmt.Fprintf(stdout, "%d photocells -> %d random A-units -> %d R-units; alpha rule; one presentation = %.0f s of machine time.\n\n",
		400, analog.AUnits(), analog.RUnits(), cfg.PresentationTime)
	fmt.Fprintf(stdout, "epoch  analog mistakes                            ideal mistakes\n")
	for e := 1; e <= *epochs; e++ {
		sa := analog.Epoch(da, nil)
		si := ideal.Epoch(di, nil)
		fmt.Fprintf(stdout, "%5d  %4d %-36s  %4d %s\n", e, sa.Mistakes, errBar(sa.Mistakes, da.Len(), 36), si.Mistakes, errBar(si.Mistakes, di.Len(), 36))
		if sa.Corrections == 0 && si.Corrections == 0 {
			break
		}
	}
	ra, ri := analog.Evaluate(da), ideal.Evaluate(di)
	fmt.Fprintf(stdout, "\ntraining accuracy: analog %.1f%%, ideal %.1f%% (after %.1f hours of machine time)\n\n", 100*ra.Accuracy, 100*ri.Accuracy, analog.Clock()/3600)
	// Show a few cards of different classes as the analog retina saw them.
	var rows [][]string
	var labels []string
	k := len(set.Classes)
	for _, want := range slices.Compact([]int{0, k / 4, k / 2, 3 * k / 4}) {
		for i, c := range da.Class {
			if c != want {
				continue
			}
			p := analog.Present(&da.Stimuli[i])
			rows = append(rows, retinaRows(analog.LastS()))
			labels = append(labels, fmt.Sprintf("card %q -> %q", set.Classes[c], set.Classes[p]))
			break
		}
	}
	for _, l := range labels {
		fmt.Fprintf(stdout, "%-24s", l)
	}
	fmt.Fprintln(stdout)
	for r := range rows[0] {
		var b strings.Builder
		for _, g := range rows {
			fmt.Fprintf(&b, "%-24s", g[r])
		}
		fmt.Fprintln(stdout, strings.TrimRight(b.String(), " "))
	}
	return nil
}
