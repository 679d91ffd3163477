package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine/machinetest"
)

// fakeRig is a bridge's backend with exact weights: a mirror rig showing R0's first pots, or a
// loop rig of machinetest racks.
type fakeRig struct {
	mu     sync.Mutex
	info   hwapi.Info
	shown  map[[2]int]float64
	frames int
	racks  []*machinetest.Rack
}

func (f *fakeRig) Info() hwapi.Info { return f.info }
func (f *fakeRig) Status() hwapi.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := hwapi.Status{Mode: f.info.Mode}
	for k, w := range f.shown { // a mirror's knobs show exactly what was set
		st.Pots = append(st.Pots, hwapi.PotStatus{Weight: fmt.Sprintf("R%d.A%d", k[0], k[1]), R: k[0], A: k[1], Target: w, Reading: w})
	}
	return st
}
func (f *fakeRig) Hold()   {}
func (f *fakeRig) Park()   {}
func (f *fakeRig) Resume() {}
func (f *fakeRig) SetWeights(ws []hwapi.Weight) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frames++
	n := 0
	for _, w := range ws {
		k := [2]int{w.R, w.A}
		if _, ok := f.shown[k]; ok {
			f.shown[k] = w.W
			n++
		}
	}
	return n, nil
}
func (f *fakeRig) Sum(r int, a []uint16) (float64, error) { return f.racks[r].Sum(a) }
func (f *fakeRig) Drive(r int, a []uint16, x, y float64) error {
	return f.racks[r].Drive(a, x, y)
}
func (f *fakeRig) Readings(r int) ([]float64, error) {
	w := make([]float64, f.racks[r].Len())
	return w, f.racks[r].Readings(w)
}

