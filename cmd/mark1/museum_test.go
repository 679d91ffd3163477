package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noDisplay clears the display variables for one test.
func noDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
}

func TestMuseumWithoutDisplay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a display is assumed on", runtime.GOOS)
	}
	noDisplay(t)
	code, out, errs := mark1(t, "museum", "--kiosk")
	if code != 1 || out != "" || strings.Count(errs, "\n") != 1 ||
		!strings.Contains(errs, "mark1 museum: no display") || !strings.Contains(errs, "mark1 demo") {
		t.Errorf("exit %d, stdout %q, stderr %q: want one line saying there is no display and naming the headless commands", code, out, errs)
	}
	if _, ok := museumNoArgs(io.Discard); ok {
		t.Errorf("mark1 with no arguments would open the museum without a display")
	}
	// Every other command works with no display at all.
	mustRun(t, "config", "--list-flaws")
}

func TestMuseumNotFound(t *testing.T) {
	t.Setenv("DISPLAY", ":0")
	t.Setenv("MARK1_MUSEUM", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", "")
	code, _, errs := mark1(t, "museum")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "mark1-museum was not found") ||
		!strings.Contains(errs, "go build -o DIR/mark1-museum ./cmd/mark1-museum") || !strings.Contains(errs, "`make demo` builds it") ||
		strings.Contains(errs, "make build") || !strings.Contains(errs, "in ~/.local/bin, in ~/.cache/mark1/bin, on $PATH") {
		t.Errorf("exit %d, stderr %q: want one line saying where it looked and how to build mark1-museum", code, errs)
	}
	if _, ok := museumNoArgs(io.Discard); ok {
		t.Errorf("mark1 with no arguments would open a museum that is not there")
	}
	t.Setenv("MARK1_MUSEUM", filepath.Join(t.TempDir(), "nothing"))
	if code, _, errs := mark1(t, "museum"); code != 1 || !strings.Contains(errs, "$MARK1_MUSEUM") {
		t.Errorf("a bad $MARK1_MUSEUM: exit %d, %q", code, errs)
	}
}

// mark1 museum runs the window program in its own place, with the arguments given, so that
// its exit status and its signals are the museum's.
func TestMuseumExecs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no shell scripts")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "mark1-museum")
	script := "#!/bin/sh\necho \"window: $* pid $$\"\nexit 7\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  []string
	}{
		{"named", []string{"MARK1_MUSEUM=" + fake, "DISPLAY=:5"}},
		{"on the PATH", []string{"MARK1_MUSEUM=", "PATH=" + dir, "DISPLAY=", "WAYLAND_DISPLAY=wayland-0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := mark1Process(t, dir, "museum", "--kiosk", "--experiment", "ef")
			cmd.Env = append(cmd.Env, c.env...)
			out, err := cmd.Output()
			ee, ok := err.(interface{ ExitCode() int })
			if !ok || ee.ExitCode() != 7 {
				t.Fatalf("%v: %v, want the window's exit status 7", c.env, err)
			}
			pid := cmd.Process.Pid
			want := "window: --kiosk --experiment ef pid " + strconv.Itoa(pid) + "\n"
			if string(out) != want {
				t.Errorf("%v: output %q, want %q (the same process, exec'd)", c.env, out, want)
			}
		})
	}
}

// writeWebDir makes a browser build's folder with stand-in files, none compressed, and its
// SHA256SUMS (writeBuild in web_test.go makes one with compressed forms).
func writeWebDir(t *testing.T) string {
	files := map[string]string{}
	for _, name := range webFiles {
		files[name] = "stand-in " + name
	}
	return writeBuild(t, files, false)
}

func TestWebNeedsABuild(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := mark1(t, "web", "--dir", dir, "--addr", "127.0.0.1:0")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "make web") || !strings.Contains(errs, "index.html is missing") {
		t.Errorf("exit %d, stderr %q: want one line saying to run make web", code, errs)
	}
	if code, _, _ := mark1(t, "web", "extra"); code != 2 {
		t.Errorf("an extra argument: exit %d, want 2", code)
	}
}

