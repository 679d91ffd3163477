package docs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
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
}

// how says how a block runs, from its directive.
type how struct {
	simulate bool           // hwbridge on simulated chips: --simulate added to its commands
	display  bool           // under Xvfb
	timeout  time.Duration  // run this long, then stop it: still running counts as success
	fails    bool           // the block shows an error: it must exit non-zero
	system   string         // it changes the system (/etc, users): run only as root with MARK1_DOCS_SYSTEM=1
	pi       string         // it needs a Raspberry Pi: not run here, said why
	skip     string         // not run, said why (only for the one block that would run this test)
	expect   *regexp.Regexp // what the block's output must show (its point, not only its exit status)
}

// parseDirective reads "simulate, display, timeout=20s, fails, expect: regexp, system: why, pi:
// why, skip: why"; a reason or an expect runs to the end of the comment.
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
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 || d > 10*time.Minute {
				return h, fmt.Errorf("docs-test: timeout=%q: want a duration up to 10m", val)
			}
			h.timeout = d
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
			return h, fmt.Errorf("docs-test: %q: want simulate, display, timeout=D, fails, expect: REGEXP, system: WHY, pi: WHY or skip: WHY", part)
		}
	}
	return h, nil
}

// TestDocsRunAsPasted runs every ```sh block of README.md and docs/ as a newcomer pastes it: in
// a fresh copy of the repository (a clone's files), with a fresh home folder whose
// ~/.local/bin (where make demo installs mark1, hwbridge and mark1-museum) is on the PATH, each
// block with bash -e in order, file by file. A block that fails fails the test, naming its
// file and line.
//
// A comment <!-- docs-test: ... --> on the line before a block says how it runs when it cannot
// run as written here: "simulate" (hwbridge on simulated chips), "display" (under Xvfb),
// "timeout=D" (a program that runs until stopped: stopped after D, still running counts),
// "fails" (it shows an error), "expect: REGEXP" (what its output must show, to the end of the
// comment), "system: WHY" (it changes /etc or the users: run only as root
// with MARK1_DOCS_SYSTEM=1, as CI does), "pi: WHY" (it needs a Raspberry Pi: not run) and
// "skip: WHY" (make test itself). The test prints what it did not run, and why.
//
// It runs when MARK1_DOCS_TEST=1 (scripts/docs-test.sh, in make test); MARK1_DOCS_ONLY="README.md
// docs/rig.md" runs those files' blocks only.
func TestDocsRunAsPasted(t *testing.T) {
	if os.Getenv("MARK1_DOCS_TEST") != "1" {
		t.Skip("MARK1_DOCS_TEST is not 1 (scripts/docs-test.sh runs this test, in make test)")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	home := filepath.Join(work, "home")
	bin := filepath.Join(home, ".local", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	env := docsEnv(t, home, bin)
	// The binaries, installed as the README says make demo does (its --install-only step: the
	// same script, without opening a window or running the terminal demo).
	// Under Xvfb, so that the window (mark1-museum) is built and installed too.
	install := exec.Command("xvfb-run", "-a", "bash", "scripts/museum-demo.sh", "--install-only")
	install.Dir, install.Env = root, env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("installing as make demo does: %v\n%s", err, out)
	}
	for _, name := range []string{"mark1", "hwbridge", "mark1-museum"} {
		if _, err := os.Stat(filepath.Join(bin, name)); err != nil {
			t.Fatalf("make demo's install did not put %s in ~/.local/bin: %v", name, err)
		}
	}
	system := os.Getuid() == 0 && os.Getenv("MARK1_DOCS_SYSTEM") == "1"
	var notRun []string
	ran := 0
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
		clone := filepath.Join(work, strings.ReplaceAll(f, "/", "_"))
		copyRepo(t, root, clone)
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
			case h.system != "" && !system:
				notRun = append(notRun, fmt.Sprintf("%s:%d: changes the system (%s): runs only as root with MARK1_DOCS_SYSTEM=1", b.file, b.Line, h.system))
				continue
			}
			runBlock(t, b, h, clone, env, bin)
			ran++
		}
	}
	t.Logf("ran %d blocks", ran)
	for _, s := range notRun {
		t.Logf("not run: %s", s)
	}
}

