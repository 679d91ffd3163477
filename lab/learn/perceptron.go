package learn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Schedule is a learning-rate schedule eta(k) = Eta * f(k), where k = 1, 2, ... numbers the
// corrections (for a batch rule, the updates).
type Schedule int

const (
	// Constant is eta(k) = Eta: the fixed increment.
	Constant Schedule = iota
	// InverseK is eta(k) = Eta / k.
	InverseK
	// InverseSqrtK is eta(k) = Eta / sqrt(k).
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

// ParseSchedule reads a schedule's name: const, 1/k or 1/sqrt(k) (also inv and invsqrt).
func ParseSchedule(s string) (Schedule, error) {
	switch s {
	case "const", "constant":
		return Constant, nil
	case "1/k", "inv":
		return InverseK, nil
	case "1/sqrt(k)", "invsqrt":
		return InverseSqrtK, nil
	}
	return 0, fmt.Errorf("learn: unknown schedule %q (want const, 1/k or 1/sqrt(k))", s)
}

// Order is the order in which an online rule visits the samples in an epoch.
type Order int

const (
	// Shuffle visits the samples in a new random order every epoch, drawn from Rule.Seed.
	Shuffle Order = iota
	// InOrder visits them in the data's order.
	InOrder
)

// Rule configures the perceptron family. The zero Rule is the fixed-increment online
// perceptron with increment 1, shuffled.
type Rule struct {
	// Eta is the increment eta(1) (0 means 1). Starting from zero weights, a constant increment
	// only scales the weights: every answer is the same for any Eta when Margin is 0.
	Eta float64
	// Margin is b >= 0: a sample is corrected when y g(x) <= b. The plain perceptron has b = 0.
	Margin float64
	// Schedule is eta(k).
	Schedule Schedule
	// Batch sums the corrections of every misclassified sample over an epoch and applies them
	// at its end (the batch perceptron); otherwise each correction is applied at once.
	Batch bool
	// Pocket keeps the best weights seen (Gallant's pocket algorithm with ratchet): online,
	// the current weights go into the pocket when their run of consecutive correct answers is
	// longer than the pocket weights' run was and they misclassify fewer training samples;
	// batch, after any update that misclassifies fewer. The pocket starts with the initial
	// (zero) weights.
	Pocket bool
	// Order is the online rule's order of presentation.
	Order Order
	// Seed drives the shuffles.
	Seed uint64
}

// Validate checks the rule's numbers.
func (r Rule) Validate() error {
	switch {
	case math.IsNaN(r.Eta) || math.IsInf(r.Eta, 0) || r.Eta < 0:
		return fmt.Errorf("learn: eta %v, want a finite number >= 0", r.Eta)
	case math.IsNaN(r.Margin) || math.IsInf(r.Margin, 0) || r.Margin < 0:
		return fmt.Errorf("learn: margin %v, want a finite number >= 0", r.Margin)
	case r.Schedule < Constant || r.Schedule > InverseSqrtK:
		return fmt.Errorf("learn: unknown schedule %d", int(r.Schedule))
	case r.Order != Shuffle && r.Order != InOrder:
		return fmt.Errorf("learn: unknown order %d", int(r.Order))
	}
	return nil
}

// rate returns eta(k).
func (r Rule) rate(k int) float64 {
	eta := r.Eta
	if eta == 0 {
		eta = 1
	}
	switch r.Schedule {
	case InverseK:
		return eta / float64(k)
	case InverseSqrtK:
		return eta / math.Sqrt(float64(k))
	}
	return eta
}

// Perceptron trains one two-class discriminant with a Rule, an epoch at a time, from zero
// weights.
type Perceptron struct {
	rule  Rule
	x     [][]float64
	y     []int
	w     []float64
	k     int // updates so far (the k of eta(k))
	corr  int // corrections so far
	epoch int
	rng   *rand.Rand
	order []int
	sum   []float64 // batch accumulator

	pocket               []float64
	pocketErr, pocketRun int
	run                  int  // current weights' run of correct answers
	tried                bool // the current weights were already compared with the pocket
}

// NewPerceptron returns a learner for samples x with labels y (+1 or -1).
func NewPerceptron(x [][]float64, y []int, r Rule) (*Perceptron, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if len(x) == 0 || len(x) != len(y) {
		return nil, fmt.Errorf("learn: %d samples and %d labels", len(x), len(y))
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("learn: label %d of sample %d, want +1 or -1", v, i)
		}
	}
	p := &Perceptron{rule: r, x: x, y: y, w: make([]float64, len(x[0])+1), order: make([]int, len(x)),
		rng: rand.New(rand.NewPCG(r.Seed, 0x70657263))} // "perc"
	for i := range p.order {
		p.order[i] = i
	}
	if r.Batch {
		p.sum = make([]float64, len(p.w))
	}
	if r.Pocket {
		p.pocket = make([]float64, len(p.w))
		p.pocketErr = p.errors(p.w)
	}
	return p, nil
}

