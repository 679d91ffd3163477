package hwapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mark1-perceptron/mark1/internal/httpguard"
)

// Backend is the rig a Handler serves.
type Backend interface {
	Info() Info
	Status() Status
	// SetWeights sets the targets of the weights the rig shows (the others are ignored) and
	// writes them at once; it returns how many the rig shows.
	SetWeights(ws []Weight) (applied int, err error)
	// Hold stops motion where it is; Park sends the servos to their park positions; Resume
	// lets motion go on after either (targets kept during a hold are written again).
	Hold()
	Park()
	Resume()
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
	// AllowHosts are host names, besides the loopback ones, that a request's Host may name
	// when there is no token (without a token every other Host is refused: a DNS-rebinding
	// page's requests carry its own name).
	AllowHosts []string
	// Rate is the most requests per second served (a token bucket of Burst, x/time/rate's);
	// default 2000, burst 400 (a loop machine asks for a sum per R-unit per presentation).
	Rate  float64
	Burst int
	// Watchdog: once a client has sent a control request (frame, heartbeat, drive, sum), when
	// none has come for this long, motion stops: Park when OnWatchdog is "park", Hold
	// otherwise. 0: no watchdog.
	Watchdog   time.Duration
	OnWatchdog string
	// Servos and DigitalPots say what the rig's pots are, for the words of the watchdog's and
	// a halt's messages: servos are held or parked, digital pots keep their values (they have
	// no park position). Neither: the messages say "pots".
	Servos, DigitalPots bool
	// MaxStreams bounds the event streams open at once; default 8.
	MaxStreams int
	// Logger receives the notable events, with component=hwapi: refusals (the first of a
	// status from an address, then one summary a minute; Warn for a wrong token, a browser's
	// or a foreign Host's request, Info for the rest), the watchdog and halts (Warn), resumes
	// and releases (Info). Nil: none.
	Logger *slog.Logger

	now func() time.Time // the clock (nil: time.Now); tests set a manual clock
}

// Handler is the bridge's HTTP API. Create it with NewHandler; run its watchdog with Watch.
type Handler struct {
	b      Backend
	opts   Opts
	log    *slog.Logger
	serve  http.Handler // the defences (httpguard), then the endpoints
	events *Broker

	mu          sync.Mutex
	lastControl time.Time
	armed       bool   // a client is in control: the watchdog watches
	stopped     string // why the watchdog stopped motion ("" when it did not)
	halted      string // who halted the rig (POST /v1/halt), "" when not halted
	gen         uint64 // times motion stopped
	stats       RequestStats
	streams     int
	refusals    map[refusalKey]*refusalCount
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
	if opts.now == nil {
		opts.now = time.Now
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	h := &Handler{b: b, opts: opts, log: lg.With("component", "hwapi"), events: NewBroker(), refusals: map[refusalKey]*refusalCount{}}
	h.lastControl = opts.now()
	m := http.NewServeMux()
	m.HandleFunc("GET /v1/info", h.info)
	m.HandleFunc("GET /v1/status", h.status)
	m.HandleFunc("POST /v1/frame", h.frame)
	m.HandleFunc("POST /v1/heartbeat", h.heartbeat)
	m.HandleFunc("POST /v1/loop/sum", h.sum)
	m.HandleFunc("POST /v1/loop/drive", h.drive)
	m.HandleFunc("GET /v1/loop/readings", h.readings)
	m.HandleFunc("POST /v1/halt", h.halt)
	m.HandleFunc("POST /v1/resume", h.resume)
	m.HandleFunc("POST /v1/release", h.release)
	m.HandleFunc("GET /v1/events", h.stream)
	m.HandleFunc("POST /v1/sim/fault", h.fault)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		h.refuse(w, r, http.StatusNotFound, fmt.Sprintf("no endpoint %s %s (see GET /v1/info)", r.Method, r.URL.Path))
	})
	var hosts *httpguard.Hosts // with a token, the token is the defence: any Host (a Pi on the network)
	if opts.Token == "" {
		hosts = httpguard.NewHosts(opts.AllowHosts...)
	}
	h.serve = httpguard.New(httpguard.Opts{
		Headers: []string{"Cache-Control", "no-store", "X-Content-Type-Options", "nosniff"},
		Browser: httpguard.BrowserOpts{Name: "the bridge", Hosts: hosts,
			HostHint: "without a token the bridge answers only to loopback names and addresses (127.0.0.1, [::1], localhost) and --allow-host ones"},
		Token: opts.Token, Realm: "hwbridge",
		Limiter: rate.NewLimiter(rate.Limit(opts.Rate), opts.Burst), Now: opts.now,
		JSONPosts: true, MaxBody: MaxBody,
		Refuse: h.refuse,
	})(m)
	return h
}