// mark1 web serves the build on loopback until interrupted, the WebAssembly with its type.
func TestWebServes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT")
	}
	dir := writeWebDir(t)
	cmd := mark1Process(t, dir, "web", "--dir", dir, "--addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 {
		t.Fatalf("first line %q names no loopback address", line)
	}
	url := strings.Fields(line[i:])[0]
	for _, c := range []struct{ path, typ, body, cache string }{
		{"", "text/html; charset=utf-8", "stand-in index.html", "no-cache"},
		{"mark1-museum.wasm", "application/wasm", "stand-in mark1-museum.wasm", "max-age=600"},
		{"wasm_exec.js", "text/javascript; charset=utf-8", "stand-in wasm_exec.js", "max-age=600"},
	} {
		t.Run("/"+c.path, func(t *testing.T) {
			resp, err := http.Get(url + c.path)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.typ || string(body) != c.body || resp.Header.Get("Cache-Control") != c.cache {
				t.Errorf("GET /%s: %d %q %q %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, resp.Header.Get("Cache-Control"))
			}
		})
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGINT: %v, want a clean exit", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mark1 web did not stop on SIGINT")
	}
}

// webAsk asks the server at base for method path and returns the response and its body.
func webAsk(t *testing.T, base, method, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp, string(body)
}

// mark1 web serves the build's files and nothing else: not a dotfile, a symbolic link
// out of the folder, another file, a folder's listing; GET and HEAD only; with headers that
// forbid sniffing, framing, referrers and scripts from elsewhere.
func TestWebServesOnlyTheBuild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	dir := writeWebDir(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	for name, body := range map[string]string{".env": "SECRET=dotfile", ".git/config": "SECRET=git", "sub/x.txt": "SECRET=sub", "notes.txt": "SECRET=other"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(outside, []byte("SECRET=outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	h, err := webHandler(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, p := range []string{"/.env", "/.git/config", "/.git/", "/sub/", "/sub/x.txt", "/notes.txt", "/link.txt",
		"/up/secret.txt", "/up/", "/..%2fsecret.txt", "/favicon.ico", "/index.html/", "/mark1-museum.wasm/.."} {
		t.Run(p, func(t *testing.T) {
			resp, body := webAsk(t, srv.URL, "GET", p)
			if resp.StatusCode != http.StatusNotFound || strings.Contains(body, "SECRET") || strings.Contains(body, "<a href") {
				t.Errorf("GET %s: %d %q, want 404 and nothing of the file or folder", p, resp.StatusCode, body)
			}
		})
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "TRACE", "OPTIONS", "CONNECT"} {
		t.Run(m, func(t *testing.T) {
			resp, body := webAsk(t, srv.URL, m, "/index.html")
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" || strings.Contains(body, "stand-in") {
				t.Errorf("%s /index.html: %d, Allow %q, body %q: want 405 with Allow: GET, HEAD", m, resp.StatusCode, resp.Header.Get("Allow"), body)
			}
		})
	}
	resp, body := webAsk(t, srv.URL, "HEAD", "/mark1-museum.wasm")
	if resp.StatusCode != 200 || body != "" || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("HEAD /mark1-museum.wasm: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	for _, p := range []string{"/", "/index.html", "/wasm_exec.js", "/mark1-museum.wasm", "/nothing"} {
		t.Run(p, func(t *testing.T) {
			resp, _ := webAsk(t, srv.URL, "GET", p)
			for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"} {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("GET %s: %s %q, want %q", p, k, got, v)
				}
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("GET %s: Content-Security-Policy %q", p, csp)
			}
		})
	}
	resp, _ = webAsk(t, srv.URL, "GET", "/")
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("the page's Content-Security-Policy %q: want scripts from this server and WebAssembly, nothing inline but by hash", csp)
	}

	// A file of the build swapped for a symbolic link while serving is not followed (the build
	// is read again, and refused: 503); a build folder holding one is refused at start.
	if err := os.Remove(filepath.Join(dir, "wasm_exec.js")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "wasm_exec.js")); err != nil {
		t.Fatal(err)
	}
	if resp, body := webAsk(t, srv.URL, "GET", "/wasm_exec.js"); resp.StatusCode != http.StatusServiceUnavailable || strings.Contains(body, "SECRET") {
		t.Errorf("GET /wasm_exec.js, a link out of the folder: %d %q", resp.StatusCode, body)
	}
	if _, err := webHandler(dir, nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a build whose wasm_exec.js is a symbolic link: %v", err)
	}
}