// errors counts the samples w misclassifies (sign(g) != y).
func (p *Perceptron) errors(w []float64) int {
	n := 0
	for i, x := range p.x {
		if (dot(w, x) > 0) != (p.y[i] > 0) {
			n++
		}
	}
	return n
}

// Epoch makes one pass through the samples and returns the corrections it made: online,
// one per sample with y g(x) <= b, applied at once; batch, the misclassified samples of the
// pass, applied together at its end.
func (p *Perceptron) Epoch() int {
	p.epoch++
	if p.rule.Order == Shuffle {
		p.rng.Shuffle(len(p.order), func(i, j int) { p.order[i], p.order[j] = p.order[j], p.order[i] })
	}
	b := p.rule.Margin
	n := 0
	if p.rule.Batch {
		clear(p.sum)
		for _, i := range p.order {
			if float64(p.y[i])*dot(p.w, p.x[i]) <= b {
				axpy(p.sum, float64(p.y[i]), p.x[i])
				n++
			}
		}
		if n > 0 {
			p.k++
			eta := p.rule.rate(p.k)
			for j, v := range p.sum {
				p.w[j] += float64(eta * v)
			}
			if p.rule.Pocket {
				if e := p.errors(p.w); e < p.pocketErr {
					copy(p.pocket, p.w)
					p.pocketErr = e
				}
			}
		}
		p.corr += n
		return n
	}
	for _, i := range p.order {
		y := float64(p.y[i])
		if y*dot(p.w, p.x[i]) <= b {
			p.k++
			axpy(p.w, float64(y*p.rule.rate(p.k)), p.x[i])
			n++
			p.run, p.tried = 0, false
			continue
		}
		p.run++
		if p.rule.Pocket && p.run > p.pocketRun && !p.tried {
			// Ratchet: only weights that misclassify fewer samples go into the pocket.
			p.tried = true
			if e := p.errors(p.w); e < p.pocketErr {
				copy(p.pocket, p.w)
				p.pocketErr, p.pocketRun = e, p.run
			}
		}
	}
	p.corr += n
	return n
}

// Weights returns a copy of the current weights.
func (p *Perceptron) Weights() Linear { return Linear{W: append([]float64(nil), p.w...)} }

// Best returns a copy of the weights the learner answers with: the pocket's for a pocket rule,
// else the current weights.
func (p *Perceptron) Best() Linear {
	if p.rule.Pocket {
		return Linear{W: append([]float64(nil), p.pocket...)}
	}
	return p.Weights()
}

// PocketErrors returns the number of training samples the pocket weights misclassify (for a
// rule without a pocket, the current weights').
func (p *Perceptron) PocketErrors() int {
	if p.rule.Pocket {
		return p.pocketErr
	}
	return p.errors(p.w)
}

// Corrections returns the corrections made so far.
func (p *Perceptron) Corrections() int { return p.corr }

// Epochs returns the epochs made so far.
func (p *Perceptron) Epochs() int { return p.epoch }

// Train runs the rule on x, y until an epoch makes no correction or maxEpochs have passed,
// and returns the learner (see Best for the weights) and whether it converged.
func Train(x [][]float64, y []int, r Rule, maxEpochs int) (*Perceptron, bool, error) {
	p, err := NewPerceptron(x, y, r)
	if err != nil {
		return nil, false, err
	}
	for range maxEpochs {
		if p.Epoch() == 0 {
			return p, true, nil
		}
	}
	return p, false, nil
}

// linearMachine trains K discriminants together (Kesler's construction): a sample of class y
// whose discriminant does not beat the strongest other one, j, by more than the margin
// (g_y - g_j <= b) moves w_y toward it and w_j away, eta(k) each.
type linearMachine struct {
	rule  Rule
	d     *Data
	w     [][]float64
	k     int
	corr  int
	rng   *rand.Rand
	order []int
	sum   [][]float64

	pocket               [][]float64
	pocketErr, pocketRun int
	run                  int
	tried                bool
}

func newLinearMachine(d *Data, r Rule) *linearMachine {
	k, dim := d.K(), d.Dim()
	m := &linearMachine{rule: r, d: d, w: matrix(k, dim+1), order: make([]int, d.Len()),
		rng: rand.New(rand.NewPCG(r.Seed, 0x70657263))}
	for i := range m.order {
		m.order[i] = i
	}
	if r.Batch {
		m.sum = matrix(k, dim+1)
	}
	if r.Pocket {
		m.pocket = matrix(k, dim+1)
		m.pocketErr = Errors(m.multi(m.w), d)
	}
	return m
}

func matrix(r, c int) [][]float64 {
	m := make([][]float64, r)
	for i := range m {
		m[i] = make([]float64, c)
	}
	return m
}

// rival returns the class other than y whose discriminant scores x highest, and the margin by
// which y's discriminant beats it.
func (m *linearMachine) rival(x []float64, y int) (int, float64) {
	gy := dot(m.w[y], x)
	best, gBest := -1, math.Inf(-1)
	for c, w := range m.w {
		if c == y {
			continue
		}
		if g := dot(w, x); g > gBest {
			best, gBest = c, g
		}
	}
	return best, gy - gBest
}

