package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// start builds a session and runs it until the test ends.
// recordHandler is a slog.Handler that gives f each record, with the attributes the logger
// was given (With) after the record's own.
type recordHandler struct {
	f     func(slog.Record)
	attrs []slog.Attr
}

func (h *recordHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *recordHandler) Handle(_ context.Context, r slog.Record) error {
	r = r.Clone()
	r.AddAttrs(h.attrs...)
	h.f(r)
	return nil
}

func (h *recordHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &recordHandler{f: h.f, attrs: append(slices.Clip(h.attrs), as...)}
}

func (h *recordHandler) WithGroup(string) slog.Handler { return h }

func start(t *testing.T, opts session.Options) (*session.Session, func()) {
	t.Helper()
	return run(t, build(t, opts))
}

// build builds a session without running it.
func build(t *testing.T, opts session.Options) *session.Session {
	t.Helper()
	if opts.Sets == nil {
		opts.Sets = builtin.Load
	}
	s, err := session.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run runs s until the test ends, or until the function returned is called.
func run(t *testing.T, s *session.Session) (*session.Session, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return s, stop
}

// waitFor waits until a frame satisfies cond and returns it.
func waitFor(t *testing.T, s *session.Session, what string, cond func(f *session.Frame) bool) *session.Frame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	f := new(session.Frame)
	var seq uint64
	for {
		s.Snapshot(f)
		if cond(f) {
			return f
		}
		var err error
		if seq, err = s.Wait(ctx, max(seq, f.Seq)); err != nil {
			t.Fatalf("waiting for %s: %v (last frame: mode %v, kind %v, epoch %d, problem %q)", what, err, f.Mode, f.Kind, f.Epoch, f.Problem)
		}
	}
}

func ideal() *machine.Config {
	c := machine.Default().Ideal()
	return &c
}

// A session at full speed reaches exactly the machine that training with machine.Epoch
// reaches: pacing changes when cards are shown, never which.
func TestSameMachineAsEpochs(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  machine.Config
	}{
		{"analog", machine.Default()},
		{"ideal", machine.Default().Ideal()},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			s, stop := start(t, session.Options{Config: &cfg, Experiment: "ef", Speed: session.Max, MaxEpochs: 30})
			if err := s.Train(); err != nil {
				t.Fatal(err)
			}
			f := waitFor(t, s, "training to stop", func(f *session.Frame) bool { return f.Mode == session.Stopped && f.Epoch > 0 })
			stop()

			set, err := builtin.Load("ef")
			if err != nil {
				t.Fatal(err)
			}
			m, err := machine.New(cfg, set.Classes)
			if err != nil {
				t.Fatal(err)
			}
			deck, err := m.Prepare(set)
			if err != nil {
				t.Fatal(err)
			}
			var mistakes []int
			for range 30 {
				st := m.Epoch(deck, nil)
				mistakes = append(mistakes, st.Mistakes)
				if st.Corrections == 0 {
					break
				}
			}
			if f.Epoch != len(mistakes) || !equalInts(f.History, mistakes) || f.Converged != (len(mistakes) < 30) {
				t.Errorf("session: %d epochs %v converged %v; machine.Epoch: %v", f.Epoch, f.History, f.Converged, mistakes)
			}
			if f.Machine.Count != m.Presentations() {
				t.Errorf("presentations: session %d, machine.Epoch %d", f.Machine.Count, m.Presentations())
			}
			var want machine.Snapshot
			m.Snapshot(&want, true)
			for r := range want.Pots {
				if !equalFloats(f.Machine.Pots[r], want.Pots[r]) {
					t.Fatalf("R-unit %d: pots differ", r)
				}
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// At a given speed, cards come at the machine's presentation time divided by the speed, and
// every card is published.
func TestPacing(t *testing.T) {
	cfg := machine.Default()
	cfg.PresentationTime = 3
	clk := newManualClock()
	t0 := clk.Now()
	s, _ := start(t, session.Options{Config: &cfg, Experiment: "letters", Speed: 30, Clock: clk}) // 100 ms a card
	s.Train()
	// The first card at once, then one each time the clock has gone 100 ms on, each published
	// at its time.
	for n := 1; n <= 10; n++ {
		f := waitFor(t, s, fmt.Sprintf("card %d", n), func(f *session.Frame) bool { return f.Machine.Count >= uint64(n) })
		if f.Machine.Count != uint64(n) {
			t.Fatalf("presentation %d was never published (the clock stands, the session shows %d)", n, f.Machine.Count)
		}
		if want := t0.Add(time.Duration(n-1) * 100 * time.Millisecond); !f.Wall.Equal(want) {
			t.Errorf("card %d published at %v, want %v", n, f.Wall.Sub(t0), want.Sub(t0))
		}
		clk.waitTimer(t, 100*time.Millisecond) // the session waits for the next card's time
		clk.Advance(100 * time.Millisecond)
	}
	waitFor(t, s, "card 11", func(f *session.Frame) bool { return f.Machine.Count >= 11 })
	s.Stop()
	f := waitFor(t, s, "stop", func(f *session.Frame) bool { return f.Mode == session.Stopped })
	if f.Machine.Count != 11 {
		t.Errorf("%d cards in 1 s at 100 ms a card, want 11", f.Machine.Count)
	}

	// Speed changes apply from the next card.
	s.SetSpeed(session.Max)
	s.Train()
	g := waitFor(t, s, "a fast epoch", func(g *session.Frame) bool { return g.Epoch >= 1 })
	if !g.Speed.IsMax() {
		t.Errorf("speed %v, want max", g.Speed)
	}
}

// manualClock is a session clock that moves only when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []manualTimer
}

type manualTimer struct {
	at time.Time
	c  chan time.Time
}

func newManualClock() *manualClock {
	return &manualClock{now: time.Date(1958, 7, 8, 12, 0, 0, 0, time.UTC)}
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, manualTimer{c.now.Add(d), ch})
	return ch
}

