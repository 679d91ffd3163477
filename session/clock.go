package session

import "time"

// Clock is a session's time: Now, as i2csim's Clock, and After, which sends the clock's time
// on the channel it returns once d has passed on the clock (as time.After does).
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// wallClock is time.Now and time.After.
type wallClock struct{}

func (wallClock) Now() time.Time                         { return time.Now() }
func (wallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
