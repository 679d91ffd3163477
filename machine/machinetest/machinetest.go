// Package machinetest provides a fake Rack for tests of code that drives a machine's weights:
// it keeps exact weights in memory, records every call, and fails when told to, as hardware
// can.
package machinetest

import (
	"fmt"
	"sync"
)

// Call is one recorded call to a Rack.
type Call struct {
	Op                   string // "Sum", "Drive", "Readings" or "Halt"
	Active               []uint16
	OnActive, OnInactive float64
}

// Rack is a fake rack of exact weights. Its exported fields may be set by a test at any time
// between calls. It is safe for concurrent use.
type Rack struct {
	mu sync.Mutex
	// W holds the weights: A-unit pots, then the bias pot.
	W []float64
	// Calls records every call made, in order.
	Calls []Call
	// Fail, when not nil, is returned by the next calls (all of them until cleared); a failed
	// Sum still returns the sum, a failed Drive moves nothing.
	Fail error
	// Halted counts calls to Halt.
	Halted int
}

// New returns a fake rack of n A-unit pots and a bias pot, all at 0.
func New(n int) *Rack { return &Rack{W: make([]float64, n+1)} }

// Len returns the number of pots.
func (r *Rack) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.W)
}

// Sum returns the bias plus the active pots' weights.
func (r *Rack) Sum(active []uint16) (float64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Calls = append(r.Calls, Call{Op: "Sum", Active: append([]uint16(nil), active...)})
	s := r.W[len(r.W)-1]
	for _, a := range active {
		s += r.W[a]
	}
	return s, r.Fail
}

// Drive moves the bias and active pots onActive and the others onInactive, unless failing.
func (r *Rack) Drive(active []uint16, onActive, onInactive float64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Calls = append(r.Calls, Call{Op: "Drive", Active: append([]uint16(nil), active...), OnActive: onActive, OnInactive: onInactive})
	if r.Fail != nil {
		return r.Fail
	}
	n := len(r.W) - 1
	isActive := make([]bool, n)
	for _, a := range active {
		isActive[a] = true
	}
	for i := range n {
		if isActive[i] {
			r.W[i] += onActive
		} else {
			r.W[i] += onInactive
		}
	}
	r.W[n] += onActive
	return nil
}

// Readings copies the weights.
func (r *Rack) Readings(dst []float64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Calls = append(r.Calls, Call{Op: "Readings"})
	copy(dst, r.W)
	return r.Fail
}

// Halt counts the call.
func (r *Rack) Halt() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Calls = append(r.Calls, Call{Op: "Halt"})
	r.Halted++
	return r.Fail
}

// String names the fake.
func (r *Rack) String() string { return fmt.Sprintf("machinetest.Rack(%d pots)", len(r.W)) }

// Count returns how many calls of op were recorded.
func (r *Rack) Count(op string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.Calls {
		if c.Op == op {
			n++
		}
	}
	return n
}
