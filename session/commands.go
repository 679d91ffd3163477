package session

import (
	"fmt"
	"image"
	"image/draw"

	"github.com/mark1-perceptron/mark1/machine"
)

type op int

const (
	opTrain op = iota
	opTest
	opStop
	opReset
	opExperiment
	opPresent
	opTeach
	opSpeed
	opRule
	opSave
)

type command struct {
	op    op
	class int
	speed Speed
	rule  machine.Rule
	name  string
	img   *image.Gray
	n     int // TrainEpochs' count
}

// The commands are queued and applied by Run's goroutine between two presentations, in the
// order they were given; they never wait for the machine. Each returns an error only for what
// it can check at once (a closed session, a bad argument); what happens when it is applied
// shows in the frames (Frame.Problem for what failed).

// Train starts training on the experiment's cards, epoch after epoch, at the session's pace,
// until an epoch passes without a correction or Options.MaxEpochs epochs have passed. It goes
// on from the machine's weights as they are.
func (s *Session) Train() error { return s.send(command{op: opTrain}) }

// TrainEpochs trains like Train, but stops after n whole epochs from now (fewer when an epoch
// passes without a correction), then waits stopped. n must be at least 1.
func (s *Session) TrainEpochs(n int) error {
	if n < 1 {
		return fmt.Errorf("session: train %d epochs: want at least 1", n)
	}
	return s.send(command{op: opTrain, n: n})
}

// Test shows every card of the experiment once, in order, without learning, counting the
// right answers (Frame.TestDone, TestCorrect), then stops.
func (s *Session) Test() error { return s.send(command{op: opTest}) }

// Stop stops training or testing after the presentation under way.
func (s *Session) Stop() error { return s.send(command{op: opStop}) }

// Reset replaces the experiment's machine with a new one built from Options.Config (the same
// seed: the same new machine) and forgets its epochs. The session stops.
func (s *Session) Reset() error { return s.send(command{op: opReset}) }

// SetExperiment saves the current machine (see Options.Dir) and makes name the current
// experiment, with the machine it had (saved, or still in memory) or a new one. The session
// stops.
func (s *Session) SetExperiment(name string) error {
	if err := s.checkExperiment(name); err != nil {
		return err
	}
	return s.send(command{op: opExperiment, name: name})
}

// Present puts img in the card holder (a visitor's drawing, a card from elsewhere) and shows
// it to the machine without learning: Frame.Answer is the machine's answer. img is copied at
// once. The session stops: the visitor has the machine.
func (s *Session) Present(img image.Image) error {
	if img == nil || img.Bounds().Empty() {
		return fmt.Errorf("session: present: empty image")
	}
	b := img.Bounds()
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(g, g.Bounds(), img, b.Min, draw.Src)
	return s.send(command{op: opPresent, img: g})
}

// Teach trains the picture in the holder (the last card or Present's picture) as class, once,
// with the session's rule: the operator forcing the right response. The session stops.
func (s *Session) Teach(class int) error {
	if class < 0 {
		return fmt.Errorf("session: teach: class %d, want 0 or more", class)
	}
	return s.send(command{op: opTeach, class: class})
}

// SetSpeed sets the pace (see Speed): at least MinSpeed, or Max. It applies from the next card.
func (s *Session) SetSpeed(v Speed) error {
	if err := checkSpeed(v); err != nil {
		return err
	}
	return s.send(command{op: opSpeed, speed: v})
}

// SetRule switches the reinforcement rule (machine.Alpha: error correction, machine.Forced,
// machine.Gamma) of the current experiment's machine, keeping everything it has learned.
func (s *Session) SetRule(r machine.Rule) error {
	if r < machine.Alpha || r > machine.Forced {
		return fmt.Errorf("session: rule %d: unknown", int(r))
	}
	return s.send(command{op: opRule, rule: r})
}

// Save saves the machine and the session now (see Options.Dir).
func (s *Session) Save() error { return s.send(command{op: opSave}) }

