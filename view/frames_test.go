package view_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// rig is a machine trained by the test itself, from which frames are made as a session would
// publish them: deterministic, with no goroutine.
type rig struct {
	m     *machine.Machine
	deck  *machine.Deck
	name  string
	pics  []uint8
	hist  []int
	epoch int
}

func newRig(t testing.TB, name string, cfg machine.Config) *rig {
	t.Helper()
	set, err := builtin.Load(name)
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
	n := session.PictureSide * session.PictureSide
	pics := make([]uint8, n*len(set.Cards))
	for k, c := range set.Cards {
		session.Picture(pics[k*n:(k+1)*n], c.Image)
	}
	return &rig{m: m, deck: deck, name: name, pics: pics}
}

func (r *rig) epochs(n int) {
	for range n {
		st := r.m.Epoch(r.deck, nil)
		r.hist = append(r.hist, st.Mistakes)
		r.epoch++
	}
}

// frame returns the frame a session would publish now.
func (r *rig) frame(kind session.Kind, mode session.Mode, card, want, answer int) *session.Frame {
	f := new(session.Frame)
	r.m.Snapshot(&f.Machine, true)
	cfg := r.m.Config()
	f.Seq = r.m.Presentations() + 1
	f.Experiment, f.Classes, f.Codes, f.Coding = r.name, r.m.Classes(), r.m.Codes(), r.m.Coding()
	f.Board, f.Rule, f.Range, f.PresentationTime = r.m.Board(), cfg.Rule, cfg.Pots.Range, cfg.PresentationTime
	f.Cards = r.deck.Len()
	f.Mode, f.Speed, f.Kind, f.Card, f.Want, f.Answer = mode, session.Historical, kind, card, want, answer
	n := session.PictureSide * session.PictureSide
	if card >= 0 {
		copy(f.Picture[:], r.pics[card*n:(card+1)*n])
	} else {
		for i := range f.Picture {
			f.Picture[i] = 255
		}
	}
	f.Epoch, f.History, f.HistoryFirst = r.epoch, append([]int(nil), r.hist...), 1
	if len(r.hist) > 0 {
		f.Converged = r.hist[len(r.hist)-1] == 0
	}
	return f
}

// train shows card k with learning and returns the frame, mid-epoch.
func (r *rig) train(k, done, mistakes int) *session.Frame {
	want := r.deck.Class[k]
	ans, _ := r.m.Train(&r.deck.Stimuli[k], want)
	f := r.frame(session.TrainCard, session.Training, k, want, ans)
	f.EpochDone, f.EpochMistakes = done, mistakes
	return f
}

// drawingOf returns a 60x60 drawing of a thick E-like figure made of bars.
func drawingOf(bars ...image.Rectangle) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 60, 60))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for _, b := range bars {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				g.SetGray(x, y, color.Gray{})
			}
		}
	}
	return g
}

func letterE() *image.Gray {
	return drawingOf(image.Rect(14, 8, 24, 52), image.Rect(14, 8, 46, 17), image.Rect(14, 26, 40, 34), image.Rect(14, 43, 46, 52))
}
