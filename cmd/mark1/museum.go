package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The museum's window is a separate program, mark1-museum: a program that imports ebiten
// panics at start on Linux when there is no display, and mark1 must run headless. "mark1
// museum" finds that program and runs it in its own place; "mark1 web" serves its browser
// build. Neither imports ebiten.

func init() {
	commands = append(commands,
		command{"museum", "[--kiosk] [--fullscreen] [flags]", "open the museum's window: watch the machine learn, draw and teach it (runs mark1-museum)", cmdMuseum},
		command{"web", "[--dir DIR] [--addr HOST:PORT]", "serve the museum's browser build (made by make web) on this computer", cmdWeb},
	)
}

// museumName is the window program's file name.
func museumName() string {
	if runtime.GOOS == "windows" {
		return "mark1-museum.exe"
	}
	return "mark1-museum"
}

// museumHint says how to build the window program.
const museumHint = "build it with `go build -o DIR/mark1-museum ./cmd/mark1-museum` in mark1's source " +
	"(it needs cgo and, on Debian, libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev), or `make build`"

// findMuseum returns the path of mark1-museum: $MARK1_MUSEUM if set, else the one next to
// this program's executable, else the one on $PATH.
func findMuseum() (string, error) {
	if p := os.Getenv("MARK1_MUSEUM"); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("$MARK1_MUSEUM=%s is not a program", p)
		}
		return p, nil
	}
	var looked []string
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), museumName())
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		looked = append(looked, "next to "+exe)
	}
	if p, err := exec.LookPath(museumName()); err == nil {
		return p, nil
	}
	looked = append(looked, "on $PATH")
	return "", fmt.Errorf("the window program %s was not found (looked %s): %s", museumName(), strings.Join(looked, " and "), museumHint)
}

// hasDisplay reports whether a window can be opened: on Linux and the BSDs an X or Wayland
// display must be named in the environment; other systems always have one.
func hasDisplay() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "netbsd", "openbsd", "dragonfly":
		return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
	return true
}

// errNoDisplay is the error of "mark1 museum" without a display.
var errNoDisplay = errors.New("no display ($DISPLAY and $WAYLAND_DISPLAY are unset): the museum needs a screen; without one use the headless commands: mark1 demo, mark1 train, mark1 eval (mark1 help)")

// cmdMuseum runs mark1-museum with the arguments given, in mark1's place.
func cmdMuseum(args []string, stdout, stderr io.Writer) error {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprintln(stdout, "usage: mark1 museum [flags]\n\nRuns the museum's window, mark1-museum, with these flags; \"mark1-museum -h\" lists them:")
			fmt.Fprintln(stdout, "  --fullscreen, --kiosk (full screen, cursor hidden, Ctrl+Shift+Q quits), --experiment NAME,")
			fmt.Fprintln(stdout, "  --state-dir DIR, --speed N|max, --seed N, --ideal, --attract DURATION, --screenshot FILE --frames N")
			return flag.ErrHelp
		}
	}
	if !hasDisplay() {
		return errNoDisplay
	}
	path, err := findMuseum()
	if err != nil {
		return err
	}
	return execMuseum(path, args, stderr)
}

// museumNoArgs is what mark1 with no arguments does when it can: open the museum, when there
// is a display and the window program is found. ok is false otherwise (mark1 then prints its
// usage). It execs the window, so main calls it, never run (which the tests call in-process).
func museumNoArgs(stderr io.Writer) (status int, ok bool) {
	if !hasDisplay() {
		return 0, false
	}
	path, err := findMuseum()
	if err != nil {
		return 0, false
	}
	fmt.Fprintln(stderr, "mark1: opening the museum's window (\"mark1 help\" lists the commands)")
	if err := execMuseum(path, nil, stderr); err != nil {
		fmt.Fprintf(stderr, "mark1 museum: %v\n", err)
		return 1, true
	}
	return 0, true
}

// defaultWebDir is where make web puts the browser build: web/dist in mark1's source.
const defaultWebDir = "web/dist"

// webFiles are the files a browser build must have.
var webFiles = []string{"index.html", "wasm_exec.js", "mark1-museum.wasm"}

// cmdWeb serves the museum's browser build from a folder made by make web.
func cmdWeb(args []string, stdout, stderr io.Writer) error {
	fl := newFlags("web", "[--dir DIR] [--addr HOST:PORT]", stdout)
	dir := fl.String("dir", defaultWebDir, "the browser build's folder (made by make web)")
	addr := fl.String("addr", "127.0.0.1:8080", "address to listen on (loopback: this computer only)")
	if err := fl.parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fl.Arg(0)))
	}
	h, err := webHandler(*dir)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "mark1 web: the museum is at %s (serving %s; Ctrl-C stops)\n", url, *dir)
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "mark1 web: listening on %s: other computers can reach it\n", host)
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// webHandler serves a browser build's folder, after checking that it holds one.
func webHandler(dir string) (http.Handler, error) {
	for _, name := range webFiles {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() {
			continue
		}
		if errors.Is(err, fs.ErrNotExist) || err == nil {
			return nil, fmt.Errorf("%s is missing: build the browser version with make web (scripts/web-build.sh), or name its folder with --dir", p)
		}
		return nil, err
	}
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The build changes under the same names: let the browser check every time.
		w.Header().Set("Cache-Control", "no-cache")
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/wasm")
		}
		files.ServeHTTP(w, r)
	}), nil
}
