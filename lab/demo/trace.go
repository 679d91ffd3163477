package demo

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

func traceDemo() lab.Demo {
	return lab.Demo{Name: "trace", Help: "a rule worked by hand: every presentation in exact numbers",
		Args: "--data FILE | --point X,...,Y ... [--init W]", Usage: "--data FILE | --point X1,...,LABEL ... [--init W] [--rule R] [flags]",
		Params: traceParams(),
		Run: func(ctx context.Context, c lab.Config) (*report.Report, error) {
			d, tc, err := traceSettings(c)
			if err != nil {
				return nil, err
			}
			return traceReport(ctx, d, tc)
		}}
}

// traceParams are the parameters of a trace: the data, where it starts, the rule.
func traceParams() []lab.Param {
	return []lab.Param{
		{Name: "data", Kind: lab.String, Help: "a CSV file of samples, one a line: the features, then a label of +1 or -1 (integers, decimals or fractions such as 1/3; # comments)"},
		{Name: "point", Kind: lab.Points, Help: "a sample X1,X2,...,LABEL (label +1 or -1); repeat for more, in order (instead of --data)"},
		{Name: "init", Kind: lab.String, Help: "the initial weights, comma-separated, as long as an augmented sample (default zeros)"},
		{Name: "bias", Kind: lab.String, Default: "last", Help: "where the constant 1 goes: last (x1..xd, 1), first (1, x1..xd), or none (the samples as given)"},
		{Name: "rule", Kind: lab.String, Default: "fixed", Help: "fixed (increment), margin (met only when y w.x > b) or batch (an epoch's mistakes summed)"},
		{Name: "eta", Kind: lab.String, Default: "1", Help: "the increment eta (a number such as 1, 0.5 or 1/2)"},
		{Name: "margin", Kind: lab.String, Default: "0", Help: "the margin rule's b >= 0"},
		{Name: "at-zero", Kind: lab.String, Default: "wrong", Help: "what a score w.x of exactly 0 answers: wrong (a mistake for either label), +1 or -1"},
		{Name: "epochs", Kind: lab.Int, Default: strconv.Itoa(trace.DefaultEpochs), Min: 1, Max: trace.MaxPresentations, Help: "most epochs (the trace stops at an epoch that meets every sample, or when the weights cycle)"},
		{Name: "schedule", Kind: lab.String, Default: "const", Help: "the variable increment eta(k) of the k-th update: const (eta), 1/k (eta/k) or 1/sqrt(k) (eta/sqrt(k), rounded to 6 digits where sqrt(k) is irrational)"},
		{Name: "pocket", Kind: lab.String, Default: "none", Help: "Gallant's pocket, for the fixed and margin rules: none, run (keep the weights of the longest run of samples met) or ratchet (and only when they meet more samples)"},
	}
}

// traceSettings reads the data and the rule's settings of a trace.
func traceSettings(c lab.Config) (*trace.Data, trace.Config, error) {
	var tc trace.Config
	var err error
	if tc.Rule, err = trace.ParseRule(c.String("rule")); err != nil {
		return nil, tc, lab.ParamErrorf("--rule: %v", err)
	}
	if tc.Bias, err = trace.ParseBias(c.String("bias")); err != nil {
		return nil, tc, lab.ParamErrorf("--bias: %v", err)
	}
	if tc.Zero, err = trace.ParseZero(c.String("at-zero")); err != nil {
		return nil, tc, lab.ParamErrorf("--at-zero: %v", err)
	}
	eta, margin := c.String("eta"), c.String("margin")
	if tc.Eta, err = exact.Parse(eta); err != nil || tc.Eta.Sign() <= 0 {
		return nil, tc, lab.ParamErrorf("--eta %s: want a number > 0", eta)
	}
	if tc.B, err = exact.Parse(margin); err != nil || tc.B.Sign() < 0 {
		return nil, tc, lab.ParamErrorf("--margin %s: want a number >= 0", margin)
	}
	switch {
	case c.Given("margin") && tc.Rule != trace.Margin:
		return nil, tc, lab.ParamErrorf("--margin goes with --rule margin")
	case c.Given("at-zero") && tc.Rule == trace.Margin:
		return nil, tc, lab.ParamErrorf("--at-zero: the margin rule meets a sample when y w.x > b; no answer at zero to choose")
	}
	if tc.Schedule, err = trace.ParseSchedule(c.String("schedule")); err != nil {
		return nil, tc, lab.ParamErrorf("--schedule: %v", err)
	}
	if tc.Pocket, err = trace.ParsePocket(c.String("pocket")); err != nil {
		return nil, tc, lab.ParamErrorf("--pocket: %v", err)
	}
	if tc.Pocket != trace.NoPocket && tc.Rule == trace.Batch {
		return nil, tc, lab.ParamErrorf("--pocket goes with --rule fixed or margin, not batch")
	}
	tc.Epochs = c.Int("epochs")
	init := c.String("init")
	if init != "" {
		if tc.Init, err = exact.ParseVec(init); err != nil {
			return nil, tc, lab.ParamErrorf("--init %s: %v", init, err)
		}
	}
	d, err := samples(c)
	if err != nil {
		return nil, tc, err
	}
	if d == nil {
		return nil, tc, lab.ParamErrorf("no samples: give --data FILE or --point X1,X2,...,LABEL (repeated)")
	}
	if err := tc.Validate(d); err != nil {
		if strings.HasPrefix(err.Error(), "initial weights") {
			return nil, tc, lab.ParamErrorf("--init %s: %s", init, strings.TrimPrefix(err.Error(), "initial weights "+tc.Init.String()+": "))
		}
		return nil, tc, &lab.ParamError{Msg: err.Error()}
	}
	return d, tc, nil
}

