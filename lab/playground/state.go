package playground

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// State is a session's whole state, for the page to draw (see the package documentation).
type State struct {
	Points        []PointState   `json:"points"`
	Classes       int            `json:"classes"`
	Method        string         `json:"method"`
	Multiclass    string         `json:"multiclass"`
	Bias          string         `json:"bias"`
	W             *Weights       `json:"w"`
	Boundary      *Boundary      `json:"boundary"`
	Units         []Unit         `json:"units"`
	Trace         *TraceState    `json:"trace"`
	Epochs        []EpochState   `json:"epochs"`
	Updates       int            `json:"updates"`
	Step          int            `json:"step"`
	Epoch         int            `json:"epoch"`
	Status        string         `json:"status"`
	Errors        int            `json:"errors"`
	Criteria      *Criteria      `json:"criteria"`
	History       []HistoryPoint `json:"history"`
	HistoryStride int            `json:"historyStride"`
	Line          *Line          `json:"line"`
	WeightSpace   *WeightSpace   `json:"weightSpace"`
	Novikoff      *Novikoff      `json:"novikoff"`
	Pocket        *PocketState   `json:"pocket"`
	Regions       *plot.Regions  `json:"regions"`
	Command       string         `json:"command"`
	CommandNote   string         `json:"commandNote,omitempty"`
	// Config is the session's set-up, without its points (those are Points).
	Config SessionConfig `json:"config"`
}

// PointState is a sample: where it is, its label, and what the weights make of it.
type PointState struct {
	X     [2]float64 `json:"x"`
	Exact [2]string  `json:"exact"`
	Label int        `json:"label"`
	// G is the score g(x) = w.x (K classes: the winning discriminant's); Dist is g(x)/|w|, the
	// signed distance from the boundary, |w| the length of the feature weights (w1, w2).
	G    float64 `json:"g"`
	Dist float64 `json:"dist"`
	// Met says that the rule counts the sample right (with the margin, and the answer at zero);
	// Answer is the class answered (+1/-1; K classes 0..K-1, K ambiguous, K+1 no class).
	Met    bool `json:"met"`
	Answer int  `json:"answer"`
}

// Weights are weights in the bias's order, exactly and as floats.
type Weights struct {
	Exact []string  `json:"exact"`
	Float []float64 `json:"float"`
}

func weights(w exact.Vec) *Weights { return &Weights{Exact: w.Strings(), Float: w.Floats()} }

// Boundary is the line a x1 + b x2 + c = 0 of the weights (a = w1, b = w2, c = w0); OK is
// false when w1 = w2 = 0 (no line). Normal is (w1, w2) / |w| and Offset -w0/|w|, the line's
// signed distance from the origin along it; Norm is |w| = |(w1, w2)|.
type Boundary struct {
	OK     bool       `json:"ok"`
	A      float64    `json:"a"`
	B      float64    `json:"b"`
	C      float64    `json:"c"`
	Normal [2]float64 `json:"normal"`
	Offset float64    `json:"offset"`
	Norm   float64    `json:"norm"`
}

func boundary(w1, w2, w0 float64) *Boundary {
	n := math.Hypot(w1, w2)
	b := &Boundary{OK: n > 0, A: w1, B: w2, C: w0, Norm: n}
	if n > 0 {
		b.Normal, b.Offset = [2]float64{w1 / n, w2 / n}, -w0/n
	}
	return b
}

// Unit is one discriminant of a K-class classifier: what it separates and its line.
type Unit struct {
	Name     string    `json:"name"`
	W        []float64 `json:"w"` // (w1, w2, w0)
	Boundary *Boundary `json:"boundary"`
}

// TraceState is the trace's table as mark1 lab trace prints it: Rows are the last rows (at most
// SessionConfig.TraceRows), First the place of the first of them among all Total rows.
type TraceState struct {
	Columns      []string   `json:"columns"`
	Rows         [][]string `json:"rows"`
	First        int        `json:"first"`
	Total        int        `json:"total"`
	EpochColumns []string   `json:"epochColumns"`
	EpochRows    [][]string `json:"epochRows"`
}

// EpochState is an epoch's end.
type EpochState struct {
	Epoch    int      `json:"epoch"`
	Mistakes int      `json:"mistakes"`
	W        []string `json:"w"`
}

// Value is a number exactly and as a float.
type Value struct {
	Exact string  `json:"exact"`
	Float float64 `json:"float"`
}

