package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
)

// TestMain lets the test binary stand in for hwbridge: with HWBRIDGE_MAIN=1 in its environment
// it runs the command line it is given, so a test can start a real bridge and stop it.
func TestMain(m *testing.M) {
	if os.Getenv("HWBRIDGE_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// startBridge starts "hwbridge serve --simulate" (the built-in loop rig), or the command
// line args when given, as a process listening on a free loopback port, and returns the
// process, its address and the file of its log. Cleanup lets it go on (SIGCONT), kills it and
// waits for it.
func startBridge(t *testing.T, args ...string) (cmd *exec.Cmd, addr, logFile string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addrFile, logFile := filepath.Join(dir, "addr"), filepath.Join(dir, "log")
	logs, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close() // the process has its own
	if len(args) == 0 {
		args = []string{"serve", "--simulate"}
	}
	cmd = exec.Command(exe, append(args, "--listen", "127.0.0.1:0", "--addr-file", addrFile)...)
	cmd.Env = append(os.Environ(), "HWBRIDGE_MAIN=1")
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for range 400 {
		if b, err := os.ReadFile(addrFile); err == nil && strings.HasSuffix(string(b), "\n") {
			return cmd, strings.TrimSpace(string(b)), logFile
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(logFile)
	t.Fatalf("hwbridge serve --simulate did not listen in 20 s: %s", b)
	return nil, "", ""
}

// The operator's stop never hangs: against a bridge stopped with SIGSTOP (it takes the
// connection and never answers, as a hung Pi does) hwbridge halt says within 10 s that the
// bridge does not answer, that the rig is not halted, and what to do (issue 26: it waited for
// ever). Once the bridge goes on, the same command halts it, and the bridge's log says what
// the halt left in the words of the rig's parts (digital pots: no servos).
func TestHaltOnAStoppedBridge(t *testing.T) {
	cmd, addr, logFile := startBridge(t)
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	start := time.Now()
	code := run([]string{"halt", "--bridge", addr}, &out, &errb)
	took := time.Since(start)
	t.Logf("hwbridge halt on a stopped bridge: exit %d after %v: %s", code, took.Round(time.Millisecond), errb.String())
	msg := errb.String()
	for _, want := range []string{"the bridge at " + addr + " does not answer", "the rig is NOT halted", "switch off the rig's power"} {
		if !strings.Contains(msg, want) {
			t.Errorf("no %q in %q", want, msg)
		}
	}
	if code != 1 || strings.Count(msg, "\n") != 1 || took > 10*time.Second {
		t.Errorf("exit %d after %v, %q: want 1, one line, within 10 s", code, took, msg)
	}
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"halt", "--bridge", addr}, &out, &errb); code != 0 || !strings.Contains(out.String(), "halted the rig at "+addr) {
		t.Errorf("halt on the bridge going on: exit %d, %q %q", code, out.String(), errb.String())
	}
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(logs, []byte("halted by POST /v1/halt from 127.0.0.1: digital pots kept as they are")) || bytes.Contains(logs, []byte("servo")) {
		t.Errorf("the log of a loop rig of digital pots:\n%s", logs)
	}
}

// hwbridge run --train says, when the training is over, that the bridge goes on serving, and
// where; and it does (issue 26: it went on without a word).
func TestRunTrainGoesOnServing(t *testing.T) {
	_, addr, logFile := startBridge(t, "run", "--simulate", "--train", "--epochs", "2")
	var logs []byte
	for range 1200 {
		logs, _ = os.ReadFile(logFile)
		if bytes.Contains(logs, []byte("trained: ")) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, want := range []string{
		"training at once (--train); after it the bridge goes on serving http://" + addr + "/ (Ctrl-C or SIGTERM stops it, --exit stops after the training)",
		"; the bridge goes on serving http://" + addr + "/ (Ctrl-C or SIGTERM stops it",
	} {
		if !bytes.Contains(logs, []byte(want)) {
			t.Errorf("no %q in the log:\n%s", want, logs)
		}
	}
	c, err := hwapi.NewClient(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Status(t.Context()); err != nil {
		t.Errorf("after the training the bridge does not serve: %v", err)
	}
}

// A halt the bridge refused (a wrong token here) says that the rig is not halted, and what to
// do; a usage mistake is only that.
func TestHaltRefusedSaysTheRigIsNotHalted(t *testing.T) {
	srv := httptest.NewServer(hwapi.NewHandler(plainBackend{}, hwapi.Opts{Token: "0123456789abcdefghij"}))
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
		not  bool // want is not in the message
	}{
		{"no token", []string{"halt", "--bridge", addr}, 1, "bridge: 401 Unauthorized", false},
		{"bad address", []string{"halt", "--bridge", "nohost"}, 2, "the rig is NOT halted", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			msg := errb.String()
			if code != tc.code || strings.Contains(msg, tc.want) == tc.not || !tc.not && !strings.Contains(msg, "the rig is NOT halted: to stop it now, switch off the rig's power") {
				t.Errorf("exit %d, %q", code, msg)
			}
		})
	}
}