// Advance moves the clock on by d and fires the timers then due.
func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.timers = slices.DeleteFunc(c.timers, func(tm manualTimer) bool {
		if tm.at.After(c.now) {
			return false
		}
		tm.c <- c.now
		return true
	})
}

// waitTimer waits (on the wall clock) until a timer is set for d from now.
func (c *manualClock) waitTimer(t *testing.T, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		c.mu.Lock()
		found := slices.ContainsFunc(c.timers, func(tm manualTimer) bool { return tm.at.Equal(c.now.Add(d)) })
		c.mu.Unlock()
		if found {
			return
		}
	}
	t.Fatalf("no timer set for %v from now", d)
}

// drawing returns a 60x60 white card with a black bar.
func drawing(vertical bool) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 60, 60))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for y := 10; y < 50; y++ {
		for x := 25; x < 35; x++ {
			if vertical {
				g.SetGray(x, y, color.Gray{})
			} else {
				g.SetGray(y, x, color.Gray{})
			}
		}
	}
	return g
}

func TestCommands(t *testing.T) {
	s, _ := start(t, session.Options{Config: ideal(), Experiment: "ef", Experiments: []string{"ef", "shapes", "leftright"}, Speed: session.Max})
	f := new(session.Frame)
	s.Snapshot(f)
	if f.Seq == 0 || f.Experiment != "ef" || len(f.Classes) != 2 || f.Kind != session.None || f.Answer != -1 || f.Mode != session.Stopped {
		t.Fatalf("first frame: seq %d, %q %v, kind %v, answer %d, mode %v", f.Seq, f.Experiment, f.Classes, f.Kind, f.Answer, f.Mode)
	}
	if f.Board == nil || f.Board.Len() != 512 || len(f.Machine.Pots) != 8 || len(f.Machine.Pots[0]) != 513 {
		t.Fatalf("first frame: board, pots missing")
	}

	// A drawing, shown without learning.
	s.Present(drawing(true))
	f = waitFor(t, s, "the drawing", func(f *session.Frame) bool { return f.Kind == session.Shown })
	if f.Want != -1 || f.Answer < 0 || f.Card != -1 || f.Machine.Learning || len(f.Machine.Moves) != 0 {
		t.Errorf("shown: want %d answer %d card %d learning %v moves %v", f.Want, f.Answer, f.Card, f.Machine.Learning, f.Machine.Moves)
	}
	if f.Picture[30*60+30] != 0 || f.Picture[5*60+5] != 255 {
		t.Errorf("the picture is not the drawing: centre %d, corner %d", f.Picture[30*60+30], f.Picture[5*60+5])
	}
	if f.Machine.S.Count() == 0 || f.Machine.Active == 0 {
		t.Errorf("the drawing lit no S-unit (%d) or no A-unit (%d)", f.Machine.S.Count(), f.Machine.Active)
	}

	// Taught as the other class: the alpha rule corrects, since the answer was wrong.
	other := 1 - f.Answer
	before := append([]float64(nil), f.Machine.Pots[0]...)
	s.Teach(other)
	f = waitFor(t, s, "the lesson", func(f *session.Frame) bool { return f.Kind == session.Taught })
	if f.Want != other || !f.Machine.Learning || len(f.Machine.Moves) == 0 {
		t.Errorf("taught: want %d, learning %v, moves %v", f.Want, f.Machine.Learning, f.Machine.Moves)
	}
	moved := 0
	for a := range before {
		if f.Machine.Pots[0][a] != before[a] {
			moved++
		}
	}
	if moved != f.Machine.Active+1 { // the active A-units' pots and the bias pot
		t.Errorf("%d pots moved, want the %d active ones and the bias", moved, f.Machine.Active)
	}

	// A test pass shows every card once without learning.
	count := f.Machine.Count
	s.Test()
	f = waitFor(t, s, "the test", func(f *session.Frame) bool { return f.Tested && f.Mode == session.Stopped && f.TestDone == f.Cards })
	if f.Machine.Count != count+uint64(f.Cards) || f.TestCorrect > f.TestDone || f.Kind != session.TestCard {
		t.Errorf("test: count %d (want %d), %d of %d right, kind %v", f.Machine.Count, count+uint64(f.Cards), f.TestCorrect, f.TestDone, f.Kind)
	}

	// The rule switch keeps the weights.
	pots := append([]float64(nil), f.Machine.Pots[0]...)
	s.SetRule(machine.Forced)
	f = waitFor(t, s, "the forced rule", func(f *session.Frame) bool { return f.Rule == machine.Forced })
	if !equalFloats(pots, f.Machine.Pots[0]) || f.Machine.Count != count+uint64(f.Cards) {
		t.Errorf("the rule change lost the weights or the count")
	}

	// Another experiment, then back: each keeps its machine.
	s.SetExperiment("shapes")
	f = waitFor(t, s, "shapes", func(f *session.Frame) bool { return f.Experiment == "shapes" })
	if len(f.Classes) != 4 || f.Machine.Count != 0 || f.Coding != machine.CodingOneHot {
		t.Errorf("shapes: classes %v, count %d, coding %s", f.Classes, f.Machine.Count, f.Coding)
	}
	s.SetExperiment("ef")
	f = waitFor(t, s, "ef", func(f *session.Frame) bool { return f.Experiment == "ef" })
	if f.Machine.Count != count+uint64(f.Cards) || f.Rule != machine.Forced {
		t.Errorf("back to ef: count %d, rule %v", f.Machine.Count, f.Rule)
	}
	if err := s.SetExperiment("letters"); err == nil {
		t.Errorf("an experiment not in Options.Experiments was accepted")
	}

	// Reset: a new machine, the same as the first.
	s.Reset()
	f = waitFor(t, s, "reset", func(f *session.Frame) bool { return f.Machine.Count == 0 })
	for _, p := range f.Machine.Pots[0] {
		if p != 0 {
			t.Fatalf("reset: pots not at 0")
		}
	}
	if f.Epoch != 0 || len(f.History) != 0 || f.Kind != session.None {
		t.Errorf("reset: epoch %d history %v kind %v", f.Epoch, f.History, f.Kind)
	}

	// Teaching with nothing in the holder is a problem, not a crash.
	s.Teach(0)
	f = waitFor(t, s, "a problem", func(f *session.Frame) bool { return f.Problem != "" })
	if f.Kind != session.None {
		t.Errorf("kind %v after a refused lesson", f.Kind)
	}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"Teach(-1)", s.Teach(-1)}, {"SetSpeed(0)", s.SetSpeed(0)}, {"SetSpeed(NaN)", s.SetSpeed(session.Speed(math.NaN()))},
		{"SetRule(7)", s.SetRule(machine.Rule(7))}, {"Present(empty)", s.Present(image.NewGray(image.Rect(0, 0, 0, 0)))},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Errorf("a bad command was accepted")
			}
		})
	}
}

