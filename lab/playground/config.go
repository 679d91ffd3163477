package playground

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// Num is a number as the page sends it: a JSON number, or a string holding one exactly
// ("1/3", "0.25", "+1").
type Num string

// UnmarshalJSON takes a JSON number as written, or a string.
func (n *Num) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*n = Num(s)
		return nil
	}
	var f json.Number
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s: want a number or a string", b)
	}
	*n = Num(f.String())
	return nil
}

// SessionConfig is a 2-D playground's set-up, as the page sends it (every field may be left
// out: Set changes only those given).
type SessionConfig struct {
	// Points are the samples [x1, x2, label]: label +1 or -1 for two classes, 0..K-1 for K.
	Points [][]Num `json:"points"`
	// Classes is K: 2 (labels +1 and -1; the default) up to MaxClasses.
	Classes int `json:"classes"`
	// Method is fixed, batch, margin, variable, pocket, pocket-ratchet, lsq or fisher.
	Method string `json:"method"`
	// Multiclass is ovr, ovo or kdisc (K > 2; the default kdisc).
	Multiclass string `json:"multiclass"`
	// Bias is where the constant 1 goes: last (the default) or first.
	Bias string `json:"bias"`
	// Init is the initial weights, comma-separated in the bias's order ("" zeros).
	Init string `json:"init"`
	// Eta is the increment, eta(1) with a schedule (default 1).
	Eta string `json:"eta"`
	// Margin is b >= 0 of the margin and variable rules, and of the criterion E_R (default 0).
	Margin string `json:"margin"`
	// Schedule is eta(k): const, 1/k or 1/sqrt(k) (default const; for variable, 1/k).
	Schedule string `json:"schedule"`
	// Lambda is least squares' ridge lambda >= 0 (default 0).
	Lambda string `json:"lambda"`
	// AtZero is what a score of exactly 0 answers: wrong (the default), +1 or -1.
	AtZero string `json:"atZero"`
	// Epochs is the most epochs Run makes (default 100, trace's).
	Epochs int `json:"epochs"`
}

// Limits of a session.
const (
	MaxClasses = 8
	MaxPoints  = 2000
)

// methods are the session's methods: the perceptron's rules, then the closed forms.
var methods = []string{"fixed", "batch", "margin", "variable", "pocket", "pocket-ratchet", "lsq", "fisher"}

// point is a sample of a session: exact features, and its label (+1/-1, or the class).
type point struct {
	x exact.Vec
	y int
}

// settings are a session's config, read.
type settings struct {
	cfg      SessionConfig
	k        int
	method   string
	strategy learn.Strategy
	tc       trace.Config // the perceptron's rules (two classes)
	b        *big.Rat     // the margin, also E_R's
	lambda   *big.Rat
	points   []point
}

func (s settings) closed() bool { return s.method == "lsq" || s.method == "fisher" }

