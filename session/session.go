package session

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// Options configures a Session. Only Sets is required.
type Options struct {
	// Config is the machine built for each experiment; nil means machine.Default() (the
	// full-size analog Mark I). Its Seed makes the machine: the same seed, the same machine.
	Config *machine.Config
	// Sets loads an experiment's card set by name (the museum passes builtin.Load). Required.
	Sets func(name string) (*images.Set, error)
	// Experiments lists the names SetExperiment accepts; nil accepts any name Sets loads.
	Experiments []string
	// Experiment is the first experiment, unless the session resumes from Dir (it then opens
	// on the experiment it was on when saved) and ExperimentChosen is false. Default:
	// Experiments[0], or "letters".
	Experiment string
	// ExperimentChosen says that Experiment was asked for (a command line's --experiment): a
	// session resumed from Dir opens on it, with its saved machine and epochs when it has
	// them, and stopped. The other experiments' saved machines are kept, and each is resumed
	// when SetExperiment chooses it.
	ExperimentChosen bool
	// Dir is the folder where the session keeps its machines (one state file per experiment,
	// NAME.state, written with machine.Save) and its own state (session.json), and from which
	// New resumes. "" keeps nothing.
	Dir string
	// SaveEvery is how often a machine that has changed is saved while Run runs; 0 means
	// DefaultSaveEvery, a negative value only at the end of Run and when the experiment
	// changes.
	SaveEvery time.Duration
	// Speed is the pace a new session starts at; 0 means Historical.
	Speed Speed
	// MaxEpochs is the most epochs one Train runs when no epoch passes without a correction
	// (an analog machine's noise can keep a few cards flipping for ever); 0 means 100.
	MaxEpochs int
	// FrameInterval is the least wall time between two frames when the cards come faster than
	// that; 0 means DefaultFrameInterval. Every card is published when the pace is slower.
	FrameInterval time.Duration
	// Attach, when not nil, is called with every machine the session builds or loads, before
	// it shows it a card: a bridge puts its hardware racks in (machine.SetRack). The session
	// observes the machine itself: Attach must not call machine.Observe (use Observer).
	Attach func(m *machine.Machine) error
	// Observer, when not nil, is told of every presentation, on the session's goroutine
	// (see machine.Observer).
	Observer machine.Observer
	// Logger, when not nil, is told what the session does that a curator may want to know:
	// problems (saves that failed, states it could not resume, commands it refused) as
	// warnings, the states it resumed and the experiment it opened as Info; each with
	// component=session.
	Logger *slog.Logger
	// Clock is the time the session paces its cards, publishes its frames and saves by; nil
	// means the wall clock. Tests give a manual clock, so that pacing runs on machine time.
	Clock Clock
	// Rig, when not nil, is a hardware rig attached to the machine: Snapshot copies its state
	// into Frame.Rig.
	Rig RigSource
	// Hold, when not nil, is asked before each card of a training or a test whether the card
	// must wait (a loop rig's pots still settling after a correction): it returns nil when
	// the card may go, or a channel closed when it may. The session waits on it as on its
	// pace: commands still apply meanwhile, and a Stop ends the wait.
	Hold func() <-chan struct{}
}

// DefaultSaveEvery is how often a changed machine is saved when Options.SaveEvery is 0.
const DefaultSaveEvery = 5 * time.Minute

// DefaultFrameInterval is the least time between two frames when Options.FrameInterval is 0:
// twice a 60 Hz display's rate.
const DefaultFrameInterval = time.Second / 120

// ErrClosed is returned by the commands of a session whose Run has ended.
var ErrClosed = errors.New("session: closed")

// Session owns one machine per experiment and runs the current one. Its methods may be called
// from any goroutine; the machine itself belongs to Run's goroutine.
type Session struct {
	opts      Options
	logger    *slog.Logger // Options.Logger's, or one that discards
	clock     Clock
	cfg       machine.Config
	saveEvery time.Duration
	interval  time.Duration
	maxEpochs int
	runLimit  int // the epochs the last Train runs at most (TrainEpochs), 0 for maxEpochs

	// The driving goroutine's state (New, then Run).
	ctx      context.Context
	m        *machine.Machine
	exp      *experiment
	sets     map[string]*images.Set
	machines map[string]*machine.Machine
	tracks   map[string]*track
	tr       *track
	mode     Mode
	speed    Speed
	kind     Kind
	card     int
	want     int
	answer   int
	holder   *retina.Stimulus // the stimulus in the holder: a deck card or the drawing
	pic      []uint8          // its picture
	drawing  retina.Stimulus
	drawPic  []uint8
	testPos  int
	run      int // epochs in the current Train
	shownAt  time.Time
	lastPub  time.Time
	lastSave time.Time
	saved    uint64 // presentations at the last save
	dirty    bool   // something not counted in presentations changed since the last save
	problem  string

	// Commands, from any goroutine.
	cmu     sync.Mutex
	queue   []command
	spare   []command
	pending atomic.Bool
	wake    chan struct{}
	closed  bool
	started atomic.Bool

	// Frames: back is filled by the driving goroutine, front read under fmu.
	fmu    sync.Mutex
	front  *Frame
	back   *Frame
	seq    uint64
	waitCh chan struct{}
}

