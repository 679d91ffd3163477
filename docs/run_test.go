package docs

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The runner of TestDocsRunAsPasted: the test's folder, the programs make demo installs, the
// blocks' process groups, and the ports and displays it hands out.
//
// How no block outlives the test: each block is started by a keeper shell, the leader of a
// process group of its own, with Pdeathsig = SIGKILL (the kernel kills it when the test
// process dies). The keeper first starts a sentinel in the group that reads a pipe whose
// writing end only the test process holds, then execs the block (keeping the Pdeathsig). When
// the test process ends, however it ends (SIGKILL and a -timeout panic included), the pipe
// closes, and the sentinel sends SIGTERM, then SIGKILL, to its whole group: the programs a
// block left in the background too, which Pdeathsig alone would not reach. On SIGINT, SIGTERM
// and SIGHUP the test itself stops every group, removes its folder and dies of the signal.
//
// When a block's shell ends, what is left of its group gets SIGTERM and is waited for (the
// test process is a child subreaper: a block's orphans become its children), then killed after
// a grace: an Xvfb removes its lock file and socket only when it ends of a signal it catches.
type runner struct {
	root     string   // the repository under test
	work     string   // the test's folder: /tmp/mark1-docs-test-HASH, one per checkout
	lock     *os.File // held while the test runs (one docs test per checkout at a time)
	lifeline *os.File // the pipe's reading end, handed to every block's sentinel
	hold     *os.File // its writing end, never written: its closing ends every block
	goEnv    []string // GOCACHE, GOMODCACHE, GOPATH as go env says
	bin      string   // where make demo's install put mark1, hwbridge, mark1-museum
	system   bool     // run the blocks that change the system (root and MARK1_DOCS_SYSTEM=1)

	// fs is held (read) while the test writes into its folder, and (write) by a signal's
	// handler while it removes the folder; stopping, set by the handler, stops what starts
	// after.
	fs       sync.RWMutex
	stopping atomic.Bool

	// web is the browser build the files whose blocks run make web start from (sharedWeb).
	web struct {
		once sync.Once
		dir  string
		err  error
	}

	mu       sync.Mutex
	groups   map[int]bool // running blocks' process groups
	ports    map[int]bool // ports handed out
	displays map[int]bool // X displays in use
}

// newRunner makes the test's folder and installs the signal handling; both go at the end of
// the test.
func newRunner(t *testing.T, root string) *runner {
	t.Helper()
	r := &runner{root: root, work: workDir(root),
		groups: map[int]bool{}, ports: map[int]bool{}, displays: map[int]bool{},
		system: os.Getuid() == 0 && os.Getenv("MARK1_DOCS_SYSTEM") == "1"}
	lock, err := os.OpenFile(r.work+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		t.Fatalf("another docs test of %s is running (%s.lock is held): %v", root, r.work, err)
	}
	r.lock = lock
	// The folder has a fixed name, so that the Go build cache serves the blocks' builds from
	// one run to the next (a package's folder is part of its build's key); what a killed run
	// left is removed here.
	if err := os.RemoveAll(r.work); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(r.work, 0o755); err != nil {
		t.Fatal(err)
	}
	if r.lifeline, r.hold, err = os.Pipe(); err != nil {
		t.Fatal(err)
	}
	// A block's orphans become the test's children, so that endGroup can wait for them.
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		r.goEnv = append(r.goEnv, []string{"GOCACHE", "GOMODCACHE", "GOPATH"}[i]+"="+v)
	}
	stopSignals := r.onSignal()
	t.Cleanup(func() {
		stopSignals()
		r.stopAll()
		r.hold.Close()
		r.lifeline.Close()
		if err := os.RemoveAll(r.work); err != nil {
			t.Errorf("removing the test's folder: %v", err)
		}
		os.Remove(r.work + ".lock")
		r.lock.Close()
	})
	return r
}

// workDir is the test's folder for the checkout at root.
func workDir(root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(os.TempDir(), fmt.Sprintf("mark1-docs-test-%x", sum[:6]))
}

