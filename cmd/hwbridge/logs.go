package main

import (
	"flag"
	"io"
	"log/slog"
)

// logFlags choose the daemon's log: on standard error (which journald keeps, with its own
// time and priority), as text (key=value) or JSON (one object a line), from a least level.
type logFlags struct {
	format, level string
}

func (f *logFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.format, "log-format", "text", "the log on standard error: text (key=value) or json (one object a line)")
	fs.StringVar(&f.level, "log-level", "info", "the least level logged: debug, info, warn or error")
}

// logger returns the log the flags ask for, writing to w.
func (f logFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(f.level)); err != nil {
		return nil, usageErr("--log-level %q: want debug, info, warn or error", f.level)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch f.format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, usageErr("--log-format %q: want text or json", f.format)
}

// warnings returns the log of a command run by hand (scan, jog): its warnings only, as text on
// w.
func warnings(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
