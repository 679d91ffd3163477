package hwapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/machine/machinetest"
)

// fake is a Backend of exact weights; a loop rig when racks are set.
type fake struct {
	mu      sync.Mutex
	info    Info
	weights map[[2]int]float64
	calls   []string
	racks   []*machinetest.Rack
}

func newFake(mode string) *fake {
	f := &fake{weights: map[[2]int]float64{}, info: Info{Version: Version, Boot: "b1", Mode: mode, UpdateHz: 20, Watchdog: 1,
		Pots: []PotInfo{{R: 0, A: 0, Range: 32}, {R: 0, A: 1, Range: 32}, {R: 0, A: -1, Range: 32}}}}
	if mode == "loop" {
		f.info.Machine = &Machine{AUnits: 4, RUnits: 2, Rule: "alpha", Wiring: "random"}
		f.info.Pots = nil
		for r := range 2 {
			for a := -1; a < 4; a++ {
				f.info.Pots = append(f.info.Pots, PotInfo{R: r, A: a, Range: 32})
			}
		}
		f.racks = []*machinetest.Rack{machinetest.New(4), machinetest.New(4)}
	}
	return f
}

func (f *fake) call(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *fake) Info() Info     { return f.info }
func (f *fake) Status() Status { return Status{Mode: f.info.Mode} }
func (f *fake) Hold()          { f.call("hold") }
func (f *fake) Park()          { f.call("park") }
func (f *fake) Resume()        { f.call("resume") }

func (f *fake) SetWeights(ws []Weight) (int, error) {
	f.call("set")
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, w := range ws {
		if w.R == 0 && w.A <= 1 {
			f.weights[[2]int{w.R, w.A}] = w.W
			n++
		}
	}
	return n, nil
}

