package riglink_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/riglink"
	"github.com/mark1-perceptron/mark1/session"
)

// hwbridge is the bridge built for the tests: the real daemon, on simulated chips.
var hwbridge string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "riglink-test")
	if err != nil {
		panic(err)
	}
	hwbridge = filepath.Join(dir, "hwbridge")
	if out, err := exec.Command("go", "build", "-o", hwbridge, "../../cmd/hwbridge").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// bridge is an hwbridge serve --simulate of the test's own.
type bridge struct {
	t    *testing.T
	rig  string
	addr string
	cmd  *exec.Cmd
	log  *os.File
	dir  string // its address file and log
}

// startBridge starts hwbridge on a simulated rig (builtin:mirror or builtin:loop) at addr
// ("": a free port) and waits until it listens.
func startBridge(t *testing.T, rig, addr string) *bridge {
	t.Helper()
	b := &bridge{t: t, rig: rig, addr: addr}
	b.start()
	t.Cleanup(b.kill)
	return b
}

func (b *bridge) start() {
	b.t.Helper()
	if err := b.startErr(); err != nil {
		b.t.Fatal(err)
	}
}

// startErr starts the bridge, and returns why it did not (for a goroutine of the test's
// own, which may not end the test).
func (b *bridge) startErr() error {
	dir, err := os.MkdirTemp("", "riglink-bridge")
	if err != nil {
		return err
	}
	af := filepath.Join(dir, "addr")
	listen := b.addr
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	lf, err := os.Create(filepath.Join(dir, "hwbridge.log"))
	if err != nil {
		return err
	}
	b.log, b.dir = lf, dir
	b.cmd = exec.Command(hwbridge, "serve", "--simulate", "--rig", b.rig, "--listen", listen, "--addr-file", af)
	b.cmd.Stderr, b.cmd.Stdout = lf, lf
	if err := b.cmd.Start(); err != nil {
		return err
	}
	for range 300 {
		if s, err := os.ReadFile(af); err == nil && strings.HasSuffix(string(s), "\n") {
			b.addr = strings.TrimSpace(string(s))
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("hwbridge did not start: %s", b.logText())
}

func (b *bridge) logText() string {
	s, _ := os.ReadFile(b.log.Name())
	return string(s)
}

// kill ends the bridge at once (SIGKILL: a crash).
func (b *bridge) kill() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	b.cmd.Process.Signal(syscall.SIGKILL)
	b.cmd.Wait()
	b.log.Close()
	os.RemoveAll(b.dir)
	b.cmd = nil
}

func (b *bridge) client() *hwapi.Client {
	c, err := hwapi.NewClient(b.addr, "")
	if err != nil {
		b.t.Fatal(err)
	}
	return c
}

// exhibit is a session with a rig link, as mark1-museum makes it.
type exhibit struct {
	t    *testing.T
	s    *session.Session
	link *riglink.Link
	dir  string // where the session saves
	stop func()
}

func startExhibit(t *testing.T, addr string, speed session.Speed) *exhibit {
	t.Helper()
	link, err := riglink.New(riglink.Options{Addr: addr, Grace: 2 * time.Second, Retry: 300 * time.Millisecond, Poll: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	info, ok := link.Connect(context.Background(), 10*time.Second)
	if !ok {
		t.Fatalf("no bridge at %s", addr)
	}
	cfg, exp := machine.Default(), "letters"
	if link.Loop() {
		if cfg, err = hwapi.LoopConfig(info.Machine); err != nil {
			t.Fatal(err)
		}
		// Forced learning corrects on every card: the rig's power-up weights tell left from
		// right at once, and error correction would have nothing to do.
		cfg.Rule, exp = machine.Forced, "leftright"
	}
	dir := t.TempDir()
	s, err := session.New(session.Options{Config: &cfg, Sets: builtin.Load, Experiment: exp, Speed: speed, Dir: dir, SaveEvery: -1,
		Attach: link.Attach, Hold: link.Hold, Rig: link})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { s.Run(ctx); done <- struct{}{} }()
	go func() { link.Run(ctx); done <- struct{}{} }()
	e := &exhibit{t: t, s: s, link: link, dir: dir}
	e.stop = func() {
		if cancel != nil {
			cancel()
			<-done
			<-done
			cancel = nil
		}
	}
	t.Cleanup(e.stop)
	return e
}

// waitRig waits (up to d) until the frame's rig satisfies cond, and returns the frame.
func (e *exhibit) waitRig(t *testing.T, what string, d time.Duration, cond func(f *session.Frame) bool) *session.Frame {
	t.Helper()
	f := new(session.Frame)
	deadline := time.Now().Add(d)
	for {
		e.s.Snapshot(f)
		if cond(f) {
			return f
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting %v for %s: the rig is %v (emulated %v, %d knobs, %d moving, generation %d, %d sent), %d presentations, mode %v, epoch %d, history %v",
				d, what, f.Rig.State, f.Rig.Emulated, f.Rig.NKnobs, f.Rig.Moving, f.Rig.Generation, f.Rig.Sent, f.Machine.Count, f.Mode, f.Epoch, f.History)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// presentations returns the machine's presentations so far.
func (e *exhibit) presentations() uint64 {
	var f session.Frame
	e.s.Snapshot(&f)
	return f.Machine.Count
}

// goesOn checks that the machine is shown cards while the rig is in trouble.
func (e *exhibit) goesOn(t *testing.T, what string) {
	t.Helper()
	var f session.Frame
	e.s.Snapshot(&f)
	if f.Mode == session.Stopped {
		e.s.Train() // it had learned: an epoch more
	}
	n := f.Machine.Count
	deadline := time.Now().Add(20 * time.Second)
	for e.presentations() < n+5 {
		if time.Now().After(deadline) {
			t.Fatalf("%s: the machine stopped at %d presentations", what, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// onTarget waits until every knob of the rig, by its own status, is driven to the weight the
// machine wants it to show (a mirror's: the machine's weight, within the pot's range; a
// loop's: the weight the machine's corrections drove it to, exactly) and reads it back within
// its allowance, not moving; the frame's rig must say the same.
func (e *exhibit) onTarget(t *testing.T, b *bridge, what string) {
	t.Helper()
	c := b.client()
	info, err := c.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	var bad string
	for time.Now().Before(deadline) {
		var f session.Frame
		e.s.Snapshot(&f)
		st, err := c.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		bad = ""
		n := 0
		for _, p := range st.Pots {
			want, ok := knobTarget(&f, p.R, p.A)
			if !ok {
				continue
			}
			n++
			if !f.Rig.Loop {
				if w := machineWeight(&f, p.R, p.A); math.Abs(w-want) > 1e-3 {
					bad = fmt.Sprintf("the frame's rig says %s's target is %+.4f, the machine's weight is %+.4f", p.Weight, want, w)
					break
				}
			}
			if r := rangeOf(info, p.R, p.A); r > 0 {
				want = math.Max(-r, math.Min(r, want))
			}
			allow := max(2*info.Tolerance, 0.1) + 2*stepOf(info, p.R, p.A)
			// A mirror sends a knob's weight when it moved by half an output step.
			tol := max(stepOf(info, p.R, p.A)/2, 1e-3) + 1e-4
			if f.Rig.Loop {
				tol = 1e-4
			}
			if p.Moving || math.Abs(p.Target-want) > tol || math.Abs(p.Reading-p.Target) > allow {
				bad = fmt.Sprintf("%s reads %+.3f, its target %+.3f (moving %v); the machine wants %+.3f (allowed %.3f)", p.Weight, p.Reading, p.Target, p.Moving, want, allow)
				break
			}
		}
		if bad == "" && n != len(st.Pots) {
			bad = fmt.Sprintf("the frame's rig has %d of the rig's %d knobs", n, len(st.Pots))
		}
		if bad == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: the knobs are not on target: %s", what, bad)
}

// knobTarget is the target the frame's rig gives knob (r, a).
func knobTarget(f *session.Frame, r, a int) (float64, bool) {
	for _, k := range f.Rig.Knobs[:f.Rig.NKnobs] {
		if int(k.R) == r && int(k.A) == a {
			return float64(k.Target), true
		}
	}
	return 0, false
}

// machineWeight is the frame's machine's weight (r, a), NaN for none.
func machineWeight(f *session.Frame, r, a int) float64 {
	if r >= len(f.Machine.Pots) {
		return math.NaN()
	}
	row := f.Machine.Pots[r]
	if a < 0 {
		a = len(row) - 1
	} else if a >= len(row)-1 {
		return math.NaN()
	}
	return row[a]
}

func rangeOf(info hwapi.Info, r, a int) float64 {
	for _, p := range info.Pots {
		if p.R == r && p.A == a {
			return p.Range
		}
	}
	return 0
}

func stepOf(info hwapi.Info, r, a int) float64 {
	for _, p := range info.Pots {
		if p.R == r && p.A == a {
			return p.Step
		}
	}
	return 0
}

// A mirror: the knobs follow the machine's weights as it learns; the bridge killed and
// restarted, halted and resumed, a chip faulty and back: the machine goes on all along, the
// rig's state says each, and at the end every knob is on its weight again.
func TestMirror(t *testing.T) {
	b := startBridge(t, "builtin:mirror", "")
	e := startExhibit(t, b.addr, session.Max)
	e.s.TrainEpochs(2) // weights far from the knobs' parking
	e.waitRig(t, "two epochs", 60*time.Second, func(f *session.Frame) bool { return f.Epoch >= 2 })
	e.s.SetSpeed(10)
	e.s.Train()
	f := e.waitRig(t, "knobs", 20*time.Second, func(f *session.Frame) bool {
		return f.Rig.State.Connected() && f.Rig.NKnobs == 24 && f.Rig.Sent > 0
	})
	if f.Rig.Loop || !f.Rig.Attached || f.Rig.AllKnobs != 24 {
		t.Errorf("the rig: loop %v, attached %v, %d knobs", f.Rig.Loop, f.Rig.Attached, f.Rig.AllKnobs)
	}
	time.Sleep(3 * time.Second) // learning, the knobs following
	e.s.Stop()
	e.onTarget(t, b, "after training")
	e.waitRig(t, "resting", 10*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigResting })
	e.s.Train()

	t.Run("killed", func(t *testing.T) {
		b.kill()
		e.waitRig(t, "not connected", 10*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigNotConnected })
		e.goesOn(t, "the bridge killed")
		b.start()
		e.waitRig(t, "connected again", 20*time.Second, func(f *session.Frame) bool { return f.Rig.State.Connected() })
		e.goesOn(t, "the bridge restarted")
		e.s.Stop()
		e.onTarget(t, b, "after the restart")
		e.s.Train()
	})
	t.Run("halted", func(t *testing.T) {
		c := b.client()
		if err := c.Halt(context.Background(), true); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "halted", 10*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigHalted })
		e.goesOn(t, "the rig halted")
		if _, err := c.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "resumed", 10*time.Second, func(f *session.Frame) bool { return f.Rig.State != session.RigHalted })
		e.s.Stop()
		e.onTarget(t, b, "after the halt, parked")
		e.s.Train()
	})
	t.Run("fault", func(t *testing.T) {
		c := b.client()
		if err := c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: 0x41, Kind: "timeout"}); err != nil {
			t.Fatal(err)
		}
		f := e.waitRig(t, "a fault", 20*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigFault })
		if f.Rig.Chip != "knobs2" || f.Rig.Faults != 1 {
			t.Errorf("the fault: chip %q, %d faulty", f.Rig.Chip, f.Rig.Faults)
		}
		e.goesOn(t, "a chip faulty")
		if err := c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: -1, Kind: "clear"}); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "the chip back", 90*time.Second, func(f *session.Frame) bool { return f.Rig.State != session.RigFault })
		e.s.Stop()
		e.onTarget(t, b, "after the fault")
	})
}