// readSettings checks a config and reads it; errors are one line, naming the field.
func readSettings(c SessionConfig) (settings, error) {
	s := settings{cfg: c, k: c.Classes, method: c.Method}
	if s.k == 0 {
		s.k = 2
	}
	if s.method == "" {
		s.method = "fixed"
	}
	var err error
	switch {
	case s.k < 2 || s.k > MaxClasses:
		return s, fmt.Errorf("classes %d: want 2..%d", c.Classes, MaxClasses)
	case !slices.Contains(methods, s.method):
		return s, fmt.Errorf("method %q: want %s", c.Method, strings.Join(methods, ", "))
	case len(c.Points) > MaxPoints:
		return s, fmt.Errorf("points: %d, at most %d", len(c.Points), MaxPoints)
	}
	mc := c.Multiclass
	if mc == "" {
		mc = "kdisc"
	}
	if s.strategy, err = learn.ParseStrategy(mc); err != nil {
		return s, fmt.Errorf("multiclass %q: want ovr, ovo or kdisc", c.Multiclass)
	}
	tc := &s.tc
	if tc.Bias, err = trace.ParseBias(or(c.Bias, "last")); err != nil || tc.Bias == trace.None {
		return s, fmt.Errorf("bias %q: want last or first", c.Bias)
	}
	if tc.Zero, err = trace.ParseZero(or(c.AtZero, "wrong")); err != nil {
		return s, fmt.Errorf("atZero %q: want wrong, +1 or -1", c.AtZero)
	}
	if tc.Eta, err = exact.Parse(or(c.Eta, "1")); err != nil || tc.Eta.Sign() <= 0 {
		return s, fmt.Errorf("eta %q: want a number > 0", c.Eta)
	}
	if s.b, err = exact.Parse(or(c.Margin, "0")); err != nil || s.b.Sign() < 0 {
		return s, fmt.Errorf("margin %q: want a number >= 0", c.Margin)
	}
	if s.lambda, err = exact.Parse(or(c.Lambda, "0")); err != nil || s.lambda.Sign() < 0 {
		return s, fmt.Errorf("lambda %q: want a number >= 0", c.Lambda)
	}
	sched := c.Schedule
	if sched == "" && s.method == "variable" {
		sched = "1/k"
	}
	if tc.Schedule, err = trace.ParseSchedule(or(sched, "const")); err != nil {
		return s, fmt.Errorf("schedule %q: want const, 1/k or 1/sqrt(k)", c.Schedule)
	}
	switch s.method {
	case "batch":
		tc.Rule = trace.Batch
	case "margin", "variable":
		tc.Rule, tc.B = trace.Margin, s.b
		if tc.Zero != trace.Wrong {
			return s, fmt.Errorf("atZero %q: the %s rule meets a sample when y w.x > b: no answer at zero to choose", c.AtZero, s.method)
		}
	case "pocket":
		tc.Pocket = trace.PocketRun
	case "pocket-ratchet":
		tc.Pocket = trace.PocketRatchet
	}
	tc.Epochs = c.Epochs
	if c.Epochs < 0 || c.Epochs > trace.MaxPresentations {
		return s, fmt.Errorf("epochs %d: want 1..%d", c.Epochs, trace.MaxPresentations)
	}
	if c.Init != "" {
		if tc.Init, err = exact.ParseVec(c.Init); err != nil {
			return s, fmt.Errorf("init %s: %v", c.Init, err)
		}
		if len(tc.Init) != 3 {
			return s, fmt.Errorf("init %s: %d numbers, want 3 (2 features and the bias %s)", c.Init, len(tc.Init), tc.Bias)
		}
		if s.k > 2 {
			return s, fmt.Errorf("init %s: the K-class methods start from zero", c.Init)
		}
	}
	for i, p := range c.Points {
		pt, err := readPoint(p, s.k)
		if err != nil {
			return s, fmt.Errorf("point %d: %w", i+1, err)
		}
		s.points = append(s.points, pt)
	}
	return s, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readPoint reads [x1, x2, label].
func readPoint(p []Num, k int) (point, error) {
	if len(p) != 3 {
		return point{}, fmt.Errorf("%d numbers: want [x1, x2, label]", len(p))
	}
	var pt point
	for _, v := range p[:2] {
		r, err := exact.Parse(string(v))
		if err != nil {
			return point{}, err
		}
		pt.x = append(pt.x, r)
	}
	y, err := readLabel(string(p[2]), k)
	if err != nil {
		return point{}, err
	}
	pt.y = y
	return pt, nil
}

// readLabel reads a label: +1 or -1 for two classes, 0..K-1 for K.
func readLabel(s string, k int) (int, error) {
	if k == 2 {
		return trace.ParseLabel(s)
	}
	t := strings.TrimSpace(s)
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n >= k || t[0] == '+' {
		return 0, fmt.Errorf("label %q: want a class 0..%d", s, k-1)
	}
	return n, nil
}
