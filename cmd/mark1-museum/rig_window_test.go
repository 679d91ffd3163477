//go:build museumwindow

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/health"
)

// The museum with a rig: the real mark1-museum under Xvfb attached to the real hwbridge on
// simulated chips.

var (
	hwbridgeOnce sync.Once
	hwbridgeBin  string
)

// hwbridgeBinary builds hwbridge beside the museum (once).
func hwbridgeBinary(t *testing.T) string {
	hwbridgeOnce.Do(func() {
		p := filepath.Join(filepath.Dir(bin), "hwbridge")
		if out, err := exec.Command("go", "build", "-o", p, "../hwbridge").CombinedOutput(); err != nil {
			t.Fatalf("building hwbridge: %v\n%s", err, out)
		}
		hwbridgeBin = p
	})
	if hwbridgeBin == "" {
		t.Fatal("hwbridge was not built")
	}
	return hwbridgeBin
}

// freeAddr returns a loopback address nothing listens on (now).
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// simBridge is hwbridge serve --simulate at a fixed address, which the test kills and starts
// again.
type simBridge struct {
	t         *testing.T
	rig, addr string
	cmd       *exec.Cmd
	log       strings.Builder
}

func startSimBridge(t *testing.T, rig string) *simBridge {
	b := &simBridge{t: t, rig: rig, addr: freeAddr(t)}
	b.start()
	t.Cleanup(b.kill)
	return b
}

func (b *simBridge) start() {
	b.t.Helper()
	b.cmd = exec.Command(hwbridgeBinary(b.t), "serve", "--simulate", "--rig", b.rig, "--listen", b.addr)
	b.cmd.Stdout, b.cmd.Stderr = &b.log, &b.log
	if err := b.cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	c := b.client()
	if _, err := c.Wait(context.Background(), 30*time.Second, nil); err != nil {
		b.t.Fatalf("hwbridge at %s: %v\n%s", b.addr, err, b.log.String())
	}
}

func (b *simBridge) kill() {
	if b.cmd != nil && b.cmd.Process != nil {
		b.cmd.Process.Signal(syscall.SIGKILL)
		b.cmd.Wait()
		b.cmd = nil
	}
}

func (b *simBridge) client() *hwapi.Client {
	c, err := hwapi.NewClient(b.addr, "")
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// exhibitRun is mark1-museum running with a rig, watched through its status endpoint.
type exhibitRun struct {
	t      *testing.T
	cmd    *exec.Cmd
	out    *strings.Builder
	status string // the endpoint's URL
	dir    string
	// What the watch saw: the longest gap between two frames and the fewest frames a second,
	// over every status read.
	worstGap, lowestRate float64
	reads                int
}

func startExhibitRun(t *testing.T, bridge string, args ...string) *exhibitRun {
	t.Helper()
	e := &exhibitRun{t: t, out: &strings.Builder{}, dir: t.TempDir(), lowestRate: math.Inf(1)}
	st := freeAddr(t)
	cur := filepath.Join(e.dir, "museum.toml")
	if err := os.WriteFile(cur, []byte(fmt.Sprintf("[staff]\nstatus_addr = %q\n[bridge]\naddr = %q\n", st, bridge)), 0o644); err != nil {
		t.Fatal(err)
	}
	e.status = "http://" + st + "/status"
	e.cmd = exec.Command(bin, append([]string{"--curator", cur, "--state-dir", filepath.Join(e.dir, "state"), "--attract", "0", "--stats"}, args...)...)
	e.cmd.Stdout, e.cmd.Stderr = e.out, e.out
	if err := e.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if e.cmd.ProcessState == nil {
			e.cmd.Process.Kill()
			e.cmd.Wait()
		}
	})
	return e
}

// read returns the exhibit's status; it notes the frames' figures once the window has drawn
// for 10 s (the status's frame rate is over the last 10 s).
func (e *exhibitRun) read() (health.Status, bool) {
	resp, err := http.Get(e.status)
	if err != nil {
		return health.Status{}, false
	}
	defer resp.Body.Close()
	var st health.Status
	if json.NewDecoder(resp.Body).Decode(&st) != nil {
		return st, false
	}
	if st.UptimeSeconds > 20 && st.Rig != nil && st.Rig.State != "connecting" {
		e.worstGap, e.lowestRate = max(e.worstGap, st.FrameMaxMS), min(e.lowestRate, st.FrameRate)
		e.reads++
	}
	return st, true
}

