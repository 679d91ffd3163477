package demo

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func booleanDemo() lab.Demo {
	return lab.Demo{Name: "boolean", Help: "Boolean functions of one threshold unit, and XOR by two layers",
		Args: "[--epochs N]", Usage: "[--epochs N] [--quick]",
		Params: []lab.Param{
			{Name: "epochs", Kind: lab.Int, Default: "1000", Min: 1, Max: trace.MaxPresentations / 32 /* the majority of five: 32 rows */, Help: "most epochs of the rule on each truth table", QuickSets: true},
		},
		Quick: courseQuick,
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			r, results, err := booleanReport(ctx, c.Int("epochs"))
			if err == nil && c.Quick {
				r.Checks = booleanChecks(results)
				r.Notes = append(r.Notes, courseQuickNote)
			}
			return r, err
		}}
}

// booleanFunction is a Boolean function of n inputs.
type booleanFunction struct {
	Name string
	N    int
	F    func(bits []int) bool
}

// twoAnds names (x1 and x2) or (x3 and x4): its true rows (1, 1, 0, 0) and (0, 0, 1, 1) and its
// false rows (1, 0, 1, 0) and (0, 1, 0, 1) have the same sum, so no weights put the first pair
// above a threshold and the second below it.
const twoAnds = "(x1 AND x2) OR (x3 AND x4)"

// mOfN is true when at least m of the inputs are 1.
func mOfN(m, n int) booleanFunction {
	return booleanFunction{fmt.Sprintf("%d-of-%d", m, n), n, func(b []int) bool {
		s := 0
		for _, v := range b {
			s += v
		}
		return s >= m
	}}
}

// booleanFunctions are the functions of the demonstration: AND, OR and NOT, m-of-n (at least m of n
// inputs on: 2-of-3 and the majority of five), then XOR, 3-bit parity and (x1 and x2) or
// (x3 and x4), which no threshold unit computes.
func booleanFunctions() []booleanFunction {
	return []booleanFunction{
		{"AND", 2, func(b []int) bool { return b[0] == 1 && b[1] == 1 }},
		{"OR", 2, func(b []int) bool { return b[0] == 1 || b[1] == 1 }},
		{"NOT", 1, func(b []int) bool { return b[0] == 0 }},
		{"NAND", 2, func(b []int) bool { return !(b[0] == 1 && b[1] == 1) }},
		mOfN(2, 3),
		mOfN(3, 5),
		{"XOR", 2, func(b []int) bool { return b[0] != b[1] }},
		{"parity of 3", 3, func(b []int) bool { return (b[0]+b[1]+b[2])%2 == 1 }},
		{twoAnds, 4, func(b []int) bool { return b[0] == 1 && b[1] == 1 || b[2] == 1 && b[3] == 1 }},
	}
}

// truthTable returns f's rows as trace data: the inputs in binary counting order (the last
// input fastest), labelled +1 where f is true.
func (f booleanFunction) truthTable() *trace.Data {
	d := &trace.Data{Name: f.Name}
	for v := range 1 << f.N {
		bits := make([]int, f.N)
		x := make([]int64, f.N)
		for i := range bits {
			bits[i] = v >> (f.N - 1 - i) & 1
			x[i] = int64(bits[i])
		}
		y := -1
		if f.F(bits) {
			y = 1
		}
		d.Points = append(d.Points, trace.Point{X: exact.Ints(x...), Y: y, Where: fmt.Sprint(bits)})
	}
	return d
}

// booleanResult is what the rule did with one function.
type booleanResult struct {
	Function booleanFunction
	Trace    *trace.Trace
	// Computes reports whether the final weights answer every row right (w.x > 0 exactly on
	// the rows where f is true). The rule may not have stopped yet (Trace.Converged): it counts
	// a score of 0 as a mistake.
	Computes bool
}

// learnBoolean runs the fixed-increment rule (bias last, from zero, eta 1, the rows in order)
// on f's truth table for at most epochs epochs.
func learnBoolean(ctx context.Context, f booleanFunction, epochs int) (booleanResult, error) {
	d := f.truthTable()
	t, err := trace.Run(ctx, d, trace.Config{Epochs: epochs})
	if err != nil {
		return booleanResult{}, err
	}
	w := t.Final()
	ok := true
	for _, p := range d.Points {
		ok = ok && (w.Dot(trace.Last.Augment(p.X)).Sign() > 0) == (p.Y == 1)
	}
	return booleanResult{f, t, ok}, nil
}

// thresholdText writes the unit a weight vector makes: "fires when x1 + x2 > 1.5"-style, as
// w1 x1 + ... > -w0.
func thresholdText(w exact.Vec) string {
	n := len(w) - 1
	lhs := equation(w[:n], exact.Int(0))
	return fmt.Sprintf("fires when %s > %s", lhs, exact.Format(new(big.Rat).Neg(w[n])))
}

