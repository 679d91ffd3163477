package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// Dataset is what the methods learn: training features and optional test features, with, for
// a dataset of cards, the machine configuration and the cards the features came from (the
// mark1 methods train that machine on the cards themselves).
type Dataset struct {
	Name        string
	Train, Test *learn.Data
	Config      *machine.Config
	TrainCards  *images.Set
	TestCards   *images.Set
	// Board is the plug-board the features came from (for receptive fields), or nil.
	Board *patchboard.Board
}

// NewCardDataset computes the features of the cards on the ideal machine cfg describes (see
// Features): the test cards' classes are numbered as the training cards' (test may be nil).
func NewCardDataset(cfg machine.Config, train, test *images.Set) (*Dataset, error) {
	m, err := featureMachine(cfg, train.Classes)
	if err != nil {
		return nil, err
	}
	deck, err := m.Prepare(train)
	if err != nil {
		return nil, err
	}
	p := &Dataset{Name: train.Name, Config: &cfg, TrainCards: train, TestCards: test, Board: m.Board(),
		Train: deckFeatures(m, deck, train.Classes)}
	if test != nil {
		td, err := m.Prepare(test)
		if err != nil {
			return nil, fmt.Errorf("test cards: %w", err)
		}
		p.Test = deckFeatures(m, td, train.Classes)
	}
	return p, nil
}