// onSignal stops every block and removes the test's folder on SIGINT, SIGTERM or SIGHUP, then
// lets the signal end the test. The function it returns stops watching.
func (r *runner) onSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-ch:
			r.stopping.Store(true) // no block starts, nothing is written after this
			r.stopAll()
			r.fs.Lock() // what is being written is written
			os.RemoveAll(r.work)
			os.Remove(r.work + ".lock")
			fmt.Fprintf(os.Stderr, "docs test: %v: every block stopped, %s removed\n", sig, r.work)
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		case <-quit:
		}
	}()
	return func() { signal.Stop(ch); close(quit) }
}

// writing holds off a signal's handler while the test writes into its folder; it stops the
// test if a signal came. done ends it.
func (r *runner) writing(t *testing.T) (done func()) {
	t.Helper()
	r.fs.RLock()
	if r.stopping.Load() {
		r.fs.RUnlock()
		t.Fatal("stopped by a signal")
	}
	return r.fs.RUnlock
}

// stopAll ends every running block's group (endGroup), all at once.
func (r *runner) stopAll() {
	r.mu.Lock()
	var wg sync.WaitGroup
	for g := range r.groups {
		wg.Add(1)
		go func() { defer wg.Done(); endGroup(g) }()
	}
	r.mu.Unlock()
	wg.Wait()
}

// endGroup sends SIGTERM to a process group, waits for those of its processes that are the
// test's children (its shell, and its orphans: the test is their subreaper) and kills the
// group when they have not all ended after the grace, or when they have (a process whose
// parent is outside the group is not waited for).
func endGroup(g int) {
	syscall.Kill(-g, syscall.SIGTERM)
	kill := time.AfterFunc(grace, func() { syscall.Kill(-g, syscall.SIGKILL) })
	defer kill.Stop()
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(-g, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil { // ECHILD: none left
			break
		}
	}
	syscall.Kill(-g, syscall.SIGKILL)
}

// freePort returns a loopback port nothing listens on now, and that the test has not handed
// out before.
func (r *runner) freePort(t *testing.T) int {
	t.Helper()
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("finding a free port: %v", err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		r.mu.Lock()
		taken := r.ports[p]
		r.ports[p] = true
		r.mu.Unlock()
		if !taken {
			return p
		}
	}
}

// display returns an X display number no other Xvfb uses, from 500 up (xvfb-run -a starts at
// 99: other tests' displays are not in the way). A lock file whose process is gone does not
// count (Xvfb replaces it). release gives it back.
func (r *runner) display() (n int, release func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for n = 500; ; n++ {
		if r.displays[n] || !staleLock(fmt.Sprintf("/tmp/.X%d-lock", n)) {
			continue
		}
		r.displays[n] = true
		return n, func() { r.mu.Lock(); delete(r.displays, n); r.mu.Unlock() }
	}
}

// staleLock reports whether an X server's lock file is missing or names a process that is
// gone.
func staleLock(file string) bool {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	pid, err2 := strconv.Atoi(strings.TrimSpace(string(data)))
	return err == nil && err2 == nil && pid > 0 && syscall.Kill(pid, 0) == syscall.ESRCH
}