func value(r *big.Rat) Value { return Value{exact.Format(r), exact.Float(r)} }

// Criteria are the current weights' criteria, exactly (see the package documentation).
type Criteria struct {
	ZeroOne int   `json:"zeroOne"`
	EP      Value `json:"EP"`
	EQ      Value `json:"EQ"`
	ER      Value `json:"ER"`
	B       Value `json:"b"`
}

// Line is the criteria (floats) along the line w(t) = from + t (to - from) through weight
// space: from the initial weights (t = 0) to the current (t = 1), extended to either side;
// when they are the same, along the bias (to = from + the bias's unit vector).
type Line struct {
	From    []float64 `json:"from"`
	To      []float64 `json:"to"`
	Along   string    `json:"along"` // "path" or "bias"
	Ts      []float64 `json:"ts"`
	ZeroOne []int     `json:"zeroOne"`
	EP      []float64 `json:"EP"`
	EQ      []float64 `json:"EQ"`
	ER      []float64 `json:"ER"`
}

// WeightSpace is the plane (w1, w2) at the current bias w0: each sample's half-plane
// a w1 + b w2 + c > 0 of the weights that meet it (a = y x1, b = y x2, c = y w0 - m, m the
// rule's margin), whose intersection is the solution region there, and the path of (w1, w2)
// from the start through every update (each at its own w0; thinned past 2,000 points).
type WeightSpace struct {
	W0         float64      `json:"w0"`
	W          [2]float64   `json:"w"`
	HalfPlanes []HalfPlane  `json:"halfPlanes"`
	Path       [][2]float64 `json:"path"`
}

// HalfPlane is a w1 + b w2 + c > 0.
type HalfPlane struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
	C float64 `json:"c"`
}

// Novikoff is the perceptron convergence theorem's bound R^2/gamma^2 on the updates of the
// fixed increment from zero (see the package documentation for gamma).
type Novikoff struct {
	Separable bool     `json:"separable"`
	R2        float64  `json:"R2"`
	Gamma     float64  `json:"gamma"`
	Gamma2    float64  `json:"gamma2"`
	Bound     *float64 `json:"bound"` // null when no separating weights were found
	Updates   int      `json:"updates"`
	// From says where gamma comes from: "max-margin" (learn.MaxMargin) or "weights" (the
	// current weights separate with a larger margin), "" when not separable.
	From string `json:"from"`
}

// PocketState is the pocket's weights (Gallant), their misses and their line.
type PocketState struct {
	W        *Weights  `json:"w"`
	Misses   int       `json:"misses"`
	Boundary *Boundary `json:"boundary"`
}

// State returns the session's whole state.
func (s *Session) State() *State {
	st := &State{Classes: s.set.k, Method: s.set.method, Multiclass: s.set.strategy.String(), Bias: s.set.tc.Bias.String(),
		Step: s.steps, Status: s.status, Config: s.cfgView, Units: []Unit{}, Epochs: []EpochState{}, Points: []PointState{}}
	st.Command, st.CommandNote = s.cmd[0], s.cmd[1]
	if s.set.k > 2 {
		s.stateK(st)
		return st
	}
	w := s.w.Floats()
	w1, w2, w0 := features(w, s.set.tc.Bias)
	st.W, st.Boundary = weights(s.w), boundary(w1, w2, w0)
	if s.st != nil {
		st.Updates, st.Epoch = s.st.Updates(), s.st.Epoch()
		st.Trace = s.traceState()
		if pw, misses := s.st.Pocket(); pw != nil {
			p1, p2, p0 := features(pw.Floats(), s.set.tc.Bias)
			st.Pocket = &PocketState{W: weights(pw), Misses: misses, Boundary: boundary(p1, p2, p0)}
		}
	}
	for _, e := range s.epochs {
		st.Epochs = append(st.Epochs, EpochState{e.Epoch, e.Mistakes, e.W.Strings()})
	}
	st.History, st.HistoryStride = s.hist.pts, max(s.hist.stride, 1)
	if st.History == nil {
		st.History = []HistoryPoint{}
	}
	c := s.byWeights()
	st.Points, st.Errors, st.Criteria, st.Line, st.WeightSpace, st.Novikoff = c.points, c.errors, c.criteria, c.line, c.ws, c.nov
	return st
}