// A frame is always one whole presentation: with ideal pots, each R-unit's sum before the
// correction is exactly the sum of the pots of the active A-units and the bias after it, less
// the correction's move.
func TestFramesAreWhole(t *testing.T) {
	s, _ := start(t, session.Options{Config: ideal(), Experiment: "letters", Speed: session.Max, FrameInterval: time.Microsecond})
	s.Train()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := new(session.Frame)
			checked := 0
			for deadline := time.Now().Add(700 * time.Millisecond); time.Now().Before(deadline); {
				s.Snapshot(f)
				if f.Machine.Count == 0 {
					continue
				}
				active := 0
				for _, w := range f.Machine.A {
					active += bits.OnesCount64(w)
				}
				if active != f.Machine.Active {
					t.Errorf("frame %d: %d A-bits, Active %d", f.Seq, active, f.Machine.Active)
					return
				}
				for r, pots := range f.Machine.Pots {
					sum := pots[len(pots)-1]
					for a := range len(pots) - 1 {
						if f.Machine.A[a/64]>>(a%64)&1 == 1 {
							sum += pots[a]
						}
					}
					for _, mv := range f.Machine.Moves {
						if mv.R == r {
							sum -= mv.OnActive * float64(active+1)
						}
					}
					if sum != f.Machine.Sums[r] {
						t.Errorf("frame %d, R-unit %d: sum %v, pots give %v: a torn frame", f.Seq, r, f.Machine.Sums[r], sum)
						return
					}
				}
				checked++
			}
			if checked < 100 {
				t.Errorf("only %d frames checked", checked)
			}
		}()
	}
	wg.Wait()
}

