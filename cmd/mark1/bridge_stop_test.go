package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine/machinetest"
)

// mark1 bridge against a bridge stopped with SIGSTOP (it takes the connection and never
// answers, as a hung Pi does) says within 10 s that the bridge does not answer, in one line,
// and exits 1 (issue 26: it waited for ever). The bridge is hwbridge serve --simulate, built
// and started as a process.
func TestBridgeStoppedBridge(t *testing.T) {
	dir := t.TempDir()
	hb := filepath.Join(dir, "hwbridge")
	if out, err := exec.Command("go", "build", "-o", hb, "../hwbridge").CombinedOutput(); err != nil {
		t.Fatalf("go build ../hwbridge: %v\n%s", err, out)
	}
	addrFile := filepath.Join(dir, "addr")
	srv := exec.Command(hb, "serve", "--simulate", "--listen", "127.0.0.1:0", "--addr-file", addrFile)
	var logs bytes.Buffer
	srv.Stderr = &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Signal(syscall.SIGCONT)
		_ = srv.Process.Kill()
		_ = srv.Wait()
	})
	addr := ""
	for range 400 {
		if b, err := os.ReadFile(addrFile); err == nil && strings.HasSuffix(string(b), "\n") {
			addr = strings.TrimSpace(string(b))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if addr == "" {
		t.Fatalf("hwbridge serve --simulate did not listen in 20 s: %s", logs.String())
	}
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, out, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright", "--epochs", "1")
	took := time.Since(start)
	t.Logf("mark1 bridge on a stopped bridge: exit %d after %v: %s", code, took.Round(time.Millisecond), errs)
	if code != 1 || !strings.Contains(errs, "the bridge at "+addr+" does not answer") || strings.Count(errs, "\n") != 1 || took > 10*time.Second {
		t.Errorf("exit %d after %v\n%s\n%s\nwant 1, one line saying the bridge does not answer, within 10 s", code, took, out, errs)
	}
}

// goesMute serves h until it has served after drives, then answers nothing more: at once (a
// bridge stopped between two calls), or from the next drive on when inDrive (a bridge stopped
// while its pots settle).
type goesMute struct {
	h       http.Handler
	after   int32
	inDrive bool
	drives  atomic.Int32
	muted   atomic.Bool
	gone    chan struct{}
}

func (g *goesMute) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	drive := r.URL.Path == "/v1/loop/drive"
	if g.muted.Load() || g.drives.Load() >= g.after && (!g.inDrive || drive) {
		g.muted.Store(true)
		<-g.gone
		return
	}
	if drive {
		g.drives.Add(1)
	}
	g.h.ServeHTTP(w, r)
}

// muteLoop runs mark1 bridge on a loop rig whose bridge goes mute as g says, and returns its
// exit status, output, errors and time.
func muteLoop(t *testing.T, g *goesMute) (int, string, string, time.Duration) {
	t.Helper()
	f := &fakeRig{info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20,
		Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "random"}, Pots: loopPots(1, 15)}}
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	g.h, g.gone = hwapi.NewHandler(f, hwapi.Opts{}), make(chan struct{})
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(g.gone) })
	start := time.Now()
	code, out, errs := mark1(t, "bridge", "--bridge", srv.Listener.Addr().String(), "--data", "builtin:leftright", "--epochs", "5")
	took := time.Since(start)
	t.Logf("exit %d after %v: %s", code, took.Round(time.Millisecond), errs)
	return code, out, errs, took
}

// A bridge that stops answering in the middle of a loop session ends it after one call's
// deadline, with the reason; mark1 bridge asks it nothing more (its status, the release would
// each wait their time too).
func TestBridgeGoesMute(t *testing.T) {
	code, out, errs, took := muteLoop(t, &goesMute{after: 3})
	if code != 1 || !strings.Contains(out, "rig error, training stopped: rack R0: ") || !strings.Contains(errs, "does not answer") || took > hwapi.DefaultTimeout+3*time.Second {
		t.Errorf("exit %d after %v\n%s\n%s", code, took, out, errs)
	}
}

// A bridge that stops answering during a drive (whose own deadline is a minute: servos may
// take seconds to settle) ends the session within 10 s: the drive asks the bridge meanwhile
// whether it answers at all.
func TestBridgeGoesMuteInADrive(t *testing.T) {
	code, out, errs, took := muteLoop(t, &goesMute{after: 3, inDrive: true})
	if code != 1 || !strings.Contains(out, "rig error, training stopped: rack R0: drive: ") || !strings.Contains(errs, "does not answer") || took > 10*time.Second {
		t.Errorf("exit %d after %v\n%s\n%s\nwant exit 1 within 10 s, the drive not answered", code, took, out, errs)
	}
}