// track is what the session remembers of one experiment's training, beside its machine.
type track struct {
	Epoch        int   `json:"epoch"`
	History      []int `json:"history"`
	HistoryFirst int   `json:"history_first"`
	Converged    bool  `json:"converged"`
	Done         int   `json:"-"` // cards of the epoch under way
	Mistakes     int   `json:"-"`
	Corrections  int   `json:"-"`
	Tested       bool  `json:"tested"`
	TestDone     int   `json:"test_done"`
	TestCorrect  int   `json:"test_correct"`
}

// New builds a session: it resumes from Options.Dir when that holds a saved session, or
// builds the machine of Options.Experiment. The session is stopped and publishes its first
// frame at once; Run drives it.
func New(opts Options) (*Session, error) {
	if opts.Sets == nil {
		return nil, errors.New("session: Options.Sets is nil")
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	s := &Session{
		opts:      opts,
		logger:    lg.With("component", "session"),
		clock:     opts.Clock,
		saveEvery: opts.SaveEvery,
		interval:  opts.FrameInterval,
		maxEpochs: opts.MaxEpochs,
		sets:      make(map[string]*images.Set),
		machines:  make(map[string]*machine.Machine),
		tracks:    make(map[string]*track),
		speed:     opts.Speed,
		wake:      make(chan struct{}, 1),
		front:     new(Frame),
		back:      new(Frame),
		card:      -1,
		want:      -1,
		answer:    -1,
		drawPic:   make([]uint8, PictureSide*PictureSide),
	}
	if s.clock == nil {
		s.clock = wallClock{}
	}
	if opts.Config != nil {
		s.cfg = *opts.Config
	} else {
		s.cfg = machine.Default()
	}
	if err := s.cfg.Validate(); err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	if s.saveEvery == 0 {
		s.saveEvery = DefaultSaveEvery
	}
	if s.interval <= 0 {
		s.interval = DefaultFrameInterval
	}
	if s.maxEpochs <= 0 {
		s.maxEpochs = 100
	}
	if s.speed == 0 {
		s.speed = Historical
	}
	if err := checkSpeed(s.speed); err != nil {
		return nil, err
	}
	name := opts.Experiment
	if name == "" {
		name = "letters"
		if len(opts.Experiments) > 0 {
			name = opts.Experiments[0]
		}
	}
	if err := s.checkExperiment(name); err != nil {
		return nil, err
	}
	resumed := s.resume()
	if resumed != nil && s.checkExperiment(resumed.Experiment) == nil {
		if !opts.ExperimentChosen {
			name = resumed.Experiment
		} else if name != resumed.Experiment {
			s.logger.Info(fmt.Sprintf("opening %q as asked; the saved %q is kept for when it is chosen again", name, resumed.Experiment))
		}
		if checkSpeed(resumed.speed) == nil {
			s.speed = resumed.speed
		}
	}
	if err := s.switchTo(name, true); err != nil {
		return nil, err
	}
	if resumed != nil && resumed.Experiment == name {
		switch resumed.Mode {
		case Training.String():
			s.mode = Training
		case Testing.String():
			s.mode, s.testPos = Testing, s.tr.TestDone
		}
	}
	s.lastSave = s.clock.Now()
	s.saved = s.m.Presentations()
	s.publish()
	return s, nil
}

func checkSpeed(v Speed) error {
	if !(v >= MinSpeed) { // also NaN
		return fmt.Errorf("session: speed %v, want at least %v (or Max)", float64(v), float64(MinSpeed))
	}
	return nil
}

func (s *Session) checkExperiment(name string) error {
	if name == "" {
		return errors.New("session: experiment: empty name")
	}
	if s.opts.Experiments != nil && !slices.Contains(s.opts.Experiments, name) {
		return fmt.Errorf("session: experiment %q: not one of %v", name, s.opts.Experiments)
	}
	return nil
}

// fail records a problem for the frames and the log.
func (s *Session) fail(err error) {
	s.problem = err.Error()
	s.logger.Warn(err.Error())
}

// Run drives the session until ctx is done: it applies the commands, shows the cards at the
// session's pace, publishes frames and saves the machine (see Options.Dir). When ctx is done
// it stops between two presentations, saves, and returns the error of that last save, if
// any. Run may be called once; afterwards the commands return ErrClosed.
func (s *Session) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("session: Run called twice")
	}
	s.ctx = ctx
	s.shownAt = s.clock.Now()
	for ctx.Err() == nil {
		s.drain()
		if ctx.Err() != nil {
			break
		}
		s.saveIfDue()
		switch s.mode {
		case Training:
			s.trainEpoch()
		case Testing:
			s.testCard()
		default:
			s.idle()
		}
	}
	s.cmu.Lock()
	s.closed = true
	s.queue = s.queue[:0]
	s.cmu.Unlock()
	if s.mode != Stopped {
		s.publish()
	}
	return s.save()
}

