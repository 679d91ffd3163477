package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/mark1-perceptron/mark1/internal/webdist"
)

// writeBuild makes a browser build's folder of files (path: content) and its SHA256SUMS, with
// a .br and a .gz of each (as internal/tools/precompress makes them) when compress is true.
func writeBuild(t *testing.T, files map[string]string, compress bool) string {
	t.Helper()
	dir := t.TempDir()
	writeBuildIn(t, dir, files, compress)
	return dir
}

func writeBuildIn(t *testing.T, dir string, files map[string]string, compress bool) {
	t.Helper()
	var sums []webdist.Sum
	put := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// Through a new file, as make web writes: a server sees the change.
		if err := os.WriteFile(p+".tmp", data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".tmp", p); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, webdist.Sum{Path: name, SHA256: sha256.Sum256(data)})
	}
	for name, content := range files {
		put(name, []byte(content))
		if compress {
			put(name+".br", encodeBody(t, "br", []byte(content)))
			put(name+".gz", encodeBody(t, "gzip", []byte(content)))
		}
	}
	var b bytes.Buffer
	if err := webdist.WriteSums(&b, sums); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, webdist.SumsName), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func encodeBody(t *testing.T, enc string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	if enc == "br" {
		w = brotli.NewWriterLevel(&b, 11)
	} else {
		w, _ = gzip.NewWriterLevel(&b, gzip.BestCompression)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func decodeBody(t *testing.T, enc string, data []byte) string {
	t.Helper()
	var r io.Reader = bytes.NewReader(data)
	switch enc {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "":
	default:
		t.Fatalf("Content-Encoding %q", enc)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", enc, err)
	}
	return string(b)
}

// labBuild is a browser build with the museum and a lab, every file compressible.
func labBuild() map[string]string {
	long := func(s string) string { return strings.Repeat(s+" the perceptron learns. ", 40) }
	return map[string]string{
		"index.html":         "<!DOCTYPE html><title>museum</title><script>go()</script>" + long("museum"),
		"wasm_exec.js":       long("wasm_exec"),
		"mark1-museum.wasm":  long("\x00asm museum"),
		"lab/index.html":     "<!DOCTYPE html><title>lab</title><script type=module src=lab.js></script>" + long("lab"),
		"lab/lab.js":         long("import x from './i18n.js';"),
		"lab/lab.css":        long("body { color: black }"),
		"lab/mark1-lab.wasm": long("\x00asm lab"),
		"lab/wasm_exec.js":   long("wasm_exec"),
	}
}

// plainClient asks as it is told: no Accept-Encoding of its own, nothing decoded for it, no
// redirect followed.
var plainClient = &http.Client{
	Transport:     &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// webGet asks base for path with the headers hdr (name, value, ...), returning the response
// and its body as sent.
func webGet(t *testing.T, method, base, path string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := plainClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func serveBuild(t *testing.T, dir string, warn func(string)) *httptest.Server {
	t.Helper()
	h, err := webHandler(dir, warn)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// Each file goes in the encoding the request's Accept-Encoding takes (br before gzip), else
// plain, with its type, length, Vary, ETag and cache headers.
func TestWebEncodings(t *testing.T) {
	files := labBuild()
	srv := serveBuild(t, writeBuild(t, files, true), nil)
	for _, c := range []struct{ name, accept, enc string }{
		{"none", "", ""},
		{"a browser", "gzip, deflate, br", "br"},
		{"a browser over http", "gzip, deflate", "gzip"},
		{"zstd first", "zstd, br, gzip", "br"},
		{"gzip only", "gzip", "gzip"},
		{"x-gzip", "x-gzip", "gzip"},
		{"br refused", "br;q=0, gzip", "gzip"},
		{"gzip preferred", "br;q=0.5, gzip;q=0.8", "gzip"},
		{"a tie", "gzip;q=0.5, br;q=0.5", "br"},
		{"star", "*", "br"},
		{"star but br", "*, br;q=0", "gzip"},
		{"identity", "identity", ""},
		{"identity preferred", "identity, gzip;q=0.5", ""},
		{"nothing", "br;q=0, gzip;q=0", ""},
		{"bad q", "br;q=x, gzip", "gzip"},
		{"upper case", "GZIP", "gzip"},
		{"deflate", "deflate", ""},
	} {
		for _, p := range []string{"/", "/wasm_exec.js", "/mark1-museum.wasm", "/lab/", "/lab/lab.js", "/lab/lab.css", "/lab/mark1-lab.wasm"} {
			t.Run(c.name+p, func(t *testing.T) {
				resp, body := webGet(t, "GET", srv.URL, p, "Accept-Encoding", c.accept)
				rel := strings.TrimPrefix(p, "/")
				if rel == "" || strings.HasSuffix(rel, "/") {
					rel += "index.html"
				}
				typ, _ := webdist.ContentType(rel)
				h := resp.Header
				if resp.StatusCode != 200 || h.Get("Content-Encoding") != c.enc || h.Get("Content-Type") != typ ||
					h.Get("Vary") != "Accept-Encoding" || h.Get("Content-Length") != strconv.Itoa(len(body)) {
					t.Fatalf("Accept-Encoding %q: %d, Content-Encoding %q, Content-Type %q, Vary %q, Content-Length %q (%d bytes): want %q, %q",
						c.accept, resp.StatusCode, h.Get("Content-Encoding"), h.Get("Content-Type"), h.Get("Vary"), h.Get("Content-Length"), len(body), c.enc, typ)
				}
				if got := decodeBody(t, c.enc, body); got != files[rel] {
					t.Errorf("the body does not decode to %s", rel)
				}
				sent := []byte(files[rel])
				if c.enc != "" {
					sent = encodeBody(t, c.enc, sent)
				}
				if want := `"` + hexSum(sent) + `"`; h.Get("ETag") != want {
					t.Errorf("ETag %q, want %q (the SHA-256 of the bytes sent)", h.Get("ETag"), want)
				}
				cache := "max-age=600"
				if strings.HasSuffix(rel, ".html") {
					cache = "no-cache"
				}
				if h.Get("Cache-Control") != cache {
					t.Errorf("Cache-Control %q, want %q", h.Get("Cache-Control"), cache)
				}
				if strings.HasSuffix(rel, ".html") != strings.Contains(h.Get("Content-Security-Policy"), "'wasm-unsafe-eval'") {
					t.Errorf("Content-Security-Policy %q", h.Get("Content-Security-Policy"))
				}
			})
		}
	}
}

// hexSum is the first 128 bits of data's SHA-256 in hex: the ETag's text.
func hexSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// A request naming the ETag it has gets 304, with no body, in each encoding; another
// encoding's ETag or an old one gets the file.
func TestWebNotModified(t *testing.T) {
	srv := serveBuild(t, writeBuild(t, labBuild(), true), nil)
	for _, p := range []string{"/", "/mark1-museum.wasm", "/lab/lab.js"} {
		for _, accept := range []string{"", "gzip", "gzip, deflate, br"} {
			t.Run(p+" "+accept, func(t *testing.T) {
				first, body := webGet(t, "GET", srv.URL, p, "Accept-Encoding", accept)
				etag := first.Header.Get("ETag")
				if first.StatusCode != 200 || len(body) == 0 || etag == "" {
					t.Fatalf("GET: %d, %d bytes, ETag %q", first.StatusCode, len(body), etag)
				}
				for _, c := range []struct {
					name, inm string
					code      int
				}{
					{"its ETag", etag, 304},
					{"weak", "W/" + etag, 304},
					{"among others", `"0000", ` + etag, 304},
					{"star", "*", 304},
					{"an old one", `"00000000000000000000000000000000"`, 200},
				} {
					for _, method := range []string{"GET", "HEAD"} {
						resp, body := webGet(t, method, srv.URL, p, "Accept-Encoding", accept, "If-None-Match", c.inm)
						h := resp.Header
						if resp.StatusCode != c.code {
							t.Errorf("%s, If-None-Match %s: %d, want %d", method, c.name, resp.StatusCode, c.code)
							continue
						}
						if c.code == 304 && (len(body) != 0 || h.Get("ETag") != etag || h.Get("Vary") != "Accept-Encoding" ||
							h.Get("Cache-Control") == "" || h.Get("Content-Encoding") != "" || h.Get("Content-Length") != "") {
							t.Errorf("%s 304: %d bytes, headers %v", method, len(body), h)
						}
					}
				}
				// Another encoding's ETag is not this one's.
				other := "gzip"
				if strings.Contains(accept, "gzip") {
					other = ""
				}
				resp, _ := webGet(t, "GET", srv.URL, p, "Accept-Encoding", other, "If-None-Match", etag)
				if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
					t.Errorf("Accept-Encoding %q with the ETag of %q: %d, ETag %q", other, accept, resp.StatusCode, resp.Header.Get("ETag"))
				}
			})
		}
	}
}

// A Range of the plain file is served (206); a Range asked with an encoding taken is ignored:
// the whole compressed file, 200, Accept-Ranges: none.
func TestWebRange(t *testing.T) {
	files := labBuild()
	srv := serveBuild(t, writeBuild(t, files, true), nil)
	resp, body := webGet(t, "GET", srv.URL, "/mark1-museum.wasm", "Range", "bytes=0-3")
	if resp.StatusCode != http.StatusPartialContent || string(body) != files["mark1-museum.wasm"][:4] || resp.Header.Get("Accept-Ranges") != "bytes" {
		t.Errorf("plain, bytes=0-3: %d %q, Accept-Ranges %q", resp.StatusCode, body, resp.Header.Get("Accept-Ranges"))
	}
	for _, accept := range []string{"br", "gzip"} {
		t.Run(accept, func(t *testing.T) {
			resp, body := webGet(t, "GET", srv.URL, "/mark1-museum.wasm", "Accept-Encoding", accept, "Range", "bytes=0-3")
			if resp.StatusCode != 200 || resp.Header.Get("Accept-Ranges") != "none" || decodeBody(t, resp.Header.Get("Content-Encoding"), body) != files["mark1-museum.wasm"] {
				t.Errorf("%s, bytes=0-3: %d, Accept-Ranges %q, Content-Encoding %q, %d bytes: want the whole file", accept, resp.StatusCode,
					resp.Header.Get("Accept-Ranges"), resp.Header.Get("Content-Encoding"), len(body))
			}
		})
	}
}

// The lab is at /lab/ (/lab is sent there, with its query); neither the compressed files by
// their names, nor a file the list does not name, nor the list itself is served.
func TestWebPaths(t *testing.T) {
	dir := writeBuild(t, labBuild(), true)
	if err := os.WriteFile(filepath.Join(dir, "lab", "extra.js"), []byte("not in the list"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveBuild(t, dir, nil)
	resp, _ := webGet(t, "GET", srv.URL, "/lab?demo=trace&point=5,7,%2B1")
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/lab/?demo=trace&point=5,7,%2B1" {
		t.Errorf("GET /lab: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body := webGet(t, "GET", srv.URL, "/lab/?demo=trace")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>lab</title>") {
		t.Errorf("GET /lab/: %d %.40q", resp.StatusCode, body)
	}
	for _, p := range []string{"/lab/lab.js.br", "/mark1-museum.wasm.gz", "/lab/extra.js", "/SHA256SUMS", "/lab/index.html/", "/lab//lab.js", "/lab/../index.html", "/LAB/"} {
		t.Run(p, func(t *testing.T) {
			if resp, _ := webGet(t, "GET", srv.URL, p); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
			}
		})
	}
}

// A build made again while serving is seen at the next request: the new file, its new ETag;
// a plain file changed by hand is sent as it is now, never its old compressed form, with a
// warning.
func TestWebRebuilt(t *testing.T) {
	files := labBuild()
	dir := writeBuild(t, files, true)
	var mu sync.Mutex
	var warned []string
	srv := serveBuild(t, dir, func(s string) { mu.Lock(); warned = append(warned, s); mu.Unlock() })
	old, _ := webGet(t, "GET", srv.URL, "/lab/lab.js", "Accept-Encoding", "br")

	files["lab/lab.js"] = strings.Repeat("the new lab.js ", 100)
	writeBuildIn(t, dir, files, true)
	resp, body := webGet(t, "GET", srv.URL, "/lab/lab.js", "Accept-Encoding", "br", "If-None-Match", old.Header.Get("ETag"))
	if resp.StatusCode != 200 || decodeBody(t, resp.Header.Get("Content-Encoding"), body) != files["lab/lab.js"] || resp.Header.Get("ETag") == old.Header.Get("ETag") {
		t.Errorf("after make web again: %d, ETag %q (was %q)", resp.StatusCode, resp.Header.Get("ETag"), old.Header.Get("ETag"))
	}

	time.Sleep(10 * time.Millisecond) // a new modification time
	edited := "an edit by hand " + files["wasm_exec.js"]
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, accept := range []string{"br", "gzip", ""} {
		resp, body := webGet(t, "GET", srv.URL, "/wasm_exec.js", "Accept-Encoding", accept)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || string(body) != edited {
			t.Errorf("Accept-Encoding %q after an edit: %d, Content-Encoding %q, %.30q", accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), body)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 || !strings.Contains(warned[0], "wasm_exec.js changed since make web") {
		t.Errorf("warnings %q: want one, that wasm_exec.js changed", warned)
	}
}

// What the start refuses, and what it serves plain with a warning.
func TestWebStart(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(dir string) error
		err    string
		warn   string
	}{
		{"no list", func(dir string) error { return os.Remove(filepath.Join(dir, "SHA256SUMS")) }, "SHA256SUMS is missing: build the browser version with make web", ""},
		{"a listed file gone", func(dir string) error { return os.Remove(filepath.Join(dir, "lab", "lab.css")) }, "lab/lab.css, listed in SHA256SUMS:", ""},
		{"a bad list", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte("nonsense\n"), 0o644)
		}, "SHA256SUMS:1: want a SHA-256", ""},
		{"the museum not listed", func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
			if err != nil {
				return err
			}
			var keep []string
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if !strings.HasSuffix(l, "  mark1-museum.wasm\n") {
					keep = append(keep, l)
				}
			}
			return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Join(keep, "")), 0o644)
		}, "SHA256SUMS does not list mark1-museum.wasm", ""},
		{"a corrupt .br", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "lab", "lab.js.br"), []byte("garbage"), 0o644)
		}, "", "lab/lab.js.br is not the one make web wrote"},
		{"a link", func(dir string) error {
			p := filepath.Join(dir, "lab", "lab.css")
			os.Remove(p)
			return os.Symlink("/etc/passwd", p)
		}, "lab.css is a symbolic link", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeBuild(t, labBuild(), true)
			if err := c.change(dir); err != nil {
				t.Fatal(err)
			}
			var warned []string
			_, err := webHandler(dir, func(s string) { warned = append(warned, s) })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("start: %v, want an error with %q", err, c.err)
				}
				return
			}
			if err != nil || len(warned) != 1 || !strings.Contains(warned[0], c.warn) {
				t.Errorf("start: %v, warnings %q: want %q", err, warned, c.warn)
			}
			srv := serveBuild(t, dir, nil)
			resp, body := webGet(t, "GET", srv.URL, "/lab/lab.js", "Accept-Encoding", "br, gzip")
			if resp.Header.Get("Content-Encoding") != "gzip" || decodeBody(t, "gzip", body) != labBuild()["lab/lab.js"] {
				t.Errorf("the .br being bad: Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
			}
		})
	}
}
