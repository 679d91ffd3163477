//go:build js

package main

import (
	"net/url"
	"syscall/js"

	"github.com/mark1-perceptron/mark1/view/i18n"
)

// browser is true in the browser build.
const browser = true

// args returns the page's query string as flags: ?experiment=shapes&speed=10 is
// --experiment shapes --speed 10, and a parameter with no value (?ideal) is a bare flag;
// ?camera is the page's camera, ?sound=off silence, ?language=de the screen's language (by
// default the browser's, when the screen speaks it).
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
	if len(q["language"]) == 0 {
		// The browser's own language, when the screen speaks it (navigator.language: "de-DE").
		if l := js.Global().Get("navigator").Get("language"); l.Type() == js.TypeString {
			if _, ok := i18n.Parse(l.String()); ok {
				q["language"] = []string{l.String()}
			}
		}
	}
	for _, name := range []string{"experiment", "speed", "seed", "ideal", "attract", "pretrain", "stats", "camera", "sound", "language"} {
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