func TestSnapshotDoesNotAllocate(t *testing.T) {
	s, _ := start(t, session.Options{Experiment: "letters", Speed: session.Max})
	s.Train()
	f := new(session.Frame)
	s.Snapshot(f)
	if n := testing.AllocsPerRun(200, func() { s.Snapshot(f) }); n != 0 {
		t.Errorf("Snapshot: %v allocations, want 0", n)
	}
}

func TestSaveAndResume(t *testing.T) {
	dir := t.TempDir()
	opts := session.Options{Config: ideal(), Experiment: "ef", Experiments: []string{"ef", "leftright"}, Dir: dir, Speed: session.Max, MaxEpochs: 2}
	s, stop := start(t, opts)
	s.Train()
	f := waitFor(t, s, "two epochs", func(f *session.Frame) bool { return f.Epoch == 2 && f.Mode == session.Stopped })
	s.SetExperiment("leftright")
	waitFor(t, s, "leftright", func(f *session.Frame) bool { return f.Experiment == "leftright" })
	s.Train()
	waitFor(t, s, "leftright trained", func(f *session.Frame) bool { return f.Epoch > 0 && f.Mode == session.Stopped })
	s.SetSpeed(7)
	s.SetExperiment("ef")
	waitFor(t, s, "ef", func(f *session.Frame) bool { return f.Experiment == "ef" && f.Speed == 7 })
	stop()
	for _, name := range []string{"ef.state", "leftright.state", "session.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Train(); !errors.Is(err, session.ErrClosed) {
		t.Errorf("a command after Run: %v, want ErrClosed", err)
	}

	s2, _ := start(t, opts)
	g := new(session.Frame)
	s2.Snapshot(g)
	if g.Experiment != "ef" || g.Epoch != 2 || !equalInts(g.History, f.History) || g.Machine.Count != f.Machine.Count || g.Speed != 7 {
		t.Fatalf("resumed: %q epoch %d %v count %d speed %v; saved: epoch %d %v count %d", g.Experiment, g.Epoch, g.History, g.Machine.Count, g.Speed, f.Epoch, f.History, f.Machine.Count)
	}
	for r := range f.Machine.Pots {
		if !equalFloats(f.Machine.Pots[r], g.Machine.Pots[r]) {
			t.Fatalf("resumed R-unit %d's pots differ", r)
		}
	}
	if g.Problem != "" {
		t.Errorf("problem: %s", g.Problem)
	}
}