func (m *linearMachine) multi(w [][]float64) *Multi {
	u := make([]Linear, len(w))
	for i := range w {
		u[i] = Linear{W: append([]float64(nil), w[i]...)}
	}
	return &Multi{Strategy: KDiscriminants, K: len(w), Units: u}
}

func (m *linearMachine) epoch() int {
	if m.rule.Order == Shuffle {
		m.rng.Shuffle(len(m.order), func(i, j int) { m.order[i], m.order[j] = m.order[j], m.order[i] })
	}
	b := m.rule.Margin
	n := 0
	if m.rule.Batch {
		for _, s := range m.sum {
			clear(s)
		}
		for _, i := range m.order {
			x, y := m.d.X[i], m.d.Y[i]
			if j, gap := m.rival(x, y); gap <= b {
				axpy(m.sum[y], 1, x)
				axpy(m.sum[j], -1, x)
				n++
			}
		}
		if n > 0 {
			m.k++
			eta := m.rule.rate(m.k)
			for c, s := range m.sum {
				for j, v := range s {
					m.w[c][j] += float64(eta * v)
				}
			}
			if m.rule.Pocket {
				if e := Errors(m.multi(m.w), m.d); e < m.pocketErr {
					copyMatrix(m.pocket, m.w)
					m.pocketErr = e
				}
			}
		}
		m.corr += n
		return n
	}
	for _, i := range m.order {
		x, y := m.d.X[i], m.d.Y[i]
		if j, gap := m.rival(x, y); gap <= b {
			m.k++
			eta := m.rule.rate(m.k)
			axpy(m.w[y], eta, x)
			axpy(m.w[j], -eta, x)
			n++
			m.run, m.tried = 0, false
			continue
		}
		m.run++
		if m.rule.Pocket && m.run > m.pocketRun && !m.tried {
			m.tried = true
			if e := Errors(m.multi(m.w), m.d); e < m.pocketErr {
				copyMatrix(m.pocket, m.w)
				m.pocketErr, m.pocketRun = e, m.run
			}
		}
	}
	m.corr += n
	return n
}

func copyMatrix(dst, src [][]float64) {
	for i := range src {
		copy(dst[i], src[i])
	}
}

// Iterative trains a multi-class classifier with a perceptron Rule, an epoch at a time: the
// two-class learners of OneVsRest or OneVsOne in lockstep (each OneVsRest learner sees the
// samples in the same order, as the Mark I's R-units see the same card), or the K
// discriminants of KDiscriminants together.
type Iterative struct {
	strategy Strategy
	k        int
	bins     []*Perceptron
	pairs    [][2]int
	lm       *linearMachine
}

// NewIterative returns a learner for d (validated) with rule r and strategy s (ignored for
// two classes: one discriminant).
func NewIterative(d *Data, r Rule, s Strategy) (*Iterative, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if s < OneVsRest || s > KDiscriminants {
		return nil, errors.New("learn: unknown strategy")
	}
	it := &Iterative{strategy: s, k: d.K()}
	if s == KDiscriminants && d.K() > 2 {
		it.lm = newLinearMachine(d, r)
		return it, nil
	}
	ts, ps := tasks(d, s)
	it.pairs = ps
	for _, t := range ts {
		p, err := NewPerceptron(t.samples(d), t.y, r)
		if err != nil {
			return nil, err
		}
		it.bins = append(it.bins, p)
	}
	return it, nil
}

// Epoch trains every discriminant for one epoch and returns the corrections made.
func (it *Iterative) Epoch() int {
	if it.lm != nil {
		return it.lm.epoch()
	}
	n := 0
	for _, p := range it.bins {
		n += p.Epoch()
	}
	return n
}

// Corrections returns the corrections made so far.
func (it *Iterative) Corrections() int {
	if it.lm != nil {
		return it.lm.corr
	}
	n := 0
	for _, p := range it.bins {
		n += p.Corrections()
	}
	return n
}

// Current returns the classifier of the current weights.
func (it *Iterative) Current() *Multi { return it.classifier(false) }

// Best returns the classifier the learner answers with: the pockets' weights for a pocket rule
// (each two-class learner's own pocket, or the K discriminants' pocket), else Current.
func (it *Iterative) Best() *Multi { return it.classifier(true) }

func (it *Iterative) classifier(best bool) *Multi {
	if it.lm != nil {
		if best && it.lm.rule.Pocket {
			return it.lm.multi(it.lm.pocket)
		}
		return it.lm.multi(it.lm.w)
	}
	m := &Multi{Strategy: it.strategy, K: it.k, Pairs: it.pairs}
	for _, p := range it.bins {
		if best {
			m.Units = append(m.Units, p.Best())
		} else {
			m.Units = append(m.Units, p.Weights())
		}
	}
	return m
}
