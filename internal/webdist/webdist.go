// Package webdist describes a browser build's folder, the one make web writes (web/dist: the
// museum at its top, the lab in lab/): the types of the files it may hold, which of them are
// worth precompressing, the precompressed encodings (a .br and a .gz file beside the plain
// one), and its list of files, SHA256SUMS, in sha256sum's format, which names every file of
// the build with its SHA-256. internal/tools/precompress writes the encodings and the list;
// mark1 web serves the files the list names and nothing else. `sha256sum -c SHA256SUMS` in the
// folder checks a build.
package webdist

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// SumsName is the list's file name, at the build folder's top.
const SumsName = "SHA256SUMS"

// MaxSumsSize bounds the list a reader takes: a build has tens of files, not thousands.
const MaxSumsSize = 1 << 20

// An Encoding is a precompressed form of a file: its Content-Encoding name and the extension of
// the file holding it beside the plain one.
type Encoding struct{ Name, Ext string }

// Encodings are the precompressed forms, in the order a server prefers them when a browser
// takes them alike: brotli (smaller), then gzip.
var Encodings = []Encoding{{"br", ".br"}, {"gzip", ".gz"}}

// EncodingOf returns the encoding whose file name is name (lab.js.br: br, with lab.js), or
// ok false for a plain file's name.
func EncodingOf(name string) (enc Encoding, plain string, ok bool) {
	for _, e := range Encodings {
		if p, found := strings.CutSuffix(name, e.Ext); found && p != "" && !strings.HasSuffix(p, "/") {
			return e, p, true
		}
	}
	return Encoding{}, "", false
}

// fileType is what the build knows of a kind of file: its Content-Type, and whether a
// precompressed copy can be much smaller (text and WebAssembly; images and fonts are
// compressed already).
type fileType struct {
	typ      string
	compress bool
}

// types are the kinds of file a build may serve, by extension.
var types = map[string]fileType{
	".html":        {"text/html; charset=utf-8", true},
	".js":          {"text/javascript; charset=utf-8", true},
	".mjs":         {"text/javascript; charset=utf-8", true},
	".css":         {"text/css; charset=utf-8", true},
	".json":        {"application/json", true},
	".webmanifest": {"application/manifest+json", true},
	".wasm":        {"application/wasm", true},
	".svg":         {"image/svg+xml", true},
	".txt":         {"text/plain; charset=utf-8", true},
	".csv":         {"text/csv; charset=utf-8", true},
	".ico":         {"image/x-icon", true},
	".png":         {"image/png", false},
	".jpg":         {"image/jpeg", false},
	".webp":        {"image/webp", false},
	".woff2":       {"font/woff2", false},
}

// ContentType returns the Content-Type of a file of the build by its name, or ok false for a
// name whose kind the build does not serve.
func ContentType(name string) (typ string, ok bool) {
	t, ok := types[strings.ToLower(path.Ext(name))]
	return t.typ, ok
}

// Compressible reports whether a file of this name is worth trying to precompress: text and
// WebAssembly, not images or fonts, which are compressed already.
func Compressible(name string) bool {
	return types[strings.ToLower(path.Ext(name))].compress
}

// Exts lists the extensions ContentType knows, sorted (for messages and scripts).
func Exts() []string {
	var e []string
	for k := range types {
		e = append(e, k)
	}
	slices.Sort(e)
	return e
}

// Hidden reports whether a slash-separated path within the build has a part starting with a
// dot (.git/config, lab/.env): such files are never part of a build.
func Hidden(p string) bool {
	for part := range strings.SplitSeq(p, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// ValidPath reports whether p may name a file of the build: a clean, slash-separated path
// inside the folder (fs.ValidPath: no "..", no leading slash, no empty part), no part
// hidden, no backslash, and not the list itself.
func ValidPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !Hidden(p) && !strings.ContainsAny(p, "\\\x00\n\r") && p != SumsName
}

// A Sum is one line of the list: a file of the build, by its slash-separated path within the
// folder, and its SHA-256.
type Sum struct {
	Path   string
	SHA256 [sha256.Size]byte
}

// Hash returns the SHA-256 of what r reads.
func Hash(r io.Reader) ([sha256.Size]byte, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return [sha256.Size]byte{}, err
	}
	return [sha256.Size]byte(h.Sum(nil)), nil
}

// WriteSums writes the list in sha256sum's format ("HEX  PATH" lines), sorted by path.
func WriteSums(w io.Writer, sums []Sum) error {
	s := slices.Clone(sums)
	slices.SortFunc(s, func(a, b Sum) int { return strings.Compare(a.Path, b.Path) })
	var b bytes.Buffer
	for i, x := range s {
		if !ValidPath(x.Path) {
			return fmt.Errorf("%s: %q is not a path within the build", SumsName, x.Path)
		}
		if i > 0 && s[i-1].Path == x.Path {
			return fmt.Errorf("%s: %s listed twice", SumsName, x.Path)
		}
		fmt.Fprintf(&b, "%x  %s\n", x.SHA256, x.Path)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ReadSums reads a list written by WriteSums (or by sha256sum, text or binary mode: "HEX *PATH"),
// at most MaxSumsSize bytes. Each error names the line: "SHA256SUMS:3: ...".
func ReadSums(r io.Reader) ([]Sum, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSumsSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", SumsName, err)
	}
	if len(data) > MaxSumsSize {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a build's list", SumsName, MaxSumsSize)
	}
	var sums []Sum
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" {
			continue
		}
		hexSum, rest, ok := strings.Cut(line, " ")
		p := ""
		if ok && rest != "" && (rest[0] == ' ' || rest[0] == '*') { // text mode, binary mode
			p = rest[1:]
		}
		b, err := hex.DecodeString(hexSum)
		if p == "" || err != nil || len(b) != sha256.Size {
			return nil, fmt.Errorf("%s:%d: want a SHA-256 in hex, two spaces and a path, not %q", SumsName, n, line)
		}
		s := Sum{SHA256: [sha256.Size]byte(b)}
		if !ValidPath(p) {
			return nil, fmt.Errorf("%s:%d: %q is not a path within the build", SumsName, n, p)
		}
		if seen[p] {
			return nil, fmt.Errorf("%s:%d: %s listed twice", SumsName, n, p)
		}
		seen[p] = true
		s.Path = p
		sums = append(sums, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", SumsName, err)
	}
	if len(sums) == 0 {
		return nil, errors.New(SumsName + ": lists no file")
	}
	return sums, nil
}
