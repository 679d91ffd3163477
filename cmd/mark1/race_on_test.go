//go:build race

package main

// raceSlowdown is how many times more CPU time a program built with the race detector takes
// for the same work (5 to 10 times, as the Go documentation says, and more for start-up).
const raceSlowdown = 15
