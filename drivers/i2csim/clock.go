package i2csim

import (
	"sync"
	"time"
)

// Clock tells the simulated chips the time.
type Clock interface {
	Now() time.Time
}

// WallClock is the real time.
type WallClock struct{}

// Now returns time.Now().
func (WallClock) Now() time.Time { return time.Now() }

// ManualClock is a clock that moves only when told to: by Advance, or by Sleep, when a driver
// under test is given it as its Clock (the drivers' Opts.Clock, rigdev's Env.Clock) in place
// of the wall clock. It is safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a manual clock standing at a fixed date.
func NewManualClock() *ManualClock {
	return &ManualClock{now: time.Date(1958, 7, 8, 12, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (a negative d is ignored).
func (c *ManualClock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d at once: a sleeping driver under test sees the time pass
// without waiting.
func (c *ManualClock) Sleep(d time.Duration) { c.Advance(d) }
