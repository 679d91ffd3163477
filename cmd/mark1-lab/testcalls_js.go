//go:build js && wasm && mark1labtest

package main

// testCalls adds, in the tests' build (tag mark1labtest), a call that panics: the binding must
// throw it as an Error naming the call.
func init() {
	extraCalls["panicForTest"] = func(a args) (any, error) {
		var m map[string]int
		m["boom"]++ // a nil map: a Go panic
		return nil, nil
	}
}
