package docs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMovePorts: every address of the docs on a default port moves to the file's port; a
// default port in another form is refused.
func TestMovePorts(t *testing.T) {
	fr := &fileRun{ports: map[string]int{"8080": 41080, "8707": 41707, "8177": 41177}}
	for _, tc := range []struct {
		name, in, want string // want "" for an error
	}{
		{"bridge", "hwbridge serve --simulate &\nmark1 bridge --bridge 127.0.0.1:8707 --epochs 10\n", "hwbridge serve --simulate &\nmark1 bridge --bridge 127.0.0.1:41707 --epochs 10\n"},
		{"status", "curl -s http://127.0.0.1:8177/metrics\nstatus_addr = \"127.0.0.1:8177\"\n", "curl -s http://127.0.0.1:41177/metrics\nstatus_addr = \"127.0.0.1:41177\"\n"},
		{"comment", "mark1 web   # at http://127.0.0.1:8080/\n", "mark1 web   # at http://127.0.0.1:41080/\n"},
		{"names", "curl localhost:8080 [::1]:8707 0.0.0.0:8177 [::]:8080\n", "curl localhost:41080 [::1]:41707 0.0.0.0:41177 [::]:41080\n"},
		{"no port", "mark1 train --epochs 8080 --seed 8707\n", "mark1 train --epochs 8080 --seed 8707\n"},
		{"other port", "curl 127.0.0.1:80800 127.0.0.1:9000\n", "curl 127.0.0.1:80800 127.0.0.1:9000\n"},
		{"another host", "mark1 bridge --bridge pi.local:8707\n", ""},
		{"a port alone", "hwbridge serve --listen :8707\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := fr.movePorts(tc.in)
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("movePorts(%q) = %q, want an error", tc.in, got)
			case tc.want != "" && (err != nil || got != tc.want):
				t.Errorf("movePorts(%q) = %q, %v\nwant %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestWrappers: the blocks' mark1 and hwbridge give the file's port to the commands that would
// use a default one, --simulate to those that open hardware in a simulate block, pass the rest
// as they are, and refuse a default port.
func TestWrappers(t *testing.T) {
	dir := t.TempDir()
	fr := &fileRun{bin: filepath.Join(dir, "bin"), wrap: filepath.Join(dir, "wrap"), ports: map[string]int{"8080": 41080, "8707": 41707, "8177": 41177}}
	for _, d := range []string{fr.bin, fr.wrap} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The "real" programs print their arguments.
	for _, name := range []string{"mark1", "hwbridge"} {
		if err := os.WriteFile(filepath.Join(fr.bin, name), []byte("#!/bin/sh\necho \"$*\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		simulate bool
		args     string
		want     string // "" for a refusal
	}{
		{"serve", false, "hwbridge serve --rig r.toml", "serve --listen 127.0.0.1:41707 --rig r.toml"},
		{"serve simulated", true, "hwbridge serve --rig r.toml", "serve --simulate --listen 127.0.0.1:41707 --rig r.toml"},
		{"default command", false, "hwbridge --rig r.toml", "--listen 127.0.0.1:41707 --rig r.toml"},
		{"no arguments", false, "hwbridge", "--listen 127.0.0.1:41707"},
		{"run", false, "hwbridge run", "run --listen 127.0.0.1:41707"},
		{"listen given", false, "hwbridge serve --listen 127.0.0.1:41707", "serve --listen 127.0.0.1:41707"},
		{"halt", false, "hwbridge halt --park", "halt --bridge 127.0.0.1:41707 --park"},
		{"fault given", false, "hwbridge fault --bridge 127.0.0.1:41707 --kind nack", "fault --bridge 127.0.0.1:41707 --kind nack"},
		{"jog simulated", true, "hwbridge jog --rig r.toml --us 1000", "jog --simulate --rig r.toml --us 1000"},
		{"jog", false, "hwbridge jog --rig r.toml", "jog --rig r.toml"},
		{"check", true, "hwbridge check --rig r.toml", "check --rig r.toml"},
		{"hwbridge on the default port", false, "hwbridge resume --bridge 127.0.0.1:8707", ""},
		{"web", false, "mark1 web", "web --addr 127.0.0.1:41080"},
		{"web dir", false, "mark1 web --dir web/dist", "web --addr 127.0.0.1:41080 --dir web/dist"},
		{"web addr given", false, "mark1 web --addr 127.0.0.1:41080", "web --addr 127.0.0.1:41080"},
		{"bridge on the default port", false, "mark1 bridge --bridge 127.0.0.1:8707 --data builtin:ef", ""},
		{"status on the default port", false, "mark1 eval http://127.0.0.1:8177/", ""},
		{"train", false, "mark1 train --data builtin:ef", "train --data builtin:ef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := fr.writeWrappers(tc.simulate); err != nil {
				t.Fatal(err)
			}
			f := strings.Fields(tc.args)
			out, err := exec.Command(filepath.Join(fr.wrap, f[0]), f[1:]...).CombinedOutput()
			got := strings.TrimSpace(string(out))
			switch {
			case tc.want == "" && err == nil:
				t.Errorf("%s: ran as %q, want a refusal", tc.args, got)
			case tc.want == "" && !strings.Contains(got, "a default port"):
				t.Errorf("%s: refused without saying why: %q", tc.args, got)
			case tc.want != "" && (err != nil || got != tc.want):
				t.Errorf("%s: ran as %q (%v), want %q", tc.args, got, err, tc.want)
			}
		})
	}
}

// testRunner is a runner for a test: its folder named after a temporary one, not the checkout.
func testRunner(t *testing.T) *runner {
	t.Helper()
	return newRunner(t, t.TempDir())
}

// TestRunStops: a program that runs until stopped ends as soon as its output shows what is
// expected, or at its limit, and what it left in the background goes with it.
func TestRunStops(t *testing.T) {
	r := testRunner(t)
	for _, tc := range []struct {
		name     string
		stopAt   string
		limit    time.Duration
		shown    bool
		timedOut bool
	}{
		{"expect shown", "ready", time.Minute, true, false},
		{"limit", "never printed", 2 * time.Second, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			script := "sleep 1000 & echo $! > " + strconv.Quote(pidFile) + "\necho ready\nsleep 1000\n"
			res := r.run(spec{script: script, dir: t.TempDir(), env: os.Environ(), limit: tc.limit, stopAt: regexp.MustCompile(tc.stopAt)})
			if res.shown != tc.shown || res.timedOut != tc.timedOut {
				t.Errorf("shown %v, timed out %v; want %v, %v (%v, output %q)", res.shown, res.timedOut, tc.shown, tc.timedOut, res.err, res.out)
			}
			if res.took > tc.limit+grace+5*time.Second {
				t.Errorf("took %v", res.took)
			}
			if pid := readPid(t, pidFile); !gone(pid, 5*time.Second) {
				t.Errorf("the block's background program (pid %d) is still running", pid)
			}
		})
	}
}

// TestDisplayLeavesNothing: a block under an Xvfb of its own, stopped, leaves neither the X
// server nor its lock file and socket in /tmp (an Xvfb killed outright would).
func TestDisplayLeavesNothing(t *testing.T) {
	if _, err := exec.LookPath("xvfb-run"); err != nil {
		t.Skip("no xvfb-run (make docs-test installs it)")
	}
	r := testRunner(t)
	for _, tc := range []struct{ name, script string }{
		{"stopped", "echo \"display $DISPLAY\"\nsleep 1000\n"},
		{"ended", "echo \"display $DISPLAY\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := r.run(spec{script: tc.script, dir: t.TempDir(), env: os.Environ(), display: true, limit: time.Minute,
				stopAt: regexp.MustCompile(`display :\d+`)})
			m := regexp.MustCompile(`display :(\d+)`).FindStringSubmatch(res.out)
			if m == nil {
				t.Fatalf("no display: %+v", res)
			}
			for _, f := range []string{"/tmp/.X" + m[1] + "-lock", "/tmp/.X11-unix/X" + m[1]} {
				if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s is left (%v)", f, err)
				}
			}
		})
	}
}

