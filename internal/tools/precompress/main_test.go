package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/mark1-perceptron/mark1/internal/webdist"
)

// text returns n bytes of text that compresses well.
func text(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		b.WriteString("the perceptron learns: w = w + x when it answers wrongly; ")
	}
	return b.Bytes()[:n]
}

// noise returns n bytes that do not compress.
func noise(n int) []byte {
	b := make([]byte, n)
	x := uint32(1)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

func writeTree(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func decode(t *testing.T, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if zr.Name != "" || !zr.ModTime.IsZero() {
			t.Errorf("the gzip header names %q, time %v: want neither (the same input, the same bytes)", zr.Name, zr.ModTime)
		}
		r = zr
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Each file worth it gets a .br and a .gz that decode to it; a small file, an image, noise
// and a file of a kind mark1 web does not serve get none; stale compressed files are removed;
// hidden files are left out; SHA256SUMS lists the rest with their sums.
func TestPrecompress(t *testing.T) {
	files := map[string][]byte{
		"index.html":             text(5000),
		"wasm_exec.js":           text(17000),
		"mark1-museum.wasm":      text(100000),
		"lab/index.html":         text(3000),
		"lab/i18n/de.json":       text(2000),
		"lab/small.js":           text(100),
		"lab/noise.js":           noise(4000),
		"lab/shot.png":           text(5000), // an image: never compressed, whatever it holds
		"lab/README.md":          text(3000), // not served: left out
		".env":                   []byte("SECRET=1"),
		"lab/.git/config":        []byte("SECRET=2"),
		"old.js.br":              []byte("stale: no old.js"),
		"lab/small.js.gz":        []byte("stale: small.js is no longer worth it"),
		"lab/shot.png.gz":        []byte("stale"),
		".mark1-museum.wasm.tmp": []byte("a build's temporary file"),
	}
	dir := writeTree(t, files)
	var warned []string
	got, err := Precompress(dir, Options{Min: 256, Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	compressed := map[string]bool{"index.html": true, "wasm_exec.js": true, "mark1-museum.wasm": true, "lab/index.html": true, "lab/i18n/de.json": true}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path)
	}
	if want := "index.html lab/i18n/de.json lab/index.html lab/noise.js lab/shot.png lab/small.js mark1-museum.wasm wasm_exec.js"; strings.Join(paths, " ") != want {
		t.Errorf("the build's files: %q, want %q", paths, want)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "README.md: left out of the build") {
		t.Errorf("warnings %q: want one, for lab/README.md", warned)
	}
	for _, f := range got {
		t.Run(f.Path, func(t *testing.T) {
			for _, e := range webdist.Encodings {
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)+e.Ext))
				if !compressed[f.Path] {
					if err == nil || f.Sizes[e.Name] != 0 {
						t.Errorf("%s%s written (%d bytes): not worth it", f.Path, e.Ext, f.Sizes[e.Name])
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s: %v", e.Name, err)
				}
				if int64(len(b)) != f.Sizes[e.Name] || float64(len(b)) > worth*float64(f.Size) {
					t.Errorf("%s%s: %d bytes, reported %d, plain %d", f.Path, e.Ext, len(b), f.Sizes[e.Name], f.Size)
				}
				if !bytes.Equal(decode(t, e.Name, b), files[f.Path]) {
					t.Errorf("%s%s does not decode to %s", f.Path, e.Ext, f.Path)
				}
			}
		})
	}
	for _, stale := range []string{"old.js.br", "lab/small.js.gz", "lab/shot.png.gz"} {
		if _, err := os.Stat(filepath.Join(dir, stale)); err == nil {
			t.Errorf("%s left: a stale compressed file", stale)
		}
	}
	for _, hidden := range []string{".env", "lab/.git/config", ".mark1-museum.wasm.tmp"} {
		if _, err := os.Stat(filepath.Join(dir, hidden)); err != nil {
			t.Errorf("%s: %v: a hidden file is not the tool's to touch", hidden, err)
		}
	}
	f, err := os.Open(filepath.Join(dir, webdist.SumsName))
	if err != nil {
		t.Fatal(err)
	}
	sums, err := webdist.ReadSums(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := len(got) + 2*len(compressed); len(sums) != want {
		t.Errorf("SHA256SUMS lists %d files, want %d", len(sums), want)
	}
	for _, s := range sums {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(s.Path)))
		if err != nil || sha256.Sum256(b) != s.SHA256 {
			t.Errorf("SHA256SUMS: %s: %v, or its sum differs", s.Path, err)
		}
	}
}

// A second run keeps the compressed files of an unchanged plain file (not written again: the
// same modification time) and makes those of a changed one again; the same input gives the
// same bytes.
func TestPrecompressAgain(t *testing.T) {
	dir := writeTree(t, map[string][]byte{"a.js": text(4000), "b.js": text(5000)})
	if _, err := Precompress(dir, Options{Min: 256}); err != nil {
		t.Fatal(err)
	}
	stat := func(name string) (time.Time, []byte) {
		p := filepath.Join(dir, name)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		return st.ModTime(), b
	}
	_, aB := stat("a.js.br")
	past := time.Now().Add(-time.Hour)
	for _, n := range []string{"a.js.br", "a.js.gz", "b.js.br", "b.js.gz"} {
		os.Chtimes(filepath.Join(dir, n), past, past)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.js"), text(6000), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Precompress(dir, Options{Min: 256})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := stat("a.js.br"); a.After(past.Add(time.Second)) {
		t.Errorf("a.js.br written again (its time %v): a.js did not change", a)
	}
	if b, _ := stat("b.js.gz"); !b.After(past.Add(time.Second)) {
		t.Errorf("b.js.gz not written again: b.js changed")
	}
	if len(files) != 2 || strings.Join(files[0].Reused, ",") != "br,gzip" || len(files[1].Reused) != 0 {
		t.Errorf("reused: %v", files)
	}
	if _, b := stat("b.js.gz"); !bytes.Equal(decode(t, "gzip", b), text(6000)) {
		t.Error("b.js.gz does not decode to the new b.js")
	}
	// The same bytes from a fresh folder.
	dir2 := writeTree(t, map[string][]byte{"a.js": text(4000)})
	if _, err := Precompress(dir2, Options{Min: 256}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir2, "a.js.br")); !bytes.Equal(b, aB) {
		t.Error("a.js.br differs between two builds of the same file")
	}
}