// install installs mark1, hwbridge and mark1-museum as the README says make demo does (its
// --install-only step: the same script, without opening a window or running the terminal
// demo), under Xvfb so that the window is built and installed too.
func (r *runner) install(t *testing.T) {
	t.Helper()
	home := filepath.Join(r.work, "install")
	r.bin = filepath.Join(home, ".local", "bin")
	tmp := filepath.Join(home, "tmp")
	for _, d := range []string{r.bin, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	res := r.run(spec{script: "bash scripts/museum-demo.sh --install-only", dir: r.root,
		env: docsEnv(r.goEnv, home, r.bin, r.bin, tmp), display: true, limit: 10 * time.Minute})
	if res.err != nil || res.timedOut {
		t.Fatalf("installing as make demo does: %v (timed out: %v)\n%s", res.err, res.timedOut, res.out)
	}
	for _, name := range []string{"mark1", "hwbridge", "mark1-museum"} {
		if _, err := os.Stat(filepath.Join(r.bin, name)); err != nil {
			t.Fatalf("make demo's install did not put %s in ~/.local/bin: %v", name, err)
		}
	}
}

// A spec says how to run a script.
type spec struct {
	script  string
	dir     string
	env     []string
	display bool           // under an Xvfb of its own, the first window announced
	limit   time.Duration  // stopped (Ctrl-C) after this long
	stopAt  *regexp.Regexp // stopped (Ctrl-C) as soon as the output matches it
}

// A result is what a run did.
type result struct {
	out      string
	err      error // the script's exit: nil for status 0 (meaningless when stopped)
	took     time.Duration
	shown    bool // stopped because the output matched stopAt
	timedOut bool // stopped at the limit
}

// keeper starts the sentinel (see runner), then execs the block. Its arguments are the block's
// command. The sentinel ends of the SIGTERM that ends the group (endGroup) until the pipe
// closes; then it ignores it, to send the SIGKILL after.
const keeper = `( exec 0<&3 3<&- >/dev/null 2>&1; read -r _; trap '' TERM; kill -TERM 0; sleep 2; kill -KILL 0 ) &
exec "$@" 3<&-`

// windowWatcher, run on a block's display before the block ($1), prints "docs-test: a window
// opened: TITLE" when the first window with a title is mapped (xdotool waits for it).
const windowWatcher = `( w=$(xdotool search --sync --onlyvisible --name . 2>/dev/null | head -n 1) &&
	echo "docs-test: a window opened: $(xdotool getwindowname "$w" 2>/dev/null)" ) </dev/null &
exec bash -c "$1"`

// grace is how long a stopped block has to end after its Ctrl-C before it is killed.
const grace = 5 * time.Second

// run runs a script with bash in a process group of its own (see runner), and stops it at its
// limit or as soon as its output shows stopAt.
func (r *runner) run(s spec) result {
	args := []string{"bash", "-c", s.script}
	if s.display {
		n, release := r.display()
		defer release()
		args = []string{"xvfb-run", "-n", strconv.Itoa(n), "-s", "-screen 0 1920x1080x24", "bash", "-c", windowWatcher, "docs-window", s.script}
	}
	cmd := exec.Command("bash", append([]string{"-c", keeper, "docs-keeper"}, args...)...)
	cmd.Dir, cmd.Env = s.dir, s.env
	cmd.ExtraFiles = []*os.File{r.lifeline} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	pr, pw, err := os.Pipe()
	if err != nil {
		return result{err: err}
	}
	out := &output{re: s.stopAt, seen: make(chan struct{})}
	copied := make(chan struct{})
	go func() { io.Copy(out, pr); close(copied) }()
	cmd.Stdout, cmd.Stderr = pw, pw
	// Pdeathsig goes with the thread that started the process: it must not end while the
	// block runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	// Started and listed at once, so that a signal's handler stops it, or it does not start.
	r.mu.Lock()
	if r.stopping.Load() {
		err = errors.New("stopped by a signal")
	} else {
		err = cmd.Start()
	}
	pw.Close()
	if err != nil {
		r.mu.Unlock()
		pr.Close()
		return result{err: err}
	}
	g := cmd.Process.Pid
	r.groups[g] = true
	r.mu.Unlock()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	res := result{}
	limit := time.NewTimer(s.limit)
	defer limit.Stop()
	select {
	case res.err = <-waited:
	case <-out.seen:
		res.shown = true
	case <-limit.C:
		res.timedOut = true
	}
	if res.shown || res.timedOut {
		// Stopped as a person stops it: Ctrl-C (SIGINT to its process group), then killed.
		syscall.Kill(-g, syscall.SIGINT)
		select {
		case res.err = <-waited:
		case <-time.After(grace):
			syscall.Kill(-g, syscall.SIGKILL)
			res.err = <-waited
		}
	}
	res.took = time.Since(start)
	endGroup(g) // what the block left, if anything
	r.mu.Lock()
	delete(r.groups, g)
	r.mu.Unlock()
	select {
	case <-copied:
	case <-time.After(grace): // a program that left the group still holds the output
		pr.Close()
		<-copied
	}
	pr.Close()
	res.out = out.String()
	return res
}

// output collects a block's output and says when it first matches re.
type output struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	re   *regexp.Regexp
	seen chan struct{} // closed when the output matches re
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(p)
	if o.re != nil && o.re.Match(o.buf.Bytes()) {
		o.re = nil
		close(o.seen)
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// A fileRun is one file's copy of the repository, home, ports and wrappers.
type fileRun struct {
	r     *runner
	dir   string // the copy of the repository, where the blocks run
	bin   string // its home's ~/.local/bin
	wrap  string // the wrappers (see writeWrappers), first on the PATH
	env   []string
	ports map[string]int // a default port ("8707") and the file's own
}

// The ports the docs' programs listen on or call when not told otherwise: mark1 web's, the
// bridge's (hwbridge serve and run, and its clients), and the museum's status endpoint's.
var defaultPorts = []string{"8080", "8707", "8177"}

var (
	// portAddrRe is an address on a default port, as the docs write it.
	portAddrRe = regexp.MustCompile(`(127\.0\.0\.1|localhost|0\.0\.0\.0|\[::1?\]):(8080|8707|8177)\b`)
	// defaultPortRe is a default port in any other form: the test cannot move it.
	defaultPortRe = regexp.MustCompile(`:(8080|8707|8177)\b`)
)

// newFile makes a file's copy of the repository and its home, and picks its ports.
func (r *runner) newFile(t *testing.T, f string) *fileRun {
	t.Helper()
	defer r.writing(t)()
	base := filepath.Join(r.work, strings.ReplaceAll(f, "/", "_"))
	fr := &fileRun{r: r, dir: filepath.Join(base, "repo"), bin: filepath.Join(base, "home", ".local", "bin"),
		wrap: filepath.Join(base, "wrap"), ports: map[string]int{}}
	tmp := filepath.Join(base, "tmp")
	for _, d := range []string{fr.bin, fr.wrap, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyRepo(t, r.root, fr.dir)
	// What make demo installed, in this home's ~/.local/bin (linked: a block's make demo
	// replaces them, as it replaces any program, by renaming a new file into place).
	entries, err := os.ReadDir(r.bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Link(filepath.Join(r.bin, e.Name()), filepath.Join(fr.bin, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	var moved []string
	for _, p := range defaultPorts {
		fr.ports[p] = r.freePort(t)
		moved = append(moved, fmt.Sprintf("%s to %d", p, fr.ports[p]))
	}
	t.Logf("%s: ports moved: %s", f, strings.Join(moved, ", "))
	fr.env = docsEnv(r.goEnv, filepath.Join(base, "home"), fr.wrap, fr.bin, tmp)
	return fr
}

// sharedWeb gives the file's copy the browser build that make web makes, built once for the
// whole test: several files build it (README, museum.md, kiosk.md, the lab's README), and each
// build compresses 30 MB of WebAssembly with brotli at quality 11, over a minute of a
// processor each; four at once on a 2-core machine took 3.7 minutes each. With the build
// already in web/dist, a block's make web still compiles and writes everything, but the Go
// build cache gives it the same WebAssembly (-trimpath: the same bytes from any folder), and
// precompress keeps the compressed forms that SHA256SUMS records for the same file, as it does
// for a reader who runs make web twice.
func (fr *fileRun) sharedWeb(t *testing.T) {
	t.Helper()
	r := fr.r
	r.web.once.Do(func() {
		// Built in a copy of the repository, as the files' blocks are (no .git: the same
		// WebAssembly whether or not go build would stamp a checkout's commit into it).
		done := r.writing(t)
		src := filepath.Join(r.work, "web-build")
		copyRepo(t, r.root, src)
		r.web.dir = filepath.Join(r.work, "web-dist")
		done()
		start := time.Now()
		// The build tool's cache of compressed forms is the developer's own (the blocks have a
		// home of their own): make test's other builds of the same pages fill it.
		env := slices.Clone(fr.env)
		if v, ok := os.LookupEnv("MARK1_PRECOMPRESS_CACHE"); ok {
			env = append(env, "MARK1_PRECOMPRESS_CACHE="+v)
		} else if d, err := os.UserCacheDir(); err == nil {
			env = append(env, "MARK1_PRECOMPRESS_CACHE="+filepath.Join(d, "mark1", "precompress"))
		}
		res := r.run(spec{script: "exec bash scripts/web-build.sh " + r.web.dir, dir: src, env: env, limit: 10 * time.Minute})
		switch {
		case res.timedOut:
			r.web.err = fmt.Errorf("still running after 10m:\n%s", tail(res.out))
		case res.err != nil:
			r.web.err = fmt.Errorf("%v:\n%s", res.err, tail(res.out))
		default:
			t.Logf("the browser build for the files' make web, once: %v", time.Since(start).Round(100*time.Millisecond))
		}
	})
	if r.web.err != nil {
		t.Fatalf("scripts/web-build.sh, for the files' make web: %v", r.web.err)
	}
	defer r.writing(t)()
	if err := os.CopyFS(filepath.Join(fr.dir, "web", "dist"), os.DirFS(r.web.dir)); err != nil {
		t.Fatalf("copying the browser build: %v", err)
	}
}

// movePorts returns the block's text with every address on a default port moved to the file's
// own port, or an error naming a default port in a form it does not know.
func (fr *fileRun) movePorts(text string) (string, error) {
	text = portAddrRe.ReplaceAllStringFunc(text, func(m string) string {
		host, port, _ := strings.Cut(m, "]:")
		if port != "" {
			return host + "]:" + strconv.Itoa(fr.ports[port])
		}
		i := strings.LastIndex(m, ":")
		return m[:i+1] + strconv.Itoa(fr.ports[m[i+1:]])
	})
	if m := defaultPortRe.FindString(text); m != "" {
		return "", fmt.Errorf("the default port %s in a form the test cannot move to a free port (write 127.0.0.1%s)", m, m)
	}
	return text, nil
}

// writeWrappers writes the block's mark1 and hwbridge, first on its PATH: each runs the one
// in ~/.local/bin, with the file's port where the command would use a default one without
// naming it (mark1 web --addr; hwbridge serve and run --listen, halt, resume and fault
// --bridge), and --simulate for the hwbridge commands that open hardware in a simulate block.
// Either refuses an argument still on a default port: it could reach a real bridge.
func (fr *fileRun) writeWrappers(simulate bool) error {
	guard := `for a do
	case "$a" in *:8080 | *:8080/* | *:8707 | *:8707/* | *:8177 | *:8177/*)
		echo "docs test: $a: a default port, where a real server may answer; the test moves the docs' addresses to ports of its own" >&2
		exit 3 ;;
	esac
done
`
	sim := ""
	if simulate {
		sim = `case "$sub" in serve | run | jog | calibrate | scan) set -- --simulate "$@" ;; esac` + "\n"
	}
	hw := fmt.Sprintf(`#!/bin/sh
# The docs test's hwbridge: %[1]s on the test's port %[2]d, never the default one.
%[3]ssub=
case "${1:-}" in -* | "") ;; *) sub=$1; shift ;; esac
case " $* " in *" --listen"* | *" -listen"* | *" --bridge"* | *" -bridge"*) given=1 ;; *) given= ;; esac
case "$sub" in
"" | serve | run) [ -n "$given" ] || set -- --listen 127.0.0.1:%[2]d "$@" ;;
fault | halt | resume) [ -n "$given" ] || set -- --bridge 127.0.0.1:%[2]d "$@" ;;
esac
%[4]s[ -z "$sub" ] || set -- "$sub" "$@"
exec %[1]s "$@"
`, strconv.Quote(filepath.Join(fr.bin, "hwbridge")), fr.ports["8707"], guard, sim)
	m1 := fmt.Sprintf(`#!/bin/sh
# The docs test's mark1: %[1]s, mark1 web on the test's port %[2]d, never the default one.
%[3]sif [ "${1:-}" = web ]; then
	shift
	case " $* " in *" --addr"* | *" -addr"*) ;; *) set -- --addr 127.0.0.1:%[2]d "$@" ;; esac
	set -- web "$@"
fi
exec %[1]s "$@"
`, strconv.Quote(filepath.Join(fr.bin, "mark1")), fr.ports["8080"], guard)
	if err := os.WriteFile(filepath.Join(fr.wrap, "hwbridge"), []byte(hw), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(fr.wrap, "mark1"), []byte(m1), 0o755)
}

// runBlock runs one block with bash -e in the file's copy, as its directive says.
func (fr *fileRun) runBlock(t *testing.T, b block, h how) {
	t.Helper()
	text, err := fr.movePorts(b.Text)
	if err != nil {
		t.Errorf("%s:%d: %v", b.file, b.Line, err)
		return
	}
	done := fr.r.writing(t)
	err = fr.writeWrappers(h.simulate)
	done()
	if err != nil {
		t.Fatal(err)
	}
	// At the end, programs the block left in the background are stopped; the block's own exit
	// status is kept (a kill with no job to kill must not replace it).
	script := "set -e -o pipefail\ntrap 'rc=$?; j=$(jobs -p); [ -z \"$j\" ] || kill $j 2>/dev/null || true; wait 2>/dev/null || true; exit $rc' EXIT\n" + text
	s := spec{script: script, dir: fr.dir, env: fr.env, display: h.display, limit: defaultLimit}
	switch {
	case h.timeout > 0:
		s.limit, s.stopAt = h.timeout, h.expect
	case h.limit > 0:
		s.limit = h.limit
	}
	res := fr.r.run(s)
	took := res.took.Round(100 * time.Millisecond)
	var exit *exec.ExitError
	switch {
	case res.err != nil && !res.shown && !res.timedOut && !errors.As(res.err, &exit):
		t.Errorf("%s:%d: %v", b.file, b.Line, res.err)
	case res.shown:
		t.Logf("%s:%d: ok (%v: showed %q, stopped)", b.file, b.Line, took, h.expect)
	case h.timeout > 0 && res.timedOut:
		t.Errorf("%s:%d: stopped after %v without showing what the docs say it does (%s):\n%s", b.file, b.Line, took, h.expect, tail(res.out))
	case h.timeout > 0:
		t.Errorf("%s:%d: a program that runs until stopped ended after %v (%v) without showing what the docs say it does (%s):\n%s", b.file, b.Line, took, res.err, h.expect, tail(res.out))
	case res.timedOut:
		t.Errorf("%s:%d: still running after %v:\n%s", b.file, b.Line, s.limit, tail(res.out))
	case h.fails && res.err == nil:
		t.Errorf("%s:%d: the block shows an error, but it exited 0:\n%s", b.file, b.Line, tail(res.out))
	case !h.fails && res.err != nil:
		t.Errorf("%s:%d: %v, pasted as written:\n%s\noutput:\n%s", b.file, b.Line, res.err, indent(b.Text), tail(res.out))
	case h.expect != nil && !h.expect.MatchString(res.out):
		t.Errorf("%s:%d: the output does not show what the docs say it does (%s):\n%s", b.file, b.Line, h.expect, tail(res.out))
	default:
		t.Logf("%s:%d: ok (%v)", b.file, b.Line, took)
	}
}