// weightsCache holds what the state computes from the weights alone (and from the points, the
// path and the updates, which change only with them), for the weights' version: a step that
// meets its sample leaves it as it was. StateJSON keeps its writing of the long parts there too.
type weightsCache struct {
	version  int
	points   []PointState
	errors   int
	criteria *Criteria
	line     *Line
	ws       *WeightSpace
	nov      *Novikoff

	pointsJSON, lineJSON, wsJSON []byte
}

// byWeights returns the state's parts that depend on the current weights.
func (s *Session) byWeights() *weightsCache {
	if s.wc != nil && s.wc.version == s.wVersion {
		return s.wc
	}
	w := s.w.Floats()
	w1, w2, w0 := features(w, s.set.tc.Bias)
	c := &weightsCache{version: s.wVersion, points: s.pointStates(w)}
	for _, p := range c.points {
		if !p.Met {
			c.errors++
		}
	}
	e := s.smp.exactCriteria(s.w, s.set.b)
	c.criteria = &Criteria{ZeroOne: e.zeroOne, EP: value(e.ep), EQ: value(e.eq), ER: Value{Float: s.hist.last.ER}, B: value(s.set.b)}
	if e.er != nil {
		c.criteria.ER = value(e.er)
	}
	c.line = s.line()
	c.ws = s.weightSpace(w0, w1, w2)
	c.nov = s.novikoff()
	s.wc = c
	return c
}

// pointStates returns the points with their scores, distances and answers (floats; a score
// too near 0 to judge in floats is judged exactly).
func (s *Session) pointStates(w []float64) []PointState {
	out := make([]PointState, 0, len(s.static))
	w1, w2, _ := features(w, s.set.tc.Bias)
	norm := math.Hypot(w1, w2)
	wn := math.Sqrt(float64(w[0]*w[0]) + float64(w[1]*w[1]) + float64(w[2]*w[2]))
	b := exact.Float(s.set.b)
	margin := s.set.tc.Rule == trace.Margin
	for i, p := range s.set.points {
		x := s.smp.xf[i]
		g := float64(w[0]*x[0]) + float64(w[1]*x[1]) + float64(w[2]*x[2])
		ps := s.static[i]
		ps.G = g
		if norm > 0 {
			ps.Dist = g / norm
		}
		if math.Abs(g) <= 1e-9*wn*s.smp.scale[i] || margin && math.Abs(float64(float64(p.y)*g)-b) <= 1e-9*(float64(wn*s.smp.scale[i])+b) {
			sc := s.w.Dot(s.smp.xs[i])
			ps.Met = s.set.tc.Met(p.y, sc)
			ps.Answer = answer(sc.Sign(), s.set.tc.Zero)
		} else {
			ps.Answer = answer(sign(g), s.set.tc.Zero)
			if margin {
				ps.Met = float64(p.y)*g > b
			} else {
				ps.Met = ps.Answer == p.y
			}
		}
		if s.set.closed() {
			ps.Met = float64(p.y)*g > 0
		}
		out = append(out, ps)
	}
	return out
}

func sign(f float64) int {
	switch {
	case f > 0:
		return 1
	case f < 0:
		return -1
	}
	return 0
}

// answer is the unit's answer for a score's sign: +1 or -1, and at 0 by the convention (0 for
// "wrong": no answer).
func answer(sign int, z trace.Zero) int {
	switch {
	case sign != 0:
		return sign
	case z == trace.Plus:
		return 1
	case z == trace.Minus:
		return -1
	}
	return 0
}

// traceRowsShown is the most rows of the trace a state carries.
const traceRowsShown = 200

func (s *Session) traceState() *TraceState {
	t := &TraceState{Columns: trace.Columns, EpochColumns: trace.EpochColumns, Total: len(s.rows), Rows: [][]string{}, EpochRows: [][]string{}}
	t.First = max(0, len(s.rows)-traceRowsShown)
	t.Rows = append(t.Rows, s.rows[t.First:]...)
	for _, e := range s.epochs {
		t.EpochRows = append(t.EpochRows, trace.EpochRow(e))
	}
	return t
}

// TraceCSV returns all the trace's rows as CSV, a heading first (as mark1 lab trace --out
// writes trace.csv).
func (s *Session) TraceCSV() string {
	var b strings.Builder
	write := func(row []string) {
		for i, c := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"\n") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteByte('\n')
	}
	write(trace.Columns)
	for _, r := range s.rows {
		write(r)
	}
	return b.String()
}

// lineSteps are the points of the line through weight space: t from -0.5 to 1.5.
const lineSteps = 80

