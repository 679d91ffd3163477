package lab

import (
	"context"
	"sync"

	"github.com/mark1-perceptron/mark1/machine"
)

// EvalPoint is an evaluation of a copy of the machine after an epoch: the error rate on each
// deck evaluated.
type EvalPoint struct {
	Epoch int       `json:"epoch"`
	Err   []float64 `json:"error"`
}

// EveryEpoch evaluates after every epoch (for TrainCurve).
func EveryEpoch(int) bool { return true }

// LogEpochs evaluates after every epoch up to 20, then every 5th up to 100, every 20th after
// (and at the epochs listed): enough for curves on a logarithmic axis, at a fraction of the
// cost (a machine's copy is not free).
func LogEpochs(also ...int) func(int) bool {
	return func(e int) bool {
		for _, a := range also {
			if e == a {
				return true
			}
		}
		return e <= 20 || (e <= 100 && e%5 == 0) || e%20 == 0
	}
}

// TrainCurve trains m on deck for at most maxEpochs, stopping after the first errorless epoch
// unless keepGoing, and after each epoch evalAt accepts (and the last) evaluates m on each of
// eval in turn (Evaluate: a copy of an analog machine). It returns the mistakes made while
// training in each epoch, and the evaluations; it stops, with ctx's error, when ctx ends.
func TrainCurve(ctx context.Context, m *machine.Machine, deck *machine.Deck, maxEpochs int, keepGoing bool, evalAt func(int) bool, eval ...*machine.Deck) (mistakes []int, evals []EvalPoint, err error) {
	for e := 1; e <= maxEpochs; e++ {
		st := m.Epoch(deck, func(int) bool { return ctx.Err() == nil })
		if st.Stopped {
			return nil, nil, ctx.Err()
		}
		mistakes = append(mistakes, st.Mistakes)
		last := e == maxEpochs || (st.Mistakes == 0 && !keepGoing)
		if len(eval) > 0 && (last || evalAt(e)) {
			res, err := Evaluate(m, eval...)
			if err != nil {
				return nil, nil, err
			}
			pt := EvalPoint{Epoch: e}
			for _, r := range res {
				pt.Err = append(pt.Err, float64(r.Cards-r.Correct)/float64(r.Cards))
			}
			evals = append(evals, pt)
		}
		if last {
			break
		}
	}
	return mistakes, evals, m.Err()
}

// ErrAt returns the error on deck i of the last evaluation at or before epoch e (the machine
// stays as it is once training stops), or of the first one.
func ErrAt(evals []EvalPoint, e, i int) float64 {
	v := evals[0].Err[i]
	for _, p := range evals {
		if p.Epoch > e {
			break
		}
		v = p.Err[i]
	}
	return v
}

// Progress counts the jobs of a run done, for a Config's Progress.
type Progress struct {
	mu          sync.Mutex
	done, total int
	f           func(done, total int)
}

// NewProgress returns a Progress of total jobs that reports to f (nil: to nothing).
func NewProgress(f func(int, int), total int) *Progress { return &Progress{total: total, f: f} }

// Add counts n more jobs done and reports the count; it is safe for concurrent use, and a
// nil Progress does nothing.
func (p *Progress) Add(n int) {
	if p == nil || p.f == nil {
		return
	}
	p.mu.Lock()
	p.done += n
	p.f(min(p.done, p.total), p.total)
	p.mu.Unlock()
}