func (f *fake) Sum(r int, active []uint16) (float64, error) { return f.racks[r].Sum(active) }
func (f *fake) Drive(r int, active []uint16, a, i float64) error {
	f.call("drive")
	return f.racks[r].Drive(active, a, i)
}
func (f *fake) Readings(r int) ([]float64, error) {
	w := make([]float64, f.racks[r].Len())
	return w, f.racks[r].Readings(w)
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func serve(t *testing.T, b Backend, opts Opts) (*Handler, *httptest.Server) {
	t.Helper()
	h := NewHandler(b, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv
}

func post(t *testing.T, srv *httptest.Server, path, token, body string) (int, string) {
	t.Helper()
	req := newRequest(t, http.MethodPost, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, strings.TrimSpace(string(readAll(t, resp.Body)))
}

// newRequest makes a request, failing the test if it cannot.
func newRequest(t *testing.T, method, url string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// readAll reads r to its end, failing the test on an error.
func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// client returns a client of srv, failing the test if it cannot be made.
func client(t *testing.T, srv *httptest.Server, token string) *Client {
	t.Helper()
	c, err := NewClient(srv.Listener.Addr().String(), token)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestToken(t *testing.T) {
	f := newFake("mirror")
	_, srv := serve(t, f, Opts{Token: "s3cret"})
	for _, tc := range []struct {
		token string
		want  int
	}{{"", 401}, {"s3cre", 401}, {"s3cret!", 401}, {"S3CRET", 401}, {"s3cret", 200}} {
		t.Run(tc.token, func(t *testing.T) {
			code, body := post(t, srv, "/v1/heartbeat", tc.token, "{}")
			if code != tc.want {
				t.Errorf("token %q: %d %s, want %d", tc.token, code, body, tc.want)
			}
		})
	}
	c := client(t, srv, "wrong")
	var se *StatusError
	if _, err := c.Info(context.Background()); !errors.As(err, &se) || se.Code != 401 {
		t.Errorf("client with a wrong token: %v", err)
	}
}

func TestMalformedRequestsChangeNothing(t *testing.T) {
	f := newFake("loop")
	_, srv := serve(t, f, Opts{})
	for _, tc := range []struct {
		path, body string
		code       int
		want       string
	}{
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":0,"w":1}]`, 400, "frame: empty or truncated body"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":0,"w":1,"x":2}]}`, 400, `frame: unknown field \"x\"`},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":0,"w":"1"}]}`, 400, "frame: weights.w: want a number, got a JSON string"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":64,"a":0,"w":1}]}`, 400, "frame: weights[0].r: 64 out of range 0..63"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":-2,"w":1}]}`, 400, "weights[0].a: -2 out of range"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":0,"w":1e300}]}`, 400, "weights[0].w: 1e+300 out of range"},
		{"/v1/frame", `{"seq":1,"weights":[]} {}`, 400, "frame: data after the JSON value"},
		{"/v1/frame", `[1,2]`, 400, "frame: the body: want an object, got a JSON array"},
		{"/v1/frame", `{"seq":1,"weights":[` + strings.Repeat(`{"r":0,"a":0,"w":1},`, 60000) + `{}]}`, 413, "request body too large"},
		{"/v1/loop/drive", `{"r":0,"active":[3,1],"on_active":1,"on_inactive":0}`, 400, "drive: active[1]: 1 after 3: want ascending A-units"},
		{"/v1/loop/drive", `{"r":0,"active":[1,1],"on_active":1,"on_inactive":0}`, 400, "want ascending A-units, each once"},
		{"/v1/loop/drive", `{"r":0,"active":[-1],"on_active":1,"on_inactive":0}`, 400, "drive: active[0]: -1 out of range 0..65535"},
		{"/v1/loop/drive", `{"r":0,"active":[9],"on_active":1,"on_inactive":0}`, 400, "active: A-unit 9: the rig's machine has 4 A-units"},
		{"/v1/loop/drive", `{"r":5,"active":[],"on_active":1,"on_inactive":0}`, 400, "r: 5: the rig's machine has 2 R-units"},
		{"/v1/loop/drive", `{"r":0,"active":[],"on_active":1e9,"on_inactive":0}`, 400, "drive: steps 1e+09"},
		// Every field a command needs must be there (issue 18: these set weights or moved A-unit 0).
		{"/v1/frame", `{"seq":1,"weights":[null]}`, 400, "frame: weights[0]: null"},
		{"/v1/frame", `{"seq":1,"weights":[{}]}`, 400, "frame: weights[0].r: missing"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"a":0}]}`, 400, "frame: weights[0].w: missing"},
		{"/v1/frame", `{"seq":1,"weights":[{"r":0,"w":3}]}`, 400, "frame: weights[0].a: missing"},
		{"/v1/frame", `null`, 400, "frame: the body is null"},
		{"/v1/frame", `{}`, 400, "frame: seq: missing"},
		{"/v1/frame", `{"seq":1}`, 400, "frame: weights: missing"},
		{"/v1/frame", `{"seq":1,"weights":null}`, 400, "frame: weights: missing"},
		{"/v1/loop/drive", `{"r":0,"active":[null],"on_active":1,"on_inactive":0}`, 400, "drive: active[0]: null"},
		{"/v1/loop/drive", `{"r":0,"on_active":1,"on_inactive":0}`, 400, "drive: active: missing"},
		{"/v1/loop/drive", `{"active":[],"on_active":1,"on_inactive":0}`, 400, "drive: r: missing"},
		{"/v1/loop/drive", `{"r":0,"active":[1],"on_inactive":0}`, 400, "drive: on_active: missing"},
		{"/v1/loop/drive", `{"r":0,"active":[1],"on_active":1}`, 400, "drive: on_inactive: missing"},
		{"/v1/loop/drive", `null`, 400, "drive: the body is null"},
		{"/v1/loop/sum", `{"r":0}`, 400, "sum: active: missing"},
		{"/v1/loop/sum", `{"active":[]}`, 400, "sum: r: missing"},
		{"/v1/loop/sum", `null`, 400, "sum: the body is null"},
		{"/v1/heartbeat", `null`, 400, "heartbeat: the body is null"},
		{"/v1/heartbeat", `{"x":1}`, 400, "heartbeat: unknown field"},
		{"/v1/halt", `[]`, 400, "halt: the body: want an object"},
		{"/v1/halt?park=yes", `{}`, 400, "halt: park: "},
		{"/v1/loop/sum", `{"r":0,"active":[1]`, 400, "sum: empty or truncated body"},
		{"/v1/nothing", `{}`, 404, "no endpoint POST /v1/nothing"},
		{"/v1/sim/fault", `{"bus":"main","addr":64,"kind":"nack"}`, 404, "not a simulated rig"},
	} {
		t.Run(tc.path+" "+tc.want, func(t *testing.T) {
			code, body := post(t, srv, tc.path, "", tc.body)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%s %.60s: %d %s\nwant %d with %q", tc.path, tc.body, code, body, tc.code, tc.want)
			}
			if strings.Count(body, "\n") > 0 {
				t.Errorf("%s: error of several lines: %q", tc.path, body)
			}
		})
	}
	if calls := f.Calls(); len(calls) != 0 {
		t.Errorf("malformed requests reached the rig: %v", calls)
	}
	for _, r := range f.racks {
		if r.Count("Drive") != 0 {
			t.Error("a malformed drive moved a pot")
		}
	}
	// A mirror rig refuses the loop's endpoints.
	_, srv2 := serve(t, newFake("mirror"), Opts{})
	if code, body := post(t, srv2, "/v1/loop/sum", "", `{"r":0,"active":[]}`); code != 409 || !strings.Contains(body, "not a loop rig") {
		t.Errorf("sum on a mirror rig: %d %s", code, body)
	}
}