func bridgeServer(t *testing.T, f *fakeRig, token string) string {
	t.Helper()
	srv := httptest.NewServer(hwapi.NewHandler(f, hwapi.Opts{Token: token}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

func TestBridgeMirror(t *testing.T) {
	f := &fakeRig{shown: map[[2]int]float64{}, info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "mirror", UpdateHz: 50}}
	for a := -1; a < 8; a++ {
		f.info.Pots = append(f.info.Pots, hwapi.PotInfo{R: 0, A: a, Range: 32})
		f.shown[[2]int{0, a}] = 0
	}
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte("0123456789abcdefghij\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := bridgeServer(t, f, "0123456789abcdefghij")
	out := mustRun(t, "bridge", "--bridge", addr, "--token-file", tok, "--data", "builtin:ef", "--ideal", "--epochs", "3", "--json")
	var rep bridgeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Mode != "mirror" || rep.Shown != 9 || rep.Mirror == nil || rep.Mirror.Frames == 0 || rep.Train == nil {
		t.Fatalf("report %s", out)
	}
	// The rig shows the machine's last weights: those of an ideal machine trained the same
	// way by mark1 train.
	wout := mustRun(t, "train", "--data", "builtin:ef", "--ideal", "--epochs", "3", "--save", filepath.Join(dir, "ef.state"))
	_ = wout
	csv := mustRun(t, "weights", "--state", filepath.Join(dir, "ef.state"))
	line := strings.Split(strings.TrimSpace(csv), "\n")[1] // r_unit 0: r,bias,w0,...
	fields := strings.Split(line, ",")
	f.mu.Lock()
	defer f.mu.Unlock()
	if bias := fields[1]; jsonNum(f.shown[[2]int{0, -1}]) != bias {
		t.Errorf("the rig's bias knob shows %v, the machine's bias is %s", f.shown[[2]int{0, -1}], bias)
	}
	for a := range 8 {
		if got := jsonNum(f.shown[[2]int{0, a}]); got != fields[2+a] {
			t.Errorf("knob R0.A%d shows %s, the machine's weight is %s", a, got, fields[2+a])
		}
	}
}

func jsonNum(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestBridgeLoop(t *testing.T) {
	f := &fakeRig{info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20,
		Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "strips15.wiring"}}}
	board, err := os.ReadFile("../../testdata/rig/strips15.wiring")
	if err != nil {
		t.Fatal(err)
	}
	f.info.Machine.Board = string(board)
	f.info.Pots = loopPots(1, 15)
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	addr := bridgeServer(t, f, "")
	code, out, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright", "--epochs", "10")
	if code != 0 || !strings.Contains(out, "learning on the pots of fake.toml") || !strings.Contains(out, "training accuracy: 100.0%") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if f.racks[0].Count("Drive") == 0 || !strings.Contains(out, "R0 read back: A0 ") || !strings.Contains(out, " bias ") {
		t.Errorf("no correction reached the rig:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len(l) > 80 {
			t.Errorf("a line of %d columns: %q", len(l), l)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bridge", "--data", "builtin:ef"}, 2, "--bridge HOST:PORT is required"},
		{[]string{"bridge", "--bridge", "nohost", "--data", "builtin:ef"}, 2, "want HOST:PORT"},
		{[]string{"bridge", "--bridge", addr, "--data", "builtin:ef", "--mode", "mirror"}, 2, "runs a loop rig (fake.toml)"},
		{[]string{"bridge", "--bridge", addr, "--data", "builtin:ef", "--a-units", "64"}, 2, "in the loop the machine is the rig's (15 A-units, 1 R-units)"},
		{[]string{"bridge", "--bridge", "127.0.0.1:1", "--data", "builtin:ef", "--wait", "0"}, 1, "no bridge answers at 127.0.0.1:1 after 0s: is hwbridge running?"},
		{[]string{"bridge", "--bridge", addr, "--data", "builtin:ef", "--pace", "fast"}, 2, `--pace "fast": want auto or a duration`},
		{[]string{"bridge", "--bridge", addr, "--data", "builtin:ef", "--grace", "0s"}, 2, "--grace 0s: want more than 0"},
	} {
		t.Run(strings.ReplaceAll(caseName(tc.args), addr, "ADDR"), func(t *testing.T) {
			code, _, errs := mark1(t, tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("mark1 %q: exit %d, %q; want %d with %q", tc.args, code, errs, tc.code, tc.want)
			}
		})
	}
}

// loopPots are the pots of a loop rig: every weight of rUnits R-units of aUnits A-units.
func loopPots(rUnits, aUnits int) []hwapi.PotInfo {
	var pots []hwapi.PotInfo
	for r := range rUnits {
		for a := -1; a < aUnits; a++ {
			pots = append(pots, hwapi.PotInfo{R: r, A: a, Range: 32})
		}
	}
	return pots
}

// A bridge's reply is untrusted: a loop rig that describes no machine, or an unknown mode, is
// a one-line error (issue 18: a nil dereference, exit 2).
func TestBridgeCheckedInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		info hwapi.Info
		want string
	}{
		{"loop without machine", hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20}, "info reply: machine: missing"},
		{"mode both", hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "both", UpdateHz: 20}, `info reply: mode: "both": want mirror or loop`},
		{"loop without pots", hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20,
			Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Rule: "alpha", Wiring: "random"}}, "no pot for R0.bias"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeRig{info: tc.info}
			addr := bridgeServer(t, f, "")
			code, _, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright")
			if code != 1 || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 || strings.Contains(errs, "panic") {
				t.Errorf("%+v: exit %d, %q; want 1 with %q", tc.info, code, errs, tc.want)
			}
		})
	}
}

// deafRig answers every drive and moves nothing, as a held rig did before issue 18.
type deafRig struct{ *fakeRig }

func (d deafRig) Drive(r int, a []uint16, x, y float64) error { return nil }

// mark1 bridge does not take the rig's word: pots whose read-backs do not follow the
// corrections stop the training with a rig error and a non-zero exit.
func TestBridgeStopsWhenTheRigDoesNotFollow(t *testing.T) {
	f := &fakeRig{info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20, Tolerance: 0.5,
		Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "random"}, Pots: loopPots(1, 15)}}
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	srv := httptest.NewServer(hwapi.NewHandler(deafRig{f}, hwapi.Opts{}))
	t.Cleanup(srv.Close)
	code, out, errs := mark1(t, "bridge", "--bridge", srv.Listener.Addr().String(), "--data", "builtin:leftright", "--grace", "300ms", "--json")
	var rep bridgeReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != 1 || !rep.RigStopped || !strings.Contains(rep.RigError, "the rig did not follow: R0.") ||
		!strings.Contains(errs, "mark1 bridge: bridge: stopped after") || rep.Train != nil {
		t.Errorf("exit %d, rig_stopped %v, rig_error %q, train %v\n%s", code, rep.RigStopped, rep.RigError, rep.Train, errs)
	}
	if n := len(rep.Epochs); n != 1 {
		t.Errorf("%d epochs on a rig that never moved, want it stopped in the first", n)
	}
}

