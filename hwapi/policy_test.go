package hwapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The watchdog arms at the first control request: a bridge waiting for its first client (a
// service started at boot) is never held by it (issue 18: it was held 2 s after start, and
// every drive after that answered 200 and moved nothing).
func TestWatchdogArmsAtFirstClient(t *testing.T) {
	clk := &clock{t: time.Unix(0, 0)}
	f := newFake("loop")
	h, srv := serve(t, f, Opts{Watchdog: time.Second, now: clk.Now})
	clk.Advance(time.Hour)
	if h.CheckWatchdog() {
		t.Fatal("the watchdog fired before any client came")
	}
	if got := statusOf(t, srv).Watchdog; got != "idle" {
		t.Errorf("watchdog %q before any client, want idle", got)
	}
	post(t, srv, "/v1/loop/drive", "", `{"r":0,"active":[1],"on_active":1,"on_inactive":0}`)
	if got := statusOf(t, srv).Watchdog; got != "armed" {
		t.Errorf("watchdog %q after a drive, want armed", got)
	}
	clk.Advance(2 * time.Second)
	if !h.CheckWatchdog() {
		t.Fatal("the watchdog did not fire once a client had come and gone")
	}
	st := statusOf(t, srv)
	if st.Watchdog != "stopped" || st.Generation != 1 {
		t.Errorf("status %q, generation %d after the watchdog fired", st.Watchdog, st.Generation)
	}
	// The client's next drive resumes motion, says so, and moves the pot.
	code, body := post(t, srv, "/v1/loop/drive", "", `{"r":0,"active":[1],"on_active":1,"on_inactive":0}`)
	if code != 200 || !strings.Contains(body, `"resumed":"motion had stopped`) || !strings.Contains(body, `"generation":1`) {
		t.Errorf("drive after the watchdog: %d %s", code, body)
	}
	if calls := f.Calls(); strings.Join(calls, ",") != "drive,hold,resume,drive" {
		t.Errorf("backend calls %v, want drive, hold, resume, drive", calls)
	}
	if n := f.racks[0].Count("Drive"); n != 2 {
		t.Errorf("%d drives reached the pots, want 2", n)
	}
	// A client that releases the rig disarms the watchdog: the knobs stay, nothing parks.
	post(t, srv, "/v1/release", "", `{}`)
	clk.Advance(time.Hour)
	if h.CheckWatchdog() || statusOf(t, srv).Watchdog != "idle" {
		t.Error("the watchdog fired after the client released the rig")
	}
}

// POST /v1/halt is an operator's stop: whatever would move a pot gets 409, naming what to
// send, until POST /v1/resume; reading goes on.
func TestHaltRefusesMotionUntilResume(t *testing.T) {
	for _, mode := range []string{"mirror", "loop"} {
		t.Run(mode, func(t *testing.T) {
			f := newFake(mode)
			_, srv := serve(t, f, Opts{Watchdog: time.Second})
			if code, body := post(t, srv, "/v1/halt", "", ""); code != 200 || !strings.Contains(body, `"generation":1`) {
				t.Fatalf("%s: halt: %d %s", mode, code, body)
			}
			move := map[string]string{"mirror": "/v1/frame", "loop": "/v1/loop/drive"}[mode]
			moveBody := map[string]string{"mirror": `{"seq":1,"weights":[{"r":0,"a":0,"w":3}]}`,
				"loop": `{"r":0,"active":[1],"on_active":1,"on_inactive":0}`}[mode]
			code, body := post(t, srv, move, "", moveBody)
			if code != 409 || !strings.Contains(body, "the rig is halted (POST /v1/halt from 127.0.0.1") || !strings.Contains(body, "POST /v1/resume") {
				t.Errorf("%s: %s while halted: %d %s", mode, move, code, body)
			}
			if code, _ := post(t, srv, "/v1/heartbeat", "", `{}`); code != 200 {
				t.Errorf("%s: heartbeat while halted: %d", mode, code)
			}
			if mode == "loop" {
				if code, body := post(t, srv, "/v1/loop/sum", "", `{"r":0,"active":[1]}`); code != 200 {
					t.Errorf("sum while halted: %d %s", code, body)
				}
			}
			if st := statusOf(t, srv); !strings.HasPrefix(st.Halted, "POST /v1/halt from 127.0.0.1") {
				t.Errorf("%s: status halted %q", mode, st.Halted)
			}
			if code, body := post(t, srv, "/v1/resume", "", `{}`); code != 200 || !strings.Contains(body, "motion goes on") {
				t.Errorf("%s: resume: %d %s", mode, code, body)
			}
			if code, body := post(t, srv, move, "", moveBody); code != 200 {
				t.Errorf("%s: %s after resume: %d %s", mode, move, code, body)
			}
			want := map[string]string{"mirror": "hold,resume,set", "loop": "hold,resume,drive"}[mode]
			if calls := strings.Join(f.Calls(), ","); calls != want {
				t.Errorf("%s: backend calls %s, want %s", mode, calls, want)
			}
		})
	}
}

// A halt's event says what it left in the words of the rig's parts (issue 26: a loop rig of
// digital pots was told "servos held").
func TestHaltSaysWhatItLeft(t *testing.T) {
	for _, tc := range []struct {
		name                string
		servos, digitalPots bool
		park                bool
		want                string
	}{
		{"servos hold", true, false, false, ": servos held; POST /v1/resume to move again"},
		{"servos park", true, false, true, ": servos parked; POST /v1/resume to move again"},
		{"digital pots park", false, true, true, ": digital pots kept as they are; POST /v1/resume to move again"},
		{"both hold", true, true, false, ": servos held, digital pots kept as they are; POST /v1/resume"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, srv := serve(t, newFake("loop"), Opts{Servos: tc.servos, DigitalPots: tc.digitalPots})
			sub := h.Events().Subscribe()
			path := "/v1/halt"
			if tc.park {
				path += "?park=1"
			}
			if code, body := post(t, srv, path, "", ""); code != 200 {
				t.Fatalf("halt: %d %s", code, body)
			}
			if e := <-sub.C; e.Kind != "halted" || !strings.Contains(e.Message, tc.want) || !tc.servos && strings.Contains(e.Message, "servo") {
				t.Errorf("event %+v, want %q", e, tc.want)
			}
		})
	}
}

