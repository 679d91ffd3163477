package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
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
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/mark1-perceptron/mark1/internal/httpguard"
	"github.com/mark1-perceptron/mark1/museum/help"
)

// The museum's window is a separate program, mark1-museum: a program that imports ebiten
// panics at start on Linux when there is no display, and mark1 must run headless. "mark1
// museum" finds that program and runs it in its own place; "mark1 web" serves its browser
// build. Neither imports ebiten.

func init() {
	commands = append(commands,
		command{"museum", "[--kiosk] [--fullscreen] [flags]", "open the museum's window: watch the machine learn, draw and teach it (runs mark1-museum)", cmdMuseum},
		command{"web", "[--dir DIR] [--addr HOST:PORT] [--allow-host NAME]", "serve the museum's browser build (made by make web) on this computer", cmdWeb},
	)
}

// museumName is the window program's file name.
func museumName() string {
	if runtime.GOOS == "windows" {
		return "mark1-museum.exe"
	}
	return "mark1-museum"
}

// museumHint says how to build the window program: make demo (scripts/museum-demo.sh) builds
// and installs it where findMuseum looks, and a test holds the target named here to a recipe
// that writes mark1-museum.
const museumHint = "in mark1's source, `make demo` builds it (installing the X and GL headers it needs), puts mark1, " +
	"mark1-museum and hwbridge in ~/.local/bin and opens the window; or build it by hand with " +
	"`go build -o DIR/mark1-museum ./cmd/mark1-museum` (it needs cgo and, on Debian, " +
	"libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev)"

// museumDirs are the folders where make demo installs the window program, newest first:
// ~/.local/bin, and ${XDG_CACHE_HOME:-~/.cache}/mark1/bin, where it did before. Each comes with
// how the messages name it.
func museumDirs() (dirs, names []string) {
	home, err := os.UserHomeDir()
	if err == nil && home != "" {
		dirs, names = append(dirs, filepath.Join(home, ".local", "bin")), append(names, "in ~/.local/bin")
	}
	if c := os.Getenv("XDG_CACHE_HOME"); c != "" {
		dirs, names = append(dirs, filepath.Join(c, "mark1", "bin")), append(names, "in $XDG_CACHE_HOME/mark1/bin")
	} else if err == nil && home != "" {
		dirs, names = append(dirs, filepath.Join(home, ".cache", "mark1", "bin")), append(names, "in ~/.cache/mark1/bin")
	}
	return dirs, names
}

// findMuseum returns the path of mark1-museum: $MARK1_MUSEUM if set, else the one next to
// this program's executable, else the one make demo installed (museumDirs), else the one on
// $PATH.
func findMuseum() (string, error) {
	if p := os.Getenv("MARK1_MUSEUM"); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("$MARK1_MUSEUM=%s is not a program", p)
		}
		return p, nil
	}
	var looked []string
	isProgram := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular() && (runtime.GOOS == "windows" || st.Mode()&0o111 != 0)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		if p := filepath.Join(filepath.Dir(exe), museumName()); isProgram(p) {
			return p, nil
		}
		looked = append(looked, "next to "+exe)
	}
	dirs, names := museumDirs()
	for i, d := range dirs {
		if p := filepath.Join(d, museumName()); isProgram(p) {
			return p, nil
		}
		looked = append(looked, names[i])
	}
	if p, err := exec.LookPath(museumName()); err == nil {
		return p, nil
	}
	looked = append(looked, "on $PATH")
	return "", fmt.Errorf("the window program %s was not found (looked %s): %s", museumName(), strings.Join(looked, ", "), museumHint)
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
	if help.Asked(args) {
		fmt.Fprint(stdout, "usage: mark1 museum [flags]\n\nRuns the museum's window, mark1-museum (it needs a display), with these flags:\n", help.Flags)
		return flag.ErrHelp
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
	fl := newFlags("web", "[--dir DIR] [--addr HOST:PORT] [--allow-host NAME]", stdout)
	dir := fl.String("dir", defaultWebDir, "the browser build's folder (made by make web)")
	addr := fl.String("addr", "127.0.0.1:8080", "address to listen on (loopback: this computer only; 0.0.0.0:8080 shares it)")
	var allow hostNames
	fl.Var(&allow, "allow-host", "also answer requests naming this `NAME` (a name other computers reach this one by: museum.local); repeatable")
	if err := fl.parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fl.Arg(0)))
	}
	host, _, _ := net.SplitHostPort(*addr)
	ifaces, _ := net.InterfaceAddrs() // none known: only localhost is named
	h, err := webHandler(*dir, webHosts(host, ifaces, allow)...)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	srv := newWebServer(h)
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	here, others := webURLs(host, ln.Addr().(*net.TCPAddr), ifaces)
	fmt.Fprintf(stdout, "mark1 web: the museum is at %s (serving %s; Ctrl-C stops)\n", here, *dir)
	if others != nil {
		if len(others) == 0 {
			fmt.Fprintf(stderr, "mark1 web: listening on every interface, but this computer has no address another computer could use\n")
		} else {
			fmt.Fprintf(stderr, "mark1 web: other computers can reach it: %s\n", strings.Join(others, " "))
		}
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

// hostNames are the names --allow-host gives.
type hostNames []string

func (l *hostNames) String() string { return strings.Join(*l, ",") }

func (l *hostNames) Set(s string) error {
	if s == "" || strings.ContainsAny(s, "/:@ ") {
		return fmt.Errorf("%q: want a host name (museum.local) or an address, without a port", s)
	}
	*l = append(*l, s)
	return nil
}

// webHosts are the names, besides loopback ones, that a request to mark1 web may give as its
// Host (a DNS-rebinding page's requests give the page's own): the host --addr names, unless it
// is every interface's (then each of ifaces' addresses), and the --allow-host names.
func webHosts(host string, ifaces []net.Addr, allow []string) []string {
	names := append([]string(nil), allow...)
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		return append(names, host)
	}
	for _, a := range ifaces {
		if n, ok := a.(*net.IPNet); ok {
			names = append(names, n.IP.String())
		}
	}
	return names
}

