package session_test

import (
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/session"
)

// fakeRig is a RigSource and a Hold: a rig whose state the test sets, and a gate the test
// closes and opens.
type fakeRig struct {
	mu    sync.Mutex
	rig   session.Rig
	gate  chan struct{}
	asked int // times Hold was asked while the gate was closed
}

func (r *fakeRig) LoadRig(dst *session.Rig) {
	r.mu.Lock()
	*dst = r.rig
	r.mu.Unlock()
}

func (r *fakeRig) hold() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gate != nil {
		r.asked++
	}
	return r.gate
}

func (r *fakeRig) close() {
	r.mu.Lock()
	r.gate = make(chan struct{})
	r.mu.Unlock()
}

func (r *fakeRig) open() {
	r.mu.Lock()
	close(r.gate)
	r.gate = nil
	r.mu.Unlock()
}

func (r *fakeRig) waiting() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asked
}

// Snapshot copies the rig's latest state into every frame, a new one at each call, with or
// without a presentation in between; a session without a rig has a zero Rig.
func TestSnapshotCarriesTheRig(t *testing.T) {
	rig := &fakeRig{}
	s := build(t, session.Options{Config: ideal(), Experiment: "ef", Rig: rig})
	var f session.Frame
	for i, st := range []session.RigState{session.RigConnecting, session.RigTurning, session.RigHalted} {
		rig.mu.Lock()
		rig.rig = session.Rig{Attached: true, Seq: uint64(i + 1), State: st, NKnobs: 2, Knobs: [session.MaxRigKnobs]session.RigKnob{{R: 0, A: 3, Target: 1.5, Reading: 1.25}}}
		rig.mu.Unlock()
		s.Snapshot(&f)
		if !f.Rig.Attached || f.Rig.State != st || f.Rig.Seq != uint64(i+1) || f.Rig.Knobs[0].Reading != 1.25 {
			t.Errorf("state %v: the frame's rig: attached %v, state %v, seq %d, knob 0 %+v", st, f.Rig.Attached, f.Rig.State, f.Rig.Seq, f.Rig.Knobs[0])
		}
	}
	plain := build(t, session.Options{Config: ideal(), Experiment: "ef"})
	plain.Snapshot(&f)
	if f.Rig != (session.Rig{}) {
		t.Errorf("a session without a rig: %+v", f.Rig)
	}
}

// While Hold's channel is open, no card is shown; the commands still apply (a Stop ends the
// training at once); when it closes, the cards go on.
func TestHoldWaitsBetweenCards(t *testing.T) {
	for _, speed := range []session.Speed{session.Max, 1000} {
		t.Run(speedName(speed), func(t *testing.T) {
			rig := &fakeRig{}
			s, _ := start(t, session.Options{Config: ideal(), Experiment: "letters", Speed: speed, Hold: rig.hold, MaxEpochs: 1000})
			if err := s.Train(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, s, "a card", func(f *session.Frame) bool { return f.Kind == session.TrainCard })
			rig.close()
			deadline := time.Now().Add(30 * time.Second)
			for rig.waiting() == 0 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if rig.waiting() == 0 {
				t.Fatal("the session never asked the hold")
			}
			var f session.Frame
			s.Snapshot(&f)
			held := f.Machine.Count
			time.Sleep(200 * time.Millisecond)
			s.Snapshot(&f)
			if f.Machine.Count != held {
				t.Errorf("held: %d presentations became %d", held, f.Machine.Count)
			}
			rig.open()
			waitFor(t, s, "cards after the hold", func(f *session.Frame) bool { return f.Machine.Count > held+2 })

			// Held again, a Stop applies without waiting for the gate.
			rig.close()
			if err := s.Stop(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, s, "the stop", func(f *session.Frame) bool { return f.Mode == session.Stopped })
			rig.open()
		})
	}
}

func speedName(v session.Speed) string {
	if v.IsMax() {
		return "max"
	}
	return "paced"
}