// samples reads the samples of --data FILE or of the --point settings, or returns nil for
// none. A FILE that is not a regular file (a FIFO, a device, a folder) is refused at once,
// before it is opened: a FIFO would keep the run waiting for a writer that may never come.
func samples(c lab.Config) (*trace.Data, error) {
	file, points := c.String("data"), c.Points("point")
	switch {
	case file != "" && len(points) > 0:
		return nil, lab.ParamErrorf("--data and --point: give the samples one way")
	case file != "":
		f, err := regfile.OpenFor(file, "a CSV file of samples")
		if err != nil {
			return nil, fmt.Errorf("--data: %w", err)
		}
		defer f.Close()
		return trace.ReadCSV(file, f)
	case len(points) > 0:
		d, err := trace.Points(points)
		if err != nil {
			return nil, &lab.ParamError{Msg: err.Error()}
		}
		return d, nil
	}
	return nil, nil
}

// ruleText says in words what the rule of c does.
func ruleText(c trace.Config) string {
	eta := "eta y x"
	if c.Eta == nil || c.Eta.Cmp(exact.Int(1)) == 0 {
		eta = "y x"
	}
	switch c.Schedule {
	case trace.InverseK:
		eta = "eta(k) y x (eta(k) = eta/k at the k-th update)"
	case trace.InverseSqrtK:
		eta = "eta(k) y x (eta(k) = eta/sqrt(k) at the k-th update, rounded to 6 digits where sqrt(k) is irrational)"
	}
	met := "y w.x > 0 (a score of 0 is a mistake for either label)"
	switch c.Zero {
	case trace.Plus:
		met = "the unit answers y, +1 when w.x >= 0, else -1"
	case trace.Minus:
		met = "the unit answers y, +1 when w.x > 0, else -1"
	}
	switch c.Rule {
	case trace.Margin:
		b := "0"
		if c.B != nil {
			b = exact.Format(c.B)
		}
		return fmt.Sprintf("variable increment with a margin: a sample is met when y w.x > b = %s; one not met moves w by %s at once", b, eta)
	case trace.Batch:
		return fmt.Sprintf("batch: a sample is met when %s; the epoch's samples not met are summed, and w moves by the sum of their %s at the epoch's end", met, eta)
	}
	return fmt.Sprintf("fixed increment: a sample is met when %s; one not met moves w by %s at once", met, eta)
}

// biasText says how the samples are augmented.
func biasText(b trace.Bias) string {
	switch b {
	case trace.First:
		return "first: x = (1, x1, ..., xd), w = (w0, w1, ..., wd)"
	case trace.None:
		return "none: the samples as given (a bias input among them, or no bias)"
	}
	return "last: x = (x1, ..., xd, 1), w = (w1, ..., wd, w0)"
}

type stepJSON struct {
	Step   int      `json:"step"`
	Epoch  int      `json:"epoch"`
	Sample string   `json:"sample"`
	X      []string `json:"x"`
	Y      int      `json:"y"`
	Score  string   `json:"w_x"`
	Signed string   `json:"y_w_x"`
	Met    bool     `json:"met"`
	W      []string `json:"w"`
}

type epochJSON struct {
	Epoch    int      `json:"epoch"`
	Mistakes int      `json:"mistakes"`
	Sum      []string `json:"batch_sum,omitempty"`
	W        []string `json:"w"`
}