// TestBlocksDieWithTheTest: a test killed while a block runs, by SIGKILL or stopped by SIGTERM
// or SIGINT, takes the block's programs with it, those it left in the background too; a
// signal also removes the test's folder, and after a SIGKILL the next run does.
func TestBlocksDieWithTheTest(t *testing.T) {
	if os.Getenv("MARK1_DOCS_HELPER") != "" {
		t.Skip("the helper itself")
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			root := t.TempDir()
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pid")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			// The helper: this test binary running TestDocsHelperBlock.
			helper := exec.Command(os.Args[0], "-test.run=^TestDocsHelperBlock$", "-test.v")
			helper.Env = append(os.Environ(), "MARK1_DOCS_HELPER=1", "MARK1_DOCS_HELPER_ROOT="+root, "MARK1_DOCS_HELPER_FIFO="+fifo)
			var out bytes.Buffer // the helper's, shown when this fails
			helper.Stdout, helper.Stderr = &out, &out
			if err := helper.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if t.Failed() {
					t.Logf("the helper's output:\n%s", out.String())
				}
			}()
			// Reading the fifo waits for the block to have started its programs.
			f, err := os.Open(fifo)
			if err != nil {
				t.Fatal(err)
			}
			var pids [2]int
			_, err = fmt.Fscan(f, &pids[0], &pids[1])
			f.Close()
			if err != nil {
				t.Fatalf("reading the block's pids: %v", err)
			}
			work := workDir(root)
			if _, err := os.Stat(work); err != nil {
				t.Fatalf("the helper's folder: %v", err)
			}
			if err := helper.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			helper.Wait()
			for _, pid := range pids {
				if !gone(pid, 10*time.Second) {
					t.Errorf("the block's program %d outlived the test (%v)", pid, sig)
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			_, err = os.Stat(work)
			if sig != syscall.SIGKILL {
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the test's folder %s is still there after %v (%v)", work, sig, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the killed test's folder: %v", err)
			}
			if err := os.WriteFile(filepath.Join(work, "left"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			newRunner(t, root) // the next run
			if _, err := os.Stat(filepath.Join(work, "left")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the next run kept what the killed one left (%v)", err)
			}
		})
	}
}

// TestDocsHelperBlock is TestBlocksDieWithTheTest's helper: a runner running a block that
// starts a program in the background and one in the foreground, writes their pids to the fifo
// and runs until stopped.
func TestDocsHelperBlock(t *testing.T) {
	if os.Getenv("MARK1_DOCS_HELPER") != "1" {
		t.Skip("run by TestBlocksDieWithTheTest")
	}
	r := newRunner(t, os.Getenv("MARK1_DOCS_HELPER_ROOT"))
	fifo := os.Getenv("MARK1_DOCS_HELPER_FIFO")
	script := "sleep 1000 &\nbg=$!\n(echo \"$bg $BASHPID\" > " + strconv.Quote(fifo) + "; exec sleep 1000)\n"
	res := r.run(spec{script: script, dir: t.TempDir(), env: os.Environ(), limit: 2 * time.Minute})
	t.Errorf("the block ended before the helper was stopped: %+v", res)
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// gone waits up to d for the process to end, on a pidfd (an event, not a poll); a zombie has
// ended.
func gone(pid int, d time.Duration) bool {
	const sysPidfdOpen = 434 // the same number on every Linux architecture
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if errno == syscall.ESRCH {
		return true
	}
	if errno != 0 {
		return false
	}
	defer syscall.Close(int(fd))
	var set syscall.FdSet
	set.Bits[fd/64] |= 1 << (fd % 64)
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	for {
		n, err := syscall.Select(int(fd)+1, &set, nil, nil, &tv)
		if err == syscall.EINTR {
			continue
		}
		return err == nil && n == 1
	}
}
