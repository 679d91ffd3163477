package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/mark1-perceptron/mark1/internal/httpguard"
)

// mark1 web: the command, its addresses, its server and its defences. What it serves, and how
// (the build's files, each in the encoding a browser takes, with cache headers), is in
// website.go.

// defaultWebDir is where make web puts the browser build: web/dist in mark1's source.
const defaultWebDir = "web/dist"

// webFiles are the files a browser build must have.
var webFiles = []string{"index.html", "wasm_exec.js", "mark1-museum.wasm"}

// cmdWeb serves the browser build (the museum, and the lab at /lab/) from a folder made by
// make web.
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
	site, err := newWebSite(*dir, func(msg string) { fmt.Fprintf(stderr, "mark1 web: %s\n", msg) })
	if err != nil {
		return err
	}
	h := webGuard(site, webHosts(host, ifaces, allow)...)
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
	lab := ""
	if site.has("lab/index.html") {
		lab = " and the lab at " + here + "lab/"
	}
	fmt.Fprintf(stdout, "mark1 web: the museum is at %s%s (serving %s; Ctrl-C stops)\n", here, lab, *dir)
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
// ReadHeader and the whole request within Read, the reply (the museum's 20 MB of WebAssembly, plain, over
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

// webRate is the most requests a second mark1 web serves, and webBurst how many may come at
// once: a class opening the lab together (40 browsers, each asking for the page's files, about
// twenty) must not be refused; one browser's page load takes three to twenty.
const (
	webRate  = 100
	webBurst = 1000
)

// webHandler serves a browser build's folder (see newWebSite: only the files its SHA256SUMS
// names, each a regular file in the folder itself), to GET and HEAD, with headers that keep
// the pages from being framed, sniffed or given scripts from elsewhere; behind the defences the
// bridge's API and the museum's status endpoint share (internal/httpguard), with its own
// choices: it answers requests naming a loopback host or one of hosts (403 otherwise: a
// DNS-rebinding page's), any site's links and reads but no other site's POST, at most webRate
// requests a second in bursts of webBurst (429). Warnings about the build (a file changed
// since make web) go to warn, when not nil.
func webHandler(dir string, warn func(string), hosts ...string) (http.Handler, error) {
	site, err := newWebSite(dir, warn)
	if err != nil {
		return nil, err
	}
	return webGuard(site, hosts...), nil
}

// webGuard puts site behind mark1 web's defences (see webHandler).
func webGuard(site http.Handler, hosts ...string) http.Handler {
	return httpguard.New(httpguard.Opts{
		// What a file's reply changes (website.go): Cache-Control, and the pages' policy.
		Headers: []string{"X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer", "X-Frame-Options", "DENY",
			"Content-Security-Policy", webStrictCSP, "Cache-Control", "no-cache"},
		Browser: httpguard.BrowserOpts{Name: "mark1 web", Hosts: httpguard.NewHosts(hosts...), CrossOriginReads: true,
			HostHint: "mark1 web answers only to this computer's loopback names and addresses, the addresses it listens on, and --allow-host ones"},
		Limiter: rate.NewLimiter(webRate, webBurst),
		Refuse:  httpguard.TextRefuse,
	})(site)
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