// idle waits for a command, ctx, or the next save.
func (s *Session) idle() {
	wait := time.Hour
	if s.saveEvery > 0 && s.opts.Dir != "" {
		wait = max(s.lastSave.Add(s.saveEvery).Sub(s.clock.Now()), time.Millisecond)
	}
	select {
	case <-s.ctx.Done():
	case <-s.wake:
	case <-s.clock.After(wait):
	}
}

// trainEpoch runs one epoch (or the part of it until a command or ctx interrupts).
func (s *Session) trainEpoch() {
	s.tr.Done, s.tr.Mistakes, s.tr.Corrections = 0, 0, 0
	st := s.m.Epoch(s.exp.deck, s.step)
	if st.Stopped || st.Cards < s.exp.deck.Len() {
		s.tr.Done, s.tr.Mistakes, s.tr.Corrections = 0, 0, 0
		s.publish()
		return
	}
	s.tr.Epoch++
	s.tr.Done, s.tr.Mistakes, s.tr.Corrections = 0, 0, 0
	s.tr.History = append(s.tr.History, st.Mistakes)
	if s.tr.HistoryFirst == 0 {
		s.tr.HistoryFirst = 1
	}
	if len(s.tr.History) > MaxHistory {
		n := len(s.tr.History) - MaxHistory
		s.tr.History = s.tr.History[:copy(s.tr.History, s.tr.History[n:])]
		s.tr.HistoryFirst += n
	}
	s.tr.Converged = st.Corrections == 0
	s.run++
	limit := s.maxEpochs
	if s.runLimit > 0 {
		limit = s.runLimit
	}
	if s.tr.Converged || s.run >= limit {
		s.mode = Stopped
	}
	s.publish()
}

// step is called by Epoch after each card: it publishes, saves when due, and waits for the
// next card's time. It returns false to end the epoch (a command or ctx).
func (s *Session) step(done int) bool {
	s.tr.Done = done
	s.afterCard()
	return s.pace()
}

// afterCard publishes the presentation just made when it is time to.
func (s *Session) afterCard() {
	now := s.clock.Now()
	if now.Sub(s.lastPub) >= s.interval || !s.speed.IsMax() && s.period() >= s.interval {
		s.publish()
	}
	s.saveIfDue()
}

// period is the wall time between two cards at the session's speed.
func (s *Session) period() time.Duration {
	if s.speed.IsMax() {
		return 0
	}
	return time.Duration(s.m.Config().PresentationTime / float64(s.speed) * float64(time.Second))
}

// pace waits until the next card is due, applying the commands that do not interrupt the
// work under way (speed, save, train while training). It returns false when a command that
// does, or ctx, ends it.
func (s *Session) pace() bool {
	for {
		if s.ctx.Err() != nil {
			return false
		}
		if s.pending.Load() && !s.drainInline() {
			return false
		}
		if h := s.hold(); h != nil {
			select {
			case <-s.ctx.Done():
				return false
			case <-s.wake:
			case <-h:
			}
			continue // the commands, and the hold, again
		}
		if s.speed.IsMax() {
			if busyYield > 0 && s.clock.Now().Sub(s.shownAt) >= s.interval {
				// A single-threaded host (the browser) runs the page only while every
				// goroutine waits: leave it half the time (of the wall clock).
				time.Sleep(busyYield)
				s.shownAt = s.clock.Now()
			}
			return true
		}
		wait := s.shownAt.Add(s.period()).Sub(s.clock.Now())
		if wait <= 0 {
			s.shownAt = s.clock.Now()
			return true
		}
		select {
		case <-s.ctx.Done():
			return false
		case <-s.wake:
		case <-s.clock.After(wait):
			s.shownAt = s.shownAt.Add(s.period())
			return true
		}
	}
}

