// Command testtally counts what make test ran, so that its last line says it: the tests of
// every go test run (read from go test -json) and the checks of the scripts, passed and
// failed, in a tally file (MARK1_TALLY, default mark1-tally in the temporary folder).
//
// Usage:
//
//	testtally reset                          start a new tally (and its clock)
//	go test -json ARGS | testtally go [NAME] print go test's results as go test would, count them
//	testtally check NAME -- CMD [ARGS]       run CMD, count it as a check named NAME
//	testtally pass NAME | fail NAME          count a check a script ran itself
//	testtally summary                        print each step's time, then "mark1 test: N passed, N failed (...)"
//
// go counts a test that passed, failed or was skipped; a package that does not build, or a
// failure outside any test, counts as a failed test. It exits 1 when anything failed. Its
// step, named NAME ("go test" by default), lasts from its start to the end of its input (the
// go test run it reads); a check's step lasts as long as CMD. The summary lists the steps in
// the order they ran, each with its result and time, and the time since the reset, before its
// last line.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func tallyFile() string {
	if f := os.Getenv("MARK1_TALLY"); f != "" {
		return f
	}
	return filepath.Join(os.TempDir(), "mark1-tally")
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: testtally reset | go | check NAME -- CMD... | pass NAME | fail NAME | summary")
		return 2
	}
	switch args[0] {
	case "reset":
		if err := os.WriteFile(tallyFile(), fmt.Appendf(nil, "reset %d\n", now().UnixMilli()), 0o644); err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		return 0
	case "go":
		name := "go test"
		if len(args) > 1 {
			name = strings.Join(args[1:], " ")
		}
		start := now()
		t, err := readGoTest(stdin, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		if err := appendLine(fmt.Sprintf("go %d %d %d %s %s", t.pass, t.fail, t.skip, seconds(now().Sub(start)), name)); err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		if t.fail > 0 {
			return 1
		}
		return 0
	case "pass", "fail":
		if len(args) != 2 {
			fmt.Fprintf(stderr, "usage: testtally %s NAME\n", args[0])
			return 2
		}
		if err := appendLine(fmt.Sprintf("check %s %s -", args[0], args[1])); err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		return 0
	case "check":
		if len(args) < 4 || args[2] != "--" {
			fmt.Fprintln(stderr, "usage: testtally check NAME -- CMD [ARGS]")
			return 2
		}
		cmd := exec.Command(args[3], args[4:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		start := now()
		err := cmd.Run()
		took := now().Sub(start)
		result, code := "pass", 0
		if err != nil {
			result, code = "fail", 1
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else {
				fmt.Fprintf(stderr, "testtally: %s: %v\n", args[1], err)
			}
		}
		if err := appendLine(fmt.Sprintf("check %s %s %s", result, args[1], seconds(took))); err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		return code
	case "summary":
		text, err := summary()
		if err != nil {
			fmt.Fprintf(stderr, "testtally: %v\n", err)
			return 1
		}
		fmt.Fprint(stdout, text)
		return 0
	}
	fmt.Fprintf(stderr, "testtally: unknown command %q\n", args[0])
	return 2
}

// now is the clock (a test's own, in the tests).
var now = time.Now

// seconds writes a duration for the tally file.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) }

func appendLine(line string) error {
	f, err := os.OpenFile(tallyFile(), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(f, line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// event is one line of go test -json (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type tally struct{ pass, fail, skip int }

// readGoTest reads go test -json, prints what go test would (the package lines, and the whole
// output of failed tests and packages), and counts the tests.
func readGoTest(r io.Reader, w io.Writer) (tally, error) {
	var t tally
	out := map[string]*strings.Builder{} // by package and test, until it ends
	key := func(e event) string { return e.Package + "\x00" + e.Test }
	failedPkgs := map[string]bool{}
	testsIn := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line) // a build error, printed by go test outside the stream
			continue
		}
		switch e.Action {
		case "output":
			b := out[key(e)]
			if b == nil {
				b = &strings.Builder{}
				out[key(e)] = b
			}
			if b.Len() < 1<<20 {
				b.WriteString(e.Output)
			}
		case "pass", "fail", "skip":
			b := out[key(e)]
			delete(out, key(e))
			if e.Test != "" {
				testsIn[e.Package]++
				switch e.Action {
				case "pass":
					t.pass++
				case "skip":
					t.skip++
				default:
					t.fail++
					failedPkgs[e.Package] = true
					if b != nil {
						fmt.Fprint(w, b.String())
					}
				}
				continue
			}
			// The package's end: its summary line, and its whole output when it failed
			// without a failed test (a build error, a panic in init, TestMain).
			if e.Action == "fail" && !failedPkgs[e.Package] {
				t.fail++
				if b != nil {
					fmt.Fprint(w, b.String())
				}
			}
			switch {
			case e.Action == "fail":
				fmt.Fprintf(w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
			case e.Action == "skip":
				fmt.Fprintf(w, "?   \t%s\t[no test files]\n", e.Package)
			case testsIn[e.Package] == 0:
				fmt.Fprintf(w, "ok  \t%s\t%.3fs [no tests to run]\n", e.Package, e.Elapsed)
			default:
				fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			}
		}
	}
	return t, sc.Err()
}

// A step is one line of the summary: a check or a go test run, with its time.
type step struct {
	name, result string
	took         time.Duration // -1: not known (a check a script counted itself)
}

// summary reads the tally file and says what ran: a line per step with its time, the time
// since the reset, then the totals (always the last line).
func summary() (string, error) {
	data, err := os.ReadFile(tallyFile())
	if err != nil {
		return "", err
	}
	var goT tally
	var checks, failedChecks []string
	var steps []step
	var started time.Time
	took := func(s string) (time.Duration, error) {
		if s == "-" {
			return -1, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		return time.Duration(f * float64(time.Second)), err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "reset":
			ms, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return "", fmt.Errorf("tally line %q: %w", line, err)
			}
			started = time.UnixMilli(ms)
		case len(f) >= 4 && f[0] == "go":
			var p, fl, s int
			if _, err := fmt.Sscan(strings.Join(f[1:4], " "), &p, &fl, &s); err != nil {
				return "", fmt.Errorf("tally line %q: %w", line, err)
			}
			goT.pass, goT.fail, goT.skip = goT.pass+p, goT.fail+fl, goT.skip+s
			st := step{name: "go test", result: fmt.Sprintf("%d passed, %d failed, %d skipped", p, fl, s), took: -1}
			if len(f) >= 6 {
				if st.took, err = took(f[4]); err != nil {
					return "", fmt.Errorf("tally line %q: %w", line, err)
				}
				st.name = strings.Join(f[5:], " ")
			}
			steps = append(steps, st)
		case (len(f) == 3 || len(f) == 4) && f[0] == "check":
			checks = append(checks, f[2])
			if f[1] == "fail" {
				failedChecks = append(failedChecks, f[2])
			}
			st := step{name: f[2], result: f[1], took: -1}
			if len(f) == 4 {
				if st.took, err = took(f[3]); err != nil {
					return "", fmt.Errorf("tally line %q: %w", line, err)
				}
			}
			steps = append(steps, st)
		case len(f) == 0:
		default:
			return "", fmt.Errorf("tally line %q: not a tally", line)
		}
	}
	var b strings.Builder
	width := 0
	for _, st := range steps {
		width = max(width, len(st.name))
	}
	for _, st := range steps {
		t := "-"
		if st.took >= 0 {
			t = st.took.Round(100 * time.Millisecond).String()
		}
		fmt.Fprintf(&b, "  %-*s  %-8s  %s\n", width, st.name, t, st.result)
	}
	if !started.IsZero() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, "in all", now().Sub(started).Round(time.Second))
	}
	passed := goT.pass + len(checks) - len(failedChecks)
	failed := goT.fail + len(failedChecks)
	fmt.Fprintf(&b, "mark1 test: %d passed, %d failed (%d go tests passed, %d failed, %d skipped; %d checks",
		passed, failed, goT.pass, goT.fail, goT.skip, len(checks))
	if len(failedChecks) > 0 {
		sort.Strings(failedChecks)
		b.WriteString(", failed: " + strings.Join(failedChecks, ", "))
	}
	b.WriteString(")\n")
	return b.String(), nil
}