// traceData is the trace for programs: every number exact, as a string ("0.5", "1/3").
type traceData struct {
	Start     []string    `json:"start"`
	Steps     []stepJSON  `json:"steps"`
	Epochs    []epochJSON `json:"epochs"`
	Converged bool        `json:"converged"`
	Repeats   int         `json:"repeats_epoch"` // -1 unless the weights cycle
	Final     []string    `json:"final"`
}

func traceJSON(t *trace.Trace) traceData {
	j := traceData{Start: t.Start.Strings(), Converged: t.Converged, Repeats: t.Repeats, Final: t.Final().Strings()}
	for _, s := range t.Steps {
		j.Steps = append(j.Steps, stepJSON{s.N, s.Epoch, t.Data.Points[s.Sample].Where, s.X.Strings(), s.Y,
			exact.Format(s.Score), exact.Format(s.Signed), s.Met, s.W.Strings()})
	}
	for _, e := range t.Epochs {
		ej := epochJSON{Epoch: e.Epoch, Mistakes: e.Mistakes, W: e.W.Strings()}
		if e.Sum != nil {
			ej.Sum = e.Sum.Strings()
		}
		j.Epochs = append(j.Epochs, ej)
	}
	return j
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func signed(y int) string { return fmt.Sprintf("%+d", y) }

// dataText describes the data of a trace.
func dataText(d *trace.Data) string {
	return fmt.Sprintf("%s: %s, %s, in the order given", d.Name, english.Count(len(d.Points), "point"), english.Count(d.Dim(), "feature"))
}

// traceOutcome says how the trace ended.
func traceOutcome(t *trace.Trace) string {
	n := len(t.Epochs)
	switch {
	case t.Converged:
		return fmt.Sprintf("Every sample met in epoch %d: w = %s, after %s.", n, t.Final(), english.Count(t.Updates(), "update"))
	case t.Repeats >= 0:
		when := "the start"
		if t.Repeats > 0 {
			when = fmt.Sprintf("the end of epoch %d", t.Repeats)
		}
		return fmt.Sprintf("The weights at the end of epoch %d, %s, are those of %s: the same weights meet the same samples in the same order, so the rule cycles for ever and never meets every sample.", n, t.Final(), when)
	}
	return fmt.Sprintf("Not every sample met within %s: w = %s after %s.", english.Count(n, "epoch"), t.Final(), english.Count(t.Updates(), "update"))
}

// traceReport runs a rule on a student's data and reports every presentation in exact numbers.
func traceReport(ctx context.Context, d *trace.Data, c trace.Config) (*report.Report, error) {
	t, err := trace.Run(ctx, d, c)
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "trace", Title: "The perceptron rule, presentation by presentation"}
	r.Summary = "Each line is one presentation: the augmented sample x, its label y, the score w.x with the weights before it, y(w.x), whether the sample was met, and the weights after it. Numbers are exact: integers stay integers, fractions are written as decimals when they end, else as a/b."
	r.Condition("data", dataText(d))
	r.Condition("rule", ruleText(c))
	if c.Eta != nil {
		r.Condition("eta", exact.Format(c.Eta))
	}
	r.Condition("bias", biasText(c.Bias))
	r.Condition("initial weights", t.Start.String())
	switch c.Pocket {
	case trace.PocketRun:
		r.Condition("pocket", "Gallant's pocket: the weights of the longest run of samples met so far (it starts with the initial weights)")
	case trace.PocketRatchet:
		r.Condition("pocket", "Gallant's pocket with the ratchet: the weights of the longest run of samples met so far, when they meet more samples than the pocket's (it starts with the initial weights)")
	}
	tab := &report.Table{Name: "trace", Title: "Presentations", Columns: slices.Clone(trace.Columns)}
	rows := trace.NewRows(d)
	for i, s := range t.Steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		tab.Rows = append(tab.Rows, rows.Row(s))
		if c.Rule == trace.Batch && (i+1 == len(t.Steps) || t.Steps[i+1].Epoch != s.Epoch) {
			tab.Rows = append(tab.Rows, trace.BatchRow(t.Epochs[s.Epoch-1]))
		}
	}
	if c.Rule == trace.Batch {
		tab.Note = "The batch rule changes w only at an epoch's end, by eta times the sum of y x over the samples not met (the line \"epoch's end\")."
	}
	r.Tables = append(r.Tables, tab)
	ep := &report.Table{Name: "epochs", Title: "Epochs", Columns: slices.Clone(trace.EpochColumns)}
	for _, e := range t.Epochs {
		ep.Rows = append(ep.Rows, trace.EpochRow(e))
	}
	r.Tables = append(r.Tables, ep)
	r.Notes = append(r.Notes, traceOutcome(t))
	if t.Pocket != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("The pocket holds w = %s, which does not meet %s.", t.Pocket, english.Count(t.PocketMisses, "sample")))
	}
	if fig := updatesFigure(t); fig != nil {
		r.Figures = append(r.Figures, fig)
	}
	r.Data = traceJSON(t)
	return r, nil
}