func statusOf(t *testing.T, srv *httptest.Server) Status {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + "/v1/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b := readAll(t, resp.Body)
	st, err := decodeStatus(b)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// No web page can move a motor, or read the rig: a browser's cross-site request carries Origin
// or Sec-Fetch-Site (refused for GETs too, which http.CrossOriginProtection alone lets
// through), a DNS-rebinding page's request the page's own Host, and a "simple" request
// (which a browser sends without asking) a Content-Type other than application/json.
func TestBrowserRequestsRefused(t *testing.T) {
	f := newFake("loop")
	_, srv := serve(t, f, Opts{AllowHosts: []string{"rig.local"}})
	drive := `{"r":0,"active":[1],"on_active":1,"on_inactive":0}`
	for _, tc := range []struct {
		name    string
		method  string // "": POST /v1/loop/drive; GET: GET /v1/status
		headers map[string]string
		host    string
		code    int
		want    string
	}{
		{"text/plain", "", map[string]string{"Content-Type": "text/plain"}, "", 415, `Content-Type \"text/plain\": want application/json`},
		{"form", "", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, "", 415, "want application/json"},
		{"no type", "", map[string]string{"Content-Type": ""}, "", 415, "want application/json"},
		{"other origin", "", map[string]string{"Origin": "http://127.0.0.1:9999"}, "", 403, `Origin \"http://127.0.0.1:9999\"`},
		{"null origin", "", map[string]string{"Origin": "null"}, "", 403, `Origin \"null\"`},
		{"cross-site", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 403, "Sec-Fetch-Site"},
		{"same-site", "", map[string]string{"Sec-Fetch-Site": "same-site"}, "", 403, "Sec-Fetch-Site"},
		{"a browser's, another port", "", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"}, "", 403, `Origin \"http://127.0.0.1:9999\"`},
		{"rebinding", "", nil, "evil.example:8707", 403, `Host \"evil.example:8707\"`},
		{"rebinding bare", "", nil, "evil.example", 403, "loopback names"},
		{"lan address", "", nil, "192.168.1.20:8707", 403, "loopback names"},
		{"localhost", "", nil, "localhost:8707", 200, ""},
		{"LOCALHOST.", "", nil, "LOCALHOST.:8707", 200, ""},
		{"ipv6 loopback", "", nil, "[::1]:8707", 200, ""},
		{"127.1.2.3", "", nil, "127.1.2.3", 200, ""},
		{"allowed", "", nil, "rig.local:8707", 200, ""},
		{"own origin", "", map[string]string{"Origin": "http://localhost:8707"}, "localhost:8707", 200, ""},
		{"same-origin", "", map[string]string{"Sec-Fetch-Site": "same-origin"}, "", 200, ""},
		{"charset", "", map[string]string{"Content-Type": "application/json; charset=utf-8"}, "", 200, ""},
		{"read, cross-site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 403, `Sec-Fetch-Site \"cross-site\"`},
		{"read, other origin", "GET", map[string]string{"Origin": "http://evil.example"}, "", 403, `Origin \"http://evil.example\"`},
		{"read, rebinding", "GET", nil, "evil.example", 403, `Host \"evil.example\"`},
		{"read, typed in", "GET", map[string]string{"Sec-Fetch-Site": "none"}, "", 200, ""},
		{"read, plain", "GET", nil, "", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := newRequest(t, http.MethodPost, srv.URL+"/v1/loop/drive", strings.NewReader(drive))
			req.Header.Set("Content-Type", "application/json")
			if tc.method == "GET" {
				req = newRequest(t, http.MethodGet, srv.URL+"/v1/status", nil)
			}
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			before := f.racks[0].Count("Drive")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b := readAll(t, resp.Body)
			resp.Body.Close()
			moved := f.racks[0].Count("Drive") - before
			if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
				t.Errorf("%d %s, want %d with %q", resp.StatusCode, b, tc.code, tc.want)
			}
			if tc.method == "" && (moved > 0) != (tc.code == 200) {
				t.Errorf("%d drives reached the pots with status %d", moved, resp.StatusCode)
			}
			if tc.method == "GET" && tc.code == 200 && !strings.Contains(string(b), `"mode":"loop"`) {
				t.Errorf("status %s", b)
			}
		})
	}
	// With a token, the token is the defence: any Host may be named (a Pi on the network).
	_, srv2 := serve(t, newFake("loop"), Opts{Token: "0123456789abcdef"})
	req := newRequest(t, http.MethodGet, srv2.URL+"/v1/info", nil)
	req.Host = "raspberrypi.local:8707"
	req.Header.Set("Authorization", "Bearer 0123456789abcdef")
	resp, err := srv2.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("a token and a LAN host name: %d", resp.StatusCode)
	}
}