func (s *Session) line() *Line {
	from := s.set.tc.Init
	if from == nil {
		from = exact.Zeros(3)
	}
	f, to := from.Floats(), s.w.Floats()
	l := &Line{From: f, To: to, Along: "path"}
	if slices.Equal(f, to) {
		l.Along = "bias"
		to = slices.Clone(f)
		if s.set.tc.Bias == trace.First {
			to[0]++
		} else {
			to[2]++
		}
		l.To = to
	}
	// Each sample's signed score along the line is y w(t).x = a + t d: two dot products a
	// sample, then a multiply-add at each t.
	b := exact.Float(s.set.b)
	n := len(s.smp.xf)
	a, d := make([]float64, n), make([]float64, n)
	for i, x := range s.smp.xf {
		y := s.smp.yf[i]
		var af, tf float64
		for j := range x {
			af += float64(f[j] * x[j])
			tf += float64(to[j] * x[j])
		}
		a[i], d[i] = y*af, y*(tf-af)
	}
	for k := 0; k <= lineSteps; k++ {
		t := -0.5 + 2*float64(k)/lineSteps
		var c floatCriteria
		for i := range a {
			ys := a[i] + float64(t*d[i])
			if ys <= 0 {
				c.zeroOne++
				c.ep -= ys
				c.eq += float64(ys * ys)
			}
			if ys <= b {
				e := ys - b
				c.er += float64(e*e) / s.smp.nf[i]
			}
		}
		l.Ts = append(l.Ts, t)
		l.ZeroOne, l.EP, l.EQ, l.ER = append(l.ZeroOne, c.zeroOne), append(l.EP, c.ep), append(l.EQ, c.eq), append(l.ER, c.er/2)
	}
	return l
}

func (s *Session) weightSpace(w0, w1, w2 float64) *WeightSpace {
	ws := &WeightSpace{W0: w0, W: [2]float64{w1, w2}, Path: s.path, HalfPlanes: []HalfPlane{}}
	m := 0.0
	if s.set.tc.Rule == trace.Margin {
		m = exact.Float(s.set.b)
	}
	for i, p := range s.set.points {
		y := float64(p.y)
		ws.HalfPlanes = append(ws.HalfPlanes, HalfPlane{A: y * s.static[i].X[0], B: y * s.static[i].X[1], C: float64(y*w0) - m})
	}
	if ws.Path == nil {
		ws.Path = [][2]float64{}
	}
	return ws
}

// novikoffCache is the largest margin learn.MaxMargin finds on the points.
type novikoffCache struct {
	x     [][]float64
	y     []int
	r     float64
	gamma float64 // 0 when none found
}

// maxMarginVisits bounds learn.MaxMargin's work: its passes times the samples.
const maxMarginVisits = 2_000_000

func (s *Session) novikoff() *Novikoff {
	if len(s.set.points) == 0 {
		return &Novikoff{}
	}
	if s.nov == nil {
		c := &novikoffCache{}
		for _, p := range s.set.points {
			c.x = append(c.x, p.x.Floats())
			c.y = append(c.y, p.y)
		}
		c.r = learn.Radius(c.x)
		passes := max(100, min(20000, maxMarginVisits/len(c.x)))
		if _, g, ok, err := learn.MaxMargin(c.x, c.y, passes, 1e-6); err == nil && ok {
			c.gamma = g
		}
		s.nov = c
	}
	c := s.nov
	n := &Novikoff{R2: c.r * c.r}
	if s.st != nil {
		n.Updates = s.st.Updates()
	}
	w1, w2, w0 := features(s.w.Floats(), s.set.tc.Bias)
	gamma, from := c.gamma, "max-margin"
	if g := learn.Margin(learn.Linear{W: []float64{w1, w2, w0}}, c.x, c.y); g > gamma {
		gamma, from = g, "weights"
	}
	if gamma > 0 {
		bound := learn.NovikoffBound(c.r, gamma)
		n.Separable, n.Gamma, n.Gamma2, n.Bound, n.From = true, gamma, gamma*gamma, &bound, from
	}
	return n
}

// stateK fills the state of K classes.
func (s *Session) stateK(st *State) {
	decide := demo.Decider(s.multi)
	st.Errors = s.kErr
	st.Epoch = s.steps
	if s.it != nil {
		st.Updates = s.it.Corrections()
	}
	st.Units = append(st.Units, s.unitNames()...)
	for i, p := range s.set.points {
		x := s.ld.X[i]
		a := decide(x)
		ps := s.static[i]
		ps.Answer, ps.Met = a, a == p.y
		if a < s.set.k {
			if u := s.winner(a); u != nil {
				ps.G = u.Score(x)
				if n := math.Hypot(u.W[0], u.W[1]); n > 0 {
					ps.Dist = ps.G / n
				}
			}
		}
		st.Points = append(st.Points, ps)
	}
	st.History = []HistoryPoint{}
	st.HistoryStride = 1
	st.Regions = s.regions(decide)
}

