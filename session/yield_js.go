//go:build js

package session

// busyYield is how long a session at full speed leaves the processor after each frame
// interval of work. A browser runs the page (and the drawing) only while every goroutine
// waits, so a session at full speed sleeps as long as it works.
const busyYield = DefaultFrameInterval
