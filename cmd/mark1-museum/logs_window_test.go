//go:build museumwindow

package main

import (
	"strings"
	"testing"
)

// The exhibit's log: standard error says the problems (warnings and errors, unless
// --log-level asks for more), the log file keeps what goes well too (Info), each line as
// key=value text or a JSON object; bad --log-level and --log-format values are usage errors.
func TestExhibitLog(t *testing.T) {
	for _, tc := range []struct {
		name, format, level string
		stderr, file        []string // lines each holds, in order
	}{
		{"default", "text", "warn", []string{`level=WARN msg="camera x: unplugged"`},
			[]string{`level=INFO msg="camera x: live" state=live`, `level=WARN msg="camera x: unplugged"`}},
		{"json", "json", "warn", []string{`"level":"WARN","msg":"camera x: unplugged"`},
			[]string{`"level":"INFO","msg":"camera x: live","state":"live"}`, `"level":"WARN","msg":"camera x: unplugged"`}},
		{"info", "text", "info", []string{`msg="camera x: live"`, `msg="camera x: unplugged"`},
			[]string{`msg="camera x: live"`, `msg="camera x: unplugged"`}},
		{"debug", "text", "debug", []string{`level=DEBUG msg=detail`, `msg="camera x: live"`, `msg="camera x: unplugged"`},
			[]string{`level=DEBUG msg=detail`, `msg="camera x: live"`, `msg="camera x: unplugged"`}},
		{"errors", "text", "error", nil, []string{`msg="camera x: live"`, `msg="camera x: unplugged"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr, file strings.Builder
			lg := newLogger(&stderr, &file, &settings{logFormat: tc.format, logLevel: tc.level})
			lg.Debug("detail")
			lg.Info("camera x: live", "state", "live")
			lg.Warn("camera x: unplugged")
			for _, c := range []struct {
				what, got string
				want      []string
			}{{"standard error", stderr.String(), tc.stderr}, {"the log file", file.String(), tc.file}} {
				lines := strings.Split(strings.TrimSuffix(c.got, "\n"), "\n")
				if c.got == "" {
					lines = nil
				}
				if len(lines) != len(c.want) {
					t.Errorf("%s: %q, want %d lines", c.what, c.got, len(c.want))
					continue
				}
				for i, w := range c.want {
					if !strings.Contains(lines[i], w) {
						t.Errorf("%s: line %d %q lacks %q", c.what, i+1, lines[i], w)
					}
				}
			}
		})
	}
	for _, args := range [][]string{{"--log-level", "loud"}, {"--log-format", "xml"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr strings.Builder
			if code := run(args, &stdout, &stderr); code != 2 || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), args[0]+` "`+args[1]+`": want`) {
				t.Errorf("exit %d, %q: want 2 and one line naming the flag", code, stderr.String())
			}
		})
	}
}