// hold returns Options.Hold's channel, or nil.
func (s *Session) hold() <-chan struct{} {
	if s.opts.Hold == nil {
		return nil
	}
	return s.opts.Hold()
}

// testCard shows the next card of a test pass.
func (s *Session) testCard() {
	d := s.exp.deck
	if s.testPos >= d.Len() {
		s.mode = Stopped
		s.publish()
		return
	}
	k := s.testPos
	s.answer = s.m.Present(&d.Stimuli[k])
	s.kind, s.card, s.want = TestCard, k, d.Class[k]
	s.holder, s.pic = &d.Stimuli[k], s.exp.picture(k)
	s.testPos++
	s.tr.TestDone = s.testPos
	if s.answer == s.want {
		s.tr.TestCorrect++
	}
	if s.testPos >= d.Len() {
		s.mode = Stopped
		s.publish()
		return
	}
	s.afterCard()
	s.pace()
}

// presented observes the machine (machine.Observer): it follows the training presentations.
func (s *Session) presented(e *machine.Event) {
	if e.Learning && e.Card >= 0 {
		s.kind, s.card, s.want = TrainCard, e.Card, e.Class
		s.holder, s.pic = &s.exp.deck.Stimuli[e.Card], s.exp.picture(e.Card)
		if e.Predicted != e.Class {
			s.tr.Mistakes++
		}
		s.tr.Corrections += len(e.Moves)
	}
	s.answer = e.Predicted
	if s.opts.Observer != nil {
		s.opts.Observer.Presented(e)
	}
}

// publish fills the back frame and makes it the front one.
func (s *Session) publish() {
	b := s.back
	s.m.Snapshot(&b.Machine, true)
	cfg := s.m.Config()
	b.Wall = s.clock.Now()
	b.Experiment, b.Classes, b.Codes, b.Coding = s.exp.name, s.m.Classes(), s.exp.codes, s.m.Coding()
	b.Board, b.Rule, b.Range, b.PresentationTime = s.exp.board, cfg.Rule, cfg.Pots.Range, cfg.PresentationTime
	b.Cards = s.exp.deck.Len()
	b.Mode, b.Speed, b.Kind, b.Card, b.Want, b.Answer = s.mode, s.speed, s.kind, s.card, s.want, s.answer
	if s.pic != nil {
		copy(b.Picture[:], s.pic)
	} else {
		for i := range b.Picture {
			b.Picture[i] = 255
		}
	}
	t := s.tr
	b.Epoch, b.EpochDone, b.EpochMistakes, b.EpochCorrections = t.Epoch, t.Done, t.Mistakes, t.Corrections
	b.History = append(b.History[:0], t.History...)
	b.HistoryFirst, b.Converged = t.HistoryFirst, t.Converged
	b.Tested, b.TestDone, b.TestCorrect = t.Tested, t.TestDone, t.TestCorrect
	b.Problem = s.problem
	s.lastPub = b.Wall

	s.fmu.Lock()
	s.seq++
	b.Seq = s.seq
	s.front, s.back = b, s.front
	if s.waitCh != nil {
		close(s.waitCh)
		s.waitCh = nil
	}
	s.fmu.Unlock()
}

// Snapshot copies the latest frame into dst, reusing dst's slices: it never waits for a
// presentation and, once dst has grown to the machine's size, never allocates. Any goroutine
// may call it at any time, also before Run and after.
func (s *Session) Snapshot(dst *Frame) {
	s.fmu.Lock()
	copyFrame(dst, s.front)
	s.fmu.Unlock()
	if s.opts.Rig != nil {
		s.opts.Rig.LoadRig(&dst.Rig)
	}
}

// Seq returns the Seq of the latest frame.
func (s *Session) Seq() uint64 {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	return s.seq
}

