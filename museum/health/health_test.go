package health

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEndpoint(t *testing.T) {
	m := NewMonitor("Museum of Computing")
	m.Update(func(s *Status) {
		s.FrameRate, s.Presentations, s.Camera, s.Experiment = 29.5, 1234, "unplugged", "letters"
		s.CuratorProblems = []string{"museum.toml:3: sound.volume: 2 is not between 0 and 1"}
	})
	for i := range 12 {
		m.Error(fmt.Sprintf("error %d", i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() { errc <- Serve(ctx, "127.0.0.1:0", m.Handler(), func(a net.Addr) { addrc <- a }) }()
	var base string
	select {
	case a := <-addrc:
		base = "http://" + a.String()
	case err := <-errc:
		t.Fatal(err)
	}
	get := func(path string) (string, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		return string(b), resp.Header.Get("Content-Type")
	}
	body, typ := get("/")
	var st Status
	if err := json.Unmarshal([]byte(body), &st); err != nil || typ != "application/json" {
		t.Fatalf("GET /: %v (%s)\n%s", err, typ, body)
	}
	if st.Institution != "Museum of Computing" || st.FrameRate != 29.5 || st.Presentations != 1234 || st.Camera != "unplugged" ||
		st.Errors != 12 || len(st.LastErrors) != 10 || !strings.HasSuffix(st.LastErrors[9], "error 11") || len(st.CuratorProblems) != 1 {
		t.Errorf("status %+v", st)
	}
	metrics, _ := get("/metrics")
	for _, want := range []string{"mark1_museum_up 1\n", "mark1_museum_frame_rate 29.5\n", "mark1_museum_presentations 1234\n",
		`mark1_museum_camera_live{state="unplugged"} 0` + "\n", "mark1_museum_errors 12\n", "mark1_museum_curator_problems 1\n"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, metrics)
		}
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// The status endpoint answers this computer's own programs only: a DNS-rebinding page's
// requests (which name the page's host, and which the browser takes for its own origin's) and
// any web page's are refused, whatever the path.
func TestEndpointRefusesPages(t *testing.T) {
	srv := httptest.NewServer(NewMonitor("Museum of Computing").Handler())
	defer srv.Close()
	for _, tc := range []struct {
		name string
		path string
		host string
		hdr  map[string]string
		code int
		want string
	}{
		{"rebinding", "/status", "evil.example", nil, 403, `Host \"evil.example\": the status endpoint answers only to loopback names`},
		{"rebinding, port", "/", "evil.example:8177", nil, 403, `Host \"evil.example:8177\"`},
		{"rebinding, metrics", "/metrics", "evil.example", nil, 403, `Host \"evil.example\"`},
		{"lan address", "/", "192.168.1.5:8177", nil, 403, "loopback names"},
		{"another site's page", "/status", "", map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, 403, `Origin \"https://evil.example\": the status endpoint does not answer web pages`},
		{"another port's page", "/status", "", map[string]string{"Sec-Fetch-Site": "same-site"}, 403, `Sec-Fetch-Site \"same-site\"`},
		{"an old browser's page", "/metrics", "", map[string]string{"Origin": "http://127.0.0.1:1"}, 403, "does not answer web pages"},
		{"typed in a browser", "/status", "", map[string]string{"Sec-Fetch-Site": "none"}, 200, `"institution": "Museum of Computing"`},
		{"curl", "/status", "", nil, 200, `"institution"`},
		{"localhost", "/metrics", "localhost:8177", nil, 200, "mark1_museum_up 1"},
		{"ipv6 loopback", "/", "[::1]:8177", nil, 200, `"institution"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL+tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			for k, v := range tc.hdr {
				req.Header.Set(k, v)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
				t.Errorf("%d %s, want %d with %q", resp.StatusCode, b, tc.code, tc.want)
			}
			if resp.StatusCode == 403 && (strings.Contains(string(b), "institution") || resp.Header.Get("Content-Type") != "application/json") {
				t.Errorf("a refusal: %s %q", resp.Header.Get("Content-Type"), b)
			}
		})
	}
}

func TestServeOnlyOnLoopback(t *testing.T) {
	// A cancelled context: were an address let through, Serve would return at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, a := range []string{"0.0.0.0:0", ":0", "192.168.1.5:0", "example.org:80"} {
		t.Run(a, func(t *testing.T) {
			if err := Serve(ctx, a, http.NotFoundHandler(), nil); err == nil || !strings.Contains(err.Error(), "loopback") {
				t.Errorf("%v, want a refusal", err)
			}
		})
	}
	for _, a := range []string{"127.0.0.1:1", "[::1]:1", "localhost:1"} {
		t.Run(a, func(t *testing.T) {
			if !IsLoopback(a) {
				t.Errorf("%s is loopback", a)
			}
		})
	}
}

func TestStatusFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "status.json")
	m := NewMonitor("")
	m.Update(func(s *Status) { s.Presentations = 7 })
	if err := WriteFile(p, m.Snapshot()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var st Status
	if err := json.Unmarshal(b, &st); err != nil || st.Presentations != 7 {
		t.Errorf("%v %+v", err, st)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".status-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestLogRotates: a log written far past its limit keeps two files, each at most the limit.
func TestLogRotates(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "museum.log")
	l, err := OpenLog(p, 4096)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 99) + "\n"
	for range 1000 { // 100 kB
		if _, err := io.WriteString(l, line); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(names) != 2 {
		t.Fatalf("files %v, want museum.log and museum.log.1", names)
	}
	for _, n := range names {
		st, _ := os.Stat(n)
		if st.Size() > 4096 || st.Size() < 4000 {
			t.Errorf("%s: %d bytes, want about 4096 (at most)", n, st.Size())
		}
	}
	// Reopened, it appends and goes on rotating.
	l, _ = OpenLog(p, 4096)
	io.WriteString(l, line)
	l.Close()
	if st, _ := os.Stat(p); st.Size() > 4096 {
		t.Errorf("reopened: %d bytes", st.Size())
	}
}

func TestLastSave(t *testing.T) {
	dir := t.TempDir()
	if !LastSave(dir).IsZero() {
		t.Error("no state yet")
	}
	p := filepath.Join(dir, "letters.state")
	os.WriteFile(p, []byte("x"), 0o644)
	when := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	os.Chtimes(p, when, when)
	if got := LastSave(dir); !got.Equal(when) {
		t.Errorf("LastSave %v, want %v", got, when)
	}
}
