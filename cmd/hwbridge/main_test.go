package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/driver"
	"periph.io/x/conn/v3/driver/driverreg"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/rig"
)

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8707", "", true},
		{"[::1]:8707", "", true},
		{"localhost:0", "", true},
		{"0.0.0.0:8707", "", false},
		{":8707", "", false},
		{"192.168.1.20:8707", "", false},
		{"192.168.1.20:8707", "0123456789abcdef", true},
		{"nonsense", "", false},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			err := checkListen(tc.addr, tc.token)
			if (err == nil) != tc.ok {
				t.Errorf("checkListen(%q, %q) = %v", tc.addr, tc.token, err)
			}
			if err != nil && tc.addr != "nonsense" && !strings.Contains(err.Error(), "give --token-file") {
				t.Errorf("checkListen(%q): %v", tc.addr, err)
			}
		})
	}
}

func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "  c29tZS1yYW5kb20tdG9rZW4=\n", 0o600)
	if tok, err := readToken(good); err != nil || tok != "c29tZS1yYW5kb20tdG9rZW4=" {
		t.Errorf("readToken = %q, %v", tok, err)
	}
	for _, tc := range []struct{ path, want string }{
		{write("open", "c29tZS1yYW5kb20tdG9rZW4=", 0o644), "readable by others (mode 0644): chmod 600"},
		{write("short", "abc", 0o600), "want at least 16"},
		{write("spaces", "abcdefgh ijklmnopq", 0o600), "no spaces"},
		{dir, "not a regular file"},
		{filepath.Join(dir, "none"), "no such file"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := readToken(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readToken(%s) = %v, want %q", tc.path, err, tc.want)
			}
		})
	}
}

func TestScan(t *testing.T) {
	spec, err := rig.ReadFile("../../testdata/rig/sim-mirror.toml")
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := rigdev.Simulate(spec, i2csim.NewManualClock(), rigdev.SimOpts{})
	var out bytes.Buffer
	found := scan(sim.Bus("main"), &out)
	// The boards are at power-up, so both answer at their ALLCALL address too, 0x70, as real
	// ones do in i2cdetect until a driver turns ALLCALL off.
	want := []uint16{0x20, 0x40, 0x41, 0x48, 0x70}
	if len(found) != len(want) {
		t.Fatalf("found %x, want %x\n%s", found, want, out.String())
	}
	for i := range want {
		if found[i] != want[i] {
			t.Errorf("found %x, want %x", found, want)
		}
	}
	for _, line := range []string{"40: 40 41 -- -- -- -- -- -- 48 --", "0x20: MCP23017", "0x41: PCA9685 servo board", "0x70: PCA9685 ALLCALL"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("scan output lacks %q:\n%s", line, out.String())
		}
	}
}

func TestCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bogus"}, 2, "unknown command \"bogus\""},
		{[]string{"--rig"}, 2, "flag needs an argument"},
		{[]string{}, 2, "--rig FILE is required (or --simulate, which runs the built-in loop rig)"},
		{[]string{"check", "--rig", "builtin:nope"}, 1, "builtin:nope: no such built-in rig (there are loop, mirror)"},
		{[]string{"--rig", "../../testdata/rig/sim-loop.toml", "--simulate", "--listen", "0.0.0.0:0"}, 2, "0.0.0.0 is not loopback: give --token-file FILE"},
		{[]string{"check", "--rig", "../../testdata/rig/nothing.toml"}, 1, "no such file"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R9.A1", "--us", "1500"}, 2, "the rig has no pot showing that weight"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1"}, 2, "give one of --us N (a pulse, microseconds) or --position P (0..1)"},
		// Values that cannot be a pulse or a position are named, with why (issue 18: NaN gave a
		// pulse of "-2562047h47m...", or asked for --us or --position).
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--us", "NaN"}, 2, "--us NaN: want a pulse of 100..5000 microseconds"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--us", "1e30"}, 2, "--us 1e+30: want a pulse of 100..5000"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--us", "0"}, 2, "--us 0: want a pulse"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--position", "NaN"}, 2, "--position NaN: want 0..1"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--position", "-Inf"}, 2, "--position -Inf: want 0..1"},
		{[]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A1", "--us", "1500", "--position", "0.5"}, 2, "give one of --us N"},
		{[]string{"serve", "--rig", "../../testdata/rig/sim-loop.toml", "--allow-host", "evil.example:80"}, 2, `"evil.example:80": want a host name`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("hwbridge %q: exit %d, %q; want %d with %q", tc.args, code, errb.String(), tc.code, tc.want)
			}
		})
	}
	var out, errb bytes.Buffer
	if code := run([]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--simulate", "--pot", "R0.A3", "--us", "1500"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "R0.A3 (knobs1:3): 1.5ms pulses (307 counts of 4096") {
		t.Errorf("jog: %d %q %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"check", "--rig", "../../testdata/rig/example.toml"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "R0.bias   servo knobs2:8") {
		t.Errorf("check: %d %q", code, out.String())
	}
}

// The bridge's API on a simulated loop rig: a remote rack drives the pots, the sums are the
// read-backs, faults can be injected, a mirror frame is refused.
func TestServeLoop(t *testing.T) {
	spec, err := rig.ReadFile("../../testdata/rig/sim-loop.toml")
	if err != nil {
		t.Fatal(err)
	}
	clk := i2csim.NewManualClock()
	sim, env := rigdev.Simulate(spec, clk, rigdev.SimOpts{Seed: 3})
	var logs bytes.Buffer
	env.Logger = textLogger(&logs)
	hw, err := rigdev.Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newBackend(hw, sim)
	if err != nil {
		t.Fatal(err)
	}
	if b.info.Machine == nil || !strings.HasPrefix(b.info.Machine.Board, "# mark1 wiring") || b.info.Machine.AUnits != 15 {
		t.Fatalf("info machine %+v", b.info.Machine)
	}
	h := api(b, hwapi.Opts{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := hwapi.NewClient(srv.Listener.Addr().String(), "")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	racks, err := c.Racks(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := racks[0].Drive([]uint16{2, 5}, 3, 0); err != nil {
		t.Fatal(err)
	}
	if w := sim.MCP44x1["pots0"].Wiper(2); w != 128+12 {
		t.Errorf("wiper of R0.A2 at %d, want 140 (3 increments of 4 steps)", w)
	}
	s, err := racks[0].Sum([]uint16{2, 5})
	if err != nil || s < 8.5 || s > 9.5 {
		t.Errorf("Sum = %v, %v; want about 9 (three pots at 3, read back)", s, err)
	}
	if _, err := c.Frame(ctx, hwapi.Frame{Weights: []hwapi.Weight{{R: 0, A: 1, W: 5}}}); err == nil || !strings.Contains(err.Error(), "409") {
		t.Errorf("a frame on a loop rig: %v", err)
	}
	if err := c.InjectFault(ctx, hwapi.Fault{Bus: "main", Addr: 0x2C, Kind: "nack"}); err != nil {
		t.Fatal(err)
	}
	if err := racks[0].Drive([]uint16{1}, 1, 0); err == nil || !strings.Contains(err.Error(), "pots0") {
		t.Errorf("Drive with pots0 NACKing: %v", err)
	}
	st, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Chips[0].Name != "pots0" || st.Chips[0].OK {
		t.Errorf("status: %+v", st.Chips[0])
	}
	if err := c.InjectFault(ctx, hwapi.Fault{Bus: "main", Addr: -1, Kind: "clear"}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	hw.Step()
	if err := hw.Settle(time.Minute); err != nil {
		t.Fatal(err)
	}
	if w := sim.MCP44x1["pots0"].Wiper(1); w != 128+4 {
		t.Errorf("after recovery R0.A1's wiper is %d, want 132: the correction was lost", w)
	}
	if !strings.Contains(logs.String(), "recovered: pots0") {
		t.Errorf("log: %s", logs.String())
	}
}

// The headless machine on a simulated loop rig with a panel: Train pressed on the panel's
// expander, the machine learns, the lamps show the R-unit.
func TestHeadlessRun(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("../../testdata/rig/sim-loop.toml")
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, []byte(`
[[mcp23017]]
name = "console"
bus = "main"
address = 0x20

[panel]
train = "console:A0"
stop = "console:A1"
test = "GPIO6"
lamps = ["console:B0"]
fault_lamp = "console:B7"
`)...)
	wiring, err := os.ReadFile("../../testdata/rig/strips15.wiring")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "strips15.wiring"), wiring, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rig.toml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := rig.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sim, env := rigdev.Simulate(spec, i2csim.WallClock{}, rigdev.SimOpts{Seed: 4})
	var logs bytes.Buffer
	logger := textLogger(&logs)
	env.Logger = logger
	hw, err := rigdev.Open(spec, env)
	if err != nil {
		t.Fatal(err)
	}
	pn, err := hw.OpenPanel()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := spec.MachineConfig()
	if err != nil {
		t.Fatal(err)
	}
	set, err := loadCards(spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	hl := &headless{hw: hw, spec: spec, cfg: cfg, set: set, panel: pn, events: hwapi.NewBroker(), logger: logger, epochs: 10, exit: cancel}
	sub := hl.events.Subscribe()
	defer hl.events.Unsubscribe(sub)
	go func() {
		// Press Train: ground A0 long enough for the debounce.
		time.Sleep(50 * time.Millisecond)
		sim.MCP23017["console"].Ground(0, 0, true)
		time.Sleep(200 * time.Millisecond)
		sim.MCP23017["console"].Ground(0, 0, false)
	}()
	hl.loop(ctx)
	var kinds []string
	trained := ""
	for len(sub.C) > 0 {
		e := <-sub.C
		kinds = append(kinds, e.Kind+":"+e.Message)
		if e.Kind == "trained" {
			trained = e.Message
		}
	}
	if !strings.Contains(strings.Join(kinds, " "), "button:train") || !strings.Contains(trained, "(100.0%)") {
		t.Errorf("events %q\nlog %s", kinds, logs.String())
	}
	// The lamp of R0 shows the last answer; the fault lamp is dark.
	if out := sim.MCP23017["console"].Outputs(1); out&0x80 != 0 {
		t.Errorf("fault lamp lit: %08b", out)
	}
}

func TestNoBusMessage(t *testing.T) {
	err := checkDevice("/dev/i2c-nonexistent-77")
	if err == nil || !strings.Contains(err.Error(), "I2C is not enabled (sudo raspi-config nonint do_i2c 0") {
		t.Errorf("checkDevice = %v", err)
	}
	if busPath("1") != "/dev/i2c-1" || busPath("/dev/i2c-3") != "/dev/i2c-3" {
		t.Error("busPath")
	}
}

// hwbridge jog on a host without the rig's I2C bus says why, and that --simulate is there
// (issue 26).
func TestJogWithoutI2C(t *testing.T) {
	if _, err := os.Stat("/dev/i2c-1"); err == nil {
		t.Skip("this host has /dev/i2c-1: jog would move a real pot")
	}
	var out, errb bytes.Buffer
	code := run([]string{"jog", "--rig", "../../testdata/rig/sim-mirror.toml", "--pot", "R0.A3", "--us", "1500"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "/dev/i2c-1 does not exist") || !strings.Contains(errb.String(), "hwbridge jog --simulate moves a simulated pot") ||
		strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("exit %d, %q", code, errb.String())
	}
}

// A mirror's frame waits for its answer less than its rig's watchdog, on every shipped rig:
// a frame lost in the network is sent again before the watchdog stops the rig (issue 18: the
// frame timeout was 5 s, the rigs' watchdog 2 s).
func TestFrameTimeoutBelowTheShippedWatchdogs(t *testing.T) {
	files, err := filepath.Glob("../../testdata/rig/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rig files: %v", err)
	}
	for _, f := range files {
		spec, err := rig.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		timeout, beat := hwapi.FrameTiming(spec.Watchdog.Seconds())
		if spec.Watchdog > 0 && (timeout >= spec.Watchdog || beat >= spec.Watchdog || beat <= 0) {
			t.Errorf("%s: watchdog %v, frame timeout %v, heartbeat %v", f, spec.Watchdog, timeout, beat)
		}
	}
}

type fakeDriver string

func (d fakeDriver) String() string          { return string(d) }
func (d fakeDriver) Prerequisites() []string { return nil }
func (d fakeDriver) After() []string         { return nil }
func (d fakeDriver) Init() (bool, error)     { return true, nil }

// The periph host drivers that failed at host.Init are named, one line each.
func TestHostReport(t *testing.T) {
	st := &driverreg.State{Loaded: []driver.Impl{fakeDriver("sysfs-i2c"), fakeDriver("bcm2835-gpio")},
		Failed: []driverreg.DriverFailure{{D: fakeDriver("bcm2835-dma"), Err: errors.New("need more access, try as root")}}}
	failed, loaded := hostReport(st)
	want := []string{"periph host: driver bcm2835-dma failed: need more access, try as root",
		"periph host: 2 drivers loaded (sysfs-i2c, bcm2835-gpio), 0 skipped, 1 failed"}
	if got := strings.Join(append(failed, loaded), "\n"); got != strings.Join(want, "\n") {
		t.Errorf("hostReport:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
	// A command run by hand (scan, jog) shows the failures only.
	var b bytes.Buffer
	lg := warnings(&b)
	for _, l := range failed {
		lg.Warn(l)
	}
	lg.Info(loaded)
	if !strings.Contains(b.String(), `level=WARN msg="`+want[0]+`"`) || strings.Contains(b.String(), "loaded") {
		t.Errorf("failures only: %q", b.String())
	}
}

// hwbridge serve --simulate with no --rig runs the built-in loop rig: an installed hwbridge
// needs no rig file to be tried.
func TestSimulateWithoutRig(t *testing.T) {
	var logs bytes.Buffer
	rf := rigFlags{simulate: true, seed: 2, noise: 0.5e-3}
	hw, sim, err := rf.open(textLogger(&logs), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if hw.Rig().File != "builtin:loop" || sim == nil || !strings.Contains(logs.String(), "no --rig: simulating the built-in rig builtin:loop (the others: builtin:mirror)") {
		t.Errorf("rig %s, log %q", hw.Rig().File, logs.String())
	}
	b, err := newBackend(hw, sim)
	if err != nil {
		t.Fatal(err)
	}
	if b.info.Rig != "builtin:loop" || b.info.Machine == nil || b.info.Machine.AUnits != 15 || !strings.HasPrefix(b.info.Machine.Board, "# mark1 wiring") {
		t.Errorf("info %+v", b.info)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"check", "--rig", "builtin:mirror"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "builtin:mirror: mirror rig, 24 pots") {
		t.Errorf("check builtin:mirror: %d %q %q", code, out.String(), errb.String())
	}
}