// wait reads the status until cond holds (up to d), checking all along that the machine is
// shown cards and the window draws.
func (e *exhibitRun) wait(what string, d time.Duration, cond func(st health.Status) bool) health.Status {
	e.t.Helper()
	deadline := time.Now().Add(d)
	var st health.Status
	for {
		var ok bool
		if st, ok = e.read(); ok && st.Rig != nil && cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			rig := "no rig"
			if st.Rig != nil {
				rig = fmt.Sprintf("%+v", *st.Rig)
			}
			e.t.Fatalf("waiting %v for %s: the rig: %s; %d presentations\n%s", d, what, rig, st.Presentations, e.out.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// goesOn checks, over a few seconds, that the machine is shown cards and the window draws.
func (e *exhibitRun) goesOn(what string) {
	e.t.Helper()
	st0 := e.wait("a status", 10*time.Second, func(health.Status) bool { return true })
	time.Sleep(3 * time.Second)
	st1 := e.wait("a status", 10*time.Second, func(health.Status) bool { return true })
	if st1.Presentations <= st0.Presentations {
		e.t.Errorf("%s: the machine stopped at %d presentations", what, st0.Presentations)
	}
	if st1.FrameRate < 2 || st1.FrameMaxMS > 1000 {
		e.t.Errorf("%s: the window drew %.1f frames a second, %.0f ms between two at the most", what, st1.FrameRate, st1.FrameMaxMS)
	}
}

// end stops the museum as systemd does (SIGTERM: it saves) and returns its output.
func (e *exhibitRun) end() string {
	e.t.Helper()
	e.cmd.Process.Signal(syscall.SIGTERM)
	errc := make(chan error, 1)
	go func() { errc <- e.cmd.Wait() }()
	select {
	case err := <-errc:
		if err != nil {
			e.t.Fatalf("after SIGTERM: %v\n%s", err, e.out.String())
		}
	case <-time.After(30 * time.Second):
		e.cmd.Process.Kill()
		e.t.Fatalf("the museum did not end on SIGTERM\n%s", e.out.String())
	}
	return e.out.String()
}

// knobsShow checks that every knob of the rig shows the saved machine's weight: a mirror's
// target is the weight (within half an output step, at the pot's range beyond it) and reads
// it back within the rig's allowance; a loop's read-backs are the machine's weights.
func knobsShow(t *testing.T, b *simBridge, m *machine.Machine, what string) {
	t.Helper()
	c := b.client()
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var bad string
	for range 100 {
		st, err := c.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		bad = ""
		for _, p := range st.Pots {
			if p.R >= m.RUnits() || p.A >= m.AUnits() {
				continue
			}
			ws := m.Weights(nil, p.R)
			w := ws[len(ws)-1]
			if p.A >= 0 {
				w = ws[p.A]
			}
			pi := potInfo(info, p.R, p.A)
			allow := max(2*info.Tolerance, 0.1) + 2*pi.Step
			want, got, tol := w, p.Target, max(pi.Step/2, 1e-3)+1e-4
			if pi.Range > 0 {
				want = math.Max(-pi.Range, math.Min(pi.Range, want))
			}
			if info.Mode == "loop" {
				got, tol = p.Reading, allow // the machine's weights are the read-backs
			}
			if p.Moving || math.Abs(got-want) > tol || math.Abs(p.Reading-p.Target) > allow {
				bad = fmt.Sprintf("%s: target %+.3f, reads %+.3f (moving %v); the saved machine's weight %+.3f", p.Weight, p.Target, p.Reading, p.Moving, w)
				break
			}
		}
		if bad == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("%s: the knobs do not show the machine: %s", what, bad)
}

func potInfo(info hwapi.Info, r, a int) hwapi.PotInfo {
	for _, p := range info.Pots {
		if p.R == r && p.A == a {
			return p
		}
	}
	return hwapi.PotInfo{}
}

// TestRig runs the window with --bridge (the curator's [bridge]) to hwbridge --simulate, a
// mirror rig and a loop rig: it trains (the letters on the mirror, E and F on the loop rig's
// machine) for 30 s; the bridge is killed and started again, halted and resumed, a chip
// made to time out and cleared; all along the machine is shown cards and the window draws
// (its status: frames a second and the longest gap between two), the rig's state in the
// status says each event, and after each the rig is back; at the end the museum stops on
// SIGTERM and every knob shows the weight of the machine it saved (a mirror's: the weights on
// the screen; a loop's read-backs: the machine's weights).
func TestRig(t *testing.T) {
	for _, c := range []struct {
		rig, chip  string
		addr       int
		experiment string
		args       []string
	}{
		{"builtin:mirror", "knobs2", 0x41, "letters", []string{"--speed", "10"}},
		// E against F: the loop rig's strips never tell them apart, so it goes on correcting.
		{"builtin:loop", "pots1", 0x2d, "ef", []string{"--speed", "10", "--experiment", "ef"}},
	} {
		t.Run(c.rig, func(t *testing.T) {
			t.Parallel() // the mirror's window and the loop's, side by side: 30 s of training each, and the faults
			b := startSimBridge(t, c.rig)
			e := startExhibitRun(t, b.addr, c.args...)
			st := e.wait("the rig", 60*time.Second, func(st health.Status) bool {
				return st.Rig.Connected && st.Rig.State != "syncing" && !st.Rig.Emulated && st.Rig.Sent > 0
			})
			if want := strings.TrimPrefix(c.rig, "builtin:"); st.Rig.Mode != want || st.Experiment != c.experiment {
				t.Errorf("a %s rig, the experiment %s; want %s and %s", st.Rig.Mode, st.Experiment, want, c.experiment)
			}
			t0 := time.Now()
			for time.Since(t0) < 30*time.Second {
				e.goesOn("training")
			}
			st = e.wait("corrections sent", 5*time.Second, func(health.Status) bool { return true })
			t.Logf("30 s of training: %d presentations, %d frames or corrections sent, the bus %d bytes; the window %.1f frames a second", st.Presentations, st.Rig.Sent, st.Rig.BusBytes, st.FrameRate)
			if st.Rig.Sent < 10 || st.Rig.BusBytes == 0 {
				t.Errorf("after 30 s: %d sent, %d bytes on the bus", st.Rig.Sent, st.Rig.BusBytes)
			}
			back := func(what string) {
				t.Helper()
				e.wait(what, 60*time.Second, func(st health.Status) bool {
					return st.Rig.Connected && !st.Rig.Emulated && (st.Rig.State == "turning" || st.Rig.State == "resting")
				})
				e.goesOn(what)
			}
			emulated := c.rig == "builtin:loop"

			b.kill()
			e.wait("not connected", 20*time.Second, func(st health.Status) bool {
				return st.Rig.State == "not connected" && !st.Rig.Connected && st.Rig.Emulated == emulated
			})
			e.goesOn("the bridge killed")
			b.start()
			back("the bridge restarted")

			hc := b.client()
			if err := hc.Halt(context.Background(), true); err != nil {
				t.Fatal(err)
			}
			e.wait("halted", 20*time.Second, func(st health.Status) bool { return st.Rig.State == "halted" && st.Rig.Emulated == emulated })
			e.goesOn("the rig halted")
			if _, err := hc.Resume(context.Background()); err != nil {
				t.Fatal(err)
			}
			back("the rig resumed")

			if err := hc.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: c.addr, Kind: "timeout"}); err != nil {
				t.Fatal(err)
			}
			st = e.wait("a fault", 40*time.Second, func(st health.Status) bool { return st.Rig.State == "fault" })
			if st.Rig.FaultyChip != c.chip || st.Rig.Faults != 1 {
				t.Errorf("the fault: chip %q, %d faulty; want %s", st.Rig.FaultyChip, st.Rig.Faults, c.chip)
			}
			e.goesOn("a chip faulty")
			if err := hc.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: -1, Kind: "clear"}); err != nil {
				t.Fatal(err)
			}
			back("the chip back")

			out := e.end()
			t.Logf("the window over %d status reads: at least %.1f frames a second, at most %.0f ms between two frames\n%s", e.reads, e.lowestRate, e.worstGap, out)
			state := filepath.Join(e.dir, "state", c.experiment+".state")
			if c.rig == "builtin:loop" {
				state = filepath.Join(e.dir, "state", "loop", c.experiment+".state")
			}
			m, err := machine.Load(state)
			if err != nil {
				t.Fatal(err)
			}
			knobsShow(t, b, m, "at the end")
		})
	}
}

