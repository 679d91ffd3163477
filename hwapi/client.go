package hwapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client talks to a bridge. Every reply is checked before it is used (decodeInfo and the
// others): a bridge's replies are untrusted input.
//
// Every call has a deadline, so that a bridge that takes the connection and never answers (a
// process stopped by SIGSTOP, a hung Pi) is an error within seconds, not a wait for ever: each
// call, its retries included, ends after Timeout (a loop rig's Drive, which waits for the pots
// to settle, after RemoteRack.Timeout), or sooner when its context ends; and the transport
// bounds the connection (DialTimeout), the TLS handshake (TLSTimeout) and the wait for a
// reply's header (MaxReplyWait) whatever the contexts say. A call that ran out of time is a
// *NoAnswerError.
type Client struct {
	base  string
	token string
	hc    *http.Client
	// Timeout bounds each call but a Drive, its retries included; 0: DefaultTimeout. Set it
	// before the first call.
	Timeout time.Duration

	mu    sync.Mutex
	fatal error // the first error that ends a session with the rig (Err)
}

// The Client's deadlines.
const (
	// DefaultTimeout bounds a call (Info, Status, a frame, a heartbeat, a halt, a sum...): a
	// bridge answers them in milliseconds.
	DefaultTimeout = 5 * time.Second
	// DialTimeout bounds making the connection (a host that drops it, a Pi switched off).
	DialTimeout = 5 * time.Second
	// TLSTimeout bounds an https bridge's handshake.
	TLSTimeout = 5 * time.Second
	// MaxReplyWait bounds the wait for any reply's header, the longest Drive included,
	// whatever the call's context allows.
	MaxReplyWait = 2 * time.Minute
)

// NoAnswerError is a call the bridge did not answer in time: it took the connection (or none
// was made) and sent no reply. A bridge stopped with SIGSTOP, a hung Pi, a network that drops
// packets.
type NoAnswerError struct {
	Addr  string        // the bridge
	Call  string        // "GET /v1/info"
	After time.Duration // how long the call waited
	Err   error         // the transport's or the context's error
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("the bridge at %s does not answer: no reply to %s in %v (is hwbridge stopped, as by kill -STOP, or its computer hung?)", e.Addr, e.Call, e.After)
}

func (e *NoAnswerError) Unwrap() error { return e.Err }

// newHTTPClient is the Client's http.Client: http.DefaultTransport's settings (proxies from
// the environment, HTTP/2, idle connections kept), with the deadlines above. It has no
// overall Timeout: the event stream is long, and each call's context bounds it.
func newHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: DialTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = TLSTimeout
	t.ResponseHeaderTimeout = MaxReplyWait
	t.ExpectContinueTimeout = time.Second
	return &http.Client{Transport: t}
}

// NewClient returns a client of the bridge at addr ("HOST:PORT", or an http:// URL); token may
// be empty for a bridge on loopback without one.
func NewClient(addr, token string) (*Client, error) {
	base := addr
	if !strings.Contains(addr, "://") {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return nil, fmt.Errorf("hwapi: bridge address %q: want HOST:PORT", addr)
		}
		base = "http://" + addr
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("hwapi: bridge address %q: want HOST:PORT or an http URL", addr)
	}
	return &Client{base: strings.TrimRight(base, "/"), token: token, hc: newHTTPClient()}, nil
}

// addr returns the bridge's address as given.
func (c *Client) addr() string { return strings.TrimPrefix(c.base, "http://") }

// Err returns the first error that ended the client's session with the rig: a refusal (the
// rig halted, a request it would not take), a bridge gone, or pots whose read-backs did not
// follow their targets. nil while the session is sound.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fatal
}

// failed records err as the session's end, if it is the first, and returns it.
func (c *Client) failed(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fatal == nil {
		c.fatal = err
	}
	return err
}

// StatusError is a bridge's refusal, as the Client's methods return it: errors.As tells a
// caller the status (401 a wrong token, 409 a halted rig, 429 too many requests) and the
// bridge's one-line reason.
type StatusError struct {
	Code int
	Msg  string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("bridge: %d %s: %s", e.Code, http.StatusText(e.Code), e.Msg)
}