// Events returns the broker of the handler's event stream, to publish the rig's events.
func (h *Handler) Events() *Broker { return h.events }

// ServeHTTP implements http.Handler: the defences of httpguard (headers, the browser
// defence, the token, the rate limit, JSON bodies within MaxBody), then the endpoint.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve.ServeHTTP(w, r) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// refusalKey groups refused requests for the log: by status and client address.
type refusalKey struct {
	status int
	addr   string
}

// refusalCount counts the refusals of a key not logged since its line.
type refusalCount struct {
	since time.Time // the logged line's time
	n     int       // refused since, not logged
	last  string    // the last one's request and reason
}

// maxRefusalKeys bounds the refusal log's memory: past it, new clients share one key.
const maxRefusalKeys = 256

// refusalLevel is the level of a refusal's line: Warn for a missing token and a browser's or
// a foreign host's request (someone trying what they may not), Info for the rest.
func refusalLevel(status int) slog.Level {
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// refuse answers a request with an error, counts it, and logs it: the first refusal of a
// status from a client address at once, the next ones of the minute as one summary line.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	addr := r.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	h.mu.Lock()
	if status == http.StatusTooManyRequests {
		h.stats.RateLimited++
	} else {
		h.stats.Refused++
	}
	now := h.opts.now()
	h.flushRefusalsLocked(now)
	k := refusalKey{status, addr}
	if _, ok := h.refusals[k]; !ok && len(h.refusals) >= maxRefusalKeys {
		k.addr = "other addresses"
	}
	rc := h.refusals[k]
	if rc == nil {
		h.refusals[k] = &refusalCount{since: now}
		h.log.Log(r.Context(), refusalLevel(status), "refused", "method", r.Method, "path", r.URL.Path, "addr", addr,
			"status", status, "reason", msg)
	} else {
		rc.n++
		rc.last = fmt.Sprintf("%s %s: %s", r.Method, r.URL.Path, msg)
	}
	h.mu.Unlock()
	writeJSON(w, status, errorReply{msg})
}

// refusalWindow is how long refusals of one kind from one address are summed before a line.
const refusalWindow = time.Minute

// flushRefusals logs the summary lines of refusals whose minute has passed; Watch calls it.
func (h *Handler) flushRefusals() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.flushRefusalsLocked(h.opts.now())
}

func (h *Handler) flushRefusalsLocked(now time.Time) {
	for k, rc := range h.refusals {
		if now.Sub(rc.since) < refusalWindow {
			continue
		}
		if rc.n > 0 {
			h.log.Log(context.Background(), refusalLevel(k.status), "refused more", "count", rc.n, "status", k.status,
				"addr", k.addr, "during", now.Sub(rc.since).Round(time.Second), "last", rc.last)
		}
		delete(h.refusals, k)
	}
}

// bad answers a request whose body could not be read or checked.
func (h *Handler) bad(w http.ResponseWriter, r *http.Request, err error) {
	status := http.StatusBadRequest
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		status = http.StatusRequestEntityTooLarge
	}
	h.refuse(w, r, status, err.Error())
}