// booleanReport shows which Boolean functions one threshold unit computes: the
// fixed-increment rule learns AND, OR, NOT, NAND and the m-of-n functions from their truth
// tables, each in a few epochs, and on XOR and parity its weights come back to where they were
// at an epoch's end: a cycle, which proves that no weights exist.
func booleanReport(ctx context.Context, epochs int) (*report.Report, []booleanResult, error) {
	r := &report.Report{Name: "boolean", Title: "Boolean functions of one threshold unit"}
	r.Summary = "A threshold unit fires when w.x > -w0: its true inputs and its false ones must lie on either side of a hyperplane. AND, OR, NOT and every m-of-n function (at least m of n inputs on) are such; XOR, parity and (x1 AND x2) OR (x3 AND x4) are not. The fixed-increment rule learns the first from their truth tables; on the others it cycles, and an exact repeat of the weights at an epoch's end proves that it never stops. Two layers of threshold units compute what one cannot: a unit wired by hand on the outputs of two others computes XOR."
	r.Condition("rule", fmt.Sprintf("fixed increment, eta 1, bias last, from zero; the truth table's rows in binary counting order, inputs 0 and 1, label +1 where the function is true; at most %s", english.Count(epochs, "epoch")))
	tab := &report.Table{Name: "boolean", Title: "What the rule learned", Columns: []string{"function", "inputs", "learned", "epochs", "updates", "weights (w1..wn, w0)", "the unit"}}
	var results []booleanResult
	for _, f := range booleanFunctions() {
		res, err := learnBoolean(ctx, f, epochs)
		if err != nil {
			return nil, nil, err
		}
		results = append(results, res)
		t := res.Trace
		learned, unit := "yes", thresholdText(t.Final())
		switch {
		case !res.Computes && t.Repeats >= 0:
			learned, unit = "no: cycles", fmt.Sprintf("after epoch %d the weights are back to those of %s: no weights exist", len(t.Epochs), epochEnd(t.Repeats))
		case !res.Computes:
			learned, unit = "not yet", "-"
		case !t.Converged:
			learned = "not stopped"
		}
		tab.AddRow(f.Name, f.N, learned, len(t.Epochs), t.Updates(), t.Final().String(), unit)
		if f.N == 2 {
			r.Figures = append(r.Figures, booleanFigure(res))
		}
	}
	tab.Note = "Learned: the last weights answer every row of the truth table right, and the epochs count the last one, in which the rule met every row. Not stopped: the last weights already compute the function, but the rule made a correction in the last epoch and stops only after a whole epoch without one (and it counts a score of exactly 0 as a mistake, where the unit simply does not fire)."
	r.Tables = append(r.Tables, tab)
	two := xorTwoLayers()
	r.Tables = append(r.Tables, two.table())
	var data []map[string]any
	for _, res := range results {
		data = append(data, map[string]any{"function": res.Function.Name, "inputs": res.Function.N, "learned": res.Computes && res.Trace.Converged, "computes": res.Computes,
			"epochs": len(res.Trace.Epochs), "updates": res.Trace.Updates(), "weights": res.Trace.Final().Strings(), "repeats_epoch": res.Trace.Repeats})
	}
	r.Data = map[string]any{"functions": data, "xor_two_layers": two.data()}
	return r, results, nil
}

// epochEnd names the end of epoch e (0: the start).
func epochEnd(e int) string {
	if e == 0 {
		return "the start"
	}
	return fmt.Sprintf("epoch %d", e)
}

// booleanFigure draws a two-input function's truth table on the unit square, with the unit's
// last boundary when it computes the function.
func booleanFigure(res booleanResult) *plot.Figure {
	f := res.Function
	fig := &plot.Figure{Name: "boolean-" + f.Name, Title: f.Name, XLabel: "x1", YLabel: "x2", Equal: true,
		Series: append(classSeries(res.Trace.Data), plot.Series{Name: "the inputs' square", X: []float64{0, 1, 1, 0, 0}, Y: []float64{0, 0, 1, 1, 0}, Reference: true})}
	if res.Computes {
		w, _ := plane(res.Trace.Final(), trace.Last)
		fig.Boundaries = []plot.Boundary{{Name: thresholdText(res.Trace.Final()), W: w, Style: 3, Solid: true}}
		fig.Caption = fmt.Sprintf("the four inputs (+1 where %s is true) and the unit the rule learned: its line w.x + w0 = 0", f.Name)
	} else {
		fig.Caption = fmt.Sprintf("the four inputs (+1 where %s is true): no line has the +1 inputs on one side and the -1 inputs on the other", f.Name)
	}
	return fig
}

