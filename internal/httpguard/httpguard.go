// Package httpguard is the HTTP middleware that the bridge's API (hwapi), mark1 web and the
// museum's status endpoint share: small func(http.Handler) http.Handler wrappers, each one
// defence, and Chain and New, which put them in front of a server's mux in the order they
// must act:
//
//  1. Headers: the headers every reply carries, refusals included;
//  2. Browser: what a web page can make a browser send. Go's http.CrossOriginProtection judges
//     Origin and Sec-Fetch-Site; on top of it a Host allow-list (a DNS-rebinding page's
//     requests name the page's own host, and are same-origin to the browser) and, for a server
//     that is no web site, the refusal of cross-origin reads (GET, HEAD, OPTIONS), which
//     CrossOriginProtection lets through;
//  3. Bearer: a token, when the server has one;
//  4. Limit: a rate limit (golang.org/x/time/rate's token bucket);
//  5. JSONPost and MaxBody: a POST must be JSON (a page's form or "simple" request never is),
//     and no body may be longer than the server reads.
//
// Every refusal goes through the server's Refuse, which writes the reply in the server's own
// form (JSON for an API, text for a web site) and may count and log it.
package httpguard

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

// Middleware wraps a handler in one defence.
type Middleware func(http.Handler) http.Handler

// Chain returns h wrapped in mws, the first outermost: a request meets mws[0] first and h
// last. A nil middleware is skipped.
func Chain(h http.Handler, mws ...Middleware) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		if mws[i] != nil {
			h = mws[i](h)
		}
	}
	return h
}

// Refuse answers a request a middleware refuses: its status and one line saying why.
type Refuse func(w http.ResponseWriter, r *http.Request, status int, msg string)