// Wait waits until a frame later than seq is published, and returns its Seq, or ctx's error.
func (s *Session) Wait(ctx context.Context, seq uint64) (uint64, error) {
	for {
		s.fmu.Lock()
		if s.seq > seq {
			n := s.seq
			s.fmu.Unlock()
			return n, nil
		}
		if s.waitCh == nil {
			s.waitCh = make(chan struct{})
		}
		ch := s.waitCh
		s.fmu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// switchTo makes name the current experiment: its set is loaded (once), its machine loaded
// from Dir (when resume and a saved one fits) or built.
func (s *Session) switchTo(name string, resume bool) error {
	set, ok := s.sets[name]
	if !ok {
		var err error
		set, err = s.opts.Sets(name)
		if err != nil {
			return fmt.Errorf("session: experiment %q: %w", name, err)
		}
		if len(set.Cards) == 0 {
			return fmt.Errorf("session: experiment %q: no cards", name)
		}
		s.sets[name] = set
	}
	m := s.machines[name]
	if m == nil && resume {
		m = s.load(name, set)
	}
	tr := s.tracks[name]
	if m == nil {
		var err error
		if m, err = machine.New(s.cfg, set.Classes); err != nil {
			return fmt.Errorf("session: experiment %q: %w", name, err)
		}
		tr = nil
	}
	if tr == nil {
		tr = new(track)
		s.tracks[name] = tr
	}
	if err := s.install(name, set, m); err != nil {
		return err
	}
	s.tr = tr
	s.kind, s.card, s.want, s.answer, s.holder, s.pic = None, -1, -1, -1, nil, nil
	s.mode, s.run, s.testPos = Stopped, 0, 0
	s.saved = m.Presentations()
	return nil
}

// install makes m the session's machine for set.
func (s *Session) install(name string, set *images.Set, m *machine.Machine) error {
	if s.opts.Attach != nil {
		if err := s.opts.Attach(m); err != nil {
			return fmt.Errorf("session: attach: %w", err)
		}
	}
	deck, err := m.Prepare(set)
	if err != nil {
		return fmt.Errorf("session: experiment %q: %w", name, err)
	}
	m.Observe(machine.ObserverFunc(s.presented))
	s.machines[name] = m
	var pics []uint8
	if s.exp != nil && s.exp.name == name {
		pics = s.exp.pics
	} else {
		pics = pictures(set)
	}
	s.exp = &experiment{name: name, set: set, deck: deck, pics: pics, codes: m.Codes(), board: m.Board()}
	s.m = m
	return nil
}

// experiment is the current card set, prepared for the current machine.
type experiment struct {
	name  string
	set   *images.Set
	deck  *machine.Deck
	pics  []uint8 // PictureSide^2 per card
	codes [][]int8
	board *patchboard.Board
}

func (e *experiment) picture(k int) []uint8 {
	n := PictureSide * PictureSide
	return e.pics[k*n : (k+1)*n]
}

// pictures draws every card of set as the projector shows it.
func pictures(set *images.Set) []uint8 {
	n := PictureSide * PictureSide
	out := make([]uint8, n*len(set.Cards))
	for k, c := range set.Cards {
		Picture(out[k*n:(k+1)*n], c.Image)
	}
	return out
}

// Picture draws img into dst (PictureSide x PictureSide luminance values, row by row) as the
// retina's default placement fits it: its larger side across the whole field, centred, its
// aspect kept, white around it. Each value is the mean of the image's pixels under it.
func Picture(dst []uint8, img image.Image) {
	b := img.Bounds()
	for i := range dst[:PictureSide*PictureSide] {
		dst[i] = 255
	}
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 {
		return
	}
	side := max(w, h)
	gray, ok := img.(*image.Gray)
	if !ok {
		g := image.NewGray(b)
		draw.Draw(g, b, img, b.Min, draw.Src)
		gray = g
	}
	// The image sits centred in a side x side square; each output pixel averages the square's
	// part under it (white outside the image).
	ox, oy := (side-w)/2, (side-h)/2
	for py := range PictureSide {
		y0, y1 := py*side/PictureSide, max((py+1)*side/PictureSide, py*side/PictureSide+1)
		for px := range PictureSide {
			x0, x1 := px*side/PictureSide, max((px+1)*side/PictureSide, px*side/PictureSide+1)
			sum, n := 0, 0
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					ix, iy := x-ox, y-oy
					v := 255
					if ix >= 0 && ix < w && iy >= 0 && iy < h {
						v = int(gray.Pix[iy*gray.Stride+ix])
					}
					sum += v
					n++
				}
			}
			dst[py*PictureSide+px] = uint8(sum / n)
		}
	}
}