// mark1 web answers requests naming this computer (a loopback host, an address it listens
// on, an --allow-host name), never a DNS-rebinding page's, which name the page's own host; it
// may be linked to and read from any site, but takes no other site's POST.
func TestWebRefusesForeignHosts(t *testing.T) {
	h, err := webHandler(writeWebDir(t), nil, "museum.local", "192.0.2.2")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		method string
		host   string
		hdr    map[string]string
		code   int
		want   string
	}{
		{"rebinding", "GET", "evil.example:8080", nil, 403, `403 forbidden: Host "evil.example:8080": mark1 web answers only to this computer's`},
		{"rebinding, bare", "GET", "evil.example", nil, 403, `Host "evil.example"`},
		{"another address", "GET", "192.0.2.3:8080", nil, 403, "--allow-host"},
		{"loopback", "GET", "127.0.0.1:8080", nil, 200, "stand-in index.html"},
		{"localhost", "GET", "localhost:8080", nil, 200, "stand-in index.html"},
		{"listened on", "GET", "192.0.2.2:8080", nil, 200, "stand-in index.html"},
		{"allowed", "GET", "MUSEUM.local:8080", nil, 200, "stand-in index.html"},
		{"a link from another site", "GET", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 200, "stand-in index.html"},
		{"another site's post", "POST", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, `403 forbidden: Sec-Fetch-Site "cross-site": mark1 web does not answer web pages`},
		{"a plain post", "POST", "", nil, 405, "405 method not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			for k, v := range tc.hdr {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
				t.Errorf("%d %q, want %d with %q", resp.StatusCode, b, tc.code, tc.want)
			}
			if resp.Header.Get("X-Frame-Options") != "DENY" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
}

// The names mark1 web answers to besides loopback ones: the host --addr names, or every
// interface's address when it names none, and the --allow-host names.
func TestWebHosts(t *testing.T) {
	ifaces := []net.Addr{
		&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
		&net.IPNet{IP: net.ParseIP("192.0.2.2").To4(), Mask: net.CIDRMask(24, 32)},
		&net.IPNet{IP: net.ParseIP("fd00::2"), Mask: net.CIDRMask(64, 128)},
	}
	for _, tc := range []struct {
		host  string
		allow []string
		want  string
	}{
		{"127.0.0.1", nil, "127.0.0.1"},
		{"192.0.2.2", []string{"museum.local"}, "museum.local 192.0.2.2"},
		{"mypc.local", nil, "mypc.local"},
		{"0.0.0.0", []string{"museum.local"}, "museum.local 127.0.0.1 192.0.2.2 fd00::2"},
		{"", nil, "127.0.0.1 192.0.2.2 fd00::2"},
		{"::", nil, "127.0.0.1 192.0.2.2 fd00::2"},
	} {
		t.Run(tc.host, func(t *testing.T) {
			if got := strings.Join(webHosts(tc.host, ifaces, tc.allow), " "); got != tc.want {
				t.Errorf("webHosts(%q, %q) = %q, want %q", tc.host, tc.allow, got, tc.want)
			}
		})
	}
}

// The page's inline script and style are allowed by their hashes, as the browser computes them.
func TestPageCSP(t *testing.T) {
	page := []byte("<html><head><style>\r\n  body { x: 1; }\r\n</style></head><body><script src=\"wasm_exec.js\"></script><script>alert(1)</script></body></html>")
	csp := pageCSP(page)
	for _, want := range []string{
		"script-src 'self' 'wasm-unsafe-eval' 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='",
		"style-src 'self' 'sha256-uUj2A2Cr7DouazUK41tWgSIRl3l0bv+WHNsCP/XDUGE='",
		"connect-src 'self'", "frame-ancestors 'none'", "default-src 'none'",
	} {
		if !strings.Contains(csp, want) {
			t.Errorf("pageCSP: %q lacks %q", csp, want)
		}
	}
	if n := strings.Count(csp, "sha256-"); n != 2 {
		t.Errorf("pageCSP: %d hashes in %q, want 2 (the script with src= has none)", n, csp)
	}
}

// mark1 web's server has every timeout: a client that stops sending, or keeps a connection
// open with no request, is let go.
func TestWebTimeouts(t *testing.T) {
	srv := newWebServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 {
		t.Fatalf("timeouts: read header %v, read %v, write %v, idle %v: want all set", srv.ReadHeaderTimeout, srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout)
	}
	old := webTimeouts
	defer func() { webTimeouts = old }()
	webTimeouts.ReadHeader, webTimeouts.Read, webTimeouts.Write, webTimeouts.Idle = 300*time.Millisecond, time.Second, time.Second, 300*time.Millisecond
	h, err := webHandler(writeWebDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(h)
	ts.Config = newWebServer(h)
	ts.Start()
	defer ts.Close()
	addr := strings.TrimPrefix(ts.URL, "http://")
	for _, c := range []struct{ name, send string }{
		{"idle after a request", "GET /wasm_exec.js HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"half a header", "GET / HTTP/1.1\r\nHost: x\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Write([]byte(c.send)); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			start := time.Now()
			_, err = io.ReadAll(conn) // the reply if any, then the server's close
			conn.Close()
			if err != nil {
				t.Errorf("%s: the server kept the connection open %v (%v)", c.name, time.Since(start).Round(time.Millisecond), err)
			}
		})
	}
}

