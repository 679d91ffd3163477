// Package health is what the staff watch an exhibit with: its Status (uptime, frame rate,
// presentations, the last save, the camera, the sound, the hardware rig, the errors and the
// curator's file's problems), served as JSON and as Prometheus metrics on a loopback HTTP endpoint, written to
// a status file, and a Log that rotates so that it never grows past a few MB.
package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mark1-perceptron/mark1/internal/httpguard"
)

// Status is the exhibit's health.
type Status struct {
	Institution   string    `json:"institution,omitempty"`
	Started       time.Time `json:"started"`
	Now           time.Time `json:"now"`
	UptimeSeconds float64   `json:"uptime_seconds"`
	// FrameRate is the frames painted a second over the last 10 s; FrameMaxMS the longest
	// time between two frames in that window.
	FrameRate  float64 `json:"frame_rate"`
	FrameMaxMS float64 `json:"frame_max_ms"`
	// Presentations are the cards and pictures shown to the machine since the start;
	// MachinePresentations the current machine's count over its whole life.
	Presentations        uint64    `json:"presentations"`
	MachinePresentations uint64    `json:"machine_presentations"`
	Experiment           string    `json:"experiment"`
	Mode                 string    `json:"mode"`
	Epoch                int       `json:"epoch"`
	LastSave             time.Time `json:"last_save,omitzero"`
	Camera               string    `json:"camera"` // off, live, missing, busy, unplugged, ...
	CameraDevice         string    `json:"camera_device,omitempty"`
	CameraFPS            float64   `json:"camera_fps"`
	Sound                string    `json:"sound"` // off, on, muted, no device, waiting for a touch
	Attracting           bool      `json:"attracting"`
	HeapMB               float64   `json:"heap_mb"`
	Errors               int       `json:"errors"`
	LastErrors           []string  `json:"last_errors"`
	CuratorFile          string    `json:"curator_file,omitempty"`
	CuratorProblems      []string  `json:"curator_problems"`
	// Rig is the hardware rig's state, when the exhibit drives one (nil: none).
	Rig *RigStatus `json:"rig,omitempty"`
}

// RigStatus is the hardware rig's state, as the exhibit's link to its bridge sees it.
type RigStatus struct {
	Bridge    string `json:"bridge"`    // HOST:PORT
	Mode      string `json:"mode"`      // mirror or loop
	Connected bool   `json:"connected"` // the bridge answers
	// State is turning, resting, held (its watchdog), halted (an operator), fault (a chip),
	// not following (a loop rig's read-backs), syncing (every knob sent again), not
	// connected, connecting, or other rig.
	State string `json:"state"`
	// Emulated says a loop rig's learning went back to the emulated racks.
	Emulated   bool   `json:"emulated"`
	Generation uint64 `json:"generation"`
	Faults     int    `json:"faults"` // chips that do not answer
	FaultyChip string `json:"faulty_chip,omitempty"`
	Knobs      int    `json:"knobs"`
	Moving     int    `json:"moving"`
	// ReadbackError is the largest distance between a read-back knob and its target,
	// increments.
	ReadbackError float64 `json:"readback_error"`
	// Sent counts the frames (a mirror) or corrections (a loop) the exhibit sent; BusFrames
	// and BusBytes what the rig wrote on its bus (the bridge's count since it started).
	Sent      uint64 `json:"sent"`
	BusFrames uint64 `json:"bus_frames"`
	BusBytes  uint64 `json:"bus_bytes"`
}

// Monitor keeps the Status; any goroutine may use it.
type Monitor struct {
	mu     sync.Mutex
	st     Status
	recent []string
}

// maxRecent is the number of errors kept.
const maxRecent = 10

// NewMonitor returns a Monitor of an exhibit started now.
func NewMonitor(institution string) *Monitor {
	now := time.Now()
	return &Monitor{st: Status{Institution: institution, Started: now, Now: now, Camera: "off", Sound: "off"}}
}

// Update changes the Status under the Monitor's lock.
func (m *Monitor) Update(f func(*Status)) {
	m.mu.Lock()
	f(&m.st)
	m.mu.Unlock()
}

// Error counts an error and keeps its message (the last ten).
func (m *Monitor) Error(msg string) {
	m.mu.Lock()
	m.st.Errors++
	line := time.Now().Format("2006-01-02 15:04:05") + " " + msg
	if len(m.recent) >= maxRecent {
		m.recent = append(m.recent[:0], m.recent[1:]...)
	}
	m.recent = append(m.recent, line)
	m.mu.Unlock()
}

// Snapshot returns the Status now.
func (m *Monitor) Snapshot() Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.st
	s.Now = time.Now()
	s.UptimeSeconds = s.Now.Sub(s.Started).Seconds()
	s.LastErrors = append([]string{}, m.recent...)
	s.CuratorProblems = append([]string{}, s.CuratorProblems...)
	if s.Rig != nil {
		r := *s.Rig
		s.Rig = &r
	}
	return s
}

// Handler serves the Status: GET / (or /status) as JSON, GET /metrics in Prometheus' text
// format. Behind the defences the bridge's API and mark1 web share (internal/httpguard), it
// answers only requests naming a loopback host (127.0.0.1, [::1], localhost: a DNS-rebinding
// page's name its own) and no web page of any site (403, {"error": ...}), and at most
// MaxRate requests a second (429).
func (m *Monitor) Handler() http.Handler {
	mux := http.NewServeMux()
	status := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.MarshalIndent(m.Snapshot(), "", "  ")
		w.Write(append(b, '\n'))
	}
	mux.HandleFunc("GET /{$}", status)
	mux.HandleFunc("GET /status", status)
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		WriteMetrics(w, m.Snapshot())
	})
	return httpguard.New(httpguard.Opts{
		Headers: []string{"Cache-Control", "no-store", "X-Content-Type-Options", "nosniff"},
		Browser: httpguard.BrowserOpts{Name: "the status endpoint", Hosts: httpguard.NewHosts(),
			HostHint: "the status endpoint answers only to loopback names and addresses (127.0.0.1, [::1], localhost)"},
		Limiter: rate.NewLimiter(MaxRate, MaxRate),
		Refuse:  httpguard.JSONRefuse,
	})(mux)
}

