package console_test

import (
	"context"
	"image"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// TestSoak runs the museum without a window, as the Game does, for days of machine time: a
// session training at full speed and saving often, a console pressed by a scripted visitor
// (experiments, resets, the rule switch, speeds, drawings, lessons, tests, zooms) and left to
// its attract mode, and the drawing of a frame after every step. The heap must stay flat. It
// runs for MARK1_SOAK (a duration; 4 s when unset); a run of 15 s or more must cover at least
// a day of machine time (scripts/museum-test.sh runs 30 s: about 50 days).
func TestSoak(t *testing.T) {
	dur := 4 * time.Second
	if v := os.Getenv("MARK1_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("MARK1_SOAK: %v", err)
		}
		dur = d
	}
	if testing.Short() {
		dur = time.Second
	}
	dir := t.TempDir()
	s, err := session.New(session.Options{
		Sets: builtin.Load, Experiments: view.ExperimentNames(), Dir: dir,
		SaveEvery: 200 * time.Millisecond, Speed: session.Max, MaxEpochs: 1000,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The console's clock runs ten times faster than the wall's, so that its attract mode (a
	// minute idle) comes round too.
	now := time.Date(2025, 5, 1, 8, 0, 0, 0, time.UTC)
	con := console.New(s, sc, console.Options{AttractAfter: 20 * time.Second, Start: now})
	var f session.Frame
	find := func(kind view.PartKind, index int) image.Point {
		for y := 0; y < view.Height; y += 6 {
			for x := 0; x < view.Width; x += 6 {
				if p := sc.HitTest(image.Pt(x, y)); p.Kind == kind && p.Index == index {
					return image.Pt(x+3, y+3)
				}
			}
		}
		return image.Pt(-1, -1)
	}
	frame := func() {
		now = now.Add(160 * time.Millisecond)
		s.Snapshot(&f)
		con.Tick(now, &f)
		sc.Draw(&f, &con.UI, now)
	}
	frame()
	tap := func(kind view.PartKind, index int) {
		p := find(kind, index)
		con.Down(p, true)
		frame()
		con.Up(p, true)
		frame()
	}
	draw := func() {
		r := sc.RetinaRect()
		con.Down(image.Pt(r.Min.X+100, r.Min.Y+80), true)
		for i := range 20 {
			con.Move(image.Pt(r.Min.X+100+i*8, r.Min.Y+80+i*12))
			frame()
		}
		con.Up(image.Pt(r.Min.X+260, r.Min.Y+320), true)
		frame()
	}
	// The visitor's script, played in a loop.
	acts := []func(){
		func() { tap(view.PartExperiment, 0) },
		func() { tap(view.PartSpeed, 4) },
		draw,
		func() { tap(view.PartClass, 3) },
		func() { tap(view.PartClass, 3) },
		func() { tap(view.PartRack, 2) },
		func() { tap(view.PartZoomClose, 0) },
		func() { tap(view.PartExperiment, 1) },
		func() { tap(view.PartRule, 2) },
		func() { tap(view.PartButton, int(view.ButtonTrain)) },
		func() { tap(view.PartButton, int(view.ButtonTest)) },
		func() { tap(view.PartExperiment, 2) },
		func() { tap(view.PartRule, 0) },
		func() { tap(view.PartButton, int(view.ButtonReset)); tap(view.PartButton, int(view.ButtonReset)) },
		func() { tap(view.PartButton, int(view.ButtonTrain)) },
		func() { tap(view.PartExperiment, 3) },
		func() { tap(view.PartLamp, 40) },
		func() { tap(view.PartUnitNext, 0) },
		draw,
		func() { tap(view.PartClass, 1) },
		func() { tap(view.PartButton, int(view.ButtonTrain)) },
		func() { tap(view.PartSpeed, 4) },
	}

	var ms runtime.MemStats
	heap := func() uint64 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	start := time.Now()
	var presentations, lastCount uint64
	var samples []uint64
	frames, attracts := 0, 0
	lastSample := start
	for i := 0; time.Since(start) < dur; i++ {
		if i%40 == 0 {
			acts[(i/40)%len(acts)]()
		}
		if i%40 == 20 && f.Mode == session.Stopped {
			tap(view.PartButton, int(view.ButtonTrain)) // back to learning at full speed
		}
		// Every so often nobody touches the machine for a while: the attract mode runs.
		if i%1500 == 700 {
			for range 150 {
				frame()
			}
			if con.Attracting() {
				attracts++
			}
			tap(view.PartButton, int(view.ButtonStop)) // hands the machine back
			tap(view.PartSpeed, 4)
		}
		frame()
		frames++
		if f.Machine.Count >= lastCount {
			presentations += f.Machine.Count - lastCount
		} else {
			presentations += f.Machine.Count
		}
		lastCount = f.Machine.Count
		if time.Since(lastSample) >= dur/24 {
			samples = append(samples, heap())
			lastSample = time.Now()
		}
	}
	if len(samples) < 6 {
		t.Skipf("only %d heap samples in %v: run longer (MARK1_SOAK)", len(samples), dur)
	}
	// Past the warm-up (the first third: sets generated, machines built for every experiment),
	// the heap must not grow.
	warm := samples[len(samples)/3:]
	lo, hi := warm[0], warm[0]
	for _, v := range warm {
		lo, hi = min(lo, v), max(hi, v)
	}
	first, last := warm[0], warm[len(warm)-1]
	days := float64(presentations) * 3 / 86400
	t.Logf("soak: %v, %d frames drawn, %d presentations (%.1f days of machine time at 3 s a card), %d attract modes; heap after warm-up %.1f..%.1f MB (first %.1f, last %.1f)",
		time.Since(start).Round(time.Millisecond), frames, presentations, days, attracts, mb(lo), mb(hi), mb(first), mb(last))
	if last > first+4<<20 || hi > lo+8<<20 {
		t.Errorf("the heap grew: %.1f MB to %.1f MB (range %.1f..%.1f MB)", mb(first), mb(last), mb(lo), mb(hi))
	}
	if dur >= 15*time.Second && days < 1 {
		t.Errorf("only %.2f days of machine time in %v", days, dur)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