// docsEnv is a newcomer's environment: a fresh home, ~/.local/bin first on the PATH (as
// Debian's ~/.profile puts it when it exists), Go's caches where they were (so nothing is
// downloaded or built twice), no display unless a block asks for Xvfb.
func docsEnv(t *testing.T, home, bin string) []string {
	t.Helper()
	keep := map[string]bool{"LANG": true, "TERM": true, "TMPDIR": true, "USER": true, "LOGNAME": true, "SHELL": true,
		"GOFLAGS": true, "GOPROXY": true, "GONOSUMDB": true, "GOPRIVATE": true, "CGO_ENABLED": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if keep[k] {
			env = append(env, kv)
		}
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(out)))
	}
	env = append(env, "HOME="+home, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "MARK1_DOCS_TEST=")
	return env
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

// runBlock runs one block with bash -e in dir, as its directive says.
func runBlock(t *testing.T, b block, h how, dir string, env []string, bin string) {
	t.Helper()
	// At the end, programs the block left in the background are stopped; the block's own exit
	// status is kept (a kill with no job to kill must not replace it).
	script := "set -e -o pipefail\ntrap 'rc=$?; j=$(jobs -p); [ -z \"$j\" ] || kill $j 2>/dev/null || true; wait 2>/dev/null || true; exit $rc' EXIT\n" + b.Text
	if h.simulate {
		// hwbridge's commands that open hardware run on simulated chips instead.
		sim := filepath.Join(filepath.Dir(bin), "sim-bin")
		if err := os.MkdirAll(sim, 0o755); err != nil {
			t.Fatal(err)
		}
		wrapper := "#!/bin/sh\ncase \"$1\" in serve|run|jog|calibrate|scan) exec " + strconv.Quote(filepath.Join(bin, "hwbridge")) + " \"$@\" --simulate;; esac\n" +
			"exec " + strconv.Quote(filepath.Join(bin, "hwbridge")) + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(sim, "hwbridge"), []byte(wrapper), 0o755); err != nil {
			t.Fatal(err)
		}
		script = "export PATH=" + strconv.Quote(sim) + ":\"$PATH\"\n" + script
	}
	limit := 5 * time.Minute
	if h.timeout > 0 {
		limit = h.timeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	args := []string{"bash", "-c", script}
	if h.display {
		args = append([]string{"xvfb-run", "-a", "-s", "-screen 0 1920x1080x24"}, args...)
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	// The block runs in its own process group: stopping it (Ctrl-C, as a person would) reaches
	// the program it runs, and whatever is left at the end is killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // leftovers of the group, if any
	}
	took := time.Since(start).Round(100 * time.Millisecond)
	timedOut := ctx.Err() != nil
	switch {
	case timedOut && h.timeout > 0 && h.expect != nil && !h.expect.Match(out.Bytes()):
		t.Errorf("%s:%d: stopped after %v without showing what the docs say it does (%s):\n%s", b.file, b.Line, took, h.expect, tail(out.String()))
	case timedOut && h.timeout > 0:
		t.Logf("%s:%d: ran %v, stopped (a program that runs until stopped)", b.file, b.Line, took)
	case timedOut:
		t.Errorf("%s:%d: still running after %v:\n%s", b.file, b.Line, limit, tail(out.String()))
	case h.fails && err == nil:
		t.Errorf("%s:%d: the block shows an error, but it exited 0:\n%s", b.file, b.Line, tail(out.String()))
	case !h.fails && err != nil:
		t.Errorf("%s:%d: %v, pasted as written:\n%s\noutput:\n%s", b.file, b.Line, err, indent(b.Text), tail(out.String()))
	case h.expect != nil && !h.expect.Match(out.Bytes()):
		t.Errorf("%s:%d: the output does not show what the docs say it does (%s):\n%s", b.file, b.Line, h.expect, tail(out.String()))
	default:
		t.Logf("%s:%d: ok (%v)", b.file, b.Line, took)
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