func (c *Client) request(ctx context.Context, method, path string, in any) (*http.Request, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

// timeout is a call's time: Timeout, or DefaultTimeout.
func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// do sends a request and gives the reply's body to read, within limit (0: the Client's
// Timeout) or ctx's end, whichever comes first; a request refused by the rate limit (429) is
// sent again after a pause (up to five times, waiting 20 ms, then twice as long each time),
// within the same limit. A call that ran out of time is a *NoAnswerError.
func (c *Client) do(ctx context.Context, limit time.Duration, method, path string, in any, read func([]byte) error) error {
	if limit <= 0 {
		limit = c.timeout()
	}
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	err := c.retry(cctx, method, path, in, read)
	if err != nil && timedOut(err) {
		return &NoAnswerError{Addr: c.addr(), Call: method + " " + path, After: time.Since(start).Round(100 * time.Millisecond), Err: err}
	}
	return err
}

// timedOut reports whether err is a deadline's: the call's, its context's, or the transport's
// (the dial, the TLS handshake, the reply's header).
func timedOut(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

func (c *Client) retry(ctx context.Context, method, path string, in any, read func([]byte) error) error {
	pause := 20 * time.Millisecond
	for try := 0; ; try++ {
		err := c.once(ctx, method, path, in, read)
		var se *StatusError
		if try == 5 || !errors.As(err, &se) || se.Code != http.StatusTooManyRequests {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		pause *= 2
	}
}

func (c *Client) once(ctx context.Context, method, path string, in any, read func([]byte) error) error {
	req, err := c.request(ctx, method, path, in)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err != nil {
		return fmt.Errorf("bridge: %s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e errorReply
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(data))
		}
		if len(e.Error) > 500 {
			e.Error = e.Error[:500] + "..."
		}
		e.Error = strings.ReplaceAll(e.Error, "\n", " ")
		return &StatusError{Code: resp.StatusCode, Msg: e.Error}
	}
	if read != nil {
		return read(data)
	}
	return nil
}

// Info returns the rig's description, checked whole (decodeInfo).
func (c *Client) Info(ctx context.Context) (Info, error) {
	var i Info
	err := c.do(ctx, 0, http.MethodGet, "/v1/info", nil, func(b []byte) (err error) { i, err = decodeInfo(b); return err })
	return i, err
}

// Wait asks for the bridge's Info until it answers or wait passes: a bridge just started takes
// a moment to listen. waiting is called once, when the first try finds nothing listening.
func (c *Client) Wait(ctx context.Context, wait time.Duration, waiting func()) (Info, error) {
	deadline := time.Now().Add(wait)
	told := false
	for {
		info, err := c.Info(ctx)
		if err == nil || !refused(err) {
			return info, err
		}
		if !time.Now().Before(deadline) {
			return info, fmt.Errorf("no bridge answers at %s after %v: is hwbridge running? (hwbridge serve --rig FILE): %w", c.addr(), wait, err)
		}
		if !told && waiting != nil {
			waiting()
			told = true
		}
		select {
		case <-ctx.Done():
			return info, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// refused reports whether err says nothing listens at the address (yet).
func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// Status returns the rig's state.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var s Status
	err := c.do(ctx, 0, http.MethodGet, "/v1/status", nil, func(b []byte) (err error) { s, err = decodeStatus(b); return err })
	return s, err
}

// Frame sends weight targets.
func (c *Client) Frame(ctx context.Context, f Frame) (FrameReply, error) {
	var r FrameReply
	err := c.do(ctx, 0, http.MethodPost, "/v1/frame", f, func(b []byte) (err error) { r, err = decodeFrameReply(b, f); return err })
	return r, err
}

func (c *Client) ack(ctx context.Context, path, what string) (Ack, error) {
	var a Ack
	err := c.do(ctx, 0, http.MethodPost, path, struct{}{}, func(b []byte) (err error) { a, err = decodeAck(b, what); return err })
	return a, err
}

// Heartbeat tells the bridge's watchdog the client is alive.
func (c *Client) Heartbeat(ctx context.Context) (Ack, error) {
	return c.ack(ctx, "/v1/heartbeat", "heartbeat")
}

// Release tells the bridge the client is done: the pots stay where they are, and the watchdog
// waits for the next client.
func (c *Client) Release(ctx context.Context) error {
	_, err := c.ack(ctx, "/v1/release", "release")
	return err
}

// Halt stops motion (parking the servos when park) until Resume.
func (c *Client) Halt(ctx context.Context, park bool) error {
	path := "/v1/halt"
	if park {
		path += "?park=1"
	}
	_, err := c.ack(ctx, path, "halt")
	return err
}

// Resume lets a halted rig move again.
func (c *Client) Resume(ctx context.Context) (Ack, error) { return c.ack(ctx, "/v1/resume", "resume") }

// InjectFault asks a simulated rig to inject a bus fault.
func (c *Client) InjectFault(ctx context.Context, f Fault) error {
	return c.do(ctx, 0, http.MethodPost, "/v1/sim/fault", f, nil)
}

// events calls fn with every event of the bridge's stream until ctx ends or the stream does
// (mark1 follows no stream: the package's tests read the endpoint with it).
func (c *Client) events(ctx context.Context, fn func(Event)) error {
	req, err := c.request(ctx, http.MethodGet, "/v1/events", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e errorReply
		_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&e)
		return &StatusError{Code: resp.StatusCode, Msg: e.Error}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(data), &e); err == nil {
			fn(e)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return sc.Err()
}

// RemoteRack is one R-unit of a loop rig, over the network: a machine.Rack whose pots are the
// bridge's, so a machine run by mark1 learns on real hardware.
//
// It does not take the bridge's word that a correction was made: it keeps the weights it
// drove each pot to (from the first read-back, adding every step, stopping at the pot's range)
// and after every Drive reads the pots back. A pot off its target by more than the rig's
// tolerance allows, for longer than Grace, ends the session (Client.Err), as does any refusal
// or a bridge gone; a fault the bridge reports with an answer (a chip that did not answer,
// retried) is the rack's error and the machine goes on.
type RemoteRack struct {
	c    *Client
	r, n int
	// Timeout bounds a Drive, which waits for the pots to settle; default 60 s (the other
	// calls: Client.Timeout). A bridge that stops answering during one is known sooner: the
	// drive asks it for its Info meanwhile (Client.LoopDrive says how).
	Timeout time.Duration
	Grace   time.Duration // how long pots may be off their targets; default 15 s

	rng, allow []float64 // per pot: its range, and how far a read-back may be from the target
	want       []float64 // the weights the machine drove the pots to
	known      bool      // want holds (the first read-back came)
	got        []float64 // scratch
}

// Racks returns the loop rig's racks, one per R-unit of its machine.
func (c *Client) Racks(info Info) ([]*RemoteRack, error) {
	if err := info.Check(); err != nil {
		return nil, err
	}
	if info.Mode != "loop" {
		return nil, errors.New("bridge: not a loop rig: its pots mirror a machine")
	}
	n := info.Machine.AUnits + 1
	racks := make([]*RemoteRack, info.Machine.RUnits)
	for r := range racks {
		racks[r] = &RemoteRack{c: c, r: r, n: n, Timeout: time.Minute, Grace: 15 * time.Second,
			rng: make([]float64, n), allow: make([]float64, n), want: make([]float64, n), got: make([]float64, n)}
	}
	for _, p := range info.Pots {
		if p.R >= len(racks) || p.A >= n-1 {
			continue
		}
		i := p.A
		if i < 0 {
			i = n - 1
		}
		rr := racks[p.R]
		rr.rng[i] = p.Range
		// The closed loop stops within the tolerance, or within one output step when it
		// cannot do better; the ADC's noise adds to both.
		rr.allow[i] = max(2*info.Tolerance, 0.1) + 2*p.Step
	}
	return racks, nil
}

// Len returns the number of pots: the A-units', then the bias.
func (rr *RemoteRack) Len() int { return rr.n }

// Sum returns the R-unit's sum from the rig's read-back weights.
func (rr *RemoteRack) Sum(active []uint16) (float64, error) {
	if err := rr.c.Err(); err != nil {
		return 0, err
	}
	if active == nil {
		active = []uint16{} // "active": [], not null
	}
	var rep SumReply
	err := rr.c.do(context.Background(), 0, http.MethodPost, "/v1/loop/sum", SumRequest{R: rr.r, Active: active}, func(b []byte) (err error) {
		rep, err = decodeSumReply(b)
		return err
	})
	if err != nil {
		return 0, rr.c.failed(fmt.Errorf("rack R%d: sum: %w", rr.r, err))
	}
	if rep.Error != "" {
		return rep.Sum, errors.New("bridge: " + rep.Error)
	}
	return rep.Sum, nil
}

// Drive sends a correction, waits for the rig's pots to settle, and checks that they did.
func (rr *RemoteRack) Drive(active []uint16, onActive, onInactive float64) error {
	if err := rr.c.Err(); err != nil {
		return err
	}
	if !rr.known {
		// The pots' weights before the first correction: what the machine drives from.
		if rr.read(rr.want) == nil {
			rr.known = true
		}
	}
	if active == nil {
		active = []uint16{}
	}
	rep, err := rr.c.drive(context.Background(), rr.Timeout, DriveRequest{R: rr.r, Active: active, OnActive: onActive, OnInactive: onInactive})
	if err != nil {
		return rr.c.failed(fmt.Errorf("rack R%d: drive: %w", rr.r, err))
	}
	if rr.known {
		k := 0
		for i := range rr.want {
			d := onInactive
			if i == rr.n-1 || k < len(active) && int(active[k]) == i {
				d = onActive
				if i < rr.n-1 {
					k++
				}
			}
			if r := rr.rng[i]; r > 0 {
				rr.want[i] = math.Max(-r, math.Min(r, rr.want[i]+d))
			} else {
				rr.want[i] += d
			}
		}
	} else if rr.read(rr.want) == nil {
		rr.known = true // the first read-back came only now: drive from here
	}
	if rr.known {
		if err := rr.follow(); err != nil {
			return rr.c.failed(err)
		}
	}
	if rep.Error != "" {
		return errors.New("bridge: " + rep.Error)
	}
	return nil
}

// follow reads the pots back until each is within its allowance of the weight it was driven
// to, or Grace passes; a refusal, a malformed reply or a bridge that does not answer ends it
// at once.
func (rr *RemoteRack) follow() error {
	start := time.Now()
	for {
		err := rr.read(rr.got)
		worst, miss := -1, 0.0
		if err == nil {
			for i, w := range rr.got {
				if d := math.Abs(w - rr.want[i]); d > rr.allow[i] && d > miss {
					worst, miss = i, d
				}
			}
			if worst < 0 {
				return nil
			}
		}
		var se *StatusError
		var na *NoAnswerError
		if errors.As(err, &se) || errors.Is(err, errReply) || errors.As(err, &na) {
			return fmt.Errorf("rack R%d: readings: %w", rr.r, err)
		}
		if time.Since(start) >= rr.Grace {
			if err != nil {
				return fmt.Errorf("rack R%d: the pots were not read back for %v after a correction: %w", rr.r, rr.Grace, err)
			}
			name := fmt.Sprintf("R%d.A%d", rr.r, worst)
			if worst == rr.n-1 {
				name = fmt.Sprintf("R%d.bias", rr.r)
			}
			return fmt.Errorf("the rig did not follow: %s reads %+.2f, the machine drove it to %+.2f (allowed %.2f) for %v: is the rig halted, a chip faulty, a pot stuck? (hwbridge's log, GET /v1/status)",
				name, rr.got[worst], rr.want[worst], rr.allow[worst], rr.Grace)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// read fetches the rig's read-back weights into dst: an error when the bridge refused or did
// not answer, or a pot was never read back.
func (rr *RemoteRack) read(dst []float64) error {
	var rep Readings
	err := rr.c.do(context.Background(), 0, http.MethodGet, "/v1/loop/readings?r="+strconv.Itoa(rr.r), nil, func(b []byte) (err error) {
		rep, err = decodeReadings(b, rr.r, rr.n)
		if err != nil {
			err = fmt.Errorf("%w: %w", errReply, err)
		}
		return err
	})
	if err != nil {
		return err
	}
	copy(dst, rep.W)
	if rep.Error != "" {
		return errors.New("bridge: " + rep.Error)
	}
	return nil
}

// errReply marks a reply that failed its check.
var errReply = errors.New("malformed reply")

// Readings copies the rig's read-back weights.
func (rr *RemoteRack) Readings(dst []float64) error {
	if len(dst) < rr.n {
		return fmt.Errorf("bridge: R%d: readings into %d, want %d", rr.r, len(dst), rr.n)
	}
	err := rr.read(dst)
	var se *StatusError
	var na *NoAnswerError
	if errors.As(err, &se) || errors.Is(err, errReply) || errors.As(err, &na) {
		return rr.c.failed(fmt.Errorf("rack R%d: readings: %w", rr.r, err))
	}
	return err
}

// String names the rack.
func (rr *RemoteRack) String() string { return fmt.Sprintf("R%d on the bridge at %s", rr.r, rr.c.base) }
