package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestPaceFlag: --pace shows its default as auto (not -1ns), takes a duration of 0 or more
// or auto, and refuses anything else on one line naming the value.
func TestPaceFlag(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"run", "-h"}, &out, &errs); code != 0 {
		t.Fatalf("run -h: exit %d, %s", code, errs.String())
	}
	help := out.String()
	if !strings.Contains(help, "  -pace D\n") || !strings.Contains(help, "(default auto)") || strings.Contains(help, "-1ns") {
		t.Errorf("run -h:\n%s", help)
	}
	for _, tt := range []struct {
		arg  string
		want time.Duration
		err  string
	}{
		{"auto", -1, ""},
		{"0", 0, ""},
		{"500ms", 500 * time.Millisecond, ""},
		{"2s", 2 * time.Second, ""},
		{"-3s", 0, "want a duration of 0 or more, or auto"},
		{"fast", 0, "want a duration such as 500ms or 2s, or auto"},
	} {
		t.Run(tt.arg, func(t *testing.T) {
			var p paceValue
			err := p.Set(tt.arg)
			switch {
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("--pace %s: error %v, want %q", tt.arg, err, tt.err)
			case tt.err == "" && (err != nil || time.Duration(p) != tt.want):
				t.Errorf("--pace %s: %v, %v; want %v", tt.arg, time.Duration(p), err, tt.want)
			}
		})
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"run", "--pace", "-3s"}, &out, &errs); code != 2 || strings.Count(errs.String(), "\n") != 1 || !strings.Contains(errs.String(), `invalid value "-3s" for flag -pace`) {
		t.Errorf("run --pace -3s: exit %d, stderr %q", code, errs.String())
	}
}
