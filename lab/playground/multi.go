package playground

import (
	"math/big"
	"strconv"

	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// K classes (K > 2) go through lab/learn, in floats: the perceptron's rules as learn.Iterative
// (one epoch a step, the samples in order), least squares one discriminant per class (ovr,
// kdisc) or per pair (ovo), exactly with ridge lambda, and Fisher's K-class discriminant
// (learn.FisherMulti, whatever the strategy). Each strategy is read as mark1 lab regions reads
// it (lab/demo.Decider): one-vs-rest by the signs, one-vs-one by the vote, K discriminants by
// the largest.

// resetK sets up the K-class run at its start.
func (s *Session) resetK() error {
	s.ld = &learn.Data{}
	for c := range s.set.k {
		s.ld.Classes = append(s.ld.Classes, strconv.Itoa(c))
	}
	for _, p := range s.set.points {
		s.ld.X = append(s.ld.X, p.x.Floats())
		s.ld.Y = append(s.ld.Y, p.y)
	}
	s.multi = s.zeroMulti()
	if len(s.set.points) > 0 && !s.set.closed() {
		it, err := learn.NewIterative(s.ld, s.learnRule(), s.set.strategy)
		if err != nil {
			return err
		}
		s.it, s.multi = it, it.Current()
	}
	s.countK()
	return nil
}

// learnRule is the session's rule for lab/learn.
func (s *Session) learnRule() learn.Rule {
	tc := s.set.tc
	r := learn.Rule{Eta: exact.Float(tc.Eta), Order: learn.InOrder, Batch: s.set.method == "batch", Pocket: tc.Pocket != trace.NoPocket}
	switch tc.Schedule {
	case trace.InverseK:
		r.Schedule = learn.InverseK
	case trace.InverseSqrtK:
		r.Schedule = learn.InverseSqrtK
	}
	if s.set.method == "margin" || s.set.method == "variable" {
		r.Margin = exact.Float(s.set.b)
	}
	return r
}

// zeroMulti is the classifier of zero weights of the session's strategy.
func (s *Session) zeroMulti() *learn.Multi {
	m := &learn.Multi{Strategy: s.set.strategy, K: s.set.k}
	n := s.set.k
	if s.set.strategy == learn.OneVsOne {
		m.Pairs = pairsOf(s.set.k)
		n = len(m.Pairs)
	}
	for range n {
		m.Units = append(m.Units, learn.Linear{W: make([]float64, 3)})
	}
	return m
}

// pairsOf lists the pairs of classes i < j, in lab/learn's order.
func pairsOf(k int) [][2]int {
	var p [][2]int
	for i := range k {
		for j := i + 1; j < k; j++ {
			p = append(p, [2]int{i, j})
		}
	}
	return p
}

// stepK makes one epoch of the K-class perceptron, or solves.
func (s *Session) stepK() error {
	s.steps++
	if s.set.closed() {
		m, err := s.solveK()
		if err != nil {
			s.steps--
			return err
		}
		s.multi, s.status = m, Solved
		s.countK()
		return nil
	}
	n := s.it.Epoch()
	s.multi = s.it.Best()
	switch {
	case n == 0:
		s.status = Converged
	case s.steps >= s.set.tc.MaxEpochs():
		s.status = Limit
	}
	s.countK()
	return nil
}

// countK counts the training samples the classifier answers wrongly or not at all.
func (s *Session) countK() {
	s.kErr = 0
	decide := demo.Decider(s.multi)
	for i, x := range s.ld.X {
		if decide(x) != s.ld.Y[i] {
			s.kErr++
		}
	}
}

// solveK fits the K-class closed forms.
func (s *Session) solveK() (*learn.Multi, error) {
	if s.set.method == "fisher" {
		return learn.FisherMulti(s.ld)
	}
	m := &learn.Multi{Strategy: s.set.strategy, K: s.set.k}
	fit := func(pos func(y int) bool, keep func(y int) bool) error {
		var xs []exact.Vec
		var ts []*big.Rat
		for _, p := range s.set.points {
			if !keep(p.y) {
				continue
			}
			xs = append(xs, p.x)
			t := int64(-1)
			if pos(p.y) {
				t = 1
			}
			ts = append(ts, exact.Int(t))
		}
		w, err := ridge(xs, ts, s.set.lambda)
		if err != nil {
			return err
		}
		m.Units = append(m.Units, learn.Linear{W: w.Floats()})
		return nil
	}
	all := func(int) bool { return true }
	if s.set.strategy == learn.OneVsOne {
		m.Pairs = pairsOf(s.set.k)
		for _, p := range m.Pairs {
			if err := fit(func(y int) bool { return y == p[1] }, func(y int) bool { return y == p[0] || y == p[1] }); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	for c := range s.set.k {
		if err := fit(func(y int) bool { return y == c }, all); err != nil {
			return nil, err
		}
	}
	return m, nil
}