// Refused requests are logged: the first of each status from each address at once, the next
// ones of the minute as one summary line.
func TestRefusalsLogged(t *testing.T) {
	clk := &clock{t: time.Unix(0, 0)}
	var log logBuffer
	h, srv := serve(t, newFake("mirror"), Opts{Token: "0123456789abcdef", now: clk.Now, Logger: log.logger()})
	for range 50 {
		post(t, srv, "/v1/heartbeat", "wrong", `{}`)
	}
	post(t, srv, "/v1/frame", "0123456789abcdef", `{"seq":1,"weights":[null]}`)
	lines := log.lines()
	if len(lines) != 2 {
		t.Errorf("%d lines for 50 refusals of one kind and one of another, want 2:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	got := strings.Join(lines, "\n")
	if !strings.Contains(got, `level=WARN msg=refused component=hwapi method=POST path=/v1/heartbeat addr=127.0.0.1 status=401 reason="missing or wrong token`) ||
		!strings.Contains(got, `level=INFO msg=refused component=hwapi method=POST path=/v1/frame addr=127.0.0.1 status=400 reason="frame: weights[0]: null`) {
		t.Errorf("log:\n%s", got)
	}
	clk.Advance(61 * time.Second)
	h.flushRefusals()
	lines = log.lines()
	if last := lines[len(lines)-1]; !strings.Contains(last, `msg="refused more" component=hwapi count=49 status=401 addr=127.0.0.1 during=1m1s last="POST /v1/heartbeat: missing or wrong token`) {
		t.Errorf("summary line %q", last)
	}
}

// logBuffer keeps the lines of a slog text handler, without their times, for any goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// logger returns a logger of every level writing to b.
func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		}}))
}

