package playground

import (
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// HistoryPoint is the criteria after a step (floats of the exact values; the 0-1 loss exact).
type HistoryPoint struct {
	Step    int     `json:"step"`
	ZeroOne int     `json:"zeroOne"`
	EP      float64 `json:"EP"`
	EQ      float64 `json:"EQ"`
	ER      float64 `json:"ER"`
}

// maxHistory is the most points the history and the path keep: past it they keep every other
// one (the history then every second step, then every fourth, ...).
const maxHistory = 500

// history is the criteria after every step, thinned to at most maxHistory points.
type history struct {
	pts    []HistoryPoint
	stride int // the steps between two points kept (1, 2, 4, ...)
	last   HistoryPoint
}

// add records the criteria after a step.
func (h *history) add(p HistoryPoint) {
	h.last = p
	if h.stride == 0 {
		h.stride = 1
	}
	if p.Step%h.stride != 0 {
		return
	}
	h.pts = append(h.pts, p)
	if len(h.pts) > maxHistory {
		n := 0
		for _, q := range h.pts {
			if q.Step%(2*h.stride) == 0 {
				h.pts[n] = q
				n++
			}
		}
		h.pts = h.pts[:n]
		h.stride *= 2
	}
}

// again records that a step left the weights, and so the criteria, as they were.
func (h *history) again(step int) {
	p := h.last
	p.Step = step
	h.add(p)
}

// features returns the feature weights (w1, w2) and the bias w0 of weights in the bias's
// order.
func features(w []float64, b trace.Bias) (w1, w2, w0 float64) {
	if b == trace.First {
		return w[1], w[2], w[0]
	}
	return w[0], w[1], w[2]
}

// record adds the criteria of the current weights to the history.
func (s *Session) record() {
	f := s.w.Floats()
	c := s.smp.floatCriteria([3]float64{f[0], f[1], f[2]}, s.w, exact.Float(s.set.b))
	s.hist.add(HistoryPoint{Step: s.steps, ZeroOne: c.zeroOne, EP: c.ep, EQ: c.eq, ER: c.er})
}

// addPath adds the current feature weights to the path of w, keeping at most maxHistory
// points (every other one, the first and the last kept, when there would be more).
func (s *Session) addPath() {
	w1, w2, _ := features(s.w.Floats(), s.set.tc.Bias)
	s.path = append(s.path, [2]float64{w1, w2})
	s.pathN++
	if len(s.path) > maxHistory {
		s.pathJSON = s.pathJSON[:0] // StateJSON writes the thinned path again
		last := s.path[len(s.path)-1]
		n := 0
		for i := 0; i < len(s.path)-1; i += 2 {
			s.path[n] = s.path[i]
			n++
		}
		s.path = append(s.path[:n], last)
	}
}