// booleanChecks checks that the rule learned the six separable functions (an epoch that met
// every row), found XOR, parity and (x1 AND x2) OR (x3 AND x4) cycling, and that the
// two-layer unit computes XOR.
func booleanChecks(results []booleanResult) []report.Check {
	learned, cycling := 0, 0
	for _, r := range results {
		switch {
		case r.Computes && r.Trace.Converged:
			learned++
		case !r.Computes && r.Trace.Repeats >= 0:
			cycling++
		}
	}
	return []report.Check{
		report.NewCheck("AND, OR, NOT, NAND, 2-of-3, 3-of-5: learned (of 6)", float64(learned), 6, 6, "a rule that does not correct: 0"),
		report.NewCheck("XOR, 3-bit parity, (x1 AND x2) OR (x3 AND x4): found cycling (of 3)", float64(cycling), 3, 3, "the cycle not found, or weights claimed: fewer"),
		report.NewCheck("XOR by two layers of hand-wired units: rows right (of 4)", float64(xorTwoLayers().right()), 4, 4, "one unit alone, or a layer wired wrong: at most 3"),
	}
}

// thresholdUnit is a hand-wired threshold unit: it fires (1) when w.x > theta, else 0.
type thresholdUnit struct {
	Name  string
	W     exact.Vec
	Theta *big.Rat
}

func (u thresholdUnit) fire(x exact.Vec) int {
	if u.W.Dot(x).Cmp(u.Theta) > 0 {
		return 1
	}
	return 0
}

// twoLayers is a network of threshold units: a hidden layer on the inputs, an output unit on
// the hidden units' outputs.
type twoLayers struct {
	Function booleanFunction
	Hidden   []thresholdUnit
	Out      thresholdUnit
}

// xorTwoLayers wires XOR by hand: h1 = x1 OR x2 (x1 + x2 > 1/2), h2 = x1 AND x2
// (x1 + x2 > 3/2), and the output h1 AND NOT h2 (h1 - h2 > 1/2): one input on, not both.
func xorTwoLayers() twoLayers {
	half, threeHalves := big.NewRat(1, 2), big.NewRat(3, 2)
	return twoLayers{Function: booleanFunctions()[6],
		Hidden: []thresholdUnit{{"h1 (OR)", exact.Ints(1, 1), half}, {"h2 (AND)", exact.Ints(1, 1), threeHalves}},
		Out:    thresholdUnit{"out", exact.Ints(1, -1), half}}
}

// row returns the hidden units' outputs and the output on one input.
func (n twoLayers) row(x exact.Vec) ([]int, int) {
	h := make([]int, len(n.Hidden))
	hv := make([]int64, len(n.Hidden))
	for i, u := range n.Hidden {
		h[i] = u.fire(x)
		hv[i] = int64(h[i])
	}
	return h, n.Out.fire(exact.Ints(hv...))
}

// right counts the truth table's rows the network answers right.
func (n twoLayers) right() int {
	k := 0
	for _, p := range n.Function.truthTable().Points {
		if _, out := n.row(p.X); (out == 1) == (p.Y == 1) {
			k++
		}
	}
	return k
}

// unitText writes a hand-wired unit: "fires when x1 + x2 > 0.5".
func unitText(u thresholdUnit, names ...string) string {
	var b strings.Builder
	for i, c := range u.W {
		switch {
		case c.Sign() == 0:
			continue
		case b.Len() == 0 && c.Sign() < 0:
			b.WriteString("-")
		case b.Len() > 0 && c.Sign() < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if a := new(big.Rat).Abs(c); a.Cmp(exact.Int(1)) != 0 {
			b.WriteString(exact.Format(a) + " ")
		}
		b.WriteString(names[i])
	}
	return fmt.Sprintf("fires when %s > %s", b.String(), exact.Format(u.Theta))
}

// table shows the network's units and its truth table.
func (n twoLayers) table() *report.Table {
	t := &report.Table{Name: "xor-two-layers", Title: "XOR by two layers of threshold units, wired by hand",
		Columns: []string{"x1", "x2", "h1", "h2", "out", "XOR"}}
	for _, p := range n.Function.truthTable().Points {
		h, out := n.row(p.X)
		want := 0
		if p.Y == 1 {
			want = 1
		}
		t.AddRow(exact.Format(p.X[0]), exact.Format(p.X[1]), h[0], h[1], out, want)
	}
	t.Note = fmt.Sprintf("h1 %s (OR); h2 %s (AND); out %s (h1 and not h2). No line separates XOR's rows in the (x1, x2) plane, but in the hidden units' (h1, h2) plane its true rows are (1, 0) and its false rows (0, 0) and (1, 1): a line does.",
		unitText(n.Hidden[0], "x1", "x2"), unitText(n.Hidden[1], "x1", "x2"), unitText(n.Out, "h1", "h2"))
	return t
}

// data is the network for programs: the units' weights and thresholds, exact.
func (n twoLayers) data() map[string]any {
	unit := func(u thresholdUnit) map[string]any {
		return map[string]any{"name": u.Name, "w": u.W.Strings(), "theta": exact.Format(u.Theta)}
	}
	return map[string]any{"hidden": []map[string]any{unit(n.Hidden[0]), unit(n.Hidden[1])}, "out": unit(n.Out), "rows_right": n.right()}
}