// lines returns the lines written so far.
func (b *logBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSuffix(b.buf.String(), "\n"), "\n")
}

// A mirror whose rig stopped motion (the client paused past the watchdog, which parked the
// servos) sends every weight again at its next frame: the knobs whose weights did not change
// come back too (issue 18: they stayed at the park position).
func TestMirrorRestoresEveryKnobAfterAStop(t *testing.T) {
	clk := &clock{t: time.Unix(0, 0)}
	f := newFake("mirror")
	h, srv := serve(t, f, Opts{Watchdog: time.Second, OnWatchdog: "park", now: clk.Now})
	c := client(t, srv, "")
	m, deck := smallMachine(t)
	pots := []PotInfo{{R: 0, A: 0, Range: 32}, {R: 0, A: 1, Range: 32}, {R: 0, A: -1, Range: 32}}
	mi := NewMirror(m, pots, time.Millisecond)
	m.Observe(mi)
	mi.Sync()
	ctx := context.Background()
	tick := time.Now()
	send := func() int {
		n := 0
		for {
			tick = tick.Add(time.Hour) // every frame may go
			fr, ok, _ := mi.Pump(tick)
			if !ok {
				return n
			}
			rep, err := c.Frame(ctx, fr)
			if err != nil {
				t.Fatal(err)
			}
			mi.acked(rep.Ack)
			n += len(fr.Weights)
		}
	}
	if n := send(); n != 3 {
		t.Fatalf("first frames sent %d weights, want 3", n)
	}
	// The client pauses; the watchdog parks the knobs.
	clk.Advance(2 * time.Second)
	if !h.CheckWatchdog() {
		t.Fatal("no watchdog")
	}
	f.mu.Lock()
	for k := range f.weights {
		f.weights[k] = -99 // parked
	}
	f.mu.Unlock()
	// One weight changes; the next frames must restore all three.
	m.Epoch(deck, nil)
	send()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, w := range mi.Values() {
		if w.A > 1 {
			continue
		}
		if got := f.weights[[2]int{w.R, w.A}]; got != w.W {
			t.Errorf("knob R%d.A%d shows %v after the resume, the machine's weight is %v", w.R, w.A, got, w.W)
		}
	}
}