func (h *Handler) ok(w http.ResponseWriter, v any) {
	h.mu.Lock()
	h.stats.Served++
	h.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

// control notes a control request: it arms and feeds the watchdog, and resumes motion the
// watchdog stopped. A request that would move a pot (move) is refused while the rig is
// halted: it returns the reason, and the caller answers 409.
func (h *Handler) control(move bool) (Ack, string) {
	h.mu.Lock()
	if move && h.halted != "" {
		defer h.mu.Unlock()
		return Ack{Generation: h.gen}, fmt.Sprintf("the rig is halted (%s): nothing moves until POST /v1/resume", h.halted)
	}
	now := h.opts.now()
	h.lastControl = now
	h.armed = true
	ack := Ack{Generation: h.gen}
	if h.stopped != "" {
		ack.Resumed = fmt.Sprintf("motion had stopped (%s) and goes on: send every weight again", h.stopped)
		h.stopped = ""
	}
	h.mu.Unlock()
	if ack.Resumed != "" {
		h.b.Resume()
		h.events.Publish(Event{Time: now, Kind: "resumed", Message: "the controlling client is back: " + ack.Resumed})
		h.log.Info("watchdog: the controlling client is back: motion goes on")
	}
	return ack, ""
}

// CheckWatchdog stops motion when, once a client has taken control, no control request has
// come for the watchdog's time; it reports whether it did. Watch calls it; tests call it
// with a manual clock.
func (h *Handler) CheckWatchdog() bool {
	if h.opts.Watchdog <= 0 {
		return false
	}
	h.mu.Lock()
	now := h.opts.now()
	silent := now.Sub(h.lastControl)
	if !h.armed || h.stopped != "" || h.halted != "" || silent < h.opts.Watchdog {
		h.mu.Unlock()
		return false
	}
	park := h.opts.OnWatchdog == "park"
	left := h.left(park)
	h.stopped = fmt.Sprintf("watchdog: no control request for %v: %s", silent.Round(time.Millisecond), left)
	h.gen++
	h.mu.Unlock()
	if park {
		h.b.Park()
	} else {
		h.b.Hold()
	}
	msg := fmt.Sprintf("no control request for %v: motion stopped, %s", silent.Round(time.Millisecond), left)
	h.events.Publish(Event{Time: now, Kind: "watchdog", Message: msg})
	h.log.Warn("watchdog: "+msg, "silent", silent.Round(time.Millisecond), "action", actions[park])
	return true
}

// actions names a stop in the log's attributes: hold or park.
var actions = map[bool]string{false: "hold", true: "park"}

// left says what a stop leaves of the rig's pots, as Opts.Servos and Opts.DigitalPots tell
// what they are: "servos held", "servos parked", "digital pots kept as they are", or both.
func (h *Handler) left(park bool) string {
	servos := "servos held"
	if park {
		servos = "servos parked"
	}
	switch o := h.opts; {
	case o.Servos && o.DigitalPots:
		return servos + ", digital pots kept as they are"
	case o.Servos:
		return servos
	case o.DigitalPots:
		return "digital pots kept as they are"
	case park:
		return "pots parked"
	}
	return "pots held"
}

// Watch runs the watchdog until ctx ends, checking every quarter of its time (at most every
// second) on the wall clock, and logs the refusals' summary lines.
func (h *Handler) Watch(ctx context.Context) {
	every := time.Second
	if h.opts.Watchdog > 0 {
		every = min(every, h.opts.Watchdog/4)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			h.flushRefusals()
			return
		case <-t.C:
			h.CheckWatchdog()
			h.flushRefusals()
		}
	}
}

func (h *Handler) info(w http.ResponseWriter, r *http.Request) { h.ok(w, h.b.Info()) }

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	s := h.b.Status()
	h.mu.Lock()
	s.Requests = h.stats
	s.Halted = h.halted
	s.Generation = h.gen
	switch {
	case h.opts.Watchdog <= 0:
		s.Watchdog = "off"
	case h.stopped != "":
		s.Watchdog = "stopped"
	case h.armed:
		s.Watchdog = "armed"
	default:
		s.Watchdog = "idle"
	}
	h.mu.Unlock()
	h.ok(w, s)
}

