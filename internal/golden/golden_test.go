package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what a check reports instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Name() string        { return "TestThing/sub" }
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.errs = append(r.errs, "FATAL "+fmt.Sprintf(format, a...))
}
func (r *recorder) Fatal(a ...any)   { r.errs = append(r.errs, "FATAL "+fmt.Sprint(a...)) }
func (r *recorder) reported() string { return strings.Join(r.errs, "\n") }

const header = "# digests\n# go test -update\n"

func TestCheck(t *testing.T) {
	good := "# digests\n# go test -update\nalpha ideal=true: 11\nbeta: 22\n"
	got := []Digest{{"alpha ideal=true", "11"}, {"beta", "22"}}
	for _, tc := range []struct {
		name, file string
		got        []Digest
		want       []string // what the reports hold, one substring each, in order ("" none)
	}{
		{"same", good, got, nil},
		{"comments and blank lines anywhere", "\n# x\nalpha ideal=true: 11\n\n# y\nbeta: 22\n", got,
			[]string{"the digests agree, but the file is not as go test -run '^TestThing$' -update writes it"}},
		{"order", header + "beta: 22\nalpha ideal=true: 11\n", got, []string{"the digests agree, but the file is not as"}},
		{"changed", good, []Digest{{"alpha ideal=true", "12"}, {"beta", "22"}},
			[]string{"f.txt: alpha ideal=true: digest 12 on "}},
		{"new", good, append(got, Digest{"gamma", "33"}), []string{"f.txt: gamma: no digest in the file (the test's is 33; go test -run '^TestThing$' -update)"}},
		{"gone", good, got[:1], []string{"f.txt: beta: the test no longer makes this digest"}},
		{"bad line", header + "alpha 11\n", got, []string{"FATAL f.txt:3: want NAME: SUM, not \"alpha 11\""}},
		{"no sum", header + "alpha: \n", got, []string{"FATAL f.txt:3: want NAME: SUM"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(path, []byte(tc.file), 0o644); err != nil {
				t.Fatal(err)
			}
			f := File{Path: path, Header: header, Sep: ": "}
			r := &recorder{}
			f.Check(r, tc.got)
			if len(r.errs) != len(tc.want) {
				t.Fatalf("reported\n%s\nwant %d reports: %q", r.reported(), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(strings.ReplaceAll(r.errs[i], dir+"/", ""), w) {
					t.Errorf("report %d: %q, want it to hold %q", i, r.errs[i], w)
				}
			}
		})
	}
}

func TestCheckNoFile(t *testing.T) {
	r := &recorder{}
	File{Path: filepath.Join(t.TempDir(), "none.txt")}.Check(r, []Digest{{"a", "1"}})
	if len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "FATAL ") || !strings.Contains(r.errs[0], "none.txt") ||
		!strings.HasSuffix(r.errs[0], "(go test -run '^TestThing$' -update writes it)") {
		t.Errorf("reported %q", r.errs)
	}
}

// setUpdate runs the rest of the test as if with -update.
func setUpdate(t *testing.T) {
	old := *update
	*update = true
	t.Cleanup(func() { *update = old })
}

func TestUpdate(t *testing.T) {
	if Update() {
		t.Skip("run with -update")
	}
	setUpdate(t)
	if !Update() {
		t.Fatal("Update() is false under -update")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "testdata", "f.txt") // the folder is made
	f := File{Path: path, Header: header, Sep: " "}
	got := []Digest{{"b", "2"}, {"a", "1"}}
	r := &recorder{}
	f.Check(r, got)
	if len(r.errs) > 0 {
		t.Fatalf("reported %q", r.errs)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != header+"b 2\na 1\n" {
		t.Fatalf("wrote %q, %v", b, err)
	}
	p2 := filepath.Join(dir, "state")
	if !Bytes(r, p2, []byte("xyz")) || len(r.errs) > 0 {
		t.Fatalf("Bytes under -update: %q", r.errs)
	}
	if b, err := os.ReadFile(p2); err != nil || string(b) != "xyz" {
		t.Fatalf("Bytes wrote %q, %v", b, err)
	}
}

func TestBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.state")
	if err := os.WriteFile(path, []byte("abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, got, want string
	}{
		{"same", "abcdef", ""},
		{"changed", "abXdef", "the test made 6 bytes, the file has 6; the first difference is at byte 2 (go test -run '^TestThing$' -update after a deliberate change)"},
		{"shorter", "abc", "the test made 3 bytes, the file has 6; the first difference is at byte 3"},
		{"longer", "abcdefg", "the test made 7 bytes, the file has 6; the first difference is at byte 6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			eq := Bytes(r, path, []byte(tc.got))
			if eq != (tc.want == "") || tc.want == "" && len(r.errs) > 0 || tc.want != "" && (len(r.errs) != 1 || !strings.Contains(r.errs[0], tc.want)) {
				t.Errorf("Bytes = %v, reported %q; want %q", eq, r.errs, tc.want)
			}
		})
	}
	r := &recorder{}
	if Bytes(r, path+".none", []byte("x")) || len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "FATAL ") {
		t.Errorf("a missing file: reported %q", r.errs)
	}
}

func TestSums(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(path, []byte(header+"a: 1\nb c: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	if m := (File{Path: path}).Sums(r); len(r.errs) > 0 || len(m) != 2 || m["a"] != "1" || m["b c"] != "2" {
		t.Errorf("Sums = %q, reported %q", m, r.errs)
	}
	if m := (File{Path: path + ".none"}).Sums(r); len(m) != 0 || len(r.errs) != 1 || !strings.HasPrefix(r.errs[0], "FATAL ") {
		t.Errorf("a missing file: Sums = %q, reported %q", m, r.errs)
	}
}

func TestParseAndSorted(t *testing.T) {
	f := File{Path: "g.txt", Sep: " "}
	ds, err := f.Parse("# c\n  alpha ideal=true af05  \n\nExp 80c8\n")
	if err != nil || len(ds) != 2 || ds[0] != (Digest{"alpha ideal=true", "af05"}) || ds[1] != (Digest{"Exp", "80c8"}) {
		t.Errorf("Parse = %q, %v", ds, err)
	}
	if s := Sorted(map[string]string{"b": "2", "a": "1", "c": "3"}); len(s) != 3 || s[0].Name != "a" || s[2].Name != "c" {
		t.Errorf("Sorted = %q", s)
	}
	if got := (File{}).Format([]Digest{{"a", "1"}}); got != "a: 1\n" {
		t.Errorf("the default separator: %q", got)
	}
}
