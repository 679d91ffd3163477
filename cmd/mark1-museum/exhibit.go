package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/curator"
	"github.com/mark1-perceptron/mark1/museum/health"
)

// exhibit is what the curator's file sets up around the machine: the log, the status for the
// staff, the camera and the sound.
type exhibit struct {
	cfg     curator.Config
	log     *slog.Logger
	logFile *health.Log
	mon     *health.Monitor
	feed    *camera.Feed
	saveDir string // where the session saves its machines (the state folder, or a loop rig's within it)
}

// logLevel reads --log-level: debug, info, warn or error.
func logLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return 0, fmt.Errorf("--log-level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// logHandler writes records of level and up to w as text (key=value) or, when format is
// json, one JSON object a line.
func logHandler(w io.Writer, format string, level slog.Leveler) slog.Handler {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.NewJSONHandler(w, opts)
	}
	return slog.NewTextHandler(w, opts)
}

// newLogger returns the exhibit's log: on stderr from the level --log-level gives (warnings by
// default: problems are said, not what goes well), and in the log file, when there is one,
// from Info (or the level given, when lower): what is worth keeping.
func newLogger(stderr io.Writer, file io.Writer, st *settings) *slog.Logger {
	level, _ := logLevel(st.logLevel) // checked by run
	h := logHandler(stderr, st.logFormat, level)
	if file != nil {
		h = slog.NewMultiHandler(h, logHandler(file, st.logFormat, min(level, slog.LevelInfo)))
	}
	return slog.New(h)
}

// newExhibit reads the curator's file (path "" for none) and opens the log.
func newExhibit(path string, st *settings, stderr io.Writer) *exhibit {
	e := &exhibit{cfg: curator.Default(), log: newLogger(stderr, nil, st)}
	if path != "" {
		e.cfg = curator.Read(path)
	}
	if !browser {
		lf := e.cfg.Staff.LogFile
		if lf == "" && st.stateDir != "" {
			lf = filepath.Join(st.stateDir, "museum.log")
		}
		if lf != "" {
			l, err := health.OpenLog(lf, int64(e.cfg.Staff.LogMaxMB*1e6))
			if err != nil {
				e.log.Error(fmt.Sprintf("%v (logging to standard error only)", err))
			} else {
				e.logFile = l
				e.log = newLogger(stderr, l, st)
			}
		}
	}
	e.mon = health.NewMonitor(e.cfg.Institution)
	e.mon.Update(func(s *health.Status) {
		s.CuratorFile, s.CuratorProblems = path, e.cfg.Problems
	})
	e.log.Info("starting")
	for _, p := range e.cfg.Problems {
		e.log.Warn("curator's file: " + p)
	}
	return e
}

// cameraSource returns the camera device names, or nil for none.
func cameraSource(device string, c curator.Camera) camera.Source {
	switch {
	case device == "" || device == "off":
		return nil
	case strings.HasPrefix(device, "file:"):
		return &camera.File{Path: strings.TrimPrefix(device, "file:")}
	case browser:
		return browserCamera()
	}
	return &camera.V4L2{Device: device, Width: c.Width, Height: c.Height}
}

// start starts the camera, the status endpoint and the status file; they end with ctx.
func (e *exhibit) start(ctx context.Context, cameraFlag, stateDir string, wg *sync.WaitGroup) {
	device := ""
	if e.cfg.Camera.On {
		device = e.cfg.Camera.Device
	}
	if cameraFlag != "" {
		device = cameraFlag
	}
	if src := cameraSource(device, e.cfg.Camera); src != nil {
		// Good news (live) is Info: the log file's, not standard error's by default.
		e.feed = camera.NewFeed(src, camera.Options{Mirror: e.cfg.Camera.Mirror, Logger: e.log})
		wg.Add(1)
		go func() { defer wg.Done(); e.feed.Run(ctx) }()
	}
	if browser {
		return
	}
	// The status endpoint is the curator's file's (a window without one is a developer's).
	if addr := e.cfg.Staff.StatusAddr; addr != "" && e.cfg.Path != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := health.Serve(ctx, addr, e.mon.Handler(), func(a net.Addr) {
				e.log.Info(fmt.Sprintf("status endpoint: http://%s/ (JSON) and /metrics (Prometheus)", a))
			})
			if err != nil {
				e.log.Error(err.Error())
				e.mon.Error(err.Error())
			}
		}()
	}
	file := e.cfg.Staff.StatusFile
	if file == "" && stateDir != "" {
		file = filepath.Join(stateDir, "status.json")
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		failed := false
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			e.mon.Update(func(s *health.Status) { s.LastSave = health.LastSave(cmp.Or(e.saveDir, stateDir)) })
			if file == "" || n%10 != 0 {
				continue
			}
			if err := health.WriteFile(file, e.mon.Snapshot()); err != nil && !failed {
				failed = true
				e.log.Error(err.Error())
				e.mon.Error(err.Error())
			}
		}
	}()
}

func (e *exhibit) close() {
	if e.logFile != nil {
		e.logFile.Close()
	}
}
