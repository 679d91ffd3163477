package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/panel"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/internal/listenaddr"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/rig"
)

// loadCards reads the [machine]'s data: builtin:NAME, idx:IMAGES,LABELS, or a folder of class
// folders (paths relative to the rig file).
func loadCards(spec *rig.Rig) (*images.Set, error) {
	data := spec.Machine.Data
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(filepath.Dir(spec.File), p)
	}
	var l images.Loader
	switch {
	case data == "":
		return nil, fmt.Errorf("%s:%d: [machine]: no data (builtin:NAME, idx:IMAGES,LABELS or a folder)", spec.File, spec.Machine.Line)
	case strings.HasPrefix(data, "builtin:"):
		return builtin.Load(strings.TrimPrefix(data, "builtin:"))
	case strings.HasPrefix(data, "idx:"):
		parts := strings.Split(strings.TrimPrefix(data, "idx:"), ",")
		if len(parts) != 2 {
			return nil, fmt.Errorf("%s:%d: [machine] data %q: want idx:IMAGES,LABELS", spec.File, spec.Machine.Line, data)
		}
		return l.LoadIDX(rel(parts[0]), rel(parts[1]))
	}
	return l.LoadDir(rel(data))
}

// localSink sends a mirror's frames to the rig in the same process.
type localSink struct{ hw *rigdev.Hardware }

func (s localSink) Frame(_ context.Context, f hwapi.Frame) (hwapi.FrameReply, error) {
	vals := make([]rigdev.WeightValue, len(f.Weights))
	for i, w := range f.Weights {
		vals[i] = rigdev.WeightValue{Weight: rig.Weight{R: w.R, A: w.A}, Value: w.W}
	}
	return hwapi.FrameReply{Seq: f.Seq, Applied: s.hw.SetWeights(vals)}, nil
}

func (localSink) Heartbeat(context.Context) (hwapi.Ack, error) { return hwapi.Ack{}, nil }

// headless runs the rig's [machine] by itself, driven by the panel.
type headless struct {
	hw     *rigdev.Hardware
	spec   *rig.Rig
	cfg    machine.Config
	set    *images.Set
	panel  *panel.Panel
	events *hwapi.Broker
	logger *slog.Logger
	pace   time.Duration
	epochs int
	train  bool // start training at once
	exit   func()
	addr   string // the API's address: a bridge that goes on serving after a training says where

	mu     sync.Mutex
	m      *machine.Machine
	deck   *machine.Deck
	mirror *hwapi.Mirror
	cancel context.CancelFunc // the mirror's sender
	lamps  []bool
}

// build makes the machine: in the loop its racks are the rig's pots, in a mirror rig the
// emulator's own, shown on the knobs.
func (hl *headless) build(ctx context.Context) error {
	m, err := machine.New(hl.cfg, hl.set.Classes)
	if err != nil {
		return err
	}
	deck, err := m.Prepare(hl.set)
	if err != nil {
		return err
	}
	if hl.spec.Mode == rig.ModeLoop {
		racks, err := hl.hw.LoopRacks()
		if err != nil {
			return err
		}
		for r, rk := range racks {
			if err := m.SetRack(r, rk); err != nil {
				return err
			}
		}
	}
	hl.mu.Lock()
	if hl.cancel != nil {
		hl.cancel()
	}
	hl.m, hl.deck = m, deck
	hl.lamps = make([]bool, m.RUnits())
	var pots []hwapi.PotInfo
	for _, p := range hl.spec.Pots {
		pots = append(pots, hwapi.PotInfo{R: p.Weight.R, A: p.Weight.A, Range: p.Range})
	}
	obs := machine.ObserverFunc(hl.presented)
	if hl.spec.Mode == rig.ModeMirror {
		hl.mirror = hwapi.NewMirror(m, pots, hl.spec.Period())
		mctx, cancel := context.WithCancel(ctx)
		hl.cancel = cancel
		go func() { _ = hl.mirror.Run(mctx, localSink{hl.hw}, 0) }()
		mi := hl.mirror
		obs = func(e *machine.Event) { mi.Presented(e); hl.presented(e) }
	}
	m.Observe(obs)
	hl.mu.Unlock()
	if hl.mirror != nil {
		hl.mirror.Sync()
	}
	return nil
}

