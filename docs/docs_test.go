package docs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
)

// A block is a fenced code block of a doc file.
type block struct {
	mdblock.Block
	file string
}

// parse returns the blocks of a doc file and its indented code blocks' lines.
func parse(name string, r io.Reader) ([]block, []int, error) {
	bs, indented, err := mdblock.Parse(name, r)
	blocks := make([]block, len(bs))
	for i, b := range bs {
		blocks[i] = block{b, name}
	}
	return blocks, indented, err
}

// docFiles are the files whose blocks run: README.md, then docs/ and docs/lab/, by name.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	for _, pat := range []string{"docs/*.md", "docs/lab/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			files = append(files, rel)
		}
	}
	slices.Sort(files[1:])
	return files
}

// TestDocsFenced: every code block of the docs is fenced, and every fenced block says what it
// is: sh for commands (they run in TestDocsRunAsPasted), or its language.
func TestDocsFenced(t *testing.T) {
	for _, f := range docFiles(t, "..") {
		t.Run(f, func(t *testing.T) { checkFenced(t, f) })
	}
}

// checkFenced checks a doc file's code blocks and their directives.
func checkFenced(t *testing.T, f string) {
	data, err := os.ReadFile(filepath.Join("..", f))
	if err != nil {
		t.Fatal(err)
	}
	blocks, indented, err := parse(f, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range indented {
		t.Errorf("%s:%d: an indented code block: fence it (```sh for commands, ```text or its language for the rest)", f, n)
	}
	for _, b := range blocks {
		if b.Lang == "" {
			t.Errorf("%s:%d: a fenced block without a language (```sh for commands, ```text for the rest)", f, b.Line)
		}
		if b.Directive != "" && b.Lang != "sh" {
			t.Errorf("%s:%d: a docs-test directive on a %s block: only sh blocks run", f, b.Line, b.Lang)
		}
		if _, err := parseDirective(b.Directive); err != nil {
			t.Errorf("%s:%d: %v", f, b.Line, err)
		}
	}
}

// how says how a block runs, from its directive.
type how struct {
	simulate bool          // hwbridge on simulated chips: --simulate added to its commands
	display  bool          // under Xvfb, where the test says when a window opens
	timeout  time.Duration // a program that runs until stopped: stopped as soon as expect shows, failed if not by then
	limit    time.Duration // a block that ends by itself may take this long (default 5 minutes)
	fails    bool          // the block shows an error: it must exit non-zero
	system   string        // it changes the system (/etc, users): run only as root with MARK1_DOCS_SYSTEM=1
	pi       string        // it needs a Raspberry Pi: not run here, said why
	skip     string        // not run, said why (only for the one block that would run this test)
	// What the block's output must show (its point, not only its exit status); for a program
	// that runs until stopped, what shows it is running.
	expect *regexp.Regexp
}

// defaultLimit is how long a block that ends by itself may take without a limit=D.
const defaultLimit = 5 * time.Minute

// parseDirective reads "simulate, display, timeout=20s, limit=10m, fails, expect: regexp,
// system: why, pi: why, skip: why"; a reason or an expect runs to the end of the comment. A
// timeout needs an expect: the block is stopped as soon as it shows, never waited out.
func parseDirective(d string) (how, error) {
	var h how
	if d == "" {
		return h, nil
	}
	// A reason (after system:, pi: or skip:) is the rest of the comment, commas and all.
	rest := d
	for rest != "" {
		part, after, _ := strings.Cut(rest, ",")
		rest = after
		part = strings.TrimSpace(part)
		if k, _, ok := strings.Cut(part, ":"); ok && slices.Contains([]string{"system", "pi", "skip", "expect"}, strings.TrimSpace(k)) && rest != "" {
			part, rest = part+","+rest, ""
		}
		key, val, _ := strings.Cut(part, ":")
		if k, v, ok := strings.Cut(part, "="); ok && !strings.Contains(k, ":") {
			key, val = k, v
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "simulate":
			h.simulate = true
		case "display":
			h.display = true
		case "fails":
			h.fails = true
		case "timeout", "limit":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 || d > 10*time.Minute {
				return h, fmt.Errorf("docs-test: %s=%q: want a duration up to 10m", key, val)
			}
			if key == "timeout" {
				h.timeout = d
			} else {
				h.limit = d
			}
		case "expect":
			re, err := regexp.Compile(val)
			if err != nil || val == "" {
				return h, fmt.Errorf("docs-test: expect: %q: want a regular expression the output must match", val)
			}
			h.expect = re
		case "system", "pi", "skip":
			if val == "" {
				return h, fmt.Errorf("docs-test: %s: say why (%s: REASON)", key, key)
			}
			switch key {
			case "system":
				h.system = val
			case "pi":
				h.pi = val
			default:
				h.skip = val
			}
		default:
			return h, fmt.Errorf("docs-test: %q: want simulate, display, timeout=D, limit=D, fails, expect: REGEXP, system: WHY, pi: WHY or skip: WHY", part)
		}
	}
	switch {
	case h.timeout > 0 && h.expect == nil:
		return h, fmt.Errorf("docs-test: timeout=%v without expect: say what shows the program is running (expect: REGEXP): it is stopped as soon as that shows", h.timeout)
	case h.timeout > 0 && h.limit > 0:
		return h, fmt.Errorf("docs-test: timeout and limit together: timeout=D for a program that runs until stopped, limit=D for a block that ends by itself")
	case h.timeout > 0 && h.fails:
		return h, fmt.Errorf("docs-test: timeout and fails together: a program stopped by the test has no exit status of its own")
	}
	return h, nil
}

// TestDocsRunAsPasted runs every ```sh block of README.md and docs/ as a newcomer pastes it: in
// a fresh copy of the repository (a clone's files), with a fresh home folder whose
// ~/.local/bin (where make demo installs mark1, hwbridge and mark1-museum) is on the PATH, each
// block with bash -e. A block that fails fails the test, naming its file and line.
//
// Each file's blocks run in order, in the file's own copy and home (a block may use what an
// earlier one made: train --save x, then eval --state x); the files run side by side, each a
// subtest (go test -parallel N says how many at once; -run 'TestDocsRunAsPasted/docs/rig.md'
// or MARK1_DOCS_ONLY="README.md docs/rig.md" runs some only). No file may use another's.
//
// A comment <!-- docs-test: ... --> on the line before a block says how it runs when it cannot
// run as written here: "simulate" (hwbridge on simulated chips), "display" (under an Xvfb of
// its own, where the test prints "docs-test: a window opened: TITLE" when the first window is
// mapped), "timeout=D, expect: REGEXP" (a program that runs until stopped: stopped as a person
// would, Ctrl-C, as soon as its output matches, failed if it has not by D), "limit=D" (a block
// that ends by itself but takes longer than 5 minutes), "fails" (it shows an error), "expect:
// REGEXP" (what its output must show, to the end of the comment), "system: WHY" (it changes /etc
// or the users: run only as root with MARK1_DOCS_SYSTEM=1, as CI does), "pi: WHY" (it needs a
// Raspberry Pi: not run) and "skip: WHY" (make test itself). The test prints what it did not
// run, and why.
//
// Servers and their clients never meet anything but each other (see movePorts): every address
// of the docs on a default port (mark1 web's 8080, hwbridge's 8707, the museum's status
// endpoint's 8177) is moved to a free port the test picked for the file, and the commands that
// use a default port without naming it (mark1 web, hwbridge serve, halt, ...) are given it.
//
// Nothing outlives the test (see runner): each block is a process group of its own that goes
// when the test ends however it ends (SIGINT, SIGTERM, a timeout's panic, SIGKILL), and the
// test's folder (a fixed one per checkout, so that the Go build cache serves its builds) is
// removed at the end, or by the next run after a SIGKILL.
//
// It runs when MARK1_DOCS_TEST=1 (scripts/docs-test.sh, in make test).
func TestDocsRunAsPasted(t *testing.T) {
	if os.Getenv("MARK1_DOCS_TEST") != "1" {
		t.Skip("MARK1_DOCS_TEST is not 1 (scripts/docs-test.sh runs this test, in make test)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, root)
	start := time.Now()
	r.install(t)
	t.Logf("installed as make demo does (%v)", time.Since(start).Round(100*time.Millisecond))
	only := strings.Fields(os.Getenv("MARK1_DOCS_ONLY")) // a developer's choice of files
	for _, f := range docFiles(t, root) {
		if len(only) > 0 && !slices.Contains(only, f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		blocks, _, err := parse(f, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		var sh []block
		for _, b := range blocks {
			if b.Lang == "sh" {
				sh = append(sh, b)
			}
		}
		if len(sh) == 0 {
			continue
		}
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			r.runFile(t, f, sh)
		})
	}
}

// makeWebRe finds the blocks that build the browser version (see sharedWeb).
var makeWebRe = regexp.MustCompile(`\bmake web\b|scripts/web-build\.sh`)

// runFile runs a file's blocks in order, in its own copy of the repository and its own home.
func (r *runner) runFile(t *testing.T, f string, sh []block) {
	start := time.Now()
	fr := r.newFile(t, f)
	if slices.ContainsFunc(sh, func(b block) bool { return makeWebRe.MatchString(b.Text) }) {
		fr.sharedWeb(t)
	}
	var notRun []string
	ran := 0
	for _, b := range sh {
		h, err := parseDirective(b.Directive)
		if err != nil {
			t.Fatalf("%s:%d: %v", b.file, b.Line, err)
		}
		switch {
		case h.skip != "":
			notRun = append(notRun, fmt.Sprintf("%s:%d: skipped: %s", b.file, b.Line, h.skip))
			continue
		case h.pi != "":
			notRun = append(notRun, fmt.Sprintf("%s:%d: needs a Raspberry Pi: %s", b.file, b.Line, h.pi))
			continue
		case h.system != "" && !r.system:
			notRun = append(notRun, fmt.Sprintf("%s:%d: changes the system (%s): runs only as root with MARK1_DOCS_SYSTEM=1", b.file, b.Line, h.system))
			continue
		}
		fr.runBlock(t, b, h)
		ran++
	}
	t.Logf("%s: ran %d blocks in %v", f, ran, time.Since(start).Round(100*time.Millisecond))
	for _, s := range notRun {
		t.Logf("not run: %s", s)
	}
}

// docsEnv is a newcomer's environment: a fresh home, ~/.local/bin first on the PATH (as
// Debian's ~/.profile puts it when it exists) after the test's wrappers (see writeWrappers), Go's
// caches where they were (so nothing is downloaded or built twice), temporary files in the
// test's folder, no display unless a block asks for Xvfb.
func docsEnv(goEnv []string, home, wrap, bin, tmp string) []string {
	keep := map[string]bool{"LANG": true, "TERM": true, "USER": true, "LOGNAME": true, "SHELL": true,
		"GOFLAGS": true, "GOPROXY": true, "GONOSUMDB": true, "GOPRIVATE": true, "CGO_ENABLED": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if keep[k] {
			env = append(env, kv)
		}
	}
	sep := string(os.PathListSeparator)
	env = append(env, goEnv...)
	return append(env, "HOME="+home, "TMPDIR="+tmp, "PATH="+wrap+sep+bin+sep+os.Getenv("PATH"), "MARK1_DOCS_TEST=")
}

// copyRepo copies the repository's tracked files (as they are now, committed or not) to dst:
// what a fresh clone holds.
func copyRepo(t *testing.T, root, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link, to); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 25 {
		lines = append([]string{"..."}, lines[len(lines)-25:]...)
	}
	return indent(strings.Join(lines, "\n"))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
