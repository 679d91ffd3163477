package view_test

import (
	"context"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// lamp reads the answer's lamp as drawn: "right" (green), "wrong" (red) or "" (none).
func lamp(img *image.RGBA, at image.Point) string {
	c := img.RGBAAt(at.X, at.Y)
	is := func(w color.RGBA) bool { return c == w }
	switch {
	case is(view.ColGreen):
		return "right"
	case is(view.ColRed):
		return "wrong"
	}
	return ""
}

// verdict is what a caption says of the answer to the card or drawing it describes: "right",
// "wrong", or "" when it says neither.
func verdict(caption string) string {
	right := strings.Contains(caption, ": right") || strings.Contains(caption, "Learned!") ||
		strings.Contains(caption, "without a mistake") || strings.Contains(caption, "already answered")
	wrong := strings.Contains(caption, "should be") || strings.Contains(caption, ": wrong") ||
		strings.Contains(caption, "had answered")
	switch {
	case right && wrong:
		return "both"
	case right:
		return "right"
	case wrong:
		return "wrong"
	}
	return ""
}

// agreement checks frames as the screen draws them: the caption never calls an answer right
// beside a red lamp, or wrong beside a green one.
type agreement struct {
	t      *testing.T
	sc     *view.Scene
	seen   map[string]int // lamp/verdict pairs drawn
	frames int
	bad    int
	cut    int // frames stopped between epochs on a wrong answer after an epoch without one
}

func (a *agreement) check(f *session.Frame) {
	a.t.Helper()
	img := a.sc.Draw(f, &view.UI{Zoom: -1}, time.Now())
	l, v := lamp(img, a.sc.AnswerLampCentre()), verdict(view.Caption(f))
	a.frames++
	a.seen[l+"/"+v]++
	if f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Converged && f.Answer != f.Want {
		a.cut++
	}
	if v == "both" || l == "wrong" && v == "right" || l == "right" && v == "wrong" || l == "" && v != "" {
		a.bad++
		if a.bad <= 5 {
			a.t.Errorf("lamp %q, caption %q (kind %v, mode %v, epoch %d, card %d of the epoch, converged %v, answer %d, want %d)",
				l, view.Caption(f), f.Kind, f.Mode, f.Epoch, f.EpochDone, f.Converged, f.Answer, f.Want)
		}
	}
}

// TestCaptionAgreesWithLamp drives a session as visitors do (training to convergence and past
// it, stops right after a wrong answer, lessons that undo what was learned, tests, drawings,
// forced learning, which corrects every card, and error correction, which corrects only the
// wrong ones) and checks every frame it publishes: the caption and the answer lamp agree.
func TestCaptionAgreesWithLamp(t *testing.T) {
	if testing.Short() {
		t.Skip("drives a session for several seconds")
	}
	cfg := machine.Default()
	s, err := session.New(session.Options{Config: &cfg, Sets: builtin.Load, Experiment: "ef", Speed: session.Max, MaxEpochs: 30})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := &agreement{t: t, sc: sc, seen: map[string]int{}}
	f := new(session.Frame)
	var seq uint64
	waiting := "a frame"
	// next waits for the next frame, checks it and returns it.
	next := func() *session.Frame {
		t.Helper()
		var err error
		if seq, err = s.Wait(ctx, seq); err != nil {
			t.Fatalf("waiting for %s: %v", waiting, err)
		}
		s.Snapshot(f)
		seq = f.Seq
		a.check(f)
		return f
	}
	until := func(what string, cond func(f *session.Frame) bool) {
		t.Helper()
		waiting = what
		for !cond(next()) {
		}
		waiting = "a frame"
	}
	stopped := func(f *session.Frame) bool { return f.Mode == session.Stopped }

	// Trained to convergence at full speed.
	s.Train()
	until("converged", func(f *session.Frame) bool { return f.Mode == session.Stopped && f.Epoch > 0 })
	if !f.Converged {
		t.Logf("ef did not converge in 30 epochs (%v)", f.History)
	}
	holder := f.Want
	for round := range 6 {
		// A visitor teaches the card in the holder the wrong class, again and again: the
		// machine now errs on cards it had learned.
		for range 4 + round {
			s.Teach(1 - holder)
		}
		until("taught", func(f *session.Frame) bool { return f.Kind == session.Taught && f.Mode == session.Stopped })
		// Then trains at a pace slow enough to stop on the card just answered wrongly.
		s.SetSpeed(20)
		s.Train()
		until("a wrong answer", func(f *session.Frame) bool {
			return f.Mode == session.Training && f.Kind == session.TrainCard && f.Answer != f.Want || f.Mode == session.Stopped && f.Seq > 1 && f.Kind == session.TrainCard
		})
		s.Stop()
		until("stopped", stopped)
		holder = f.Want
		if holder < 0 {
			holder = 0
		}
		// Trained on at full speed, to convergence or MaxEpochs.
		s.SetSpeed(session.Max)
		s.Train()
		until("trained again", func(f *session.Frame) bool { return f.Mode == session.Stopped && f.Kind == session.TrainCard })
		holder = f.Want
	}
	// Every card of two epochs at 100x: each frame is one presentation, the right answers
	// (no correction) and the wrong ones (corrected).
	s.Reset()
	until("reset", func(f *session.Frame) bool { return f.Kind == session.None })
	s.SetSpeed(100)
	s.Train()
	until("two epochs", func(f *session.Frame) bool {
		return f.Epoch >= 2 || f.Mode == session.Stopped && f.Kind == session.TrainCard
	})
	s.Stop()
	until("stopped", stopped)
	s.SetSpeed(session.Max)
	// A test pass, a drawing, a lesson that agrees with the machine, forced learning.
	s.Test()
	until("tested", func(f *session.Frame) bool { return f.Mode == session.Stopped && f.Kind == session.TestCard })
	e := image.NewGray(image.Rect(0, 0, 60, 60))
	for i := range e.Pix {
		e.Pix[i] = 255
	}
	for y := 10; y < 50; y++ {
		for x := 15; x < 25; x++ {
			e.Pix[y*60+x] = 0
		}
	}
	s.Present(e)
	until("shown", func(f *session.Frame) bool { return f.Kind == session.Shown })
	s.Teach(f.Answer)
	until("taught", func(f *session.Frame) bool { return f.Kind == session.Taught })
	s.SetRule(machine.Forced)
	s.SetSpeed(20)
	s.Train()
	for range 12 {
		next()
	}
	s.Stop()
	until("stopped", stopped)
	s.SetSpeed(session.Max)
	s.Train()
	until("forced epochs", func(f *session.Frame) bool { return f.Epoch >= 40 || f.Mode == session.Stopped && f.EpochDone == 0 })
	s.Stop()
	until("stopped", stopped)

	t.Logf("%d frames (%d stopped on a wrong answer after a whole epoch without one): lamp/caption %v", a.frames, a.cut, a.seen)
	for _, pair := range []string{"wrong/wrong", "right/right"} {
		if a.seen[pair] == 0 {
			t.Errorf("no frame with lamp/caption %q: the test did not reach it", pair)
		}
	}
	if a.cut == 0 {
		t.Errorf("no frame stopped on a wrong answer after a whole epoch without one: the test did not reach the case it was written for")
	}
}
