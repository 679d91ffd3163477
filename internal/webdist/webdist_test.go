package webdist

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestSumsRoundTrip(t *testing.T) {
	sums := []Sum{
		{Path: "mark1-museum.wasm", SHA256: sha256.Sum256([]byte("wasm"))},
		{Path: "index.html", SHA256: sha256.Sum256([]byte("page"))},
		{Path: "lab/lab.js.br", SHA256: sha256.Sum256([]byte("br"))},
	}
	var b bytes.Buffer
	if err := WriteSums(&b, sums); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "  index.html") || !strings.HasSuffix(lines[1], "  lab/lab.js.br") || !strings.HasSuffix(lines[2], "  mark1-museum.wasm") {
		t.Fatalf("WriteSums wrote %q: want three lines sorted by path", b.String())
	}
	got, err := ReadSums(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != sums[1] || got[1] != sums[2] || got[2] != sums[0] {
		t.Errorf("ReadSums gave %v", got)
	}
}

// The list is sha256sum's own format: sha256sum -c checks a list WriteSums wrote, and ReadSums
// reads what sha256sum writes, in text and binary mode.
func TestSumsAreSha256sums(t *testing.T) {
	tool, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("no sha256sum")
	}
	dir := t.TempDir()
	var sums []Sum
	for _, name := range []string{"index.html", "lab/lab.js"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, Sum{Path: name, SHA256: sha256.Sum256([]byte("content of " + name))})
	}
	var b bytes.Buffer
	if err := WriteSums(&b, sums); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, SumsName), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	check := exec.Command(tool, "-c", "--strict", SumsName)
	check.Dir = dir
	if out, err := check.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, out)
	}
	for _, mode := range []string{"--text", "--binary"} {
		t.Run(mode, func(t *testing.T) {
			c := exec.Command(tool, mode, "index.html", "lab/lab.js")
			c.Dir = dir
			out, err := c.Output()
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadSums(bytes.NewReader(out))
			if err != nil {
				t.Fatalf("%v (of %q)", err, out)
			}
			if len(got) != 2 || got[0] != sums[0] || got[1] != sums[1] {
				t.Errorf("ReadSums(%q) = %v", out, got)
			}
		})
	}
}

func TestReadSumsRefuses(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, c := range []struct{ name, list, want string }{
		{"empty", "", "lists no file"},
		{"no path", h + "\n", "SHA256SUMS:1: want a SHA-256"},
		{"one space", h + " index.html\n", "SHA256SUMS:1: want a SHA-256"},
		{"short sum", "abcd  index.html\n", "SHA256SUMS:1: want a SHA-256"},
		{"not hex", strings.Repeat("zz", 32) + "  index.html\n", "want a SHA-256"},
		{"up", h + "  ../secret\n", `"../secret" is not a path within the build`},
		{"absolute", h + "  /etc/passwd\n", "is not a path within the build"},
		{"dotfile", h + "  .env\n", `".env" is not a path`},
		{"hidden folder", h + "  lab/.git/config\n", "is not a path"},
		{"backslash", h + "  lab\\x.js\n", "is not a path"},
		{"itself", h + "  SHA256SUMS\n", "is not a path"},
		{"twice", h + "  a.js\n" + h + "  a.js\n", "SHA256SUMS:2: a.js listed twice"},
		{"too large", strings.Repeat(h+"  a.js\n", MaxSumsSize/70+1), "larger than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSums(strings.NewReader(c.list))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ReadSums: %v, want an error with %q", err, c.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	for _, c := range []struct {
		name, typ string
		compress  bool
	}{
		{"index.html", "text/html; charset=utf-8", true},
		{"lab/lab.js", "text/javascript; charset=utf-8", true},
		{"mark1-museum.wasm", "application/wasm", true},
		{"lab/lab.css", "text/css; charset=utf-8", true},
		{"lab/i18n/de.json", "application/json", true},
		{"shot.PNG", "image/png", false},
		{"notes.md", "", false},
		{"mark1-museum.wasm.br", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			typ, ok := ContentType(c.name)
			if typ != c.typ || ok != (c.typ != "") || Compressible(c.name) != c.compress {
				t.Errorf("ContentType %q %v, Compressible %v; want %q, %v", typ, ok, Compressible(c.name), c.typ, c.compress)
			}
		})
	}
	for _, c := range []struct{ name, enc, plain string }{
		{"a.js.br", "br", "a.js"},
		{"lab/x.wasm.gz", "gzip", "lab/x.wasm"},
		{"a.js", "", ""},
		{".br", "", ""},
		{"lab/.gz", "", ""},
	} {
		t.Run("EncodingOf "+c.name, func(t *testing.T) {
			e, plain, ok := EncodingOf(c.name)
			if e.Name != c.enc || plain != c.plain || ok != (c.enc != "") {
				t.Errorf("EncodingOf(%q) = %v %q %v, want %q %q", c.name, e, plain, ok, c.enc, c.plain)
			}
		})
	}
	for _, c := range []struct {
		p  string
		ok bool
	}{
		{"index.html", true}, {"lab/index.html", true}, {"lab/i18n/de.json", true},
		{"", false}, {".", false}, {"..", false}, {"lab/../x", false}, {"/x", false}, {"lab//x", false},
		{"lab/", false}, {".env", false}, {"lab/.x", false}, {"a\\b", false}, {"SHA256SUMS", false},
		{"lab/SHA256SUMS", true},
	} {
		t.Run("ValidPath "+c.p, func(t *testing.T) {
			if got := ValidPath(c.p); got != c.ok {
				t.Errorf("ValidPath(%q) = %v, want %v", c.p, got, c.ok)
			}
		})
	}
}