func (s *Session) send(c command) error {
	s.cmu.Lock()
	if s.closed {
		s.cmu.Unlock()
		return ErrClosed
	}
	s.queue = append(s.queue, c)
	s.pending.Store(true)
	s.cmu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return nil
}

// take returns the queued commands, leaving the queue empty.
func (s *Session) take() []command {
	s.cmu.Lock()
	q := s.queue
	s.queue = s.spare[:0]
	s.pending.Store(false)
	s.cmu.Unlock()
	return q
}

// done recycles a queue that take returned.
func (s *Session) done(q []command) {
	clear(q)
	s.spare = q[:0]
}

// drain applies every queued command, then publishes if any was.
func (s *Session) drain() {
	if !s.pending.Load() {
		return
	}
	q := s.take()
	for _, c := range q {
		s.apply(c)
	}
	s.done(q)
	s.publish()
}

// drainInline applies the queued commands that leave the work under way going (speed, save,
// train while training). It returns false, leaving the rest queued, at the first command that
// does not.
func (s *Session) drainInline() bool {
	s.cmu.Lock()
	n := 0
	for _, c := range s.queue {
		if !(c.op == opSpeed || c.op == opSave || c.op == opTrain && s.mode == Training) {
			break
		}
		n++
	}
	inline := append(s.spare[:0], s.queue[:n]...)
	rest := copy(s.queue, s.queue[n:])
	clear(s.queue[rest:])
	s.queue = s.queue[:rest]
	s.pending.Store(rest > 0)
	s.cmu.Unlock()
	for _, c := range inline {
		s.apply(c)
	}
	s.done(inline)
	if n > 0 {
		s.publish()
	}
	return rest == 0
}

// apply carries out one command on the driving goroutine.
func (s *Session) apply(c command) {
	s.problem = ""
	switch c.op {
	case opTrain:
		if s.mode != Training || c.n > 0 {
			s.run = 0
		}
		s.runLimit = c.n
		s.mode = Training
	case opTest:
		s.mode, s.testPos = Testing, 0
		s.tr.Tested, s.tr.TestDone, s.tr.TestCorrect = true, 0, 0
	case opStop:
		s.mode = Stopped
	case opReset:
		m, err := machine.New(s.cfg, s.exp.set.Classes)
		if err == nil {
			err = s.install(s.exp.name, s.exp.set, m)
		}
		if err != nil {
			s.fail(fmt.Errorf("session: reset: %w", err))
			return
		}
		s.tr = new(track)
		s.tracks[s.exp.name] = s.tr
		s.kind, s.card, s.want, s.answer, s.holder, s.pic = None, -1, -1, -1, nil, nil
		s.mode, s.dirty = Stopped, true
	case opExperiment:
		if c.name == s.exp.name {
			s.mode = Stopped
			return
		}
		_ = s.save() // a failure is in the frame and the log; the switch goes on
		if err := s.switchTo(c.name, true); err != nil {
			s.fail(err)
			return
		}
		s.dirty = true
	case opPresent:
		s.m.PrepareImage(c.img, &s.drawing)
		Picture(s.drawPic, c.img)
		s.answer = s.m.Present(&s.drawing)
		s.kind, s.card, s.want = Shown, -1, -1
		s.holder, s.pic, s.mode = &s.drawing, s.drawPic, Stopped
	case opTeach:
		s.mode = Stopped
		if s.holder == nil {
			s.fail(fmt.Errorf("session: teach: no picture in the holder"))
			return
		}
		if c.class >= len(s.m.Classes()) {
			s.fail(fmt.Errorf("session: teach: class %d, want 0..%d", c.class, len(s.m.Classes())-1))
			return
		}
		s.answer, _ = s.m.Train(s.holder, c.class)
		s.kind, s.want = Taught, c.class
	case opSpeed:
		s.speed = c.speed
	case opRule:
		if s.m.Config().Rule == c.rule {
			return
		}
		if err := s.m.SetRule(c.rule); err != nil {
			s.fail(fmt.Errorf("session: rule: %w", err))
			return
		}
		s.dirty = true
	case opSave:
		_ = s.save()
	}
}
