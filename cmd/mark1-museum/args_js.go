//go:build js

package main

import (
	"net/url"
	"syscall/js"
)

// browser is true in the browser build.
const browser = true

// args returns the page's query string as flags: ?experiment=shapes&speed=10 is
// --experiment shapes --speed 10, and a parameter with no value (?ideal) is a bare flag;
// ?camera is the page's camera, ?sound=off silence.
func args() []string {
	search := js.Global().Get("location").Get("search").String()
	if len(search) > 0 && search[0] == '?' {
		search = search[1:]
	}
	q, err := url.ParseQuery(search)
	if err != nil {
		return nil
	}
	var out []string
	for _, name := range []string{"experiment", "speed", "seed", "ideal", "attract", "pretrain", "stats", "camera", "sound"} {
		for _, v := range q[name] {
			if name == "camera" && (v == "" || v == "on") {
				v = "browser" // ?camera: the page's camera (web/index.html asks for it)
			}
			if v == "" {
				out = append(out, "--"+name)
			} else {
				out = append(out, "--"+name+"="+v)
			}
		}
	}
	return out
}
