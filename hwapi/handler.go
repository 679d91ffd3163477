package hwapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Backend is the rig a Handler serves.
type Backend interface {
	Info() Info
	Status() Status
	// SetWeights sets the targets of the weights the rig shows (the others are ignored) and
	// writes them at once; it returns how many the rig shows.
	SetWeights(ws []Weight) (applied int, err error)
	// Hold stops motion where it is; Park sends the servos to their park positions.
	Hold()
	Park()
}

// Looper is a Backend of a loop rig: its R-units' racks.
type Looper interface {
	Sum(r int, active []uint16) (float64, error)
	Drive(r int, active []uint16, onActive, onInactive float64) error
	Readings(r int) ([]float64, error)
}

// Simulator is a Backend of a simulated rig, which can inject bus faults.
type Simulator interface {
	InjectFault(f Fault) error
}

// Opts configures a Handler.
type Opts struct {
	// Token, when not empty, is required of every request ("Authorization: Bearer TOKEN").
	Token string
	// Rate is the most requests per second served (a token bucket of Burst); default 2000,
	// burst 400 (a loop machine asks for a sum per R-unit per presentation).
	Rate  float64
	Burst int
	// Watchdog: when no control request (frame, heartbeat, drive, sum) has come for this
	// long, motion stops: Park when OnWatchdog is "park", Hold otherwise. 0: no watchdog.
	Watchdog   time.Duration
	OnWatchdog string
	// MaxStreams bounds the event streams open at once; default 8.
	MaxStreams int
	// Now is the clock (nil: time.Now); Log receives one line per notable event (nil: none).
	Now func() time.Time
	Log func(format string, a ...any)
}

// Handler is the bridge's HTTP API. Create it with NewHandler; run its watchdog with Watch.
type Handler struct {
	b      Backend
	opts   Opts
	token  [32]byte
	mux    *http.ServeMux
	events *Broker

	mu          sync.Mutex
	tokens      float64
	last        time.Time // last refill of the bucket
	lastControl time.Time
	stopped     bool // the watchdog stopped motion
	stats       RequestStats
	streams     int
}

// NewHandler returns the API of backend b.
func NewHandler(b Backend, opts Opts) *Handler {
	if opts.Rate <= 0 {
		opts.Rate = 2000
	}
	if opts.Burst <= 0 {
		opts.Burst = 400
	}
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = 8
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	h := &Handler{b: b, opts: opts, events: NewBroker(), tokens: float64(opts.Burst)}
	h.token = sha256.Sum256([]byte(opts.Token))
	h.last = opts.Now()
	h.lastControl = opts.Now()
	m := http.NewServeMux()
	m.HandleFunc("GET /v1/info", h.info)
	m.HandleFunc("GET /v1/status", h.status)
	m.HandleFunc("POST /v1/frame", h.frame)
	m.HandleFunc("POST /v1/heartbeat", h.heartbeat)
	m.HandleFunc("POST /v1/loop/sum", h.sum)
	m.HandleFunc("POST /v1/loop/drive", h.drive)
	m.HandleFunc("GET /v1/loop/readings", h.readings)
	m.HandleFunc("POST /v1/halt", h.halt)
	m.HandleFunc("GET /v1/events", h.stream)
	m.HandleFunc("POST /v1/sim/fault", h.fault)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.refuse(w, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s (see GET /v1/info)", r.Method, r.URL.Path))
	})
	h.mux = m
	return h
}

// Events returns the broker of the handler's event stream, to publish the rig's events.
func (h *Handler) Events() *Broker { return h.events }

