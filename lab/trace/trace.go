package trace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/mark1-perceptron/mark1/lab/exact"
)

// Rule is one of the perceptron's rules.
type Rule int

const (
	// Fixed is the fixed-increment rule: a sample not met moves w by eta y x at once.
	Fixed Rule = iota
	// Margin is the same rule with a margin b: a sample is met only when y w.x > b.
	Margin
	// Batch sums eta y x over the samples of an epoch not met and adds the sum at its end.
	Batch
)

var ruleNames = [...]string{Fixed: "fixed", Margin: "margin", Batch: "batch"}

func (r Rule) String() string {
	if r >= 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ParseRule reads fixed, margin or batch.
func ParseRule(s string) (Rule, error) {
	for i, n := range ruleNames {
		if n == s {
			return Rule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rule %q (want fixed, margin or batch)", s)
}

// Bias says where the constant input of the augmented sample goes.
type Bias int

const (
	// Last augments x to (x, 1): w = (w1..wd, w0), as Bishop and the Mark I write it.
	Last Bias = iota
	// First augments x to (1, x): w = (w0, w1..wd), as Duda, Hart and Stork write it.
	First
	// None takes the samples as they are: already augmented, or with no bias at all.
	None
)

var biasNames = [...]string{Last: "last", First: "first", None: "none"}

func (b Bias) String() string {
	if b >= 0 && int(b) < len(biasNames) {
		return biasNames[b]
	}
	return fmt.Sprintf("Bias(%d)", int(b))
}

// ParseBias reads first, last or none.
func ParseBias(s string) (Bias, error) {
	for i, n := range biasNames {
		if n == s {
			return Bias(i), nil
		}
	}
	return 0, fmt.Errorf("unknown bias place %q (want first, last or none)", s)
}

// Augment returns x with the constant input 1 put where b says.
func (b Bias) Augment(x exact.Vec) exact.Vec {
	switch b {
	case First:
		return append(exact.Ints(1), x.Clone()...)
	case Last:
		return append(x.Clone(), exact.Int(1))
	}
	return x.Clone()
}

// Zero says what a score w.x of exactly 0 answers, for the rules without a margin.
type Zero int

const (
	// Wrong: a score of 0 is a mistake for either label (y w.x <= 0 is not met): the perceptron
	// criterion's convention, and the Mark I's from zero weights.
	Wrong Zero = iota
	// Plus: a score of 0 answers +1 (a unit that fires when w.x >= 0).
	Plus
	// Minus: a score of 0 answers -1 (a unit that fires when w.x > 0).
	Minus
)

var zeroNames = [...]string{Wrong: "wrong", Plus: "+1", Minus: "-1"}

func (z Zero) String() string {
	if z >= 0 && int(z) < len(zeroNames) {
		return zeroNames[z]
	}
	return fmt.Sprintf("Zero(%d)", int(z))
}

// ParseZero reads wrong, +1 or -1.
func ParseZero(s string) (Zero, error) {
	for i, n := range zeroNames {
		if n == s {
			return Zero(i), nil
		}
	}
	if s == "1" {
		return Plus, nil
	}
	return 0, fmt.Errorf("unknown answer at zero %q (want wrong, +1 or -1)", s)
}

// Schedule is how the increment changes from update to update: eta(k) for the k-th update
// (Duda, Hart and Stork's variable increment).
type Schedule int

const (
	// Constant is eta(k) = eta: the fixed increment.
	Constant Schedule = iota
	// InverseK is eta(k) = eta / k.
	InverseK
	// InverseSqrtK is eta(k) = eta / sqrt(k). sqrt(k) is irrational unless k is a square: the
	// trace then takes eta / sqrt(k) rounded to 6 significant digits, so that every number
	// stays exact (see Config.Rate).
	InverseSqrtK
)

var scheduleNames = [...]string{Constant: "const", InverseK: "1/k", InverseSqrtK: "1/sqrt(k)"}

// String returns the schedule's name: const, 1/k or 1/sqrt(k).
func (s Schedule) String() string {
	if s >= 0 && int(s) < len(scheduleNames) {
		return scheduleNames[s]
	}
	return fmt.Sprintf("Schedule(%d)", int(s))
}

// ParseSchedule reads const, 1/k or 1/sqrt(k).
func ParseSchedule(s string) (Schedule, error) {
	for i, n := range scheduleNames {
		if n == s {
			return Schedule(i), nil
		}
	}
	return 0, fmt.Errorf("unknown schedule %q (want const, 1/k or 1/sqrt(k))", s)
}

// Pocket says whether the rule keeps Gallant's pocket: the best weights seen so far, which it
// answers with when the samples cannot be separated.
type Pocket int

const (
	// NoPocket keeps no pocket.
	NoPocket Pocket = iota
	// PocketRun puts the current weights in the pocket when their run of consecutive samples
	// met is longer than the pocket weights' run was (Gallant 1990, without the ratchet).
	PocketRun
	// PocketRatchet does so only when they also meet more of the samples than the pocket
	// weights do (the ratchet), so that the pocket never gets worse on the training samples.
	PocketRatchet
)

var pocketNames = [...]string{NoPocket: "none", PocketRun: "run", PocketRatchet: "ratchet"}

// String returns the pocket's name: none, run or ratchet.
func (p Pocket) String() string {
	if p >= 0 && int(p) < len(pocketNames) {
		return pocketNames[p]
	}
	return fmt.Sprintf("Pocket(%d)", int(p))
}

// ParsePocket reads none, run or ratchet.
func ParsePocket(s string) (Pocket, error) {
	for i, n := range pocketNames {
		if n == s {
			return Pocket(i), nil
		}
	}
	return 0, fmt.Errorf("unknown pocket %q (want none, run or ratchet)", s)
}

// Config is a trace's settings.
type Config struct {
	Rule Rule
	// Eta is the increment (nil: 1); with a Schedule, eta(1).
	Eta *big.Rat
	// B is the margin of the Margin rule (nil: 0).
	B    *big.Rat
	Bias Bias
	Zero Zero
	// Init is the initial weight vector, as long as an augmented sample (nil: zeros).
	Init exact.Vec
	// Epochs is the most epochs run (0: DefaultEpochs). A trace stops after an epoch in which every
	// sample is met, or when the weights at the end of an epoch repeat an earlier epoch's
	// (the rule then cycles for ever; with a Schedule other than Constant the increments do
	// not repeat, and the trace runs on).
	Epochs int
	// Schedule is eta(k) (the zero value: the fixed increment).
	Schedule Schedule
	// Pocket keeps Gallant's pocket, for the online rules (Fixed, Margin).
	Pocket Pocket
}

// MaxPresentations caps a trace's length (epochs times samples).
const MaxPresentations = 200_000

// Step is one presentation of a sample.
type Step struct {
	N      int       // presentations so far, from 1
	Epoch  int       // from 1
	Sample int       // the sample's place in the data, from 0
	X      exact.Vec // the augmented sample
	Y      int       // its label
	Score  *big.Rat  // w.x, with w the weights before the presentation
	Signed *big.Rat  // y (w.x)
	Met    bool      // the sample counts as classified right (with the margin)
	W      exact.Vec // the weights after the presentation (the batch rule: unchanged)
	Before exact.Vec // the weights before it
	// Eta is the increment of the update this presentation made (nil when it made none; the
	// batch rule updates at the epoch's end).
	Eta *big.Rat
	// Pocketed says that the weights after it went into the pocket (Config.Pocket).
	Pocketed bool
}

// EpochEnd sums up an epoch.
type EpochEnd struct {
	Epoch    int
	Mistakes int       // samples not met
	Sum      exact.Vec // the batch rule: eta times the sum of y x over them (nil otherwise)
	W        exact.Vec // the weights at the end of the epoch
}

// Trace is a run of a rule, presentation by presentation.
type Trace struct {
	Config    Config
	Data      *Data
	Start     exact.Vec
	Steps     []Step
	Epochs    []EpochEnd
	Converged bool // an epoch met every sample
	// Repeats is, when the rule cycles, the epoch whose end weights the last epoch's repeat
	// (0 for the start); -1 otherwise.
	Repeats int
	// Pocket is the pocket's weights at the end (Config.Pocket; nil without a pocket) and
	// PocketMisses the samples they do not meet.
	Pocket       exact.Vec
	PocketMisses int
}

// Final returns the weights at the end of the trace.
func (t *Trace) Final() exact.Vec {
	if len(t.Epochs) == 0 {
		return t.Start
	}
	return t.Epochs[len(t.Epochs)-1].W
}

// Updates returns the number of times the weights changed.
func (t *Trace) Updates() int {
	n := 0
	for _, e := range t.Epochs {
		if t.Config.Rule == Batch {
			if e.Mistakes > 0 {
				n++
			}
		} else {
			n += e.Mistakes
		}
	}
	return n
}

// Met reports whether a sample of label y whose score is s counts as right: y s > b for the
// margin rule, else by the Zero convention.
func (c Config) Met(y int, s *big.Rat) bool {
	if c.Rule == Margin {
		b := c.B
		if b == nil {
			b = new(big.Rat)
		}
		ys := new(big.Rat).Mul(exact.Int(int64(y)), s)
		return ys.Cmp(b) > 0
	}
	switch sign := s.Sign(); {
	case sign != 0:
		return sign == y
	case c.Zero == Plus:
		return y == 1
	case c.Zero == Minus:
		return y == -1
	}
	return false
}

// Validate checks the configuration against the data.
func (c Config) Validate(d *Data) error {
	switch {
	case c.Rule < Fixed || c.Rule > Batch:
		return errors.New("unknown rule")
	case c.Bias < Last || c.Bias > None:
		return errors.New("unknown bias place")
	case c.Zero < Wrong || c.Zero > Minus:
		return errors.New("unknown answer at zero")
	case c.Schedule < Constant || c.Schedule > InverseSqrtK:
		return errors.New("unknown schedule")
	case c.Pocket < NoPocket || c.Pocket > PocketRatchet:
		return errors.New("unknown pocket")
	case c.Pocket != NoPocket && c.Rule == Batch:
		return errors.New("the pocket goes with the online rules (fixed, margin), not batch")
	case c.Eta != nil && c.Eta.Sign() <= 0:
		return fmt.Errorf("eta %s: want eta > 0", exact.Format(c.Eta))
	case c.B != nil && c.B.Sign() < 0:
		return fmt.Errorf("margin %s: want b >= 0", exact.Format(c.B))
	case c.B != nil && c.B.Sign() > 0 && c.Rule != Margin:
		return errors.New("a margin b > 0 goes with the margin rule")
	case c.Rule == Margin && c.Zero != Wrong:
		return errors.New("the margin rule meets a sample when y w.x > b: no answer at zero to choose")
	case c.Epochs < 0 || c.Epochs > MaxPresentations:
		return fmt.Errorf("epochs %d: want 1..%d", c.Epochs, MaxPresentations)
	case d == nil || len(d.Points) == 0:
		return errors.New("no points")
	}
	if n := c.epochs() * len(d.Points); n > MaxPresentations {
		return fmt.Errorf("%d epochs of %d points: at most %d presentations", c.epochs(), len(d.Points), MaxPresentations)
	}
	want := d.Dim()
	if c.Bias != None {
		want++
	}
	if c.Init != nil && len(c.Init) != want {
		what := fmt.Sprintf("%d features and the bias %s", d.Dim(), c.Bias)
		if c.Bias == None {
			what = fmt.Sprintf("%d features and no bias added", d.Dim())
		}
		return fmt.Errorf("initial weights %s: %d numbers, want %d (%s)", c.Init, len(c.Init), want, what)
	}
	return nil
}

// DefaultEpochs is the most epochs of a Config whose Epochs is 0.
const DefaultEpochs = 100

func (c Config) epochs() int {
	if c.Epochs == 0 {
		return DefaultEpochs
	}
	return c.Epochs
}

// MaxEpochs returns the most epochs the trace runs (Epochs, or DefaultEpochs for 0).
func (c Config) MaxEpochs() int { return c.epochs() }

func (c Config) eta() *big.Rat {
	if c.Eta == nil {
		return exact.Int(1)
	}
	return c.Eta
}

// Rate returns eta(k), the increment of the k-th update (k from 1), exactly: eta, eta/k, or
// eta/sqrt(k), this one rounded to 6 significant digits when k is not a square.
func (c Config) Rate(k int) *big.Rat {
	eta := c.eta()
	switch c.Schedule {
	case InverseK:
		return new(big.Rat).Quo(eta, exact.Int(int64(k)))
	case InverseSqrtK:
		root := new(big.Int).Sqrt(big.NewInt(int64(k)))
		if new(big.Int).Mul(root, root).Cmp(big.NewInt(int64(k))) == 0 {
			return new(big.Rat).Quo(eta, new(big.Rat).SetInt(root))
		}
		v := exact.Float(eta) / math.Sqrt(float64(k))
		r, _ := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', 6, 64))
		return r
	}
	return new(big.Rat).Set(eta)
}

// Run runs the rule on the data in its order, from c.Init. It stops with ctx's error when ctx
// ends.
func Run(ctx context.Context, d *Data, c Config) (*Trace, error) {
	s, err := NewStepper(d, c)
	if err != nil {
		return nil, err
	}
	t := &Trace{Config: c, Data: d, Start: s.Start(), Repeats: -1}
	for !s.Done() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st, end := s.Next()
		t.Steps = append(t.Steps, st)
		if end != nil {
			t.Epochs = append(t.Epochs, *end)
		}
	}
	t.Converged, t.Repeats = s.Converged(), s.Repeats()
	if c.Pocket != NoPocket {
		t.Pocket, t.PocketMisses = s.Pocket()
	}
	return t, nil
}
