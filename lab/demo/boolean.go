package demo

import (
	"context"
	"fmt"
	"math/big"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func booleanDemo() lab.Demo {
	return lab.Demo{Name: "boolean", Help: "AND, OR, NOT, m-of-n learned by one threshold unit; XOR and parity not",
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
// inputs on: 2-of-3 and the majority of five), then XOR and 3-bit parity, which no threshold
// unit computes.
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
	r.Summary = "A threshold unit fires when w.x > -w0: its true inputs and its false ones must lie on either side of a hyperplane. AND, OR, NOT and every m-of-n function (at least m of n inputs on) are such; XOR and parity are not. The fixed-increment rule learns the first from their truth tables; on the others it cycles, and an exact repeat of the weights at an epoch's end proves that it never stops."
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
	var data []map[string]any
	for _, res := range results {
		data = append(data, map[string]any{"function": res.Function.Name, "inputs": res.Function.N, "learned": res.Computes && res.Trace.Converged, "computes": res.Computes,
			"epochs": len(res.Trace.Epochs), "updates": res.Trace.Updates(), "weights": res.Trace.Final().Strings(), "repeats_epoch": res.Trace.Repeats})
	}
	r.Data = data
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
// every row) and found XOR and parity cycling.
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
		report.NewCheck("XOR and 3-bit parity: found cycling (of 2)", float64(cycling), 2, 2, "the cycle not found, or weights claimed: fewer"),
	}
}