// presented lights the R-units' lamps.
func (hl *headless) presented(e *machine.Event) {
	if hl.panel == nil {
		return
	}
	for r := range hl.lamps {
		hl.panel.SetLamp(fmt.Sprintf("r%d", r), e.On(r))
	}
}

func (hl *headless) publish(kind, msg string) {
	hl.logger.Info(kind+": "+msg, "event", kind)
	hl.events.Publish(hwapi.Event{Time: time.Now(), Kind: kind, Message: msg})
}

// forced returns the class the force switches ask for, or -1: the class whose code has each
// switched R-unit on when its switch is closed and off when open.
func (hl *headless) forced() int {
	if hl.panel == nil || len(hl.spec.Panel.Force) == 0 {
		return -1
	}
	any := false
	want := make([]int8, len(hl.spec.Panel.Force))
	for r := range want {
		want[r] = -1
		if hl.panel.Held(fmt.Sprintf("force%d", r)) {
			want[r], any = 1, true
		}
	}
	if !any {
		return -1
	}
	for c, code := range hl.m.Codes() {
		ok := true
		for r, v := range want {
			ok = ok && r < len(code) && code[r] == v
		}
		if ok {
			return c
		}
	}
	return -1
}

// poll reads the panel and returns the buttons pressed; the fault lamp shows the rig's health.
func (hl *headless) poll() []string {
	if hl.panel == nil {
		return nil
	}
	ev, err := hl.panel.Poll(time.Now())
	if err != nil {
		hl.logger.Warn(fmt.Sprintf("panel: %v", err))
	}
	ok := true
	for _, c := range hl.hw.Status().Chips {
		ok = ok && c.OK
	}
	hl.panel.SetLamp("fault", !ok)
	if err := hl.panel.Flush(); err != nil {
		hl.logger.Warn(fmt.Sprintf("panel lamps: %v", err))
	}
	var pressed []string
	for _, e := range ev {
		if e.Pressed {
			hl.publish("button", e.Name)
			pressed = append(pressed, e.Name)
		}
	}
	return pressed
}

// loop runs until ctx ends: idle, it waits for a button; training, it presents card after
// card, polling the panel between presentations.
func (hl *headless) loop(ctx context.Context) {
	if err := hl.build(ctx); err != nil {
		hl.logger.Error(fmt.Sprintf("machine: %v", err))
		return
	}
	training := hl.train
	if training && hl.exit == nil {
		hl.logger.Info("training at once (--train); after it the bridge goes on serving" + hl.where())
	}
	epoch, card, mistakes := 0, 0, 0
	var order []int
	rng := rand.New(rand.NewPCG(hl.cfg.Seed, 0xbeef))
	pollEvery := 10 * time.Millisecond
	if hl.spec.Panel != nil {
		pollEvery = hl.spec.Panel.Poll
	}
	lastPoll := time.Time{}
	for ctx.Err() == nil {
		if time.Since(lastPoll) >= pollEvery || !training {
			lastPoll = time.Now()
			for _, b := range hl.poll() {
				switch {
				case b == "train":
					training = true
				case b == "stop":
					training = false
					hl.publish("stopped", fmt.Sprintf("after %d epochs and %d cards", epoch, card))
				case b == "test":
					res := hl.m.Evaluate(hl.deck)
					hl.publish("test", fmt.Sprintf("%d of %d cards right (%.1f%%)", res.Correct, res.Cards, 100*res.Accuracy))
				case b == "reset":
					training, epoch, card = false, 0, 0
					if err := hl.reset(ctx); err != nil {
						hl.logger.Error(fmt.Sprintf("reset: %v", err))
					}
				}
			}
		}
		if !training {
			select {
			case <-ctx.Done():
			case <-time.After(pollEvery):
			}
			continue
		}
		if card == 0 {
			order = rng.Perm(len(hl.deck.Stimuli))
			mistakes = 0
		}
		k := order[card]
		class := hl.deck.Class[k]
		if f := hl.forced(); f >= 0 {
			class = f
		}
		if pred, _ := hl.m.Train(&hl.deck.Stimuli[k], class); pred != class {
			mistakes++
		}
		if hl.panel != nil {
			_ = hl.panel.Flush()
		}
		card++
		if card == len(order) {
			epoch++
			card = 0
			hl.publish("epoch", fmt.Sprintf("epoch %d: %d mistakes", epoch, mistakes))
			if mistakes == 0 || epoch >= hl.epochs {
				training = false
				res := hl.m.Evaluate(hl.deck)
				msg := fmt.Sprintf("after %d epochs: %d of %d cards right (%.1f%%)", epoch, res.Correct, res.Cards, 100*res.Accuracy)
				if err := hl.m.Err(); err != nil {
					msg += "; first rig fault: " + err.Error()
				}
				if hl.exit == nil {
					msg += "; the bridge goes on serving" + hl.where()
				}
				hl.publish("trained", msg)
				if hl.exit != nil {
					hl.exit()
					return
				}
			}
		}
		if hl.pace > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(hl.pace):
			}
		}
	}
}

