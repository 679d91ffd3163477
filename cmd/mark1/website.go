package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/internal/webdist"
)

// What mark1 web serves of a browser build, and how.
//
// The files: those the build's SHA256SUMS names (make web writes it: internal/webdist), each a
// regular file in the folder itself (never a symbolic link); a path whose last part is empty
// is its folder's index.html ("/" the museum, "/lab/" the lab), and "/lab" is sent on to
// "/lab/" (the page's links are relative to it). Nothing else: no dotfile, no other file, no
// folder's listing, and not the .br and .gz files by their own names.
//
// The encodings: a file's .br or .gz form, when the build has one, goes to a browser whose
// Accept-Encoding takes it (br before gzip at the same q), with Content-Encoding; a request
// without Accept-Encoding, or taking neither, gets the plain file. Every reply of a file says
// Vary: Accept-Encoding.
//
// The caches: each form's ETag is its SHA-256 (the first 128 bits), computed at start, so each
// encoding has its own; If-None-Match with it gets 304. HTML is sent with Cache-Control:
// no-cache (a browser asks again every time, a 304 when unchanged), so a new build's page is
// seen at once; every other file with max-age=webMaxAge, then revalidated by its ETag. Names
// with a hash in them (immutable, cached for a year) would need every page's imports rewritten
// by a build step, which the lab's plain modules are not to have; the ten minutes bound how
// long a browser may go on using the last build's scripts and WebAssembly with a new page, and
// a page and its files fetched together expire together.
//
// Ranges: the plain file is served with ranges (http.ServeContent); a Range asked of a
// compressed form is ignored and the whole form sent (200, Accept-Ranges: none), so that a
// client can never piece a file together from parts of two encodings.
//
// A build changed while serving (make web again) is seen at the next request of a file whose
// size, time or identity differs from what the start found: the list is read and the files
// hashed again before it is served.

// webMaxAge is how long, in seconds, a browser keeps a file other than a page without asking.
const webMaxAge = 600

// maxPage bounds a page mark1 web reads to compute its Content-Security-Policy.
const maxPage = 1 << 20

// webSite is mark1 web's handler of a build's files (see above).
type webSite struct {
	dir  string
	warn func(string)

	mu      sync.Mutex
	idx     *webIndex
	failed  time.Time // the last reload that failed
	failure error
}

// webIndex is what the start (or a reload) found of a build: its files by path.
type webIndex struct {
	files map[string]*webFile
}

// webFile is one file of the build: its type, its page's policy (HTML), and its forms: the
// plain one first, then each compressed one the build has, in webdist.Encodings' order.
type webFile struct {
	typ   string
	csp   string
	forms []webForm
}

// webForm is one encoding of a file: its Content-Encoding ("" plain), where it is, its ETag,
// and what the start found of it (to see a change).
type webForm struct {
	enc  string
	path string
	etag string
	stat fs.FileInfo
}

// newWebSite checks and indexes the build in dir (see loadWebIndex).
func newWebSite(dir string, warn func(string)) (*webSite, error) {
	if warn == nil {
		warn = func(string) {}
	}
	idx, err := loadWebIndex(dir, warn)
	if err != nil {
		return nil, err
	}
	return &webSite{dir: dir, warn: warn, idx: idx}, nil
}

// has reports whether the build has the file at path rel.
func (ws *webSite) has(rel string) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.idx.files[rel] != nil
}