// A loop rack does not take the bridge's word: pots that do not follow their corrections end
// the session with an error naming the pot (issue 18: a held rig answered "done" and mark1
// bridge learnt for whole epochs on pots that never moved).
func TestRemoteRackChecksTheRigFollows(t *testing.T) {
	f := newFake("loop")
	f.info.Tolerance = 0.5
	_, srv := serve(t, &deafLoop{f}, Opts{})
	c := client(t, srv, "")
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	racks, err := c.Racks(info)
	if err != nil {
		t.Fatal(err)
	}
	racks[0].Grace = 300 * time.Millisecond
	var first error
	for range 3 {
		if err := racks[0].Drive([]uint16{1}, 1, 0); err != nil {
			first = err
			break
		}
	}
	if first == nil || !strings.Contains(first.Error(), "the rig did not follow: R0.") || !strings.Contains(first.Error(), "the machine drove it to +2.00") {
		t.Fatalf("drives on pots that never move: %v", first)
	}
	if !errors.Is(c.Err(), first) && c.Err().Error() != first.Error() {
		t.Errorf("Client.Err() = %v", c.Err())
	}
	if _, err := racks[1].Sum(nil); err == nil {
		t.Error("a sum after the session ended did not fail")
	}
	// The same racks on a rig that follows raise nothing.
	_, srv2 := serve(t, newFake("loop"), Opts{})
	c2 := client(t, srv2, "")
	info2, err := c2.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	racks2, err := c2.Racks(info2)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 { // the fake's pots have no end stops: stay within the range
		if err := racks2[0].Drive([]uint16{1, 3}, 1, -0.5); err != nil {
			t.Fatal(err)
		}
	}
	if c2.Err() != nil {
		t.Fatal(c2.Err())
	}
}

// deafLoop answers every drive and moves nothing.
type deafLoop struct{ *fake }

func (d *deafLoop) Drive(r int, active []uint16, a, i float64) error { return nil }

// A bridge's replies are untrusted: a loop rig with no machine is an error, not a panic.
func TestClientChecksInfo(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"version":1,"boot":"b","mode":"loop","update_hz":20,"pots":[]}`, "machine: missing"},
		{`{"version":1,"boot":"b","mode":"bogus","update_hz":20,"pots":[]}`, `mode: "bogus": want mirror or loop`},
		{`{"version":1,"boot":"b","mode":"mirror","update_hz":0,"pots":[]}`, "update_hz: 0"},
		{`{"version":1,"boot":"b","mode":"mirror","update_hz":20,"pots":[{"r":99,"a":0,"range":32}]}`, "pots[0].r: 99"},
		{`{"version":1,"boot":"b","mode":"mirror","update_hz":20,"pots":[{"r":0,"a":0,"range":-1}]}`, "pots[0].range: -1"},
		{`{"version":1,"boot":"b","mode":"loop","update_hz":20,"pots":[],"machine":{"a_units":0,"r_units":1,"rule":"alpha","wiring":"random"}}`, "machine.a_units: 0"},
		{`{"version":1,"boot":"b","mode":"loop","update_hz":20,"pots":[],"machine":{"a_units":2,"r_units":1,"rule":"alpha","wiring":"random"}}`, "no pot for R0.bias"},
		{`{"version":2}`, "API version 2"},
		{`null`, "info reply: empty"},
		{`[]`, "info reply: the body: want an object"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			_, err := decodeInfo([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v, want %q", tc.body, err, tc.want)
			}
		})
	}
}

// Every out-of-range R-unit gets the same answer: 400 naming it (issue 18: r=-1 got 200 with
// an error field where r=1 got 400).
func TestReadingsOutOfRange(t *testing.T) {
	_, srv := serve(t, newFake("loop"), Opts{})
	for _, q := range []string{"r=-1", "r=2", "r=99999999999999999999", "r=x", "", "r=0&r=1", "r=0&x=1"} {
		t.Run(q, func(t *testing.T) {
			resp, err := srv.Client().Get(srv.URL + "/v1/loop/readings?" + q)
			if err != nil {
				t.Fatal(err)
			}
			b := readAll(t, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 400 || !strings.Contains(string(b), `"error":"`) || strings.Contains(string(b), `"w"`) {
				t.Errorf("readings?%s: %d %s, want 400 and an error", q, resp.StatusCode, b)
			}
		})
	}
	resp, err := srv.Client().Get(srv.URL + "/v1/loop/readings?r=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("readings?r=1: %d", resp.StatusCode)
	}
}
