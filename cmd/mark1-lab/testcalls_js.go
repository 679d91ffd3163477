//go:build js && wasm && mark1labtest

package main

// The tests' build (tag mark1labtest) adds a call that panics: the binding must throw it as an
// Error naming the call.
func init() {
	extraCalls["panicForTest"] = func(a args) (any, error) {
		v := []int{1}
		return v[len(a.v)+1], nil // out of range: a Go panic
	}
}