// The addresses mark1 web prints open the museum: never the unspecified address.
func TestWebURLs(t *testing.T) {
	ifaces := []net.Addr{
		&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
		&net.IPNet{IP: net.ParseIP("::1"), Mask: net.CIDRMask(128, 128)},
		&net.IPNet{IP: net.ParseIP("192.0.2.2").To4(), Mask: net.CIDRMask(24, 32)},
		&net.IPNet{IP: net.ParseIP("fd00::2"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("fe80::fc:ff:fe00:1"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("2001:db8::5"), Mask: net.CIDRMask(64, 128)},
	}
	all := &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080} // what a listener on 0.0.0.0 or :8080 reports
	for _, c := range []struct {
		host   string
		ln     *net.TCPAddr
		here   string
		others []string
	}{
		{"0.0.0.0", all, "http://localhost:8080/", []string{"http://192.0.2.2:8080/"}},
		{"", all, "http://localhost:8080/", []string{"http://192.0.2.2:8080/", "http://[fd00::2]:8080/", "http://[2001:db8::5]:8080/"}},
		{"::", all, "http://localhost:8080/", []string{"http://192.0.2.2:8080/", "http://[fd00::2]:8080/", "http://[2001:db8::5]:8080/"}},
		{"127.0.0.1", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}, "http://127.0.0.1:8080/", nil},
		{"localhost", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 8080}, "http://127.0.0.1:8080/", nil},
		{"::1", &net.TCPAddr{IP: net.ParseIP("::1"), Port: 8080}, "http://[::1]:8080/", nil},
		{"192.0.2.2", &net.TCPAddr{IP: net.ParseIP("192.0.2.2"), Port: 8080}, "http://192.0.2.2:8080/", []string{"http://192.0.2.2:8080/"}},
	} {
		t.Run(c.host, func(t *testing.T) {
			here, others := webURLs(c.host, c.ln, ifaces)
			if here != c.here || strings.Join(others, " ") != strings.Join(c.others, " ") || (others == nil) != (c.others == nil) {
				t.Errorf("webURLs(%q): %q %q, want %q %q", c.host, here, others, c.here, c.others)
			}
		})
	}
	if here, others := webURLs("0.0.0.0", all, ifaces[:2]); here != "http://localhost:8080/" || others == nil || len(others) != 0 {
		t.Errorf("every interface, none but loopback: %q %q", here, others)
	}
}

// mark1 web --addr 0.0.0.0:PORT prints addresses a browser opens: localhost and this
// computer's own, not http://[::]:PORT/ or http://0.0.0.0:PORT/.
func TestWebAllInterfaces(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT")
	}
	dir := writeWebDir(t)
	cmd := mark1Process(t, dir, "web", "--dir", dir, "--addr", "0.0.0.0:0")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	out := line + stderr.String()
	if !strings.Contains(line, "http://localhost:") || strings.Contains(out, "[::]") || strings.Contains(out, "0.0.0.0") {
		t.Errorf("mark1 web --addr 0.0.0.0:0 printed %q: want http://localhost:PORT/ and this computer's addresses", out)
	}
}

// mark1 museum -h lists every flag of the window, with no display and no window program.
func TestMuseumHelp(t *testing.T) {
	noDisplay(t)
	t.Setenv("MARK1_MUSEUM", "")
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{{"museum", "-h"}, {"museum", "--kiosk", "--help"}} {
		t.Run(caseName(args), func(t *testing.T) {
			code, out, errs := mark1(t, args...)
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: mark1 museum [flags]") {
				t.Errorf("mark1 %s: exit %d, stderr %q, stdout %q", strings.Join(args, " "), code, errs, out)
			}
			for _, f := range []string{"--fullscreen", "--kiosk", "--experiment NAME", "--state-dir DIR", "--save-every D", "--speed N|max",
				"--seed N", "--ideal", "--attract D", "--pretrain N", "--screenshot FILE", "--frames N", "--stats"} {
				if !strings.Contains(out, "\n  "+f+" ") {
					t.Errorf("mark1 %s does not list %s:\n%s", strings.Join(args, " "), f, out)
				}
			}
		})
	}
}