func (h *Handler) frame(w http.ResponseWriter, r *http.Request) {
	f, err := decodeFrame(r.Body)
	if err != nil {
		h.bad(w, r, err)
		return
	}
	ack, why := h.control(true)
	if why != "" {
		h.refuse(w, r, http.StatusConflict, why)
		return
	}
	n, err := h.b.SetWeights(f.Weights)
	if err != nil {
		h.refuse(w, r, http.StatusConflict, err.Error())
		return
	}
	h.ok(w, FrameReply{Seq: f.Seq, Applied: n, Ack: ack})
}

func (h *Handler) heartbeat(w http.ResponseWriter, r *http.Request) {
	if err := decodeEmpty(r.Body, "heartbeat"); err != nil {
		h.bad(w, r, err)
		return
	}
	ack, _ := h.control(false)
	h.ok(w, ack)
}

func (h *Handler) looper(w http.ResponseWriter, r *http.Request) Looper {
	lp, ok := h.b.(Looper)
	if !ok || h.b.Info().Mode != "loop" {
		h.refuse(w, r, http.StatusConflict, "not a loop rig: its pots mirror a machine (mode = \"mirror\")")
		return nil
	}
	return lp
}

// checkUnit answers 400 (and returns false) for an R-unit or an A-unit the rig's machine does
// not have.
func (h *Handler) checkUnit(w http.ResponseWriter, r *http.Request, unit int, active []uint16) bool {
	m := h.b.Info().Machine
	if m == nil {
		h.refuse(w, r, http.StatusConflict, "the rig has no [machine]")
		return false
	}
	if unit < 0 || unit >= m.RUnits {
		h.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("r: %d: the rig's machine has %d R-units (0..%d)", unit, m.RUnits, m.RUnits-1))
		return false
	}
	if len(active) > 0 && int(active[len(active)-1]) >= m.AUnits {
		h.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("active: A-unit %d: the rig's machine has %d A-units (0..%d)", active[len(active)-1], m.AUnits, m.AUnits-1))
		return false
	}
	return true
}

// loopUnit is what sum and drive begin with: a loop rig, a request that decode reads from the
// body, and an R-unit and A-units the rig's machine has. It answers a refusal itself and
// returns nil.
func (h *Handler) loopUnit(w http.ResponseWriter, r *http.Request, decode func(io.Reader) (unit int, active []uint16, err error)) Looper {
	lp := h.looper(w, r)
	if lp == nil {
		return nil
	}
	unit, active, err := decode(r.Body)
	if err != nil {
		h.bad(w, r, err)
		return nil
	}
	if !h.checkUnit(w, r, unit, active) {
		return nil
	}
	return lp
}

// faultText is a reply's Error: a fault met, or "".
func faultText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (h *Handler) sum(w http.ResponseWriter, r *http.Request) {
	var req SumRequest
	lp := h.loopUnit(w, r, func(body io.Reader) (int, []uint16, error) {
		var err error
		req, err = decodeSum(body)
		return req.R, req.Active, err
	})
	if lp == nil {
		return
	}
	h.control(false)
	s, err := lp.Sum(req.R, req.Active)
	h.ok(w, SumReply{Sum: s, Error: faultText(err)})
}

func (h *Handler) drive(w http.ResponseWriter, r *http.Request) {
	var req DriveRequest
	lp := h.loopUnit(w, r, func(body io.Reader) (int, []uint16, error) {
		var err error
		req, err = decodeDrive(body)
		return req.R, req.Active, err
	})
	if lp == nil {
		return
	}
	ack, why := h.control(true)
	if why != "" {
		h.refuse(w, r, http.StatusConflict, why)
		return
	}
	err := lp.Drive(req.R, req.Active, req.OnActive, req.OnInactive)
	h.ok(w, DriveReply{Ack: ack, Error: faultText(err)})
}

