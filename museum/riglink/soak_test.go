package riglink_test

import (
	"context"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// TestSoakRig runs the exhibit with a rig as the window does, without a window: a session
// training at 100x (a card every 30 ms: the fastest speed below MAX, at which a machine that
// has learnt restarts every second and its allocations' collections, not the rig, interrupt
// the drawing) with its rig link, and a frame drawn every 16 ms on this goroutine
// (the session's Snapshot, which copies the rig's state, and view's Draw), for MARK1_SOAK_RIG
// (a duration; 8 s when unset; scripts/museum-test.sh runs 45 s, and docs/rig.md's 10-minute
// run 10m): half on a mirror rig (the letters), half on a loop rig (E and F, which its strips
// never tell apart: it corrects all along), a new machine training whenever one has learnt or
// reached its epochs' limit (so that the rig is busy to the end), each hwbridge --simulate faulted every 30 s (a
// sixth of the half in a shorter run), in turn killed and started again, halted and resumed,
// and a chip made to time out and cleared. The rig's calls never run on the drawing
// goroutine: no frame's Snapshot may wait over 50 ms for the rig (its wall time: a frame the
// rig held would wait for the network), and no frame may take over 50 ms of CPU past the
// warm-up (a frame over it is drawn again at once, as museum/console's TestSoak does: one
// that a collection or the machine's other work interrupted is counted apart, at most 1 in
// 100 and none over 150 ms). The heap must not grow past the warm-up, and at the end every
// knob is on its target.
func TestSoakRig(t *testing.T) {
	dur := 8 * time.Second
	if v := os.Getenv("MARK1_SOAK_RIG"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("MARK1_SOAK_RIG: %v", err)
		}
		dur = d
	}
	if testing.Short() {
		dur = 4 * time.Second
	}
	for _, c := range []struct {
		rig  string
		addr int
	}{{"builtin:mirror", 0x41}, {"builtin:loop", 0x2d}} {
		t.Run(c.rig, func(t *testing.T) { soakRig(t, c.rig, c.addr, dur/2) })
	}
}

