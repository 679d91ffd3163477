package rigdev

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

// gateClock is a manual clock whose Sleep, once armed, tells the test that the rig is waiting
// in a settle loop (with its lock held) and waits for the test to let it go on.
type gateClock struct {
	*i2csim.ManualClock
	mu       sync.Mutex
	armed    bool
	sleeping chan struct{}
	proceed  chan struct{}
}

func (c *gateClock) Sleep(d time.Duration) {
	c.mu.Lock()
	armed := c.armed
	c.armed = false
	c.mu.Unlock()
	if armed {
		close(c.sleeping)
		<-c.proceed
	}
	c.ManualClock.Sleep(d)
}

// A stop (Hold: the operator's halt and the watchdog; Park: shutdown) asked for while a loop
// drive settles its pots, holding the rig's lock, ends that settling at its next pause: the
// drive returns an error saying it was stopped, and the stop is done, rather than waiting for
// the pots to settle (up to the drive's timeout, 10 s: a safety stop must not wait).
func TestStopEndsSettling(t *testing.T) {
	for _, stop := range []string{"hold", "park"} {
		t.Run(stop, func(t *testing.T) {
			spec := load(t, "sim-loop.toml")
			clk := &gateClock{ManualClock: i2csim.NewManualClock(), sleeping: make(chan struct{}), proceed: make(chan struct{})}
			_, env := Simulate(spec, clk.ManualClock, SimOpts{Seed: 7})
			env.Clock = clk
			env.Logger = (&logger{t: t}).log()
			h, err := Open(spec, env)
			if err != nil {
				t.Fatal(err)
			}
			racks, err := h.LoopRacks()
			if err != nil {
				t.Fatal(err)
			}
			clk.mu.Lock()
			clk.armed = true
			clk.mu.Unlock()
			driven := make(chan error, 1)
			go func() { driven <- racks[0].Drive(nil, 5, 5) }()
			<-clk.sleeping // the drive is settling, the lock held
			stopped := make(chan struct{})
			go func() {
				if stop == "hold" {
					h.Hold()
				} else {
					h.Park()
				}
				close(stopped)
			}()
			for i := 0; h.stopping.Load() == 0; i++ { // the stop waits for the lock
				if i == 10000 {
					close(clk.proceed)
					t.Fatalf("the %s never asked the settling drive to stop", stop)
				}
				time.Sleep(time.Millisecond)
			}
			close(clk.proceed)
			err = <-driven
			<-stopped
			if err == nil || !strings.Contains(err.Error(), "stopped") {
				t.Fatalf("the drive went on settling after a %s was asked for: %v", stop, err)
			}
			if stop == "hold" && !h.Held() {
				t.Error("not held after Hold")
			}
		})
	}
}