// webURLs returns the address at which this computer opens the museum served on ln (the
// listener's address; host is the host --addr asked for), and the addresses other computers
// can use: nil when only this computer can reach it (loopback), else the one address listened
// on, or, when listening on every interface (0.0.0.0, ::, or no host), each of ifaces' global
// and private addresses of the families listened on (0.0.0.0: IPv4 only), as URLs. The
// unspecified address itself (http://[::]:8080/) is never given: no browser opens it.
func webURLs(host string, ln *net.TCPAddr, ifaces []net.Addr) (here string, others []string) {
	url := func(ip string) string {
		return "http://" + net.JoinHostPort(ip, strconv.Itoa(ln.Port)) + "/"
	}
	ip := net.ParseIP(host)
	if host != "" && ip == nil { // a name, such as localhost: what it resolved to
		ip = ln.IP
	}
	if ip != nil && !ip.IsUnspecified() {
		if ip.IsLoopback() {
			return url(ip.String()), nil
		}
		return url(ip.String()), []string{url(ip.String())}
	}
	v4only := ip != nil && ip.To4() != nil // 0.0.0.0
	others = []string{}
	for _, a := range ifaces {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip := n.IP
		if ip.IsLoopback() || ip.IsUnspecified() || ip.IsMulticast() || ip.IsLinkLocalUnicast() && ip.To4() == nil {
			continue // an IPv6 link-local address needs a zone, which browsers do not take
		}
		if v4only && ip.To4() == nil {
			continue
		}
		others = append(others, url(ip.String()))
	}
	return url("localhost"), others
}

// webTimeouts bound each connection of mark1 web: the request's header must come within
// ReadHeader and the whole request within Read, the reply (the 14 MB WebAssembly included, over
// a slow link) must be taken within Write, and a kept-alive connection is closed after Idle
// without a request.
var webTimeouts = struct{ ReadHeader, Read, Write, Idle time.Duration }{
	ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: 5 * time.Minute, Idle: 2 * time.Minute,
}

// newWebServer returns mark1 web's server for h, with webTimeouts.
func newWebServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: webTimeouts.ReadHeader,
		ReadTimeout:       webTimeouts.Read,
		WriteTimeout:      webTimeouts.Write,
		IdleTimeout:       webTimeouts.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}

// webPaths are the only paths mark1 web serves: the files scripts/web-build.sh writes, each
// with its type. Anything else (dotfiles, other files, folders) is not found.
var webPaths = map[string]struct{ file, typ string }{
	"/":                  {"index.html", "text/html; charset=utf-8"},
	"/index.html":        {"index.html", "text/html; charset=utf-8"},
	"/wasm_exec.js":      {"wasm_exec.js", "text/javascript; charset=utf-8"},
	"/mark1-museum.wasm": {"mark1-museum.wasm", "application/wasm"},
}