// A symbolic link in the build is refused, naming it.
func TestPrecompressRefusesLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	dir := writeTree(t, map[string][]byte{"index.html": text(1000)})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := Precompress(dir, Options{Min: 256}); err == nil || !strings.Contains(err.Error(), "passwd.txt is a symbolic link") {
		t.Errorf("a link in the build: %v", err)
	}
}

func TestRun(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("MARK1_PRECOMPRESS_CACHE", cache) // never the user's own
	dir := writeTree(t, map[string][]byte{"index.html": text(1000), "x.png": text(1000)})
	var out, errs bytes.Buffer
	if code := run([]string{dir}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"plain", "index.html", "x.png", "total"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, args := range [][]string{nil, {"a", "b"}, {"-nope", dir}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			if code := run(args, io.Discard, io.Discard); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
		})
	}
}

// A build in another folder takes the compressed forms from the cache, each checked by
// decompressing it: a damaged or foreign one is made again and replaced; -cache off and ""
// keep nothing; the cache keeps its newest files within its limit.
func TestCache(t *testing.T) {
	cache := t.TempDir()
	opts := Options{Min: 256, Cache: cache}
	a := writeTree(t, map[string][]byte{"m.wasm": text(9000)})
	if _, err := Precompress(a, opts); err != nil {
		t.Fatal(err)
	}
	br, err := os.ReadFile(filepath.Join(a, "m.wasm.br"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(text(9000))
	cached := cachePath(cache, "br", sum)
	if b, err := os.ReadFile(cached); err != nil || !bytes.Equal(b, br) {
		t.Fatalf("the cache's br form: %v (equal %v)", err, bytes.Equal(b, br))
	}
	b := writeTree(t, map[string][]byte{"m.wasm": text(9000)})
	files, err := Precompress(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(files[0].Reused, ","); got != "br,gzip" {
		t.Errorf("a new folder's build reused %q from the cache, want br,gzip", got)
	}
	// Taken from the cache, the forms are written into the new folder, as SHA256SUMS lists them.
	if got, err := os.ReadFile(filepath.Join(b, "m.wasm.br")); err != nil || !bytes.Equal(got, br) {
		t.Errorf("the new folder's m.wasm.br: %v (equal to the first build's: %v)", err, bytes.Equal(got, br))
	}
	if got, err := os.ReadFile(filepath.Join(b, "m.wasm.gz")); err != nil || !bytes.Equal(decode(t, "gzip", got), text(9000)) {
		t.Errorf("the new folder's m.wasm.gz: %v", err)
	}
	for _, bad := range []struct {
		name string
		data []byte
	}{{"damaged", append(slices.Clone(br[:len(br)/2]), 0xff)}, {"another file's", mustCompress(t, "br", text(8000))}} {
		t.Run(bad.name, func(t *testing.T) {
			if err := os.WriteFile(cached, bad.data, 0o644); err != nil {
				t.Fatal(err)
			}
			c := writeTree(t, map[string][]byte{"m.wasm": text(9000)})
			files, err := Precompress(c, opts)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(files[0].Reused, "br") {
				t.Errorf("the %s cached form was used", bad.name)
			}
			if got, _ := os.ReadFile(filepath.Join(c, "m.wasm.br")); !bytes.Equal(decode(t, "br", got), text(9000)) {
				t.Error("the build's br form does not decode to its file")
			}
			if got, _ := os.ReadFile(cached); !bytes.Equal(got, br) {
				t.Error("the cache's form was not replaced")
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		t.Setenv("MARK1_PRECOMPRESS_CACHE", "off")
		d := writeTree(t, map[string][]byte{"n.wasm": text(7000)})
		if code := run([]string{d}, io.Discard, io.Discard); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if _, err := os.Stat(filepath.Join("off", cacheVersion)); err == nil {
			t.Error("-cache off made a folder named off")
		}
	})
	t.Run("trim", func(t *testing.T) {
		dir := t.TempDir()
		old := time.Now().Add(-time.Hour)
		for i, n := range []string{"a", "b", "c"} {
			p := filepath.Join(dir, n)
			if err := os.WriteFile(p, make([]byte, 100), 0o644); err != nil {
				t.Fatal(err)
			}
			at := old.Add(time.Duration(i) * time.Minute)
			os.Chtimes(p, at, at)
		}
		if err := trimCache(dir, 250); err != nil {
			t.Fatal(err)
		}
		left, _ := os.ReadDir(dir)
		if len(left) != 2 || left[0].Name() != "b" || left[1].Name() != "c" {
			t.Errorf("after trimming to 250 bytes: %v, want b and c (the newest)", left)
		}
	})
}

func mustCompress(t *testing.T, enc string, data []byte) []byte {
	t.Helper()
	b, err := compress(enc, data)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