// The window with a rig attached shows the rig's panel and marks the dials that have a real
// knob: a mirror's 24 on rack R0, a loop rig's 16 (its whole machine). The screenshots are
// written to $MARK1_RIG_SHOT and $MARK1_RIG_LOOP_SHOT (docs/museum.md's) when set.
func TestRigScreenshot(t *testing.T) {
	for _, c := range []struct {
		rig, env string
		knobs    int
		args     []string
	}{
		{"builtin:mirror", "MARK1_RIG_SHOT", 24, []string{"--pretrain", "2"}},
		{"builtin:loop", "MARK1_RIG_LOOP_SHOT", 16, []string{"--experiment", "ef"}},
	} {
		t.Run(c.rig, func(t *testing.T) {
			t.Parallel()
			b := startSimBridge(t, c.rig)
			shot := filepath.Join(t.TempDir(), "rig.png")
			args := append([]string{"--bridge", b.addr, "--state-dir", "", "--speed", "10", "--attract", "0", "--screenshot", shot, "--frames", "240"}, c.args...)
			out, err := runMuseum(t, nil, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			img := readShot(t, shot)
			if dst := os.Getenv(c.env); dst != "" {
				body, _ := os.ReadFile(shot)
				os.WriteFile(dst, body, 0o644)
			}
			knob := color.RGBA{120, 220, 235, 255}
			if n := near(img, image.Rect(924, 198, 1170, 520), knob, 30); n < c.knobs*10 {
				t.Errorf("%d pixels of the knobs' rings on rack R0, want its %d knobs ringed", n, c.knobs)
			}
			panel := image.Rect(1160, 500, 1904, 822)
			green := color.RGBA{110, 230, 130, 255}
			if n := near(img, panel, green, 30); n < 150 {
				t.Errorf("%d green pixels on the rig's panel: want its lamp and state (turning or at rest)\n%s", n, out)
			}
			if n := near(img, panel, color.RGBA{226, 229, 235, 255}, 30); n < 1000 {
				t.Errorf("%d pixels of text on the rig's panel", n)
			}
		})
	}
}