// winner returns the discriminant that answers class c (one-vs-rest, K discriminants), or nil.
func (s *Session) winner(c int) *learn.Linear {
	if s.multi.Strategy == learn.OneVsOne || c >= len(s.multi.Units) {
		return nil
	}
	return &s.multi.Units[c]
}

func (s *Session) unitNames() []Unit {
	var out []Unit
	for i, u := range s.multi.Units {
		name := fmt.Sprintf("class %d", i)
		switch {
		case s.multi.Strategy == learn.OneVsOne:
			p := s.multi.Pairs[i]
			name = fmt.Sprintf("class %d against %d", p[1], p[0])
		case s.multi.Strategy == learn.OneVsRest:
			name = fmt.Sprintf("class %d against the rest", i)
		}
		out = append(out, Unit{Name: name, W: slices.Clone(u.W), Boundary: boundary(u.W[0], u.W[1], u.W[2])})
	}
	return out
}

// regionCells are the regions' cells a side, as mark1 lab regions draws them.
const regionCells = 120

// regions grids the classes answered over the points' box padded by a tenth (as mark1 lab
// regions does): K ambiguous, K+1 no class.
func (s *Session) regions(decide func(x []float64) int) *plot.Regions {
	if len(s.ld.X) == 0 {
		return nil
	}
	xmin, xmax, ymin, ymax := s.ld.X[0][0], s.ld.X[0][0], s.ld.X[0][1], s.ld.X[0][1]
	for _, x := range s.ld.X {
		xmin, xmax, ymin, ymax = min(xmin, x[0]), max(xmax, x[0]), min(ymin, x[1]), max(ymax, x[1])
	}
	px, py := max((xmax-xmin)/10, 0.5), max((ymax-ymin)/10, 0.5)
	r := demo.RegionGrid(decide, regionCells, xmin-px, xmax+px, ymin-py, ymax+py)
	r.Grey = s.set.k
	for c := range s.set.k {
		r.Names = append(r.Names, fmt.Sprintf("class %d", c))
	}
	r.Names = append(r.Names, "ambiguous", "no class")
	return r
}

// command returns the equivalent mark1 command, or "" and why there is none.
func (s *Session) command() (string, string) {
	if s.set.k > 2 {
		return "", "mark1 lab regions shows the K-class schemes on its own data (a pinwheel); the command line takes no points for them"
	}
	var args []string
	for _, p := range s.set.points {
		args = append(args, flagArg("point", pointText(p.x, p.y)))
	}
	if s.set.closed() {
		if s.set.lambda.Sign() != 0 {
			return "", "mark1 lab fisher-lsq fits least squares without a ridge"
		}
		return "mark1 lab fisher-lsq" + argString(args), ""
	}
	tc := s.set.tc
	if tc.Bias != trace.Last {
		args = append(args, flagArg("bias", tc.Bias.String()))
	}
	if tc.Init != nil {
		args = append(args, flagArg("init", strings.Join(tc.Init.Strings(), ",")))
	}
	if tc.Rule != trace.Fixed {
		args = append(args, flagArg("rule", tc.Rule.String()))
	}
	if tc.Eta.Cmp(exact.Int(1)) != 0 {
		args = append(args, flagArg("eta", exact.Format(tc.Eta)))
	}
	if tc.Rule == trace.Margin && s.set.b.Sign() != 0 {
		args = append(args, flagArg("margin", exact.Format(s.set.b)))
	}
	if tc.Zero != trace.Wrong {
		args = append(args, flagArg("at-zero", tc.Zero.String()))
	}
	if tc.Schedule != trace.Constant {
		args = append(args, flagArg("schedule", tc.Schedule.String()))
	}
	if tc.Pocket != trace.NoPocket {
		args = append(args, flagArg("pocket", tc.Pocket.String()))
	}
	if tc.Epochs != 0 && tc.Epochs != trace.DefaultEpochs {
		args = append(args, flagArg("epochs", fmt.Sprint(tc.Epochs)))
	}
	return "mark1 lab trace" + argString(args), ""
}