func (h *Handler) readings(w http.ResponseWriter, r *http.Request) {
	lp := h.looper(w, r)
	if lp == nil {
		return
	}
	q := r.URL.Query()
	if len(q) != 1 || len(q["r"]) != 1 {
		h.refuse(w, r, http.StatusBadRequest, "readings: want one query parameter, the R-unit (?r=0)")
		return
	}
	unit, err := strconv.Atoi(q.Get("r"))
	if err != nil {
		h.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("readings: r: %q: want the R-unit's number (?r=0)", q.Get("r")))
		return
	}
	if !h.checkUnit(w, r, unit, nil) {
		return
	}
	ws, err := lp.Readings(unit)
	h.ok(w, Readings{R: unit, W: ws, Error: faultText(err)})
}

// halt stops motion at an operator's or a client's request: nothing moves again until
// POST /v1/resume.
func (h *Handler) halt(w http.ResponseWriter, r *http.Request) {
	if err := decodeEmpty(r.Body, "halt"); err != nil {
		h.bad(w, r, err)
		return
	}
	park := false
	switch r.URL.Query().Get("park") {
	case "", "0":
	case "1":
		park = true
	default:
		h.refuse(w, r, http.StatusBadRequest, fmt.Sprintf("halt: park: %q: want 1 (park the servos) or nothing (hold)", r.URL.Query().Get("park")))
		return
	}
	addr := r.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	now := h.opts.now()
	h.mu.Lock()
	h.halted = fmt.Sprintf("POST /v1/halt from %s at %s", addr, now.Format(time.RFC3339))
	h.stopped = ""
	h.gen++
	ack := Ack{Generation: h.gen}
	h.mu.Unlock()
	if park {
		h.b.Park()
	} else {
		h.b.Hold()
	}
	msg := fmt.Sprintf("halted by POST /v1/halt from %s: %s; POST /v1/resume to move again", addr, h.left(park))
	h.events.Publish(Event{Time: now, Kind: "halted", Message: msg})
	h.log.Warn(msg, "addr", addr, "action", actions[park])
	h.ok(w, ack)
}

// resume ends a halt.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request) {
	if err := decodeEmpty(r.Body, "resume"); err != nil {
		h.bad(w, r, err)
		return
	}
	h.mu.Lock()
	was := h.halted
	h.halted = ""
	h.lastControl = h.opts.now()
	ack := Ack{Generation: h.gen}
	h.mu.Unlock()
	if was != "" {
		h.b.Resume()
		ack.Resumed = "halted (" + was + "): motion goes on"
		h.events.Publish(Event{Time: h.opts.now(), Kind: "resumed", Message: ack.Resumed})
		h.log.Info("resumed after " + was)
	}
	h.ok(w, ack)
}

// release ends a client's control: the watchdog waits for the next client, and the pots stay
// where the client left them.
func (h *Handler) release(w http.ResponseWriter, r *http.Request) {
	if err := decodeEmpty(r.Body, "release"); err != nil {
		h.bad(w, r, err)
		return
	}
	h.mu.Lock()
	wasArmed := h.armed
	h.armed = false
	ack := Ack{Generation: h.gen}
	h.mu.Unlock()
	if wasArmed {
		h.log.Info("the client released the rig: the pots stay; the watchdog waits for the next client")
	}
	h.ok(w, ack)
}

func (h *Handler) fault(w http.ResponseWriter, r *http.Request) {
	sim, ok := h.b.(Simulator)
	if !ok {
		h.refuse(w, r, http.StatusNotFound, "not a simulated rig: faults are injected only with hwbridge --simulate")
		return
	}
	f, err := decodeFault(r.Body)
	if err != nil {
		h.bad(w, r, err)
		return
	}
	if err := sim.InjectFault(f); err != nil {
		h.refuse(w, r, http.StatusBadRequest, err.Error())
		return
	}
	h.ok(w, struct{}{})
}

// stream serves the event stream (Server-Sent Events) until the client goes away.
func (h *Handler) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		h.refuse(w, r, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	h.mu.Lock()
	if h.streams >= h.opts.MaxStreams {
		h.mu.Unlock()
		h.refuse(w, r, http.StatusServiceUnavailable, fmt.Sprintf("%d event streams open already", h.opts.MaxStreams))
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