// webSite is mark1 web's handler (see webHandler).
type webSite struct{ dir string }

// webRate is the most requests a second mark1 web serves, in bursts of as many: a page takes
// three.
const webRate = 100

// webHandler serves a browser build's folder, after checking that it holds one: only the
// build's files (webPaths), each a regular file in the folder itself (a symbolic link is
// refused), to GET and HEAD, with headers that keep the page from being framed, sniffed or
// given scripts from elsewhere; behind the defences the bridge's API and the museum's status
// endpoint share (internal/httpguard), with its own choices: it answers requests naming a
// loopback host or one of hosts (403 otherwise: a DNS-rebinding page's), any site's links and
// reads but no other site's POST, at most webRate requests a second (429).
func webHandler(dir string, hosts ...string) (http.Handler, error) {
	for _, name := range webFiles {
		p := filepath.Join(dir, name)
		st, err := os.Lstat(p)
		switch {
		case err == nil && st.Mode().IsRegular():
			continue
		case err == nil && st.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s is a symbolic link: mark1 web serves only the files of the build's folder itself (copy the file there)", p)
		case errors.Is(err, fs.ErrNotExist) || err == nil:
			return nil, fmt.Errorf("%s is missing: build the browser version with make web (scripts/web-build.sh), or name its folder with --dir", p)
		}
		return nil, err
	}
	return httpguard.New(httpguard.Opts{
		// The build changes under the same names: let the browser check every time.
		Headers: []string{"X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer", "X-Frame-Options", "DENY",
			"Content-Security-Policy", webStrictCSP, "Cache-Control", "no-cache"},
		Browser: httpguard.BrowserOpts{Name: "mark1 web", Hosts: httpguard.NewHosts(hosts...), CrossOriginReads: true,
			HostHint: "mark1 web answers only to this computer's loopback names and addresses, the addresses it listens on, and --allow-host ones"},
		Limiter: rate.NewLimiter(webRate, webRate),
		Refuse:  httpguard.TextRefuse,
	})(&webSite{dir: dir}), nil
}

func (ws *webSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed: mark1 web answers GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	p, ok := webPaths[r.URL.Path]
	if !ok {
		http.Error(w, "404 not found: mark1 web serves the museum's page, wasm_exec.js and mark1-museum.wasm", http.StatusNotFound)
		return
	}
	f, st, err := openWebFile(filepath.Join(ws.dir, p.file))
	if err != nil {
		http.Error(w, "404 not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	var body io.ReadSeeker = f
	if p.file == "index.html" {
		page, err := io.ReadAll(io.LimitReader(f, 1<<20))
		if err != nil {
			http.Error(w, "500 cannot read the page", http.StatusInternalServerError)
			return
		}
		h.Set("Content-Security-Policy", pageCSP(page))
		body = bytes.NewReader(page)
	}
	h.Set("Content-Type", p.typ)
	http.ServeContent(w, r, p.file, st.ModTime(), body)
}

// openWebFile opens a regular file that is not a symbolic link, checking after opening that
// the file opened is the one checked.
func openWebFile(path string) (*os.File, fs.FileInfo, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil || !os.SameFile(lst, st) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: changed while opened", path)
	}
	return f, st, nil
}

// webStrictCSP is the Content-Security-Policy of everything but the page: nothing may run.
const webStrictCSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

var (
	inlineScript = regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script\s*>`)
	inlineStyle  = regexp.MustCompile(`(?is)<style[^>]*>(.*?)</style\s*>`)
)

// pageCSP is the page's Content-Security-Policy: scripts from this server and the page's own
// inline scripts (by their hashes, so an injected one does not run), WebAssembly compiled from
// what they fetch ('wasm-unsafe-eval', which allows no JavaScript eval), the page's own inline
// styles, connections to this server only, and no framing, plugins, forms or base URL.
func pageCSP(page []byte) string {
	hash := func(b []byte) string {
		// The browser hashes the element's text as parsed: HTML turns CR LF and CR into LF.
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		b = bytes.ReplaceAll(b, []byte("\r"), []byte("\n"))
		sum := sha256.Sum256(b)
		return " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	scripts, styles := "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'"
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		if !bytes.Contains(bytes.ToLower(m[1]), []byte("src")) {
			scripts += hash(m[2])
		}
	}
	for _, m := range inlineStyle.FindAllSubmatch(page, -1) {
		styles += hash(m[1])
	}
	return "default-src 'none'; " + scripts + "; " + styles + "; connect-src 'self'; img-src 'self'; " +
		"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
}