// loadWebIndex reads the build in dir: the museum's files (webFiles) must be there, then its
// SHA256SUMS, whose every file must be there too, regular, and with the sum listed; a compressed
// form whose sum differs, or whose plain file changed since the build, is left out, with a
// warning (the plain file is served as it is now).
func loadWebIndex(dir string, warn func(string)) (*webIndex, error) {
	for _, name := range append(webFiles, webdist.SumsName) {
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
	f, _, err := openWebFile(filepath.Join(dir, webdist.SumsName))
	if err != nil {
		return nil, err
	}
	sums, err := webdist.ReadSums(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	listed := map[string][sha256.Size]byte{}
	for _, s := range sums {
		listed[s.Path] = s.SHA256
	}
	idx := &webIndex{files: map[string]*webFile{}}
	for _, s := range sums {
		if _, _, ok := webdist.EncodingOf(s.Path); ok {
			continue
		}
		typ, ok := webdist.ContentType(s.Path)
		if !ok {
			warn(fmt.Sprintf("%s: not served: mark1 web serves only %s files", s.Path, strings.Join(webdist.Exts(), " ")))
			continue
		}
		wf := &webFile{typ: typ}
		plain, data, err := loadWebForm(dir, s.Path, "", strings.HasPrefix(typ, "text/html"))
		if err != nil {
			return nil, err
		}
		if data != nil {
			wf.csp = pageCSP(data)
		}
		wf.forms = append(wf.forms, plain)
		if plain.etag != etagOf(s.SHA256) {
			warn(fmt.Sprintf("%s changed since make web: served as it is now, without its compressed forms (make web again)", s.Path))
			idx.files[s.Path] = wf
			continue
		}
		for _, e := range webdist.Encodings {
			sum, ok := listed[s.Path+e.Ext]
			if !ok {
				continue
			}
			form, _, err := loadWebForm(dir, s.Path+e.Ext, e.Name, false)
			if err != nil || form.etag != etagOf(sum) {
				warn(fmt.Sprintf("%s%s is not the one make web wrote: the plain file is sent instead (make web again)", s.Path, e.Ext))
				continue
			}
			wf.forms = append(wf.forms, form)
		}
		idx.files[s.Path] = wf
	}
	for _, name := range webFiles {
		if idx.files[name] == nil {
			return nil, fmt.Errorf("%s: %s does not list %s: build the browser version again with make web", dir, webdist.SumsName, name)
		}
	}
	return idx, nil
}

// loadWebForm opens and hashes the file rel of the build in dir, returning it as the form enc,
// and its bytes when page (a page, whose policy is computed from them).
func loadWebForm(dir, rel, enc string, page bool) (webForm, []byte, error) {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		return webForm{}, nil, fmt.Errorf("%s is a symbolic link: mark1 web serves only the files of the build's folder itself (copy the file there)", p)
	}
	f, st, err := openWebFile(p)
	if err != nil {
		return webForm{}, nil, fmt.Errorf("%s, listed in %s: %w (build again with make web)", rel, webdist.SumsName, err)
	}
	defer f.Close()
	var data []byte
	var sum [sha256.Size]byte
	if page {
		if data, err = io.ReadAll(io.LimitReader(f, maxPage+1)); err == nil && len(data) > maxPage {
			err = fmt.Errorf("a page larger than %d bytes", maxPage)
		}
		sum = sha256.Sum256(data)
	} else {
		sum, err = webdist.Hash(f)
	}
	if err != nil {
		return webForm{}, nil, fmt.Errorf("%s: %w", p, err)
	}
	return webForm{enc: enc, path: p, etag: etagOf(sum), stat: st}, data, nil
}

// same reports whether st is the file the form was found to be: the same file, size and time.
func (form *webForm) same(st fs.FileInfo) bool {
	return st.Size() == form.stat.Size() && st.ModTime().Equal(form.stat.ModTime()) && os.SameFile(st, form.stat)
}

// unchanged reports whether the form's file is still the one found (a compressed form is sent
// only while its plain file is the one it was made from).
func (form *webForm) unchanged() bool {
	st, err := os.Lstat(form.path)
	return err == nil && st.Mode().IsRegular() && form.same(st)
}

// etagOf is the ETag of a form whose SHA-256 is sum.
func etagOf(sum [sha256.Size]byte) string {
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// reload indexes the build again, unless another request did since seen was current; a reload
// that fails is not tried again for a second.
func (ws *webSite) reload(seen *webIndex) (*webIndex, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.idx != seen {
		return ws.idx, nil
	}
	if time.Since(ws.failed) < time.Second {
		return nil, ws.failure
	}
	idx, err := loadWebIndex(ws.dir, ws.warn)
	if err != nil {
		ws.failed, ws.failure = time.Now(), err
		return nil, err
	}
	ws.idx = idx
	return idx, nil
}

func (ws *webSite) index() *webIndex {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.idx
}

func (ws *webSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed: mark1 web answers GET and HEAD", http.StatusMethodNotAllowed)
		return
	}
	rel := strings.TrimPrefix(r.URL.Path, "/")
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	idx := ws.index()
	for try := 0; ; try++ {
		wf := idx.files[rel]
		if wf == nil {
			if idx.files[rel+"/index.html"] != nil {
				to := "/" + rel + "/"
				if r.URL.RawQuery != "" {
					to += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, to, http.StatusMovedPermanently)
				return
			}
			http.Error(w, "404 not found: mark1 web serves the browser build's files (make web): the museum at /, the lab at /lab/", http.StatusNotFound)
			return
		}
		form := wf.pick(r.Header.Get("Accept-Encoding"))
		f, st, err := openWebFile(form.path)
		if err == nil && form.same(st) && (form.enc == "" || wf.forms[0].unchanged()) {
			defer f.Close()
			ws.serve(w, r, wf, form, f, st.Size())
			return
		}
		if f != nil {
			f.Close()
		}
		if try > 0 {
			break
		}
		if idx, err = ws.reload(idx); err != nil {
			http.Error(w, "503 the build is changing (make web?): reload the page in a moment", http.StatusServiceUnavailable)
			return
		}
	}
	http.Error(w, "503 the build is changing (make web?): reload the page in a moment", http.StatusServiceUnavailable)
}

// serve sends the form of wf opened as f (size bytes), as the comment at the top says.
func (ws *webSite) serve(w http.ResponseWriter, r *http.Request, wf *webFile, form *webForm, f *os.File, size int64) {
	h := w.Header()
	h.Set("Content-Type", wf.typ)
	if wf.csp != "" {
		h.Set("Content-Security-Policy", wf.csp)
		h.Set("Cache-Control", "no-cache")
	} else {
		h.Set("Cache-Control", "max-age="+strconv.Itoa(webMaxAge))
	}
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", form.etag)
	if form.enc == "" {
		http.ServeContent(w, r, "", time.Time{}, f) // ranges, If-None-Match, HEAD, Content-Length
		return
	}
	h.Set("Accept-Ranges", "none")
	if etagMatch(r.Header.Get("If-None-Match"), form.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Encoding", form.enc)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		io.CopyN(w, f, size)
	}
}

// pick returns the form to send to a request whose Accept-Encoding is accept: the compressed
// one it takes with the highest q (br before gzip at the same q), unless it rates the plain
// file (identity) higher; the plain one when it takes none.
func (wf *webFile) pick(accept string) *webForm {
	best, bestQ := &wf.forms[0], acceptQ(accept, "identity")
	for i := len(wf.forms) - 1; i >= 1; i-- { // gzip, then br: br wins a tie
		if q := acceptQ(accept, wf.forms[i].enc); q > 0 && q >= bestQ {
			best, bestQ = &wf.forms[i], q
		}
	}
	return best
}

// acceptQ is the q an Accept-Encoding header gives the coding enc: its own entry's, else *'s,
// else identityQ for identity and 0 for the others (x-gzip is gzip). A q that does not parse is
// 0.
func acceptQ(accept, enc string) float64 {
	star, own := -1.0, -1.0
	for part := range strings.SplitSeq(accept, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "x-gzip" {
			name = "gzip"
		}
		if name != enc && name != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(p, "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				var err error
				if q, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || q < 0 || q > 1 {
					q = 0
				}
			}
		}
		if name == "*" {
			star = q
		} else {
			own = q
		}
	}
	switch {
	case own >= 0:
		return own
	case star >= 0:
		return star
	case enc == "identity":
		return identityQ
	}
	return 0
}

// identityQ is the plain file's q when Accept-Encoding names neither it nor *: acceptable, but
// after any coding the request names (RFC 9110 12.5.3 gives it no q).
const identityQ = 0.0001

// etagMatch reports whether an If-None-Match header names etag (weak comparison) or is "*".
func etagMatch(header, etag string) bool {
	for part := range strings.SplitSeq(header, ",") {
		t := strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
