package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A go test -json stream of two packages: one with a pass, a skip and a failure, one that does
// not build.
const stream = `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestOK"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"pass","Package":"a","Test":"TestOK","Elapsed":0}
{"Action":"run","Package":"a","Test":"TestSkip"}
{"Action":"skip","Package":"a","Test":"TestSkip","Elapsed":0}
{"Action":"run","Package":"a","Test":"TestBad"}
{"Action":"output","Package":"a","Test":"TestBad","Output":"    a_test.go:9: wrong\n"}
{"Action":"fail","Package":"a","Test":"TestBad","Elapsed":0}
{"Action":"output","Package":"a","Output":"FAIL\n"}
{"Action":"fail","Package":"a","Elapsed":0.5}
# b
b/b.go:3:1: syntax error
{"Action":"start","Package":"b"}
{"Action":"output","Package":"b","Output":"FAIL\tb [build failed]\n"}
{"Action":"fail","Package":"b","Elapsed":0}
{"Action":"start","Package":"c"}
{"Action":"output","Package":"c","Output":"?   \tc\t[no test files]\n"}
{"Action":"skip","Package":"c","Elapsed":0}
{"Action":"start","Package":"d"}
{"Action":"pass","Package":"d","Elapsed":0.1}
`

// clock makes now a clock that moves 2 s at each reading, until the test ends.
func clock(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	n := 0
	now = func() time.Time { n++; return t0.Add(time.Duration(n-1) * 2 * time.Second) }
	t.Cleanup(func() { now = time.Now })
}

func TestTally(t *testing.T) {
	t.Setenv("MARK1_TALLY", filepath.Join(t.TempDir(), "tally"))
	clock(t)
	var out, errb bytes.Buffer
	if code := run([]string{"reset"}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	code := run([]string{"go"}, strings.NewReader(stream), &out, &errb)
	if code != 1 {
		t.Errorf("go: exit %d with failures, want 1", code)
	}
	for _, want := range []string{"a_test.go:9: wrong", "FAIL\ta\t0.500s", "b/b.go:3:1: syntax error", "FAIL\tb [build failed]", "?   \tc\t[no test files]", "ok  \td\t0.100s [no tests to run]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "=== RUN   TestOK") {
		t.Error("a passing test's output was printed")
	}
	if code := run([]string{"check", "true", "--", "true"}, nil, &out, &errb); code != 0 {
		t.Errorf("check true: %d", code)
	}
	if code := run([]string{"check", "false", "--", "false"}, nil, &out, &errb); code != 1 {
		t.Errorf("check false: %d", code)
	}
	run([]string{"pass", "rig-test:loop"}, nil, &out, &errb)
	if code := run([]string{"go", "race"}, strings.NewReader(`{"Action":"pass","Package":"d","Test":"TestR"}`+"\n"), &out, &errb); code != 0 {
		t.Errorf("go race: %d", code)
	}
	out.Reset()
	if code := run([]string{"summary"}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	// Each step took 2 s (two readings of the clock), the whole 18 s (nine readings since the
	// reset's).
	want := `  go test        2s        1 passed, 2 failed, 1 skipped
  true           2s        pass
  false          2s        fail
  rig-test:loop  -         pass
  race           2s        1 passed, 0 failed, 0 skipped
  in all         18s
mark1 test: 4 passed, 3 failed (2 go tests passed, 2 failed, 1 skipped; 3 checks, failed: false)
`
	if out.String() != want {
		t.Errorf("summary %q\nwant    %q", out.String(), want)
	}
	data, err := os.ReadFile(os.Getenv("MARK1_TALLY"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "reset 1796119200000\ngo 1 2 1 2.0 go test\n") {
		t.Errorf("tally file %q", data)
	}
}

// TestSummaryLines: the summary of a tally file's lines, those of the format before steps had
// times among them.
func TestSummaryLines(t *testing.T) {
	for _, tc := range []struct {
		name, tally, want string
	}{
		{"old format", "go 3 0 1\ncheck pass vet\n", "  go test  -         3 passed, 0 failed, 1 skipped\n  vet      -         pass\nmark1 test: 4 passed, 0 failed (3 go tests passed, 0 failed, 1 skipped; 1 checks)\n"},
		{"times", "go 3 0 1 61.5 go test ./...\ncheck fail imports 0.4\n", "  go test ./...  1m1.5s    3 passed, 0 failed, 1 skipped\n  imports        400ms     fail\nmark1 test: 3 passed, 1 failed (3 go tests passed, 0 failed, 1 skipped; 1 checks, failed: imports)\n"},
		{"empty", "", "mark1 test: 0 passed, 0 failed (0 go tests passed, 0 failed, 0 skipped; 0 checks)\n"},
		{"not a tally", "went 1 2\n", ""},
		{"bad time", "check pass vet soon\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "tally")
			t.Setenv("MARK1_TALLY", f)
			if err := os.WriteFile(f, []byte(tc.tally), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := summary()
			if tc.want == "" {
				if err == nil {
					t.Errorf("summary of %q = %q, want an error", tc.tally, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("summary of %q = %q, %v\nwant %q", tc.tally, got, err, tc.want)
			}
		})
	}
}
