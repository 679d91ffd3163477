package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
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
	code, _, errs := mark1(t, "museum")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "mark1-museum was not found") ||
		!strings.Contains(errs, "go build -o DIR/mark1-museum ./cmd/mark1-museum") {
		t.Errorf("exit %d, stderr %q: want one line saying how to build mark1-museum", code, errs)
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
	for _, env := range [][]string{
		{"MARK1_MUSEUM=" + fake, "DISPLAY=:5"},                                    // named
		{"MARK1_MUSEUM=", "PATH=" + dir, "DISPLAY=", "WAYLAND_DISPLAY=wayland-0"}, // on the PATH
	} {
		cmd := mark1Process(t, dir, "museum", "--kiosk", "--experiment", "ef")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.Output()
		ee, ok := err.(interface{ ExitCode() int })
		if !ok || ee.ExitCode() != 7 {
			t.Fatalf("%v: %v, want the window's exit status 7", env, err)
		}
		pid := cmd.Process.Pid
		want := "window: --kiosk --experiment ef pid " + itoa(pid) + "\n"
		if string(out) != want {
			t.Errorf("%v: output %q, want %q (the same process, exec'd)", env, out, want)
		}
	}
}

func itoa(n int) string {
	b := []byte{}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// writeWebDir makes a browser build's folder with stand-in files.
func writeWebDir(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range webFiles {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("stand-in "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
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
	for _, c := range []struct{ path, typ, body string }{
		{"", "text/html; charset=utf-8", "stand-in index.html"},
		{"mark1-museum.wasm", "application/wasm", "stand-in mark1-museum.wasm"},
		{"wasm_exec.js", "text/javascript; charset=utf-8", "stand-in wasm_exec.js"},
	} {
		resp, err := http.Get(url + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != c.typ || string(body) != c.body || resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET /%s: %d %q %q %q", c.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, resp.Header.Get("Cache-Control"))
		}
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
