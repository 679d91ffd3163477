package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestTally(t *testing.T) {
	t.Setenv("MARK1_TALLY", filepath.Join(t.TempDir(), "tally"))
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
	out.Reset()
	if code := run([]string{"summary"}, nil, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	want := "mark1 test: 3 passed, 3 failed (1 go tests passed, 2 failed, 1 skipped; 3 checks, failed: false)\n"
	if out.String() != want {
		t.Errorf("summary %q\nwant    %q", out.String(), want)
	}
	data, err := os.ReadFile(os.Getenv("MARK1_TALLY"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "go 1 2 1\n") {
		t.Errorf("tally file %q", data)
	}
}