// A loop rig: the machine learns on the rig's pots, its sums the read-backs; killed,
// halted or faulty, the learning goes to the emulated racks and comes back to the rig, its
// pots driven to the machine's weights, when the rig follows again.
func TestLoop(t *testing.T) {
	b := startBridge(t, "builtin:loop", "")
	e := startExhibit(t, b.addr, session.Max)
	e.waitRig(t, "the rig's pots", 20*time.Second, func(f *session.Frame) bool {
		return f.Rig.State.Connected() && !f.Rig.Emulated && f.Rig.NKnobs == 16
	})
	e.s.Train()
	e.waitRig(t, "corrections", 30*time.Second, func(f *session.Frame) bool {
		return f.Rig.Sent > 20 || f.Rig.Sent > 2 && f.Mode == session.Stopped // learned
	})
	e.s.Stop()
	e.waitRig(t, "stopped", 10*time.Second, func(f *session.Frame) bool { return f.Mode == session.Stopped && !f.Rig.Emulated })
	readbacksAreTheWeights(t, e, b)
	e.onTarget(t, b, "after training")
	e.s.Train()

	t.Run("killed", func(t *testing.T) {
		b.kill()
		e.waitRig(t, "emulated", 15*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigNotConnected && f.Rig.Emulated })
		e.goesOn(t, "the bridge killed")
		b.start()
		e.waitRig(t, "back on the rig", 30*time.Second, func(f *session.Frame) bool { return f.Rig.State.Connected() && !f.Rig.Emulated })
		e.goesOn(t, "the bridge restarted")
		e.s.Stop()
		e.onTarget(t, b, "after the restart")
		e.s.Train()
	})
	t.Run("halted", func(t *testing.T) {
		c := b.client()
		if err := c.Halt(context.Background(), false); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "halted", 15*time.Second, func(f *session.Frame) bool { return f.Rig.State == session.RigHalted && f.Rig.Emulated })
		e.goesOn(t, "the rig halted")
		if _, err := c.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "back on the rig", 30*time.Second, func(f *session.Frame) bool { return f.Rig.State.Connected() && !f.Rig.Emulated })
		e.s.Stop()
		e.onTarget(t, b, "after the halt")
		e.s.Train()
	})
	t.Run("fault", func(t *testing.T) {
		c := b.client()
		if err := c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: 0x2d, Kind: "timeout"}); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "a fault, emulated", 30*time.Second, func(f *session.Frame) bool { return f.Rig.Emulated && f.Rig.State == session.RigFault })
		e.goesOn(t, "a chip faulty")
		if err := c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: -1, Kind: "clear"}); err != nil {
			t.Fatal(err)
		}
		e.waitRig(t, "back on the rig", 90*time.Second, func(f *session.Frame) bool { return f.Rig.State.Connected() && !f.Rig.Emulated })
		e.s.Stop()
		e.onTarget(t, b, "after the fault")
	})
	t.Run("saved", func(t *testing.T) {
		// The machine saves with its weights, the read-backs, and its clock: a saved weight is
		// its pot's reading, the wiper at the track's resolution (0.2 increments, times the
		// track's gain), so within about 0.1 of the read-back.
		var f session.Frame
		e.s.Snapshot(&f)
		if err := e.s.Save(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(e.dir, "leftright.state")
		var m *machine.Machine
		var err error
		for range 100 {
			if m, err = machine.Load(path); err == nil && m.Presentations() >= f.Machine.Count {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("the loop rig's machine, saved: %v", err)
		}
		ws := m.Weights(nil, 0)
		for i, w := range f.Machine.Pots[0] {
			if d := math.Abs(ws[i] - w); d > 0.15 {
				t.Errorf("pot %d: saved %+.4f, the machine's weight %+.4f", i, ws[i], w)
			}
		}
	})
}

// readbacksAreTheWeights checks that the machine's weights are the rig's read-backs, and its
// sum their sum over the firing A-units.
func readbacksAreTheWeights(t *testing.T, e *exhibit, b *bridge) {
	t.Helper()
	// A card shown without learning: its sum comes from the weights as they are now.
	set, err := builtin.Load("leftright")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Present(set.Cards[0].Image); err != nil {
		t.Fatal(err)
	}
	f := *e.waitRig(t, "the card shown", 10*time.Second, func(f *session.Frame) bool { return f.Kind == session.Shown })
	rd, err := b.client().LoopReadings(context.Background(), 0, len(f.Machine.Pots[0]))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := e.link.Info()
	for i, w := range f.Machine.Pots[0] {
		a := i
		if i == len(f.Machine.Pots[0])-1 {
			a = -1
		}
		if allow := max(2*info.Tolerance, 0.1) + 2*stepOf(info, 0, a); math.Abs(w-rd.W[i]) > allow {
			t.Errorf("pot %d: the machine's weight %+.3f, the rig reads %+.3f", i, w, rd.W[i])
		}
	}
	// The sum of the last presentation is the read-backs' over its firing A-units.
	s := f.Machine.Pots[0][len(f.Machine.Pots[0])-1]
	for a := range len(f.Machine.Pots[0]) - 1 {
		if f.Machine.A[a/64]>>(a%64)&1 == 1 {
			s += f.Machine.Pots[0][a]
		}
	}
	if math.Abs(s-f.Machine.Sums[0]) > 1e-9 {
		t.Errorf("the R-unit's sum is %v, its read-backs over the firing A-units add to %v", f.Machine.Sums[0], s)
	}
}
