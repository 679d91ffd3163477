package main

import (
	"context"
	"fmt"
	"io"
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
	log     io.Writer
	logFile *health.Log
	mon     *health.Monitor
	feed    *camera.Feed
	mu      sync.Mutex
}

// logf writes a line to the log (standard error, and the log file when there is one).
func (e *exhibit) logf(format string, a ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	line := fmt.Sprintf("mark1-museum: "+format+"\n", a...)
	if e.logFile != nil {
		e.logFile.Write([]byte(time.Now().Format("2006-01-02 15:04:05 ") + line))
	}
	io.WriteString(e.log, line)
}

// notef writes a line to the log file only (what is worth keeping, not saying).
func (e *exhibit) notef(format string, a ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.logFile != nil {
		fmt.Fprintf(e.logFile, time.Now().Format("2006-01-02 15:04:05 ")+"mark1-museum: "+format+"\n", a...)
	}
}

// newExhibit reads the curator's file (path "" for none) and opens the log.
func newExhibit(path string, st *settings, stderr io.Writer) *exhibit {
	e := &exhibit{cfg: curator.Default(), log: stderr}
	e.notef("starting")
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
				fmt.Fprintf(stderr, "mark1-museum: %v (logging to standard error only)\n", err)
			} else {
				e.logFile = l
			}
		}
	}
	e.mon = health.NewMonitor(e.cfg.Institution)
	e.mon.Update(func(s *health.Status) {
		s.CuratorFile, s.CuratorProblems = path, e.cfg.Problems
	})
	for _, p := range e.cfg.Problems {
		e.logf("curator's file: %s", p)
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
		e.feed = camera.NewFeed(src, camera.Options{Mirror: e.cfg.Camera.Mirror, Logf: func(f string, a ...any) {
			if strings.HasSuffix(f, ": live") {
				e.notef(f, a...) // good news goes to the log file only
			} else {
				e.logf(f, a...)
			}
		}})
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
			err := health.Serve(ctx, addr, e.mon.Handler(), func(a net.Addr) { e.notef("status endpoint: http://%s/ (JSON) and /metrics (Prometheus)", a) })
			if err != nil {
				e.logf("%v", err)
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
			e.mon.Update(func(s *health.Status) { s.LastSave = health.LastSave(stateDir) })
			if file == "" || n%10 != 0 {
				continue
			}
			if err := health.WriteFile(file, e.mon.Snapshot()); err != nil && !failed {
				failed = true
				e.logf("%v", err)
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
