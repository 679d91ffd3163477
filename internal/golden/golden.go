// Package golden keeps the golden files of the packages' tests: files in testdata/ holding
// what a test must produce, bit for bit, on every architecture and in every version, until a
// deliberate change. The flag -update (go test ./pkg -run TestX -update) rewrites them from
// what the test produces instead of comparing; say why in the commit.
//
// Most are digest files (File): comment lines, then one "NAME SUM" line per digest, compared
// name by name so that a failure names what changed. Bytes compares any other file whole.
//
// Only tests import the package: importing it defines the -update flag.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from what the tests produce (after a deliberate change only)")

// Update reports whether the test was run with -update: a test whose golden files are not
// digests or whole files (images compared with a tolerance, say) writes them itself then.
func Update() bool { return *update }

// Digest is one named digest of a digest file.
type Digest struct {
	Name, Sum string
}

// Sorted returns the digests of m sorted by name.
func Sorted(m map[string]string) []Digest {
	out := make([]Digest, 0, len(m))
	for _, n := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Digest{n, m[n]})
	}
	return out
}

// File is a golden file of digests: blank lines and lines starting with # are comments; every
// other line is a name, Sep and a sum (a name may hold Sep; a sum may not).
type File struct {
	Path   string // "testdata/golden-digest.txt"
	Header string // the comment lines -update writes first, each ending in "\n" ("" none)
	Sep    string // between a name and its sum, ": " or " " ("" is ": ")
}

func (f File) sep() string {
	if f.Sep == "" {
		return ": "
	}
	return f.Sep
}

// Format returns the text -update writes for digests: the header, then a line per digest in
// the order given.
func (f File) Format(digests []Digest) string {
	var b strings.Builder
	b.WriteString(f.Header)
	for _, d := range digests {
		b.WriteString(d.Name + f.sep() + d.Sum + "\n")
	}
	return b.String()
}

// Parse reads the digests of a digest file's text, in the file's order. A line without Sep, a
// name or a sum is an error naming the file and the line.
func (f File) Parse(text string) ([]Digest, error) {
	var out []Digest
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k := strings.LastIndex(line, f.sep())
		if k <= 0 || k+len(f.sep()) == len(line) {
			return nil, fmt.Errorf("%s:%d: want NAME%sSUM, not %q", f.Path, i+1, f.sep(), line)
		}
		out = append(out, Digest{line[:k], line[k+len(f.sep()):]})
	}
	return out, nil
}

// Check compares the digests got with the file, after rewriting the file from them when the
// test runs with -update. It reports with t.Errorf each digest that differs, each missing
// from the file and each the file has that got has not (with t.Fatalf a file that cannot be
// read); and, when the digests agree, a file that is not as -update writes it (another header,
// another order).
func (f File) Check(t testing.TB, got []Digest) {
	t.Helper()
	text := f.Format(got)
	if *update {
		write(t, f.Path, []byte(text))
	}
	b, want, ok := f.read(t)
	if !ok {
		return
	}
	wantSum := map[string]string{}
	for _, d := range want {
		wantSum[d.Name] = d.Sum
	}
	bad := false
	for _, d := range got {
		w, ok := wantSum[d.Name]
		switch {
		case !ok:
			t.Errorf("%s: %s: no digest in the file (the test's is %s; %s)", f.Path, d.Name, d.Sum, regen(t))
		case w != d.Sum:
			t.Errorf("%s: %s: digest %s on %s/%s, want %s: the results differ from the recorded ones (%s after a deliberate change)",
				f.Path, d.Name, d.Sum, runtime.GOOS, runtime.GOARCH, w, regen(t))
		default:
			continue
		}
		bad = true
	}
	gotNames := map[string]bool{}
	for _, d := range got {
		gotNames[d.Name] = true
	}
	for _, d := range want {
		if !gotNames[d.Name] {
			t.Errorf("%s: %s: the test no longer makes this digest (%s)", f.Path, d.Name, regen(t))
			bad = true
		}
	}
	if !bad && string(b) != text {
		t.Errorf("%s: the digests agree, but the file is not as %s writes it (its header, its order or a name given twice)", f.Path, regen(t))
	}
}

// Sums returns the file's digests by name (with t.Fatalf a file that cannot be read), for a
// test that checks other results against them.
func (f File) Sums(t testing.TB) map[string]string {
	t.Helper()
	_, ds, _ := f.read(t)
	m := map[string]string{}
	for _, d := range ds {
		m[d.Name] = d.Sum
	}
	return m
}

// read reads and parses the file; ok is false, and t told, when it cannot.
func (f File) read(t testing.TB) (text []byte, digests []Digest, ok bool) {
	t.Helper()
	b, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, regen(t))
		return nil, nil, false
	}
	ds, err := f.Parse(string(b))
	if err != nil {
		t.Fatalf("%v (%s rewrites it)", err, regen(t))
		return nil, nil, false
	}
	return b, ds, true
}

// Bytes compares got with the file at path byte for byte, after rewriting the file with got
// when the test runs with -update. It reports a difference with t.Errorf (with t.Fatalf a file
// that cannot be read) and returns whether they are equal.
func Bytes(t testing.TB, path string, got []byte) bool {
	t.Helper()
	if *update {
		write(t, path, got)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, regen(t))
		return false
	}
	if bytes.Equal(got, want) {
		return true
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s: the test made %d bytes, the file has %d; the first difference is at byte %d (%s after a deliberate change)", path, len(got), len(want), i, regen(t))
	return false
}

// write writes a golden file, making its folder.
func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

// regen is the command that rewrites the golden files of the running test.
func regen(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return "go test -run '^" + name + "$' -update"
}