// NewMachineDataset is a dataset of cards for the mark1 methods alone: the samples carry their
// classes but no features (the learners need NewCardDataset's). It checks that the machine cfg
// describes can take the cards, and costs no memory for features.
func NewMachineDataset(cfg machine.Config, train, test *images.Set) (*Dataset, error) {
	m, err := featureMachine(cfg, train.Classes)
	if err != nil {
		return nil, err
	}
	labels := func(set *images.Set) (*learn.Data, error) {
		d := &learn.Data{Classes: train.Classes, X: make([][]float64, len(set.Cards)), Y: make([]int, len(set.Cards))}
		for i, c := range set.Cards {
			d.X[i] = []float64{}
			if d.Y[i] = m.ClassIndex(set.Classes[c.Class]); d.Y[i] < 0 {
				return nil, fmt.Errorf("lab: %s: class %q is not among the training classes", set.Name, set.Classes[c.Class])
			}
		}
		return d, nil
	}
	p := &Dataset{Name: train.Name, Config: &cfg, TrainCards: train, TestCards: test, Board: m.Board()}
	if p.Train, err = labels(train); err != nil {
		return nil, err
	}
	if test != nil {
		if p.Test, err = labels(test); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Method names what to run. Learners on the features: "perceptron" (fixed increment, online),
// "batch" (fixed increment, batch), "variable" (variable increment with Options.Margin and
// Options.Schedule), "pocket" (Gallant's pocket with ratchet), "lsq" (least squares by the
// pseudo-inverse), "fisher" (Fisher's discriminant, the threshold that misclassifies fewest
// training samples) and "fisher-mid" (the threshold midway between the projected means);
// each may end in "/ovr", "/ovo" or "/kdisc" for its multi-class strategy (default ovr; fisher
// has no kdisc; with two classes every strategy is one discriminant). The Mark I on the
// cards: "mark1" (ideal: the textbook perceptron on its A-units), "mark1-analog" (every flaw
// the problem's configuration has on) and "mark1+FLAW" (that one flaw alone; see
// machine.Flaws).
type Method struct {
	Name     string
	Rule     string // perceptron, batch, variable, pocket, lsq, fisher, fisher-mid, mark1
	Strategy learn.Strategy
	// Flaws is, for mark1, "none" (ideal), "all" (the configuration as given) or one flaw.
	Flaws string
}

var learners = []string{"perceptron", "batch", "variable", "pocket", "lsq", "fisher", "fisher-mid"}

// MethodNames lists the method names ParseMethod reads (mark1+FLAW once per flaw).
func MethodNames() []string {
	names := slices.Clone(learners)
	names = append(names, "mark1", "mark1-analog")
	for _, f := range machine.Flaws() {
		names = append(names, "mark1+"+f.Name)
	}
	return names
}

// ParseMethod reads a method's name (see Method).
func ParseMethod(s string) (Method, error) {
	name, strat, hasStrat := strings.Cut(s, "/")
	m := Method{Name: s, Rule: name}
	switch {
	case name == "mark1":
		m.Flaws = "none"
	case name == "mark1-analog":
		m.Rule, m.Flaws = "mark1", "all"
	case strings.HasPrefix(name, "mark1+"):
		m.Rule, m.Flaws = "mark1", strings.TrimPrefix(name, "mark1+")
		known := false
		for _, f := range machine.Flaws() {
			known = known || f.Name == m.Flaws
		}
		if !known {
			return Method{}, fmt.Errorf("lab: method %q: unknown flaw %q (mark1 config --list-flaws lists them)", s, m.Flaws)
		}
	case !slices.Contains(learners, name):
		return Method{}, fmt.Errorf("lab: unknown method %q (have %s, mark1, mark1-analog, mark1+FLAW)", s, strings.Join(learners, ", "))
	}
	if hasStrat {
		if m.Rule == "mark1" {
			return Method{}, fmt.Errorf("lab: method %q: the Mark I has one R-unit per class (one-vs-rest); no strategy to choose", s)
		}
		st, err := learn.ParseStrategy(strat)
		if err != nil {
			return Method{}, fmt.Errorf("lab: method %q: %w", s, err)
		}
		if st == learn.KDiscriminants && strings.HasPrefix(name, "fisher") {
			return Method{}, fmt.Errorf("lab: method %q: Fisher's discriminant is for two classes; use /ovr or /ovo", s)
		}
		m.Strategy = st
	}
	return m, nil
}

// Options set how the methods run.
type Options struct {
	// Epochs is the most epochs an iterative method or the machine trains (0: DefaultEpochs).
	Epochs int
	// KeepGoing trains every epoch even after one without a correction.
	KeepGoing bool
	// Seed drives the learners' shuffles (the machine shuffles from its Config.Seed).
	Seed uint64
	// InOrder presents the samples in the data's order every epoch, learners and machine alike
	// (the machine with machine.OrderFile): then "mark1" and "perceptron" make the same
	// corrections, since the ideal Mark I is the fixed-increment perceptron on its A-units.
	InOrder bool
	// Eta is the increment eta(1) of the perceptron rules (default 1).
	Eta float64
	// Margin and Schedule are the variable-increment rule's b and eta(k).
	Margin   float64
	Schedule learn.Schedule
	// Workers bounds the methods run at once (0: one per core).
	Workers int
	// Progress, when not nil, is told the epochs done of all the methods so far, out of a
	// total (each method counts Epochs; one that stops early counts its remaining epochs done).
	// It is called from the workers, one call at a time.
	Progress func(done, total int)
}

// DefaultEpochs is the most epochs of Options whose Epochs is 0.
const DefaultEpochs = 50

func (o Options) epochs() int {
	if o.Epochs <= 0 {
		return DefaultEpochs
	}
	return o.Epochs
}

// Point is one epoch of a learning curve: the corrections made in the epoch and the error
// rates after it, of the weights the method answers with (the pocket's, for a pocket).
type Point struct {
	Epoch       int      `json:"epoch"`
	Corrections int      `json:"corrections"`
	TrainError  float64  `json:"train_error"`
	TestError   *float64 `json:"test_error,omitempty"`
}

// Run is what one method did on a dataset.
type Run struct {
	Method string `json:"method"`
	Epochs int    `json:"epochs"` // 0 for a closed form
	// Converged says an iterative method ended with an epoch without a correction. A closed
	// form (least squares, Fisher) has nothing to converge: false, and no field in the JSON.
	Converged   bool     `json:"converged"`
	Corrections int      `json:"corrections"`
	TrainError  float64  `json:"train_error"`
	TestError   *float64 `json:"test_error,omitempty"`
	Seconds     float64  `json:"seconds"` // wall time: the one figure that varies between runs
	Curve       []Point  `json:"curve"`
	// Classifier is what a learner learned; nil for the machine.
	Classifier learn.Classifier `json:"-"`
	// Machine is the trained machine of a mark1 method; nil for a learner.
	Machine *machine.Machine `json:"-"`
}

// MarshalJSON writes the run, with "converged" only for an iterative method.
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run
	out := struct {
		plain
		Converged *bool `json:"converged,omitempty"`
	}{plain: plain(r)}
	if !r.ClosedForm() {
		out.Converged = &r.Converged
	}
	return json.Marshal(out)
}

// ClosedForm reports whether the run is of a closed form (least squares, Fisher), computed at
// once rather than epoch by epoch.
func (r Run) ClosedForm() bool { return r.Epochs == 0 }

// Compare runs the methods on p, up to Options.Workers at a time, and returns their runs in
// the methods' order.
func Compare(ctx context.Context, p *Dataset, methods []Method, o Options) ([]Run, error) {
	if err := p.Train.Validate(); err != nil {
		return nil, fmt.Errorf("training data: %w", err)
	}
	if p.Test != nil && p.Test.Len() > 0 && p.Test.Dim() != p.Train.Dim() {
		return nil, fmt.Errorf("lab: test data has %d features, training data %d", p.Test.Dim(), p.Train.Dim())
	}
	for _, m := range methods {
		if m.Rule == "mark1" && (p.Config == nil || p.TrainCards == nil) {
			return nil, fmt.Errorf("lab: method %s needs cards (problem %s has features only)", m.Name, p.Name)
		}
	}
	total := len(methods) * o.epochs()
	var mu sync.Mutex
	done := 0
	tick := func(n int) {
		if o.Progress == nil {
			return
		}
		mu.Lock()
		done += n
		o.Progress(done, total)
		mu.Unlock()
	}
	return Parallel(ctx, len(methods), o.Workers, nil, func(ctx context.Context, i int) (Run, error) {
		start := time.Now()
		var r Run
		var err error
		if methods[i].Rule == "mark1" {
			r, err = runMachine(ctx, p, methods[i], o, tick)
		} else {
			r, err = runLearner(ctx, p, methods[i], o, tick)
		}
		r.Method = methods[i].Name
		r.Seconds = time.Since(start).Seconds()
		return r, err
	})
}

func errorRate(c learn.Classifier, d *learn.Data) *float64 {
	if d == nil || d.Len() == 0 {
		return nil
	}
	e := learn.ErrorRate(c, d)
	return &e
}

// runLearner runs one learner: a closed form once, a perceptron rule epoch by epoch.
func runLearner(ctx context.Context, p *Dataset, m Method, o Options, tick func(int)) (Run, error) {
	var r Run
	var c learn.Classifier
	var err error
	switch m.Rule {
	case "lsq":
		c, err = learn.LeastSquaresMulti(p.Train, m.Strategy)
	case "fisher", "fisher-mid":
		th := learn.BestThreshold
		if m.Rule == "fisher-mid" {
			th = learn.MidpointThreshold
		}
		c, err = learn.FitMulti(p.Train, m.Strategy, func(x [][]float64, y []int) (learn.Linear, error) {
			return learn.Fisher(x, y, th)
		})
	}
	if m.Rule == "lsq" || strings.HasPrefix(m.Rule, "fisher") {
		if err != nil {
			return r, fmt.Errorf("%s: %w", m.Name, err)
		}
		tick(o.epochs())
		r.Classifier = c
		r.TrainError, r.TestError = learn.ErrorRate(c, p.Train), errorRate(c, p.Test)
		r.Curve = []Point{{Epoch: 0, TrainError: r.TrainError, TestError: r.TestError}}
		return r, nil
	}
	rule := learn.Rule{Eta: o.Eta, Seed: o.Seed}
	if o.InOrder {
		rule.Order = learn.InOrder
	}
	switch m.Rule {
	case "batch":
		rule.Batch = true
	case "pocket":
		rule.Pocket = true
	case "variable":
		rule.Margin, rule.Schedule = o.Margin, o.Schedule
	}
	it, err := learn.NewIterative(p.Train, rule, m.Strategy)
	if err != nil {
		return r, fmt.Errorf("%s: %w", m.Name, err)
	}
	epochs := o.epochs()
	for e := 1; e <= epochs; e++ {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		n := it.Epoch()
		best := it.Best()
		pt := Point{Epoch: e, Corrections: n, TrainError: learn.ErrorRate(best, p.Train), TestError: errorRate(best, p.Test)}
		r.Curve = append(r.Curve, pt)
		r.Epochs = e
		tick(1)
		if n == 0 {
			r.Converged = true
			if !o.KeepGoing {
				tick(epochs - e)
				break
			}
		}
	}
	r.Classifier = it.Best()
	r.Corrections = it.Corrections()
	last := r.Curve[len(r.Curve)-1]
	r.TrainError, r.TestError = last.TrainError, last.TestError
	return r, nil
}

// MachineConfig returns the configuration the lab trains for a problem of k classes with the
// flaws named (see Method.Flaws): cfg with one R-unit for two classes (binary coding, on for
// class 1) or one per class (one-hot; binary when there are more classes than the Mark I's
// 64-R-unit limit allows).
func MachineConfig(cfg machine.Config, k int, flaws string) (machine.Config, error) {
	c := cfg
	switch flaws {
	case "none":
		c = c.Ideal()
	case "all", "":
	default:
		var err error
		if c, err = cfg.WithFlaws([]string{flaws}); err != nil {
			return c, err
		}
	}
	c.Codes = nil
	switch {
	case k == 2:
		c.RUnits, c.Coding = 1, machine.CodingBinary
	case k <= machine.MaxRUnits:
		c.RUnits, c.Coding = k, machine.CodingOneHot
	default:
		c.RUnits, c.Coding = machine.MaxRUnits, machine.CodingBinary
	}
	return c, nil
}

// runMachine trains the Mark I on the problem's cards, evaluating it on the training and test
// cards after every epoch (see Evaluate: evaluating does not disturb training).
func runMachine(ctx context.Context, p *Dataset, m Method, o Options, tick func(int)) (Run, error) {
	var r Run
	cfg, err := MachineConfig(*p.Config, len(p.TrainCards.Classes), m.Flaws)
	if err != nil {
		return r, fmt.Errorf("%s: %w", m.Name, err)
	}
	if o.InOrder {
		cfg.Order = machine.OrderFile
	}
	mach, err := machine.New(cfg, p.TrainCards.Classes)
	if err != nil {
		return r, fmt.Errorf("%s: %w", m.Name, err)
	}
	deck, err := mach.Prepare(p.TrainCards)
	if err != nil {
		return r, fmt.Errorf("%s: %w", m.Name, err)
	}
	var testDeck *machine.Deck
	if p.TestCards != nil {
		if testDeck, err = mach.Prepare(p.TestCards); err != nil {
			return r, fmt.Errorf("%s: test cards: %w", m.Name, err)
		}
	}
	epochs := o.epochs()
	for e := 1; e <= epochs; e++ {
		st := mach.Epoch(deck, func(int) bool { return ctx.Err() == nil })
		if st.Stopped {
			return r, ctx.Err()
		}
		r.Corrections += st.Corrections
		pt := Point{Epoch: e, Corrections: st.Corrections}
		decks := []*machine.Deck{deck}
		if testDeck != nil {
			decks = append(decks, testDeck)
		}
		res, err := Evaluate(mach, decks...)
		if err != nil {
			return r, err
		}
		pt.TrainError = errorOf(res[0])
		if testDeck != nil {
			te := errorOf(res[1])
			pt.TestError = &te
		}
		r.Curve = append(r.Curve, pt)
		r.Epochs = e
		tick(1)
		if st.Corrections == 0 {
			r.Converged = true
			if !o.KeepGoing {
				tick(epochs - e)
				break
			}
		}
	}
	if err := mach.Err(); err != nil {
		return r, err
	}
	last := r.Curve[len(r.Curve)-1]
	r.TrainError, r.TestError = last.TrainError, last.TestError
	r.Machine = mach
	return r, nil
}

// errorOf returns the error rate of an evaluation, computed as the learners' is.
func errorOf(r machine.Result) float64 {
	if r.Cards == 0 {
		return 0
	}
	return float64(r.Cards-r.Correct) / float64(r.Cards)
}

// Evaluate evaluates m on each deck in turn without disturbing its training. An ideal machine
// is evaluated itself: presenting cards changes nothing in it but its clock and count of
// presentations. An analog machine's cells, noise and drift move on with every presentation,
// so a copy of it is evaluated instead (one copy for all the decks), and m stays as it was.
func Evaluate(m *machine.Machine, decks ...*machine.Deck) ([]machine.Result, error) {
	e := m
	if !m.Config().IsIdeal() {
		var err error
		if e, err = m.Clone(); err != nil {
			return nil, err
		}
	}
	out := make([]machine.Result, len(decks))
	for i, d := range decks {
		out[i] = e.Evaluate(d)
	}
	return out, nil
}

// ParseMethods reads a comma-separated list of method names.
func ParseMethods(list string) ([]Method, error) {
	var out []Method
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		m, err := ParseMethod(s)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, errors.New("lab: no method named")
	}
	return out, nil
}