// The make target the hint names builds mark1-museum: its recipe, or a script it runs, has a go
// build that writes it (make build, which the hint named before, writes no program).
func TestMuseumHintBuildsTheWindow(t *testing.T) {
	targets := regexp.MustCompile("`make ([a-z-]+)`").FindAllStringSubmatch(museumHint, -1)
	if len(targets) == 0 {
		t.Fatalf("the hint %q names no make target", museumHint)
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	writes := regexp.MustCompile(`build[^\n]*-o[^\n]*mark1-museum|put mark1-museum `)
	for _, m := range targets {
		rule := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(m[1]) + `:.*\n((?:\t.*\n)+)`).FindSubmatch(mk)
		if rule == nil {
			t.Errorf("the Makefile has no target %q", m[1])
			continue
		}
		text := string(rule[1])
		for _, sc := range regexp.MustCompile(`scripts/[a-z0-9-]+\.sh`).FindAllString(text, -1) {
			b, err := os.ReadFile("../../" + sc)
			if err != nil {
				t.Fatal(err)
			}
			text += string(b)
		}
		if !writes.MatchString(text) {
			t.Errorf("make %s, which the hint names, does not build mark1-museum:\n%s", m[1], rule[1])
		}
	}
}

// mark1 museum finds the window program where make demo installs it (~/.local/bin) and where it
// did before (~/.cache/mark1/bin), when it is neither next to mark1 nor on $PATH.
func TestMuseumFoundWhereDemoInstalls(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no shell scripts")
	}
	for _, dir := range []string{".local/bin", ".cache/mark1/bin"} {
		t.Run(dir, func(t *testing.T) {
			home := t.TempDir()
			d := filepath.Join(home, dir)
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(d, "mark1-museum"), []byte("#!/bin/sh\necho \"window from $0\"\nexit 7\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := mark1Process(t, home, "museum")
			cmd.Env = append(cmd.Env, "HOME="+home, "XDG_CACHE_HOME=", "MARK1_MUSEUM=", "PATH="+t.TempDir(), "DISPLAY=:5")
			out, err := cmd.Output()
			if ee, ok := err.(interface{ ExitCode() int }); !ok || ee.ExitCode() != 7 || !strings.Contains(string(out), filepath.Join(d, "mark1-museum")) {
				t.Errorf("mark1-museum in ~/%s: %v, output %q: want it run", dir, err, out)
			}
		})
	}
}

// make demo (scripts/museum-demo.sh) installs mark1 and hwbridge in ~/.local/bin, says so, and
// says the line to add to ~/.profile when that folder is not on $PATH (and only then).
func TestDemoInstalls(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds mark1 and hwbridge")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on $PATH")
	}
	envOut, err := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		t.Fatal(err)
	}
	goEnv := strings.Split(strings.TrimSpace(string(envOut)), "\n")
	if len(goEnv) != 4 {
		t.Fatalf("go env: %q", envOut)
	}
	home := t.TempDir()
	bin := filepath.Join(home, ".local", "bin")
	run := func(path string) string {
		t.Helper()
		cmd := exec.Command("bash", "../../scripts/museum-demo.sh", "--install-only")
		// The user's Go caches and settings, another home, no display.
		cmd.Env = append(os.Environ(), "HOME="+home, "GO="+goBin, "GOCACHE="+goEnv[0], "GOMODCACHE="+goEnv[1], "GOPATH="+goEnv[2],
			"GOENV="+goEnv[3], "DISPLAY=", "WAYLAND_DISPLAY=", "PATH="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("museum-demo.sh --install-only: %v\n%s", err, out)
		}
		return string(out)
	}
	out := run("/usr/bin:/bin")
	for _, name := range []string{"mark1", "hwbridge"} {
		if st, err := os.Stat(filepath.Join(bin, name)); err != nil || st.Mode()&0o111 == 0 {
			t.Errorf("%s is not installed in ~/.local/bin (%v)", name, err)
		}
	}
	if b, err := exec.Command(filepath.Join(bin, "mark1"), "help").Output(); err != nil || !strings.Contains(string(b), "usage: mark1 COMMAND") {
		t.Errorf("the installed mark1 help: %v %q", err, b)
	}
	for _, want := range []string{"installed mark1 and hwbridge in ~/.local/bin", "add this line to ~/.profile",
		"\n    export PATH=\"$HOME/.local/bin:$PATH\"\n", "mark1-museum not installed: no display"} {
		if !strings.Contains(out, want) {
			t.Errorf("make demo without ~/.local/bin on $PATH said %q, which lacks %q", out, want)
		}
	}
	if out := run(bin + ":/usr/bin:/bin"); strings.Contains(out, "~/.profile") || !strings.Contains(out, "installed mark1 and hwbridge in ~/.local/bin") {
		t.Errorf("make demo with ~/.local/bin on $PATH said %q", out)
	}
}
