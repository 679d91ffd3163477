package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// ok answers 200 "served", reading the body when there is one.
var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if _, err := io.ReadAll(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	io.WriteString(w, "served")
})

// ask sends r to h and returns the status and the body.
func ask(h http.Handler, r *http.Request) (int, string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

// The chain's order is the package comment's: the browser defence before the token (a page
// learns nothing of it), the token before the rate limit (a stranger spends none of a
// client's requests), the rate limit before the body.
func TestNewOrder(t *testing.T) {
	clk := time.Unix(0, 0)
	h := New(Opts{
		Headers: []string{"X-Content-Type-Options", "nosniff"},
		Browser: BrowserOpts{Name: "the server", Hosts: NewHosts("box.local"), HostHint: "loopback only"},
		Token:   "0123456789abcdef", Realm: "test",
		Limiter: rate.NewLimiter(1, 1), Now: func() time.Time { return clk },
		JSONPosts: true, MaxBody: 8,
		Refuse: JSONRefuse,
	})(ok)
	req := func(method, host, token, ctype, body string, hdr ...string) *http.Request {
		r := httptest.NewRequest(method, "http://"+host+"/x", strings.NewReader(body))
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		if ctype != "" {
			r.Header.Set("Content-Type", ctype)
		}
		for i := 0; i < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		return r
	}
	const tok = "0123456789abcdef"
	for _, tc := range []struct {
		name string
		r    *http.Request
		code int
		want string
	}{
		{"cross-site, wrong token", req("GET", "127.0.0.1", "x", "", "", "Sec-Fetch-Site", "cross-site"), 403, `Sec-Fetch-Site \"cross-site\": the server does not answer web pages`},
		{"foreign host, wrong token", req("GET", "evil.example", "x", "", ""), 403, `Host \"evil.example\": loopback only`},
		{"wrong token", req("GET", "box.local:80", "x", "", ""), 401, "missing or wrong token"},
		{"served", req("GET", "[::1]:80", tok, "", ""), 200, "served"},
		{"limited, wrong token", req("GET", "localhost", "x", "", ""), 401, "missing or wrong token"},
		{"limited", req("GET", "localhost", tok, "", ""), 429, "more than 1 requests per second"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := ask(h, tc.r)
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("%d %s, want %d with %q", code, body, tc.code, tc.want)
			}
		})
	}
	clk = clk.Add(time.Second)
	if code, body := ask(h, req("POST", "localhost", tok, "text/plain", "{}")); code != 415 {
		t.Errorf("a text/plain POST: %d %s", code, body)
	}
	clk = clk.Add(time.Second)
	if code, body := ask(h, req("POST", "localhost", tok, "application/json", "[1,2,3,4,5]")); code != 413 {
		t.Errorf("a body of 11 bytes past a bound of 8: %d %s", code, body)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req("GET", "evil.example", "", "", ""))
	if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("a refusal's headers: %v", w.Header())
	}
}

// A web site's pages may be linked to and read from other sites; nothing else may come from
// them, nor any request name a foreign Host.
func TestBrowserCrossOriginReads(t *testing.T) {
	site := Browser(BrowserOpts{Name: "the site", Hosts: NewHosts(), HostHint: "no", CrossOriginReads: true, Refuse: TextRefuse})(ok)
	api := Browser(BrowserOpts{Name: "the API", Hosts: NewHosts(), HostHint: "no", Refuse: TextRefuse})(ok)
	for _, tc := range []struct {
		name      string
		method    string
		hdr       map[string]string
		host      string
		site, api int
	}{
		{"plain", "GET", nil, "127.0.0.1:8080", 200, 200},
		{"link from another site", "GET", map[string]string{"Sec-Fetch-Site": "cross-site"}, "127.0.0.1:8080", 200, 403},
		{"read from another origin", "HEAD", map[string]string{"Origin": "http://a.example"}, "127.0.0.1:8080", 200, 403},
		{"post from another site", "POST", map[string]string{"Sec-Fetch-Site": "cross-site"}, "127.0.0.1:8080", 403, 403},
		{"post from an old browser", "POST", map[string]string{"Origin": "http://a.example"}, "127.0.0.1:8080", 403, 403},
		{"post, own origin", "POST", map[string]string{"Origin": "http://127.0.0.1:8080"}, "127.0.0.1:8080", 200, 200},
		{"rebinding", "GET", map[string]string{"Sec-Fetch-Site": "same-origin"}, "evil.example:8080", 403, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "http://"+tc.host+"/", nil)
			for k, v := range tc.hdr {
				r.Header.Set(k, v)
			}
			if code, body := ask(site, r); code != tc.site {
				t.Errorf("the site: %d %q, want %d", code, body, tc.site)
			} else if code == 403 && !strings.HasPrefix(body, "403 forbidden: ") {
				t.Errorf("the site's refusal %q", body)
			}
			if code, body := ask(api, r); code != tc.api {
				t.Errorf("the API: %d %q, want %d", code, body, tc.api)
			}
		})
	}
}

func TestHosts(t *testing.T) {
	h := NewHosts("Rig.Local.", "192.168.1.20", "[fd00::2]")
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true}, {"LOCALHOST.:80", true}, {"127.0.0.1", true}, {"127.9.9.9:1", true}, {"[::1]:8707", true},
		{"rig.local:8707", true}, {"RIG.LOCAL", true}, {"192.168.1.20:80", true}, {"[fd00:0::2]:80", true},
		{"evil.example", false}, {"192.168.1.21", false}, {"", false}, {"localhost.evil.example", false}, {"0.0.0.0", false},
	} {
		t.Run(tc.host, func(t *testing.T) {
			if got := h.Allowed(tc.host); got != tc.want {
				t.Errorf("Allowed(%q) = %v", tc.host, got)
			}
		})
	}
	var none *Hosts
	if !none.Allowed("evil.example") {
		t.Error("a nil Hosts refused a host")
	}
}

func TestLimitRefills(t *testing.T) {
	clk := time.Unix(0, 0)
	h := Limit(rate.NewLimiter(10, 5), func() time.Time { return clk }, TextRefuse)(ok)
	count := func(n int) (served int) {
		for range n {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
			if w.Code == 200 {
				served++
			} else if w.Code != 429 || w.Header().Get("Retry-After") != "1" {
				t.Fatalf("%d %v", w.Code, w.Header())
			}
		}
		return served
	}
	if got := count(8); got != 5 {
		t.Errorf("8 requests at once with a burst of 5: %d served", got)
	}
	clk = clk.Add(200 * time.Millisecond)
	if got := count(3); got != 2 {
		t.Errorf("after 200 ms at 10 a second: %d served, want 2", got)
	}
}