func TestRateLimit(t *testing.T) {
	clk := &clock{t: time.Unix(0, 0)}
	f := newFake("mirror")
	_, srv := serve(t, f, Opts{Rate: 10, Burst: 5, now: clk.Now})
	codes := map[int]int{}
	for range 8 {
		code, _ := post(t, srv, "/v1/heartbeat", "", "{}")
		codes[code]++
	}
	if codes[200] != 5 || codes[429] != 3 {
		t.Errorf("8 requests at once with a burst of 5: %v", codes)
	}
	clk.Advance(200 * time.Millisecond) // two tokens at 10/s
	codes = map[int]int{}
	for range 3 {
		code, _ := post(t, srv, "/v1/heartbeat", "", "{}")
		codes[code]++
	}
	if codes[200] != 2 || codes[429] != 1 {
		t.Errorf("after 200 ms: %v", codes)
	}
}

// The watchdog stops motion after its time without a control request, and says what it left
// in the words of the rig's parts: a loop rig of digital pots is not told about servos (issue
// 26).
func TestWatchdog(t *testing.T) {
	for _, tc := range []struct {
		action              string
		servos, digitalPots bool
		want                string
	}{
		{"hold", true, false, "motion stopped, servos held"},
		{"park", true, false, "motion stopped, servos parked"},
		{"hold", false, true, "motion stopped, digital pots kept as they are"},
		{"park", false, true, "motion stopped, digital pots kept as they are"},
		{"park", true, true, "motion stopped, servos parked, digital pots kept as they are"},
		{"hold", false, false, "motion stopped, pots held"},
	} {
		action := tc.action
		t.Run(fmt.Sprintf("%s servos=%v digital=%v", action, tc.servos, tc.digitalPots), func(t *testing.T) {
			clk := &clock{t: time.Unix(0, 0)}
			f := newFake("mirror")
			h, srv := serve(t, f, Opts{Watchdog: time.Second, OnWatchdog: action, Servos: tc.servos, DigitalPots: tc.digitalPots, now: clk.Now})
			sub := h.Events().Subscribe()
			clk.Advance(900 * time.Millisecond)
			if h.CheckWatchdog() {
				t.Fatal("the watchdog fired before its time")
			}
			post(t, srv, "/v1/heartbeat", "", "{}")
			clk.Advance(900 * time.Millisecond)
			if h.CheckWatchdog() {
				t.Fatal("a heartbeat did not feed the watchdog")
			}
			clk.Advance(200 * time.Millisecond)
			if !h.CheckWatchdog() || h.CheckWatchdog() {
				t.Fatal("the watchdog did not fire once")
			}
			if calls := f.Calls(); len(calls) != 1 || calls[0] != action {
				t.Errorf("%s: backend calls %v", action, calls)
			}
			if e := <-sub.C; e.Kind != "watchdog" || !strings.HasSuffix(e.Message, tc.want) || !tc.servos && strings.Contains(e.Message, "servo") {
				t.Errorf("event %+v, want %q", e, tc.want)
			}
			post(t, srv, "/v1/frame", "", `{"seq":1,"weights":[{"r":0,"a":0,"w":3}]}`)
			if e := <-sub.C; e.Kind != "resumed" {
				t.Errorf("event %+v, want resumed", e)
			}
		})
	}
}

func TestClientAndRemoteRacks(t *testing.T) {
	f := newFake("loop")
	h, srv := serve(t, f, Opts{Token: "tok"})
	c, err := NewClient(srv.Listener.Addr().String(), "tok")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := c.Info(ctx)
	if err != nil || info.Machine.AUnits != 4 {
		t.Fatalf("Info = %+v, %v", info, err)
	}
	racks, err := c.Racks(info)
	if err != nil || len(racks) != 2 {
		t.Fatalf("Racks: %v", err)
	}
	var _ machine.Rack = racks[0]
	if err := racks[1].Drive([]uint16{0, 2}, 1, -0.5); err != nil {
		t.Fatal(err)
	}
	s, err := racks[1].Sum([]uint16{2, 3})
	if err != nil || s != 1+1-0.5 {
		t.Errorf("Sum = %v, %v; want 1.5", s, err)
	}
	w := make([]float64, 5)
	if err := racks[1].Readings(w); err != nil || w[0] != 1 || w[1] != -0.5 || w[4] != 1 {
		t.Errorf("Readings = %v, %v", w, err)
	}
	// A rack fault comes back as the rack's error, with the sum the rig had.
	f.racks[0].Fail = errors.New("pot R0.A1 does not follow")
	if _, err := racks[0].Sum(nil); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Errorf("Sum with a fault: %v", err)
	}
	// Events reach a client.
	got := make(chan Event, 1)
	ectx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- c.events(ectx, func(e Event) { got <- e }) }()
	for i := 0; ; i++ {
		h.Events().Publish(Event{Kind: "fault", Chip: "pots0", Message: "NACK"})
		select {
		case e := <-got:
			if e.Chip != "pots0" || e.Kind != "fault" {
				t.Errorf("event %+v", e)
			}
		case <-time.After(20 * time.Millisecond):
			if i < 500 {
				continue // the stream is not subscribed yet
			}
			t.Fatal("no event")
		}
		break
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Events after cancel: %v", err)
	}
	if _, err := NewClient("no-port", ""); err == nil {
		t.Error("NewClient(no-port) did not fail")
	}
}