// soakRig is one half of TestSoakRig.
func soakRig(t *testing.T, rig string, chip int, dur time.Duration) {
	b := startBridge(t, rig, "")
	e := startExhibit(t, b.addr, 100)
	if e.link.Loop() {
		if err := e.s.SetExperiment("ef"); err != nil {
			t.Fatal(err)
		}
	}
	e.s.Train()
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	every := min(30*time.Second, dur/6)
	// The faults, on their own goroutine: the drawing goes on meanwhile.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex // events
	var events []string
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case <-time.After(every):
			}
			c := b.client()
			hold := min(every/3, 8*time.Second)
			var what string
			switch i % 3 {
			case 0:
				what = "killed and started again"
				b.kill()
				time.Sleep(hold)
				if err := b.startErr(); err != nil {
					t.Error(err)
					return
				}
			case 1:
				what = "halted and resumed"
				c.Halt(context.Background(), true)
				time.Sleep(hold)
				c.Resume(context.Background())
			case 2:
				what = "a chip timing out"
				c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: chip, Kind: "timeout"})
				time.Sleep(hold)
				c.InjectFault(context.Background(), hwapi.Fault{Bus: "main", Addr: -1, Kind: "clear"})
			}
			mu.Lock()
			events = append(events, what)
			mu.Unlock()
		}
	}()

	var f session.Frame
	ui := &view.UI{Zoom: -1, Unit: 7}
	var cpu, redraw, waits, walls []time.Duration
	states := map[session.RigState]int{}
	var ms runtime.MemStats
	var heap []uint64
	var heapAt []int
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, lastSample := time.Now(), time.Now()
	var lastCount, presented, presentedLate uint64
	trainings, lastTrain := 1, time.Now()
	tick := time.NewTicker(16 * time.Millisecond)
	defer tick.Stop()
	for time.Since(start) < dur {
		<-tick.C
		t0, c0 := time.Now(), threadCPU()
		e.s.Snapshot(&f)
		w := time.Since(t0)
		now := time.Now()
		sc.Draw(&f, ui, now)
		d, again := threadCPU()-c0, time.Duration(0)
		if d > 50*time.Millisecond {
			c1 := threadCPU()
			sc.Draw(&f, ui, now)
			again = threadCPU() - c1
		}
		cpu, redraw, waits, walls = append(cpu, d), append(redraw, again), append(waits, w), append(walls, time.Since(t0))
		states[f.Rig.State]++
		n := f.Machine.Count
		if n >= lastCount {
			n -= lastCount
		}
		presented += n
		if time.Since(start) > dur*2/3 {
			presentedLate += n
		}
		lastCount = f.Machine.Count
		// A machine that has learnt stops training: a new one starts (its weights back to
		// zero, every knob turning), so that the rig is busy from the first minute to the last.
		if f.Mode == session.Stopped && time.Since(lastTrain) > time.Second {
			e.s.Reset()
			e.s.Train()
			trainings, lastTrain = trainings+1, time.Now()
		}
		if time.Since(lastSample) >= dur/24 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			heap, heapAt = append(heap, ms.HeapAlloc), append(heapAt, len(cpu))
			lastSample = time.Now()
		}
	}
	cancel()
	wg.Wait()
	runtime.UnlockOSThread()

	// The frames: past the warm-up (the first third), none over 50 ms of CPU (save the
	// interrupted, drawn again under it), and no Snapshot waiting over 50 ms for the rig.
	if len(heap) < 6 {
		t.Fatalf("only %d heap samples in %v", len(heap), dur)
	}
	from := heapAt[len(heap)/3]
	var steady, interrupted []time.Duration
	slow := 0
	for i, d := range cpu[from:] {
		if r := redraw[from+i]; d > 50*time.Millisecond && r > 0 && r <= 50*time.Millisecond {
			interrupted = append(interrupted, d)
			d = r
		}
		steady = append(steady, d)
		if d > 50*time.Millisecond {
			slow++
		}
	}
	slices.Sort(steady)
	maxWait, maxWall, overWall := slices.Max(waits), slices.Max(walls[from:]), 0
	for _, w := range walls[from:] {
		if w > 50*time.Millisecond {
			overWall++
		}
	}
	warm := heap[len(heap)/3:]
	lo, hi := slices.Min(warm), slices.Max(warm)
	mu.Lock()
	t.Logf("soak %s: %v, %d frames, %d presentations (%d in the last third) in %d trainings, %d faults (%v); the rig's states over the frames: %v",
		rig, time.Since(start).Round(time.Second), len(cpu), presented, presentedLate, trainings, len(events), events, states)
	mu.Unlock()
	t.Logf("soak %s: a frame's CPU time past the warm-up: median %.1f ms, longest %.1f ms (%d frames, %d interrupted); its Snapshot's wait: longest %.2f ms; its wall time: longest %.1f ms, %d over 50 ms; heap after warm-up %.1f..%.1f MB (first %.1f, last %.1f)",
		rig, msOf(steady[len(steady)/2]), msOf(steady[len(steady)-1]), len(steady), len(interrupted), msOf(maxWait), msOf(maxWall), overWall,
		mb(lo), mb(hi), mb(warm[0]), mb(warm[len(warm)-1]))
	if slow > 0 {
		t.Errorf("%d frames past the warm-up took over 50 ms of CPU (the longest %.1f ms)", slow, msOf(steady[len(steady)-1]))
	}
	if len(interrupted) > max(1, len(steady)/100) || len(interrupted) > 0 && slices.Max(interrupted) > 150*time.Millisecond {
		t.Errorf("%d of %d frames interrupted past 50 ms of CPU", len(interrupted), len(steady))
	}
	if maxWait > 50*time.Millisecond {
		t.Errorf("a frame's Snapshot waited %.1f ms: the rig held the drawing", msOf(maxWait))
	}
	if warm[len(warm)-1] > warm[0]+4<<20 || hi > lo+8<<20 {
		t.Errorf("the heap grew: %.1f MB to %.1f MB (range %.1f..%.1f MB)", mb(warm[0]), mb(warm[len(warm)-1]), mb(lo), mb(hi))
	}
	if presented == 0 || presentedLate == 0 || len(events) == 0 && dur >= 6*time.Second {
		t.Errorf("%d presentations (%d in the last third), %d faults: the exhibit must train to the end", presented, presentedLate, len(events))
	}
	// At the end the rig is back, and every knob on its target.
	e.s.Stop()
	e.waitRig(t, "the rig back, at rest", 90*time.Second, func(f *session.Frame) bool {
		return f.Mode == session.Stopped && !f.Rig.Emulated && (f.Rig.State == session.RigResting || f.Rig.State == session.RigTurning)
	})
	e.onTarget(t, b, "at the end of the soak")
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