// A halted rig is named at the start, with the command that resumes it.
func TestBridgeHaltedRig(t *testing.T) {
	f := &fakeRig{info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20,
		Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "random"}, Pots: loopPots(1, 15)}}
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	addr := bridgeServer(t, f, "")
	c, err := hwapi.NewClient(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Halt(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	code, _, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright")
	if code != 1 || !strings.Contains(errs, "is halted (POST /v1/halt from 127.0.0.1") || !strings.Contains(errs, "hwbridge resume --bridge "+addr) {
		t.Errorf("exit %d, %q", code, errs)
	}
	if f.racks[0].Count("Drive") != 0 {
		t.Error("a halted rig was driven")
	}
}

// A bridge that is starting is waited for, and said so (issue 19: the README's pair of
// commands, pasted as a block, failed with "connection refused").
func TestBridgeWaitsForAStartingBridge(t *testing.T) {
	f := &fakeRig{info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "loop", UpdateHz: 20,
		Machine: &hwapi.Machine{AUnits: 15, RUnits: 1, Seed: 1, Rule: "alpha", Wiring: "random"}, Pots: loopPots(1, 15)}}
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there until the bridge "starts"
	srv := httptest.NewUnstartedServer(hwapi.NewHandler(f, hwapi.Opts{}))
	t.Cleanup(srv.Close)
	go func() {
		time.Sleep(700 * time.Millisecond)
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return // the port was taken meanwhile: the test below fails and says why
		}
		srv.Listener = l
		srv.Start()
	}()
	code, out, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright", "--epochs", "3")
	if code != 0 || !strings.Contains(errs, "waiting for the bridge at "+addr) || !strings.Contains(out, "training accuracy") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// A client that ends cleanly releases the rig: the watchdog does not park its knobs afterwards
// (issue 19: 2 s after every finished session, the knobs left the trained weights).
func TestBridgeReleasesTheRig(t *testing.T) {
	f := &fakeRig{shown: map[[2]int]float64{}, info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "mirror", UpdateHz: 50, Watchdog: 0.5}}
	for a := -1; a < 8; a++ {
		f.info.Pots = append(f.info.Pots, hwapi.PotInfo{R: 0, A: a, Range: 32})
		f.shown[[2]int{0, a}] = 0
	}
	h := hwapi.NewHandler(f, hwapi.Opts{Watchdog: 500 * time.Millisecond, OnWatchdog: "park"})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	code, out, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:ef", "--ideal", "--epochs", "2", "--pace", "0")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	c, err := hwapi.NewClient(addr, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Status(t.Context())
	if err != nil || st.Watchdog != "idle" {
		t.Errorf("after a clean end the watchdog is %q (%v), want idle", st.Watchdog, err)
	}
	time.Sleep(time.Second)
	if h.CheckWatchdog() {
		t.Error("the watchdog fired after the client released the rig")
	}
}

// lyingMirror says it applied every frame and turns no knob.
type lyingMirror struct{ *fakeRig }

func (l lyingMirror) SetWeights(ws []hwapi.Weight) (int, error) { return len(ws), nil }

// In a mirror too, mark1 bridge checks the knobs, not the bridge's answers.
func TestBridgeMirrorChecksTheKnobs(t *testing.T) {
	f := &fakeRig{shown: map[[2]int]float64{}, info: hwapi.Info{Version: hwapi.Version, Boot: "1", Rig: "fake.toml", Mode: "mirror", UpdateHz: 50}}
	for a := -1; a < 8; a++ {
		f.info.Pots = append(f.info.Pots, hwapi.PotInfo{R: 0, A: a, Range: 32})
		f.shown[[2]int{0, a}] = 0
	}
	srv := httptest.NewServer(hwapi.NewHandler(lyingMirror{f}, hwapi.Opts{}))
	t.Cleanup(srv.Close)
	code, out, errs := mark1(t, "bridge", "--bridge", srv.Listener.Addr().String(), "--data", "builtin:ef", "--ideal", "--epochs", "2", "--pace", "0")
	// The report's lines are wrapped at 80 columns: the continuations start with two spaces.
	if code != 1 || !strings.Contains(strings.ReplaceAll(out, "\n  ", " "), "rig error, training stopped: the rig's knobs do not show the machine's weights: R0.A") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}