// ServeHTTP implements http.Handler: authentication, the rate limit and the body bound, then
// the endpoint.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if h.opts.Token != "" {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(got))
		// Compare digests, of equal length, in constant time: the time says nothing of the token.
		if subtle.ConstantTimeCompare(sum[:], h.token[:]) != 1 || !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="hwbridge"`)
			h.refuse(w, http.StatusUnauthorized, "missing or wrong token (Authorization: Bearer TOKEN)")
			return
		}
	}
	if !h.allow() {
		w.Header().Set("Retry-After", "1")
		h.mu.Lock()
		h.stats.RateLimited++
		h.mu.Unlock()
		writeJSON(w, http.StatusTooManyRequests, errorReply{fmt.Sprintf("more than %g requests per second", h.opts.Rate)})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	h.mux.ServeHTTP(w, r)
}

// allow takes a token from the bucket.
func (h *Handler) allow() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.opts.Now()
	if dt := now.Sub(h.last).Seconds(); dt > 0 {
		h.tokens = min(float64(h.opts.Burst), h.tokens+float64(dt*h.opts.Rate))
	}
	h.last = now
	if h.tokens < 1 {
		return false
	}
	h.tokens--
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (h *Handler) refuse(w http.ResponseWriter, status int, msg string) {
	h.mu.Lock()
	h.stats.Refused++
	h.mu.Unlock()
	writeJSON(w, status, errorReply{msg})
}

// bad answers a request whose body could not be read or checked.
func (h *Handler) bad(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		status = http.StatusRequestEntityTooLarge
	}
	h.refuse(w, status, err.Error())
}

func (h *Handler) ok(w http.ResponseWriter, v any) {
	h.mu.Lock()
	h.stats.Served++
	h.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// control notes a control request: it feeds the watchdog and resumes stopped motion.
func (h *Handler) control() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastControl = h.opts.Now()
	if h.stopped {
		h.stopped = false
		h.events.Publish(Event{Time: h.lastControl, Kind: "resumed", Message: "the controlling client is back"})
		h.opts.Log("hwapi: watchdog: the controlling client is back")
	}
}

// CheckWatchdog stops motion when no control request has come for the watchdog's time; it
// reports whether it did. Watch calls it; tests call it with a manual clock.
func (h *Handler) CheckWatchdog() bool {
	if h.opts.Watchdog <= 0 {
		return false
	}
	h.mu.Lock()
	now := h.opts.Now()
	silent := now.Sub(h.lastControl)
	if h.stopped || silent < h.opts.Watchdog {
		h.mu.Unlock()
		return false
	}
	h.stopped = true
	h.mu.Unlock()
	action := "held"
	if h.opts.OnWatchdog == "park" {
		h.b.Park()
		action = "parked"
	} else {
		h.b.Hold()
	}
	msg := fmt.Sprintf("no control request for %v: motion stopped, servos %s", silent.Round(time.Millisecond), action)
	h.events.Publish(Event{Time: now, Kind: "watchdog", Message: msg})
	h.opts.Log("hwapi: watchdog: %s", msg)
	return true
}

// Watch runs the watchdog until ctx ends, checking every quarter of its time on the wall
// clock.
func (h *Handler) Watch(ctx context.Context) {
	if h.opts.Watchdog <= 0 {
		return
	}
	t := time.NewTicker(h.opts.Watchdog / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			h.CheckWatchdog()
		}
	}
}

func (h *Handler) info(w http.ResponseWriter, r *http.Request) { h.ok(w, h.b.Info()) }

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	s := h.b.Status()
	h.mu.Lock()
	s.Requests = h.stats
	switch {
	case h.opts.Watchdog <= 0:
		s.Watchdog = "off"
	case h.stopped:
		s.Watchdog = "stopped"
	default:
		s.Watchdog = "ok"
	}
	h.mu.Unlock()
	h.ok(w, s)
}

func (h *Handler) frame(w http.ResponseWriter, r *http.Request) {
	f, err := DecodeFrame(r.Body)
	if err != nil {
		h.bad(w, err)
		return
	}
	h.control()
	n, err := h.b.SetWeights(f.Weights)
	if err != nil {
		h.refuse(w, http.StatusConflict, err.Error())
		return
	}
	h.ok(w, FrameReply{Seq: f.Seq, Applied: n})
}

func (h *Handler) heartbeat(w http.ResponseWriter, r *http.Request) {
	h.control()
	h.ok(w, struct{}{})
}

func (h *Handler) looper(w http.ResponseWriter) Looper {
	lp, ok := h.b.(Looper)
	if !ok || h.b.Info().Mode != "loop" {
		h.refuse(w, http.StatusConflict, "not a loop rig: its pots mirror a machine (mode = \"mirror\")")
		return nil
	}
	return lp
}

func (h *Handler) checkUnit(w http.ResponseWriter, r int, active []uint16) bool {
	m := h.b.Info().Machine
	if m == nil {
		h.refuse(w, http.StatusConflict, "the rig has no [machine]")
		return false
	}
	if r >= m.RUnits {
		h.refuse(w, http.StatusBadRequest, fmt.Sprintf("r: %d: the rig's machine has %d R-units", r, m.RUnits))
		return false
	}
	if len(active) > 0 && int(active[len(active)-1]) >= m.AUnits {
		h.refuse(w, http.StatusBadRequest, fmt.Sprintf("active: A-unit %d: the rig's machine has %d A-units", active[len(active)-1], m.AUnits))
		return false
	}
	return true
}

func (h *Handler) sum(w http.ResponseWriter, r *http.Request) {
	lp := h.looper(w)
	if lp == nil {
		return
	}
	req, err := DecodeSum(r.Body)
	if err != nil {
		h.bad(w, err)
		return
	}
	if !h.checkUnit(w, req.R, req.Active) {
		return
	}
	h.control()
	s, err := lp.Sum(req.R, req.Active)
	rep := SumReply{Sum: s}
	if err != nil {
		rep.Error = err.Error()
	}
	h.ok(w, rep)
}

func (h *Handler) drive(w http.ResponseWriter, r *http.Request) {
	lp := h.looper(w)
	if lp == nil {
		return
	}
	req, err := DecodeDrive(r.Body)
	if err != nil {
		h.bad(w, err)
		return
	}
	if !h.checkUnit(w, req.R, req.Active) {
		return
	}
	h.control()
	var rep DriveReply
	if err := lp.Drive(req.R, req.Active, req.OnActive, req.OnInactive); err != nil {
		rep.Error = err.Error()
	}
	h.ok(w, rep)
}

func (h *Handler) readings(w http.ResponseWriter, r *http.Request) {
	lp := h.looper(w)
	if lp == nil {
		return
	}
	unit, err := strconv.Atoi(r.URL.Query().Get("r"))
	if err != nil {
		h.refuse(w, http.StatusBadRequest, "readings: r: want the R-unit's number (?r=0)")
		return
	}
	if !h.checkUnit(w, unit, nil) {
		return
	}
	ws, err := lp.Readings(unit)
	rep := Readings{R: unit, W: ws}
	if err != nil {
		rep.Error = err.Error()
	}
	h.ok(w, rep)
}

func (h *Handler) halt(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("park") == "1" {
		h.b.Park()
	} else {
		h.b.Hold()
	}
	h.ok(w, struct{}{})
}

func (h *Handler) fault(w http.ResponseWriter, r *http.Request) {
	sim, ok := h.b.(Simulator)
	if !ok {
		h.refuse(w, http.StatusNotFound, "not a simulated rig: faults are injected only with hwbridge --simulate")
		return
	}
	f, err := DecodeFault(r.Body)
	if err != nil {
		h.bad(w, err)
		return
	}
	if err := sim.InjectFault(f); err != nil {
		h.refuse(w, http.StatusBadRequest, err.Error())
		return
	}
	h.ok(w, struct{}{})
}

// stream serves the event stream (Server-Sent Events) until the client goes away.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		h.refuse(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	h.mu.Lock()
	if h.streams >= h.opts.MaxStreams {
		h.mu.Unlock()
		h.refuse(w, http.StatusServiceUnavailable, fmt.Sprintf("%d event streams open already", h.opts.MaxStreams))
		return
	}
	h.streams++
	h.stats.Served++
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.streams--
		h.mu.Unlock()
	}()
	sub := h.events.Subscribe()
	defer h.events.Unsubscribe(sub)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": mark1 hwbridge events\n\n")
	fl.Flush()
	keep := time.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case e, ok := <-sub.C:
			if !ok {
				return
			}
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.Kind, b)
		}
		fl.Flush()
	}
}
