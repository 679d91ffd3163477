package hwapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client talks to a bridge.
type Client struct {
	base  string
	token string
	hc    *http.Client
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
	return &Client{base: strings.TrimRight(base, "/"), token: token, hc: &http.Client{}}, nil
}

// StatusError is a bridge's refusal.
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
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

// do sends a request and decodes the reply; a request refused by the rate limit (429) is sent
// again after a pause (up to five times, waiting 20 ms, then twice as long each time).
func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	pause := 20 * time.Millisecond
	for try := 0; ; try++ {
		err := c.once(ctx, method, path, in, out)
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

func (c *Client) once(ctx context.Context, method, path string, in, out any) error {
	req, err := c.request(ctx, method, path, in)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("bridge: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return fmt.Errorf("bridge: %s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e errorReply
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(data))
		}
		return &StatusError{Code: resp.StatusCode, Msg: e.Error}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("bridge: %s %s: malformed reply: %w", method, path, err)
		}
	}
	return nil
}

// Info returns the rig's description.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var i Info
	err := c.do(ctx, http.MethodGet, "/v1/info", nil, &i)
	if err == nil && i.Version != Version {
		err = fmt.Errorf("bridge: API version %d, this mark1 speaks %d", i.Version, Version)
	}
	return i, err
}

// Status returns the rig's state.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var s Status
	return s, c.do(ctx, http.MethodGet, "/v1/status", nil, &s)
}

// Frame sends weight targets.
func (c *Client) Frame(ctx context.Context, f Frame) (FrameReply, error) {
	var r FrameReply
	return r, c.do(ctx, http.MethodPost, "/v1/frame", f, &r)
}

// Heartbeat tells the bridge's watchdog the client is alive.
func (c *Client) Heartbeat(ctx context.Context) error {
	return c.do(ctx, http.MethodPost, "/v1/heartbeat", struct{}{}, nil)
}

// Halt stops motion (parking the servos when park).
func (c *Client) Halt(ctx context.Context, park bool) error {
	path := "/v1/halt"
	if park {
		path += "?park=1"
	}
	return c.do(ctx, http.MethodPost, path, struct{}{}, nil)
}

// InjectFault asks a simulated rig to inject a bus fault.
func (c *Client) InjectFault(ctx context.Context, f Fault) error {
	return c.do(ctx, http.MethodPost, "/v1/sim/fault", f, nil)
}

// Events calls fn with every event of the bridge's stream until ctx ends or the stream does.
func (c *Client) Events(ctx context.Context, fn func(Event)) error {
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
type RemoteRack struct {
	c       *Client
	r, n    int
	Timeout time.Duration // per call; default 60 s (a Drive waits for the pots to settle)
}

// Racks returns the loop rig's racks, one per R-unit of its machine.
func (c *Client) Racks(info Info) ([]*RemoteRack, error) {
	if info.Mode != "loop" || info.Machine == nil {
		return nil, errors.New("bridge: not a loop rig: its pots mirror a machine")
	}
	racks := make([]*RemoteRack, info.Machine.RUnits)
	for r := range racks {
		racks[r] = &RemoteRack{c: c, r: r, n: info.Machine.AUnits + 1, Timeout: time.Minute}
	}
	return racks, nil
}

func (rr *RemoteRack) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), rr.Timeout)
}

// Len returns the number of pots: the A-units', then the bias.
func (rr *RemoteRack) Len() int { return rr.n }

// Sum returns the R-unit's sum from the rig's read-back weights.
func (rr *RemoteRack) Sum(active []uint16) (float64, error) {
	ctx, cancel := rr.ctx()
	defer cancel()
	var rep SumReply
	if err := rr.c.do(ctx, http.MethodPost, "/v1/loop/sum", SumRequest{R: rr.r, Active: active}, &rep); err != nil {
		return 0, err
	}
	if rep.Error != "" {
		return rep.Sum, errors.New("bridge: " + rep.Error)
	}
	return rep.Sum, nil
}

// Drive sends a correction and waits for the rig's pots to settle.
func (rr *RemoteRack) Drive(active []uint16, onActive, onInactive float64) error {
	ctx, cancel := rr.ctx()
	defer cancel()
	var rep DriveReply
	if err := rr.c.do(ctx, http.MethodPost, "/v1/loop/drive", DriveRequest{R: rr.r, Active: active, OnActive: onActive, OnInactive: onInactive}, &rep); err != nil {
		return err
	}
	if rep.Error != "" {
		return errors.New("bridge: " + rep.Error)
	}
	return nil
}

// Readings copies the rig's read-back weights.
func (rr *RemoteRack) Readings(dst []float64) error {
	ctx, cancel := rr.ctx()
	defer cancel()
	var rep Readings
	if err := rr.c.do(ctx, http.MethodGet, "/v1/loop/readings?r="+strconv.Itoa(rr.r), nil, &rep); err != nil {
		return err
	}
	if len(rep.W) != rr.n {
		return fmt.Errorf("bridge: R%d: %d readings, want %d", rr.r, len(rep.W), rr.n)
	}
	copy(dst, rep.W)
	if rep.Error != "" {
		return errors.New("bridge: " + rep.Error)
	}
	return nil
}

// String names the rack.
func (rr *RemoteRack) String() string { return fmt.Sprintf("R%d on the bridge at %s", rr.r, rr.c.base) }