// JSONRefuse answers {"error": msg} with the status: an API's refusal.
func JSONRefuse(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

// TextRefuse answers "403 forbidden: msg" (the status, its text, and msg) as plain text: a
// web site's refusal.
func TextRefuse(w http.ResponseWriter, _ *http.Request, status int, msg string) {
	http.Error(w, fmt.Sprintf("%d %s: %s", status, strings.ToLower(http.StatusText(status)), msg), status)
}

// Headers sets the headers kv (name, value, name, value, ...) on every reply, before the rest
// of the chain runs: a handler further in may change them.
func Headers(kv ...string) Middleware {
	if len(kv)%2 != 0 {
		panic("httpguard.Headers: an odd number of strings")
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < len(kv); i += 2 {
				w.Header().Set(kv[i], kv[i+1])
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Hosts are the names a request's Host may give: the loopback addresses and localhost always,
// and the names and addresses added. A nil *Hosts allows every Host.
type Hosts struct {
	names map[string]bool // lower case, without a trailing dot; addresses as net.IP.String gives them
}

// NewHosts returns the loopback names and addresses and names (host names or addresses,
// without a port).
func NewHosts(names ...string) *Hosts {
	h := &Hosts{names: map[string]bool{"localhost": true}}
	for _, n := range names {
		h.names[canonicalHost(n)] = true
	}
	return h
}

// canonicalHost is a host's name in lower case without brackets or a trailing dot, or its
// address as net.IP.String writes it.
func canonicalHost(name string) string {
	name = strings.ToLower(strings.TrimSuffix(strings.Trim(name, "[]"), "."))
	if ip := net.ParseIP(name); ip != nil {
		return ip.String()
	}
	return name
}

// Allowed reports whether a Host header (HOST or HOST:PORT) names a loopback address,
// localhost or a name of h. A nil h allows every Host.
func (h *Hosts) Allowed(host string) bool {
	if h == nil {
		return true
	}
	if hn, _, err := net.SplitHostPort(host); err == nil {
		host = hn
	}
	name := canonicalHost(host)
	if ip := net.ParseIP(name); ip != nil && ip.IsLoopback() {
		return true
	}
	return h.names[name]
}

// BrowserOpts configure Browser.
type BrowserOpts struct {
	// Name is what the refusals call the server: "the bridge".
	Name string
	// Hosts are the Host names answered (nil: every one, when a token is the defence).
	Hosts *Hosts
	// HostHint ends the refusal of another Host: which names are answered, and how to add one.
	HostHint string
	// CrossOriginReads lets pages of other sites send GET, HEAD and OPTIONS requests (a web
	// site whose page others link to); otherwise every method is refused to them (an API, or
	// a status endpoint, which no page has any business asking).
	CrossOriginReads bool
	Refuse           Refuse
}

// Browser refuses (403) what a web page can make a browser send: a cross-origin request, as
// http.CrossOriginProtection judges it from Sec-Fetch-Site and Origin, and a request whose
// Host is not among o.Hosts (a DNS-rebinding page's, which the browser takes for
// same-origin).
func Browser(o BrowserOpts) Middleware {
	cop := http.NewCrossOriginProtection()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := crossOrigin(cop, r, o.CrossOriginReads); err != nil {
				// The refusal names the header that gave the request away: an Origin not the
				// server's own, else Sec-Fetch-Site.
				what := fmt.Sprintf("Sec-Fetch-Site %q", r.Header.Get("Sec-Fetch-Site"))
				if origin := r.Header.Get("Origin"); origin != "" {
					if u, err := url.Parse(origin); err != nil || u.Host != r.Host {
						what = fmt.Sprintf("Origin %q", origin)
					}
				}
				o.Refuse(w, r, http.StatusForbidden, what+": "+o.Name+" does not answer web pages")
				return
			}
			if !o.Hosts.Allowed(r.Host) {
				o.Refuse(w, r, http.StatusForbidden, fmt.Sprintf("Host %q: %s", r.Host, o.HostHint))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// crossOrigin returns cop's verdict on r; unless reads are allowed, a GET, HEAD or OPTIONS
// (which cop always lets through) is judged as a POST would be.
func crossOrigin(cop *http.CrossOriginProtection, r *http.Request, reads bool) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		if !reads {
			asWrite := *r // a shallow copy: only the method differs
			asWrite.Method = http.MethodPost
			return cop.Check(&asWrite)
		}
	}
	return cop.Check(r)
}

// Bearer requires "Authorization: Bearer TOKEN" of every request (401 otherwise, with
// WWW-Authenticate naming realm); an empty token requires nothing. The token is compared as a
// SHA-256 digest in constant time: the time taken says nothing of it.
func Bearer(token, realm string, refuse Refuse) Middleware {
	if token == "" {
		return nil
	}
	want := sha256.Sum256([]byte(token))
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			sum := sha256.Sum256([]byte(got))
			if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 || !ok {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf("Bearer realm=%q", realm))
				refuse(w, r, http.StatusUnauthorized, "missing or wrong token (Authorization: Bearer TOKEN)")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// Limit serves the requests l allows at the time now gives (nil: time.Now), and refuses the
// others with 429 and Retry-After: 1.
func Limit(l *rate.Limiter, now func() time.Time, refuse Refuse) Middleware {
	if now == nil {
		now = time.Now
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !l.AllowN(now(), 1) {
				w.Header().Set("Retry-After", "1")
				refuse(w, r, http.StatusTooManyRequests, fmt.Sprintf("more than %g requests per second", float64(l.Limit())))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// JSONPost refuses (415) a POST whose Content-Type is not application/json: a web page's form
// and its "simple" requests, which a browser sends without asking, cannot be JSON.
func JSONPost(refuse Refuse) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				ct := r.Header.Get("Content-Type")
				if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
					refuse(w, r, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %q: want application/json", ct))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// MaxBody bounds every request's body to max bytes: reading past it fails with an
// *http.MaxBytesError, and the connection is closed after the reply.
func MaxBody(max int64) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.Body = http.MaxBytesReader(w, r.Body, max)
			next.ServeHTTP(w, r)
		})
	}
}

// Opts configure New: the defences of one server.
type Opts struct {
	// Headers are set on every reply (name, value, ...).
	Headers []string
	// Browser is the browser defence (its Refuse is Opts.Refuse).
	Browser BrowserOpts
	// Token, when not empty, is required of every request; Realm names the server to a client
	// that lacks it.
	Token, Realm string
	// Limiter bounds the requests served (nil: no bound); Now is its clock (nil: time.Now).
	Limiter *rate.Limiter
	Now     func() time.Time
	// JSONPosts requires a POST to be JSON.
	JSONPosts bool
	// MaxBody bounds a request's body, in bytes (0: no bound: a server that reads no body).
	MaxBody int64
	// Refuse answers every refusal.
	Refuse Refuse
}

// New returns the chain of o's defences, in the order of the package comment: headers, the
// browser defence, the token, the rate limit, the JSON type, the body's bound.
func New(o Opts) Middleware {
	b := o.Browser
	b.Refuse = o.Refuse
	mws := []Middleware{Headers(o.Headers...), Browser(b), Bearer(o.Token, o.Realm, o.Refuse)}
	if o.Limiter != nil {
		mws = append(mws, Limit(o.Limiter, o.Now, o.Refuse))
	}
	if o.JSONPosts {
		mws = append(mws, JSONPost(o.Refuse))
	}
	if o.MaxBody > 0 {
		mws = append(mws, MaxBody(o.MaxBody))
	}
	return func(h http.Handler) http.Handler { return Chain(h, mws...) }
}