// plane returns the discriminant of augmented weights w on two features as w1 x1 + w2 x2 + w0,
// or false when the samples do not have two features and a bias.
func plane(w exact.Vec, b trace.Bias) ([3]float64, bool) {
	f := w.Floats()
	switch {
	case len(f) != 3 || b == trace.None:
		return [3]float64{}, false
	case b == trace.First:
		return [3]float64{f[1], f[2], f[0]}, true
	}
	return [3]float64{f[0], f[1], f[2]}, true
}

// classSeries returns the points of the two labels as two scatter series.
func classSeries(d *trace.Data) []plot.Series {
	var neg, pos plot.Series
	neg = plot.Series{Name: "y = -1", Points: true, Style: 1}
	pos = plot.Series{Name: "y = +1", Points: true, Style: 2}
	for _, p := range d.Points {
		s := &neg
		if p.Y == 1 {
			s = &pos
		}
		s.X = append(s.X, exact.Float(p.X[0]))
		s.Y = append(s.Y, exact.Float(p.X[1]))
	}
	return []plot.Series{neg, pos}
}

// maxBoundaries is the most boundaries the updates figure draws: the first and last halves.
const maxBoundaries = 12

// updatesFigure draws, for data of two features with a bias, the boundary of the initial
// weights (when not zero) and after each update: the line moving with the rule.
func updatesFigure(t *trace.Trace) *plot.Figure {
	if t.Data.Dim() != 2 || t.Config.Bias == trace.None {
		return nil
	}
	type snap struct {
		what string
		w    exact.Vec
	}
	var snaps []snap
	if _, ok := plane(t.Start, t.Config.Bias); ok && !t.Start.Equal(exact.Zeros(3)) {
		snaps = append(snaps, snap{"start " + t.Start.String(), t.Start})
	}
	if t.Config.Rule == trace.Batch {
		for _, e := range t.Epochs {
			if e.Mistakes > 0 {
				snaps = append(snaps, snap{fmt.Sprintf("epoch %d %s", e.Epoch, e.W), e.W})
			}
		}
	} else {
		for _, s := range t.Steps {
			if !s.Met {
				snaps = append(snaps, snap{fmt.Sprintf("step %d %s", s.N, s.W), s.W})
			}
		}
	}
	cut := ""
	if len(snaps) > maxBoundaries {
		cut = fmt.Sprintf(" (the first and last %d of %d)", maxBoundaries/2, len(snaps))
		snaps = append(snaps[:maxBoundaries/2:maxBoundaries/2], snaps[len(snaps)-maxBoundaries/2:]...)
	}
	f := &plot.Figure{Name: "updates", Title: "The boundary w.x = 0 after each update", XLabel: "x1", YLabel: "x2", Equal: true,
		Caption: "the samples and the boundary of the weights after each update" + cut + "; the weights' side w.x > 0 answers +1",
		Series:  classSeries(t.Data)}
	for i, s := range snaps {
		w, _ := plane(s.w, t.Config.Bias)
		// The last weights drawn solid: where the rule ends.
		f.Boundaries = append(f.Boundaries, plot.Boundary{Name: s.what, W: w, Style: i + 3, Solid: i == len(snaps)-1})
	}
	return f
}

// ratSqrt writes a / sqrt(s) exactly, with its value: "3/sqrt(5) ≈ 1.342" (or the exact
// value when s is a perfect square).
func ratSqrt(a, s *big.Rat) string {
	if a.Sign() == 0 {
		return "0"
	}
	if root, ok := sqrtRat(s); ok {
		return exact.Format(new(big.Rat).Quo(a, root))
	}
	v := exact.Float(a) / sqrtF(exact.Float(s))
	num := exact.Format(a)
	if strings.ContainsAny(num, "/") {
		num = "(" + num + ")"
	}
	return fmt.Sprintf("%s/sqrt(%s) ≈ %.4g", num, exact.Format(s), v)
}

// sqrtRat returns the exact square root of s when numerator and denominator are squares.
func sqrtRat(s *big.Rat) (*big.Rat, bool) {
	if s.Sign() < 0 {
		return nil, false
	}
	n, d := new(big.Int).Sqrt(s.Num()), new(big.Int).Sqrt(s.Denom())
	if new(big.Int).Mul(n, n).Cmp(s.Num()) != 0 || new(big.Int).Mul(d, d).Cmp(s.Denom()) != 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}
