package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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

func (f *fakeRig) Info() hwapi.Info     { return f.info }
func (f *fakeRig) Status() hwapi.Status { return hwapi.Status{Mode: f.info.Mode} }
func (f *fakeRig) Hold()                {}
func (f *fakeRig) Park()                {}
func (f *fakeRig) Resume()              {}
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
	f.racks = []*machinetest.Rack{machinetest.New(15)}
	addr := bridgeServer(t, f, "")
	code, out, errs := mark1(t, "bridge", "--bridge", addr, "--data", "builtin:leftright", "--epochs", "10")
	if code != 0 || !strings.Contains(out, "learning on the pots of fake.toml") || !strings.Contains(out, "training accuracy: 100.0%") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if f.racks[0].Count("Drive") == 0 || !strings.Contains(out, "R0 read back:") {
		t.Errorf("no correction reached the rig:\n%s", out)
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
		{[]string{"bridge", "--bridge", "127.0.0.1:1", "--data", "builtin:ef"}, 1, "connection refused"},
	} {
		code, _, errs := mark1(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("mark1 %q: exit %d, %q; want %d with %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
}
