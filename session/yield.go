//go:build !js

package session

import "time"

// busyYield is how long a session at full speed leaves the processor after each frame
// interval of work: nothing where goroutines run in parallel with the drawing.
const busyYield time.Duration = 0