// A resumed session opens on the experiment asked for (Options.ExperimentChosen), with that
// experiment's own saved machine, and keeps the one it was on: chosen again, it resumes.
func TestResumeChosenExperiment(t *testing.T) {
	dir := t.TempDir()
	opts := session.Options{Config: ideal(), Experiment: "leftright", Experiments: []string{"ef", "leftright"}, Dir: dir, Speed: session.Max, MaxEpochs: 1}
	s, stop := start(t, opts)
	s.Train()
	lr := waitFor(t, s, "leftright trained", func(f *session.Frame) bool { return f.Epoch == 1 && f.Mode == session.Stopped })
	s.SetExperiment("ef")
	s.Train()
	ef := waitFor(t, s, "ef trained", func(f *session.Frame) bool { return f.Experiment == "ef" && f.Epoch == 1 && f.Mode == session.Stopped })
	stop()
	efState, err := os.ReadFile(filepath.Join(dir, "ef.state"))
	if err != nil {
		t.Fatal(err)
	}

	// Saved on ef; leftright asked for: leftright opens, as it was saved, stopped.
	var logged []string
	opts.ExperimentChosen = true
	opts.Logger = slog.New(&recordHandler{f: func(r slog.Record) {
		line := r.Level.String() + " " + r.Message
		r.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
		logged = append(logged, line)
	}})
	s2, stop2 := start(t, opts)
	g := new(session.Frame)
	s2.Snapshot(g)
	if g.Experiment != "leftright" || g.Epoch != 1 || g.Machine.Count != lr.Machine.Count || g.Mode != session.Stopped || g.Problem != "" {
		t.Fatalf("resumed with leftright asked for: %q epoch %d count %d mode %v problem %q; want leftright epoch 1 count %d, stopped",
			g.Experiment, g.Epoch, g.Machine.Count, g.Mode, g.Problem, lr.Machine.Count)
	}
	if !slices.ContainsFunc(logged, func(l string) bool {
		return strings.HasPrefix(l, `INFO opening "leftright" as asked`) && strings.Contains(l, `"ef" is kept`) && strings.HasSuffix(l, " component=session")
	}) {
		t.Errorf("the log does not say which experiment opened and which was kept: %q", logged)
	}
	stop2()
	if b, err := os.ReadFile(filepath.Join(dir, "ef.state")); err != nil || !bytes.Equal(b, efState) {
		t.Errorf("ef's saved machine changed while leftright was open (%v)", err)
	}

	// Without the choice the session resumes the experiment it was on (leftright), and ef,
	// chosen again, comes back as it was.
	opts.ExperimentChosen, opts.Experiment, opts.Logger = false, "ef", nil
	s3, _ := start(t, opts)
	s3.Snapshot(g)
	if g.Experiment != "leftright" {
		t.Errorf("resumed without a choice on %q, want leftright (the experiment saved last)", g.Experiment)
	}
	s3.SetExperiment("ef")
	h := waitFor(t, s3, "ef", func(f *session.Frame) bool { return f.Experiment == "ef" })
	if h.Epoch != 1 || h.Machine.Count != ef.Machine.Count || !equalInts(h.History, ef.History) {
		t.Errorf("ef chosen again: epoch %d count %d %v; saved epoch 1 count %d %v", h.Epoch, h.Machine.Count, h.History, ef.Machine.Count, ef.History)
	}
	for r := range ef.Machine.Pots {
		if !equalFloats(ef.Machine.Pots[r], h.Machine.Pots[r]) {
			t.Fatalf("ef's R-unit %d's pots differ from the saved ones", r)
		}
	}
}

// A session stopped while training resumes training; a state that cannot be read is set
// aside and a new machine built.
func TestResumeTrainingAndBadState(t *testing.T) {
	dir := t.TempDir()
	cfg := machine.Default()
	opts := session.Options{Config: &cfg, Experiment: "letters", Dir: dir, Speed: 100}
	s, stop := start(t, opts)
	s.Train()
	waitFor(t, s, "a few cards", func(f *session.Frame) bool { return f.Machine.Count >= 3 })
	stop()
	var saved bytes.Buffer
	m, err := machine.Load(filepath.Join(dir, "letters.state"))
	if err != nil {
		t.Fatal(err)
	}
	m.WriteState(&saved)

	s2 := build(t, opts)
	f := new(session.Frame)
	s2.Snapshot(f) // the frame New publishes, before Run shows a card
	_, stop2 := run(t, s2)
	if f.Mode != session.Training || f.Machine.Count != m.Presentations() {
		t.Errorf("resumed: mode %v count %d, want training from %d", f.Mode, f.Machine.Count, m.Presentations())
	}
	waitFor(t, s2, "training on", func(g *session.Frame) bool { return g.Machine.Count > f.Machine.Count })
	stop2()

	if err := os.WriteFile(filepath.Join(dir, "letters.state"), []byte("mark1-state 2 5 00\nhello"), 0o644); err != nil {
		t.Fatal(err)
	}
	s3 := build(t, opts)
	s3.Snapshot(f)
	run(t, s3)
	if f.Machine.Count != 0 || f.Problem == "" || f.Epoch != 0 {
		t.Errorf("bad state: count %d, epoch %d, problem %q", f.Machine.Count, f.Epoch, f.Problem)
	}
	if _, err := os.Stat(filepath.Join(dir, "letters.state.bad")); err != nil {
		t.Errorf("the bad state was not set aside: %v", err)
	}
}

