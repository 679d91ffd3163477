package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// --shuffle=false is not silently ignored (issue 14: the order stayed shuffle): it must name
// the order; --shuffle and --order must agree.
func TestOrderFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr, or the order in the JSON report
	}{
		{[]string{"--shuffle=false"}, 2, "--shuffle=false: name the order instead: --order file"},
		{[]string{"--shuffle=false", "--order", "shuffle"}, 2, "--shuffle=false and --order shuffle disagree"},
		{[]string{"--shuffle", "--order", "file"}, 2, "--shuffle=true and --order file disagree"},
		{[]string{"--order", "random"}, 2, `--order "random": want shuffle, file or interleave`},
		{[]string{"--shuffle=false", "--order", "file"}, 0, "file"},
		{[]string{"--shuffle=false", "--order", "interleave"}, 0, "interleave"},
		{[]string{"--shuffle"}, 0, "shuffle"},
		{[]string{"--order", "file"}, 0, "file"},
		{nil, 0, "shuffle"},
	} {
		name := caseName(tc.args)
		if name == "" {
			name = "no order flag"
		}
		t.Run(name, func(t *testing.T) {
			args := append([]string{"train", "--data", "builtin:ef", "--epochs", "1", "--ideal", "--json"}, tc.args...)
			code, out, errs := mark1(t, args...)
			if code != tc.code {
				t.Errorf("%q: exit %d (%s), want %d", tc.args, code, strings.TrimSpace(errs), tc.code)
				return
			}
			if code != 0 {
				if !strings.Contains(errs, tc.want) {
					t.Errorf("%q: %q, want %q", tc.args, errs, tc.want)
				}
				return
			}
			var rep struct {
				Machine struct {
					Order string `json:"order"`
				} `json:"machine"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%q: %v", tc.args, err)
			}
			if rep.Machine.Order != tc.want {
				t.Errorf("%q: trained in order %q, want %q", tc.args, rep.Machine.Order, tc.want)
			}
		})
	}
}
