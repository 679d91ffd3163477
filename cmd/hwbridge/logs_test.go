package main

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// textLogger returns a logger of every level writing text to w.
func textLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// --log-format and --log-level make the daemon's log: text or JSON lines from the least level
// asked for; anything else is a usage error naming the flag.
func TestLogFlags(t *testing.T) {
	for _, tc := range []struct {
		name          string
		format, level string
		want, not     string // in the log, and not in it
		err           string
	}{
		{"text", "text", "info", `level=WARN msg="a warning" n=1`, "a debug line", ""},
		{"json", "json", "info", `"level":"WARN","msg":"a warning","n":1}`, "a debug line", ""},
		{"debug", "text", "debug", "a debug line", "", ""},
		{"errors only", "text", "ERROR", "", "a warning", ""},
		{"bad level", "text", "loud", "", "", `--log-level "loud": want debug, info, warn or error`},
		{"bad format", "xml", "info", "", "", `--log-format "xml": want text or json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			lg, err := logFlags{format: tc.format, level: tc.level}.logger(&b)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lg.Debug("a debug line")
			lg.Warn("a warning", "n", 1)
			if !strings.Contains(b.String(), tc.want) || tc.not != "" && strings.Contains(b.String(), tc.not) {
				t.Errorf("log %q: want %q, not %q", b.String(), tc.want, tc.not)
			}
		})
	}
	// The flags are every daemon command's.
	for _, cmd := range []string{"serve", "run", "calibrate"} {
		t.Run(cmd, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{cmd, "--log-level", "loud"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--log-level") {
				t.Errorf("hwbridge %s --log-level loud: exit %d, %q", cmd, code, errb.String())
			}
		})
	}
}