func TestNewErrors(t *testing.T) {
	bad := machine.Default()
	bad.RUnits = 0
	for _, c := range []struct {
		name string
		opts session.Options
	}{
		{"no sets", session.Options{}},
		{"unknown set", session.Options{Sets: builtin.Load, Experiment: "nope"}},
		{"not listed", session.Options{Sets: builtin.Load, Experiment: "ef", Experiments: []string{"letters"}}},
		{"bad speed", session.Options{Sets: builtin.Load, Speed: -1}},
		{"bad config", session.Options{Sets: builtin.Load, Config: &bad}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := session.New(c.opts); err == nil {
				t.Errorf("%s: no error", c.name)
			}
		})
	}
}

func TestWaitHonoursContext(t *testing.T) {
	s, err := session.New(session.Options{Sets: builtin.Load, Experiment: "ef"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.Wait(ctx, s.Seq()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait: %v", err)
	}
}

func TestPicture(t *testing.T) {
	// A wide image is fitted across, centred, white above and below.
	img := image.NewGray(image.Rect(10, 10, 130, 70)) // 120x60
	var dst [session.PictureSide * session.PictureSide]uint8
	session.Picture(dst[:], img)
	if dst[0] != 255 || dst[59*60] != 255 || dst[30*60] != 0 || dst[30*60+59] != 0 {
		t.Errorf("picture of a wide black image: %d %d %d %d", dst[0], dst[59*60], dst[30*60], dst[30*60+59])
	}
	// A small image is blown up.
	small := image.NewGray(image.Rect(0, 0, 2, 2))
	small.Pix[0] = 200
	session.Picture(dst[:], small)
	if dst[0] != 200 || dst[29*60+29] != 200 || dst[30*60+30] != 0 {
		t.Errorf("picture of a 2x2 image: %d %d %d", dst[0], dst[29*60+29], dst[30*60+30])
	}
}

// Max is a constant; +Inf, from an older caller, is as fast too; a finite speed is not.
func TestSpeedIsMax(t *testing.T) {
	for _, c := range []struct {
		s    session.Speed
		want bool
	}{
		{session.Max, true}, {session.Speed(math.Inf(1)), true}, {session.Historical, false},
		{1e300, false}, {session.MinSpeed, false}, {session.Speed(math.NaN()), false},
	} {
		t.Run(fmt.Sprint(float64(c.s)), func(t *testing.T) {
			if got := c.s.IsMax(); got != c.want {
				t.Errorf("Speed(%v).IsMax() = %v, want %v", float64(c.s), got, c.want)
			}
		})
	}
}

// TrainEpochs stops after exactly n epochs at full speed (the letters do not converge so
// soon), and a Train after it runs to MaxEpochs again; n below 1 is refused.
func TestTrainEpochs(t *testing.T) {
	opts := session.Options{Config: ideal(), Experiment: "letters", Speed: session.Max, MaxEpochs: 9}
	s, _ := start(t, opts)
	if err := s.TrainEpochs(0); err == nil {
		t.Errorf("TrainEpochs(0) accepted")
	}
	if err := s.TrainEpochs(3); err != nil {
		t.Fatal(err)
	}
	f := waitFor(t, s, "three epochs", func(f *session.Frame) bool { return f.Epoch >= 3 && f.Mode == session.Stopped })
	if f.Epoch != 3 || f.Converged {
		t.Fatalf("TrainEpochs(3) stopped at epoch %d (converged %v)", f.Epoch, f.Converged)
	}
	time.Sleep(50 * time.Millisecond) // at about 20,000 cards a second, two epochs' time
	s.Snapshot(f)
	if f.Epoch != 3 || f.Mode != session.Stopped {
		t.Fatalf("after TrainEpochs(3): epoch %d, mode %v", f.Epoch, f.Mode)
	}
	s.Train()
	f = waitFor(t, s, "Train after TrainEpochs", func(f *session.Frame) bool { return f.Epoch > 3 && f.Mode == session.Stopped })
	if f.Epoch != 3+9 && !f.Converged {
		t.Errorf("Train after TrainEpochs(3) stopped at epoch %d, want %d (MaxEpochs) or converged", f.Epoch, 3+9)
	}
}