// MaxRate is the most requests a second the status endpoint serves (in bursts of as many): a
// scraper and a few people watching ask far less.
const MaxRate = 50

// WriteMetrics writes s in Prometheus' text exposition format (what node exporter's textfile
// collector reads, too).
func WriteMetrics(w io.Writer, s Status) error {
	var b strings.Builder
	g := func(name, help string, v float64, labels string) {
		fmt.Fprintf(&b, "# HELP mark1_museum_%s %s\n# TYPE mark1_museum_%s gauge\nmark1_museum_%s%s %g\n", name, help, name, name, labels, v)
	}
	b2f := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	g("up", "1 while the exhibit runs.", 1, "")
	g("uptime_seconds", "Seconds since the exhibit started.", s.UptimeSeconds, "")
	g("frame_rate", "Frames painted a second over the last 10 s.", s.FrameRate, "")
	g("frame_max_ms", "Longest time between two frames over the last 10 s, ms.", s.FrameMaxMS, "")
	g("presentations", "Cards and pictures shown to the machine since the start.", float64(s.Presentations), "")
	g("machine_presentations", "Presentations in the current machine's life.", float64(s.MachinePresentations), "")
	if !s.LastSave.IsZero() {
		g("last_save_timestamp_seconds", "When the machine was last saved (Unix time).", float64(s.LastSave.Unix()), "")
	}
	g("camera_live", "1 when the camera's pictures come.", b2f(s.Camera == "live"), fmt.Sprintf("{state=%q}", s.Camera))
	g("camera_fps", "Camera pictures a second.", s.CameraFPS, "")
	g("attracting", "1 while the attract mode runs.", b2f(s.Attracting), "")
	g("heap_mb", "Go heap in use, MB.", s.HeapMB, "")
	g("errors", "Errors since the start.", float64(s.Errors), "")
	g("curator_problems", "Mistakes in the curator's file.", float64(len(s.CuratorProblems)), "")
	if r := s.Rig; r != nil {
		g("rig_connected", "1 while the rig's bridge answers.", b2f(r.Connected), fmt.Sprintf("{bridge=%q,mode=%q,state=%q}", r.Bridge, r.Mode, r.State))
		g("rig_emulated", "1 while a loop rig's learning is on the emulated racks.", b2f(r.Emulated), "")
		g("rig_generation", "The rig's generation: how often its motion stopped.", float64(r.Generation), "")
		g("rig_faults", "The rig's chips that do not answer.", float64(r.Faults), "")
		g("rig_knobs_moving", "The rig's knobs still turning.", float64(r.Moving), "")
		g("rig_readback_error", "The largest distance between a read-back knob and its target, increments.", r.ReadbackError, "")
		g("rig_sent", "Frames or corrections the exhibit sent the rig.", float64(r.Sent), "")
		g("rig_bus_frames", "Frames the rig wrote on its bus.", float64(r.BusFrames), "")
		g("rig_bus_bytes", "Bytes the rig wrote on its bus.", float64(r.BusBytes), "")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// IsLoopback reports whether addr (HOST:PORT) names a loopback host.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves h on addr, which must be a loopback address, until ctx is done. It returns
// the listener's address at once on ready (when not nil), or the error.
func Serve(ctx context.Context, addr string, h http.Handler, ready func(net.Addr)) error {
	if !IsLoopback(addr) {
		return fmt.Errorf("health: %s is not a loopback address: the status endpoint is for this computer only (docs/kiosk.md says how to watch it from elsewhere)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	if ready != nil {
		ready(ln.Addr())
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("health: %w", err)
	}
	return nil
}

// WriteFile writes s to path as JSON, atomically (a temporary file renamed over it).
func WriteFile(path string, s Status) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, ".status-*.tmp")
	if err != nil {
		return fmt.Errorf("health: status file: %w", err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("health: status file: %w", err)
	}
	return nil
}

// LastSave returns the time of the newest machine saved in dir (NAME.state), or zero.
func LastSave(dir string) time.Time {
	if dir == "" {
		return time.Time{}
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.state"))
	sort.Strings(names)
	var t time.Time
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.ModTime().After(t) {
			t = st.ModTime()
		}
	}
	return t
}

// Log is a log file that rotates: when a write would take it past Max bytes, the file is
// renamed NAME.1 (replacing the older one) and a new one started, so the two together never
// hold more than about 2 x Max. It is safe for concurrent use.
type Log struct {
	Path string
	Max  int64

	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenLog opens (appends to) the log at path.
func OpenLog(path string, max int64) (*Log, error) {
	l := &Log{Path: path, Max: max}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Log) open() error {
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o755); err != nil {
		return fmt.Errorf("health: log: %w", err)
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("health: log: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("health: log: %w", err)
	}
	l.f, l.size = f, st.Size()
	return nil
}

// Write implements io.Writer.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		if err := l.open(); err != nil {
			return 0, err
		}
	}
	if l.size > 0 && l.size+int64(len(p)) > l.Max {
		l.f.Close()
		l.f = nil
		if err := os.Rename(l.Path, l.Path+".1"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, fmt.Errorf("health: log: %w", err)
		}
		if err := l.open(); err != nil {
			return 0, err
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	return n, err
}

// Close closes the log.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
