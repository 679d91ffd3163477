package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// demoWidth is the terminal width the demo fits (80 columns, 24 lines).
const demoWidth = 80

// cmdDemo trains an analog and an ideal machine side by side on a built-in set, showing each
// epoch's mistakes as it ends, then what the analog machine's retina saw and what it answered.
// The output fits an 80x24 terminal.
func cmdDemo(args []string, stdout, _ io.Writer) error {
	fs := newFlags("demo", "[--data SPEC] [--epochs N] [--seed N]", stdout)
	data := fs.String("data", "builtin:letters", "cards to learn")
	epochs := fs.Int("epochs", 15, "most passes through the cards (at most 30)")
	seed := fs.Uint64("seed", machine.Default().Seed, "seed of every random choice")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *epochs < 1 || *epochs > 30 {
		return usageErr("--epochs: want 1..30")
	}
	set, err := loadData(*data, new(images.Loader))
	if err != nil {
		return budgetHint(err)
	}
	cfg := machine.Default()
	cfg.Seed = *seed
	if len(set.Classes) > cfg.RUnits && len(set.Classes) <= machine.MaxRUnits {
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
	live := isTerminal(stdout)
	fmt.Fprintln(stdout, clip(fmt.Sprintf("The Mark I Perceptron learns %s: %d cards, %d classes.", *data, len(set.Cards), len(set.Classes))))
	fmt.Fprintln(stdout, clip(fmt.Sprintf("%d photocells -> %d random A-units -> %d R-units; alpha rule; %.0f s a card.",
		retina.N, analog.AUnits(), analog.RUnits(), cfg.PresentationTime)))
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, clip(fmt.Sprintf("Mistakes in each epoch (one pass over the %d cards, shuffled):", len(set.Cards))))
	var ma, mi []int
	for e := 1; e <= *epochs; e++ {
		sa := analog.Epoch(da, nil)
		si := ideal.Epoch(di, nil)
		ma, mi = append(ma, sa.Mistakes), append(mi, si.Mistakes)
		if live {
			fmt.Fprintf(stdout, "\r  epoch %d: analog %d, ideal %d mistakes ", e, sa.Mistakes, si.Mistakes)
		}
		if sa.Corrections == 0 && si.Corrections == 0 {
			break
		}
	}
	if live {
		fmt.Fprint(stdout, "\r"+strings.Repeat(" ", demoWidth-1)+"\r")
	}
	for _, line := range epochTable(ma, mi) {
		fmt.Fprintln(stdout, line)
	}
	ra, ri := analog.Evaluate(da), ideal.Evaluate(di)
	fmt.Fprintln(stdout, clip(fmt.Sprintf("Training accuracy: analog %.1f%%, ideal %.1f%% (%.1f hours of machine time).",
		100*ra.Accuracy, 100*ri.Accuracy, analog.Clock()/3600)))
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "What the analog retina saw, and what the machine answered:")
	// Three cards of different classes, as the analog retina saw them, two cells a character.
	var shown [][]string
	var labels []string
	k := len(set.Classes)
	for _, want := range slices.Compact([]int{0, k / 3, 2 * k / 3}) {
		i := slices.Index(da.Class, want)
		if i < 0 {
			continue
		}
		p := analog.Present(&da.Stimuli[i])
		shown = append(shown, halfBlocks(analog.Last().S))
		labels = append(labels, fmt.Sprintf("%q -> %q", set.Classes[want], set.Classes[p]))
	}
	var b strings.Builder
	for _, l := range labels {
		fmt.Fprintf(&b, "  %-22s", l)
	}
	fmt.Fprintln(stdout, strings.TrimRight(b.String(), " "))
	for r := range retina.Rows / 2 {
		b.Reset()
		for _, g := range shown {
			fmt.Fprintf(&b, "  %s  ", g[r])
		}
		fmt.Fprintln(stdout, strings.TrimRight(b.String(), " "))
	}
	return nil
}

// epochTable lays the mistakes of each epoch out in columns, 15 epochs to a block.
func epochTable(analog, ideal []int) []string {
	var lines []string
	for start := 0; start < len(analog); start += 15 {
		end := min(start+15, len(analog))
		var e, a, i strings.Builder
		e.WriteString("  epoch ")
		a.WriteString("  analog")
		i.WriteString("  ideal ")
		for j := start; j < end; j++ {
			fmt.Fprintf(&e, "%4d", j+1)
			fmt.Fprintf(&a, "%4d", analog[j])
			fmt.Fprintf(&i, "%4d", ideal[j])
		}
		lines = append(lines, e.String(), a.String(), i.String())
	}
	return lines
}

// halfBlocks draws the S-units with one character for two rows of cells: the upper half block
// for a lit cell above, the lower for one below, a full block for both.
func halfBlocks(s *retina.Bits) []string {
	rows := make([]string, retina.Rows/2)
	var b strings.Builder
	for r := range rows {
		b.Reset()
		for c := range retina.Cols {
			top, bottom := s.Get(2*r*retina.Cols+c), s.Get((2*r+1)*retina.Cols+c)
			switch {
			case top && bottom:
				b.WriteString("█")
			case top:
				b.WriteString("▀")
			case bottom:
				b.WriteString("▄")
			default:
				b.WriteString("·")
			}
		}
		rows[r] = b.String()
	}
	return rows
}

// clip shortens a line to the demo's width.
func clip(s string) string {
	if len(s) <= demoWidth {
		return s
	}
	return s[:demoWidth-3] + "..."
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
