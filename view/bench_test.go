package view_test

import (
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// framesInTraining returns two frames of a machine in training, a correction apart.
func framesInTraining(b testing.TB) (*session.Frame, *session.Frame) {
	r := newRig(b, "letters", machine.Default())
	r.epochs(2)
	f1 := r.train(0, 1, 0)
	var f2 *session.Frame
	for k := 1; k < r.deck.Len(); k++ {
		f2 = r.train(k, k+1, 1)
		if len(f2.Machine.Moves) > 0 {
			break
		}
	}
	return f1, f2
}

// BenchmarkDraw builds a whole 1920x1080 frame with everything on screen (the emulator's 4,104
// dials, the 512 lamps, the retina, the heat maps, the wiring, the caption), alternating
// between two presentations so that the dials turn.
func BenchmarkDraw(b *testing.B) {
	f1, f2 := framesInTraining(b)
	sc, err := view.New(view.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ui := &view.UI{Zoom: -1, Unit: 17, Hover: view.Part{Kind: view.PartDial, Index: 1, Sub: 9}}
	now := time.Now()
	sc.Draw(f1, ui, now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now = now.Add(16 * time.Millisecond)
		f := f1
		if i%32 >= 16 {
			f = f2
		}
		sc.Draw(f, ui, now)
	}
}

// BenchmarkDrawZoom is BenchmarkDraw with a rack zoomed in.
func BenchmarkDrawZoom(b *testing.B) {
	f1, f2 := framesInTraining(b)
	sc, err := view.New(view.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ui := &view.UI{Zoom: 2, Unit: 17}
	now := time.Now()
	sc.Draw(f1, ui, now)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now = now.Add(16 * time.Millisecond)
		f := f1
		if i%32 >= 16 {
			f = f2
		}
		sc.Draw(f, ui, now)
	}
}

// Drawing allocates nothing once the machine's first frame is drawn, with a rig attached too
// (its state changing from frame to frame, its knobs lagging).
func TestDrawDoesNotAllocate(t *testing.T) {
	p1, p2 := framesInTraining(t)
	r1, r2 := rigFrames(t, p1, p2)
	r2.Rig.State, r2.Rig.Emulated, r2.Rig.Chip = session.RigFault, true, "pots1"
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		ui     *view.UI
		f1, f2 *session.Frame
	}{
		{"hover-cell", &view.UI{Zoom: -1, Unit: 17, Hover: view.Part{Kind: view.PartCell, Index: 40}}, p1, p2},
		{"hover-dial,note", &view.UI{Zoom: -1, Unit: 3, Hover: view.Part{Kind: view.PartDial, Index: 1, Sub: 9}, Note: "A narration."}, p1, p2},
		{"zoomed,hover-button", &view.UI{Zoom: 1, Unit: 3, Hover: view.Part{Kind: view.PartButton, Index: 1}}, p1, p2},
		{"rig", &view.UI{Zoom: -1, Unit: 17}, r1, r2},
		{"rig,zoomed", &view.UI{Zoom: 0, Unit: 17}, r1, r2},
		{"rig,german", &view.UI{Zoom: -1, Unit: 17, Lang: i18n.German, LargeText: true}, r1, r2},
	} {
		f1, f2 := tc.f1, tc.f2
		// Each case draws its first frame before measuring, so that it runs alone as it runs
		// after the others on the same scene.
		t.Run(tc.name, func(t *testing.T) {
			ui := tc.ui
			now := time.Now()
			sc.Draw(f1, ui, now)
			i := 0
			n := testing.AllocsPerRun(50, func() {
				i++
				now = now.Add(10 * time.Millisecond)
				f := f1
				if i%2 == 0 {
					f = f2
				}
				sc.Draw(f, ui, now)
			})
			if n != 0 {
				t.Errorf("ui %+v: %v allocations per frame, want 0", ui, n)
			}
		})
	}
}