// where says where the bridge serves and how it stops, for the lines that say it goes on
// after a training: " http://127.0.0.1:8707/ (Train trains again; Ctrl-C or SIGTERM stops it,
// --exit stops after the training)".
func (hl *headless) where() string {
	s := ""
	if hl.addr != "" {
		s = " " + strings.Join(listenaddr.URLs(hl.addr), " ")
	}
	again := ""
	if hl.panel != nil {
		again = "Train trains again; "
	}
	return s + " (" + again + "Ctrl-C or SIGTERM stops it, --exit stops after the training)"
}

// reset starts again from a new machine; in the loop the pots go back to zero.
func (hl *headless) reset(ctx context.Context) error {
	if hl.spec.Mode == rig.ModeLoop {
		racks, err := hl.hw.LoopRacks()
		if err != nil {
			return err
		}
		for _, rk := range racks {
			if err := rk.Reset(); err != nil {
				return err
			}
		}
	}
	err := hl.build(ctx)
	hl.publish("reset", "a new machine")
	return err
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("run", "--rig FILE [--train] [--epochs N] [--pace D] [--exit] [serve flags]", stdout)
	var df daemonFlags
	df.register(fs)
	train := fs.Bool("train", false, "start training at once, as if Train were pressed; after it the bridge goes on serving (--exit: it stops)")
	epochs := fs.Int("epochs", 0, "most epochs a training runs (default: the rig's [machine] epochs)")
	pace := paceFlag(fs, "pace", "wait `D` between presentations: a duration (500ms, 2s), or auto: two update periods on a mirror rig, none in the loop")
	exit := fs.Bool("exit", false, "stop after the first training (with --train: a scripted run)")
	if err := parse(args); err != nil {
		return err
	}
	token, logger, hw, sim, err := df.open(stderr)
	if err != nil {
		return err
	}
	sf := df.sf
	spec := hw.Rig()
	if spec.Machine == nil {
		return fmt.Errorf("%s: no [machine] section: nothing to run", spec.File)
	}
	cfg, err := spec.MachineConfig()
	if err != nil {
		return err
	}
	set, err := loadCards(spec)
	if err != nil {
		return err
	}
	pn, err := hw.OpenPanel()
	if err != nil {
		return err
	}
	b, err := newBackend(hw, sim)
	if err != nil {
		return err
	}
	b.own = "the bridge runs its own machine (hwbridge run): frames and loop requests are refused"
	servos, digital := hw.Parts()
	h := api(b, hwapi.Opts{Token: token, AllowHosts: sf.allowHosts, Servos: servos, DigitalPots: digital, Logger: logger})
	hw.OnEvent(func(e rigdev.Event) { h.Events().Publish(hwapi.Event(e)) })
	hl := &headless{hw: hw, spec: spec, cfg: cfg, set: set, panel: pn, events: h.Events(), logger: logger,
		pace: *pace, epochs: *epochs, train: *train}
	if hl.epochs <= 0 {
		hl.epochs = spec.Machine.Epochs
	}
	if hl.pace < 0 {
		hl.pace = 0
		if spec.Mode == rig.ModeMirror {
			hl.pace = 2 * spec.Period()
		}
	}
	if pn == nil && !*train {
		logger.Warn(fmt.Sprintf("no [panel] in %s: give --train to start training", spec.File))
	}
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	if *exit {
		hl.exit = stopRun
	}
	return serveUntilSignal(runCtx, hw, h, sf, logger, func(ctx context.Context, addr string) {
		hl.addr = addr
		hl.loop(ctx)
	})
}
