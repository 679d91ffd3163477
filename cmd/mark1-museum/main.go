// Command mark1-museum is the museum's Mark I Perceptron: a full-screen machine that visitors
// watch learn and teach. It opens a window on a built-in experiment (letters, shapes,
// left/right, E/F) and trains it at about 3 s a card (the original's pace, assumed); a visitor draws on the
// retina and teaches the machine, picks an experiment, or points at any part to learn what it
// is. Left alone for a minute it plays a narrated demonstration.
//
// Usage:
//
//	mark1-museum [--fullscreen | --kiosk] [--experiment NAME] [--state-dir DIR] [flags]
//
// A kiosk (--kiosk) is full screen, hides the cursor when idle and ignores the window's close
// button: Ctrl+Shift+Q quits. The machine is saved in the state folder every few minutes and
// when the program ends (SIGTERM, SIGINT, the quit keys), and a restarted museum resumes
// where it was. --screenshot FILE --frames N writes the screen after N frames and quits (for
// tests and documentation). "mark1 museum" finds and runs this program.
//
// The same program, built for the browser (GOOS=js GOARCH=wasm, see scripts/web-build.sh),
// takes its flags from the page's query string (?experiment=shapes&speed=10) and keeps no
// state.
//
// On Linux the window needs an X display (XWayland under Wayland): without one the program
// says so in one line and exits with status 1.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	// First: it ends the program, with one line, before ebiten's initialisation would panic
	// for want of a display.
	_ "github.com/mark1-perceptron/mark1/museum/displayguard"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum"
	"github.com/mark1-perceptron/mark1/museum/audio"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/museum/curator"
	"github.com/mark1-perceptron/mark1/museum/help"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

func main() {
	os.Exit(run(args(), os.Stdout, os.Stderr))
}

// speedFlag reads a speed: a multiple of the original's pace, or "max".
type speedFlag struct{ v session.Speed }

func (s *speedFlag) String() string {
	if s.v.IsMax() {
		return "max"
	}
	return strconv.FormatFloat(float64(s.v), 'g', -1, 64)
}

func (s *speedFlag) Set(t string) error {
	if t == "max" {
		s.v = session.Max
		return nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= float64(session.MinSpeed)) {
		return fmt.Errorf("want a number of at least %v, or max", float64(session.MinSpeed))
	}
	s.v = session.Speed(v)
	return nil
}

// settings are the command line's flags.
type settings struct {
	fullscreen, kiosk, ideal, stats bool
	experiment, stateDir, shot      string
	saveEvery, attract              time.Duration
	speed                           speedFlag
	seed                            uint64
	pretrain, frames                int
	curator, camera, sound          string
	language                        string
	bridge, tokenFile               string
	curatorExample                  bool
	logFormat, logLevel             string
}

// newFlagSet returns the program's flags, read into st. Their usage is museum/help's (which
// the window tests check against them): -h prints it with or without a display.
func newFlagSet(st *settings) *flag.FlagSet {
	fs := flag.NewFlagSet("mark1-museum", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.BoolVar(&st.fullscreen, "fullscreen", false, "open full screen")
	fs.BoolVar(&st.kiosk, "kiosk", false, "full screen, cursor hidden when idle, close button ignored (Ctrl+Shift+Q quits)")
	fs.StringVar(&st.experiment, "experiment", "letters", "the experiment to open on: letters, shapes, leftright or ef")
	fs.StringVar(&st.stateDir, "state-dir", defaultStateDir(), "folder where the machines are saved and resumed from (\"\" keeps nothing)")
	fs.DurationVar(&st.saveEvery, "save-every", session.DefaultSaveEvery, "how often the machine is saved while it changes")
	st.speed = speedFlag{session.Historical}
	fs.Var(&st.speed, "speed", "cards' pace: 1 is about 3 s a card (the original's, assumed), 10 ten times faster, max as fast as possible")
	fs.Uint64Var(&st.seed, "seed", machine.Default().Seed, "seed of the machine's wiring and flaws")
	fs.BoolVar(&st.ideal, "ideal", false, "every analog flaw off (the textbook perceptron)")
	fs.DurationVar(&st.attract, "attract", console.DefaultAttractAfter, "idle time before the narrated demonstration (0: never)")
	fs.IntVar(&st.pretrain, "pretrain", 0, "epochs to train at full speed before the window opens")
	fs.StringVar(&st.shot, "screenshot", "", "write the screen to this PNG file after --frames frames, and quit")
	fs.IntVar(&st.frames, "frames", 30, "frames before the screenshot")
	fs.BoolVar(&st.stats, "stats", false, "print frame timings on standard output: every 10 s while the window is open, and a summary when it closes")
	fs.StringVar(&st.curator, "curator", "", "the curator's file (TOML) setting up the exhibit: experiments, sound, attract mode, camera, screen, staff")
	fs.BoolVar(&st.curatorExample, "curator-example", false, "print a commented curator's file with every setting at its default, and quit")
	fs.StringVar(&st.camera, "camera", "", "the camera as the projector: a device (/dev/video0), auto, file:VIDEO.y4m, or off (default: the curator's file's)")
	fs.StringVar(&st.sound, "sound", "", "on or off (default: the curator's file's; without it, off in a kiosk, on in a window)")
	fs.StringVar(&st.bridge, "bridge", "", "a running hwbridge's HOST:PORT: a mirror rig's knobs follow the screen, a loop rig's pots are the weights (default: the curator's file's)")
	fs.StringVar(&st.tokenFile, "token-file", "", "a FILE holding the bridge's API token (default: the curator's file's)")
	fs.StringVar(&st.language, "language", "", "the language the screen opens in and returns to: en, de, fr or es (default: the curator's file's, else en)")
	fs.StringVar(&st.logFormat, "log-format", "text", "the log on standard error and in the log file: text (key=value) or json (one object a line)")
	fs.StringVar(&st.logLevel, "log-level", "warn", "the least level logged on standard error: debug, info, warn or error (the log file keeps info and up)")
	return fs
}

func run(argv []string, stdout, stderr io.Writer) int {
	var st settings
	fs := newFlagSet(&st)
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, help.Text)
			return 0
		}
		fmt.Fprintf(stderr, "mark1-museum: %v (mark1-museum -h lists the flags)\n", err)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mark1-museum: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if len(st.language) > i18n.MaxTag {
		// Not quoted, not parsed: a tag of a million characters is one short line.
		_, err := i18n.ParseTag(st.language)
		fmt.Fprintf(stderr, "mark1-museum: --language: %v\n", err)
		return 2
	}
	if _, ok := i18n.Parse(st.language); st.language != "" && !ok {
		fmt.Fprintf(stderr, "mark1-museum: --language %q: want en, de, fr or es (a region is allowed: de-CH)\n", st.language)
		return 2
	}
	if _, err := logLevel(st.logLevel); err != nil {
		fmt.Fprintf(stderr, "mark1-museum: %v\n", err)
		return 2
	}
	if st.logFormat != "text" && st.logFormat != "json" {
		fmt.Fprintf(stderr, "mark1-museum: --log-format %q: want text or json\n", st.logFormat)
		return 2
	}
	if st.curatorExample {
		stdout.Write(curator.Example())
		return 0
	}
	if st.sound != "" && st.sound != "on" && st.sound != "off" {
		fmt.Fprintf(stderr, "mark1-museum: --sound %q: want on or off\n", st.sound)
		return 2
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	chosen := given["experiment"]
	ex := newExhibit(st.curator, &st, stderr)
	defer ex.close()
	cur := ex.cfg
	if !chosen && cur.Experiment != "" {
		st.experiment = cur.Experiment
	}
	if !given["save-every"] {
		st.saveEvery = cur.SaveEvery
	}
	if !given["attract"] && st.curator != "" {
		st.attract = cur.Attract.After
	}
	offered := view.ExperimentNames()
	if cur.Experiments != nil {
		offered = cur.Experiments
		if !chosen && cur.Experiment == "" {
			st.experiment = offered[0]
		}
	}
	cfg := machine.Default()
	cfg.Seed = st.seed
	if st.ideal {
		cfg = cfg.Ideal()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rg := exhibitRig{cfg: cfg, offered: offered, experiment: st.experiment, stateDir: st.stateDir}
	if addr := cmp.Or(st.bridge, cur.Bridge.Addr); addr != "" {
		if browser {
			ex.log.Warn("the browser's museum drives no rig: --bridge is the window's")
		} else {
			rg = setupRig(ctx, ex.log, addr, cmp.Or(st.tokenFile, cur.Bridge.TokenFile), st.stateDir, cfg, offered, st.experiment)
		}
	}
	opts := session.Options{
		Config:      &rg.cfg,
		Sets:        builtin.Load,
		Experiments: rg.offered,
		Experiment:  rg.experiment,
		// Asked for, it opens even on a resumed museum (the others stay saved).
		ExperimentChosen: chosen,
		Dir:              rg.stateDir,
		SaveEvery:        st.saveEvery,
		Speed:            st.speed.v,
		Logger:           ex.log,
	}
	if rg.link != nil {
		opts.Attach, opts.Hold, opts.Rig = rg.link.Attach, rg.link.Hold, rg.link
	}
	s, err := session.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "mark1-museum: %v\n", err)
		return 1
	}
	sctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(sctx) }()
	finish := func() int {
		cancel()
		if err := <-done; err != nil {
			fmt.Fprintf(stderr, "mark1-museum: %v\n", err)
			return 1
		}
		return 0
	}

	var f session.Frame
	s.Snapshot(&f)
	if st.pretrain > 0 {
		if err := pretrainFor(ctx, s, st.pretrain, st.speed.v); err != nil {
			fmt.Fprintf(stderr, "mark1-museum: %v\n", err)
			finish()
			return 1
		}
	} else if f.Kind == session.None && f.Mode == session.Stopped {
		s.Train() // a new machine opens learning
	}
	aa := st.attract
	if aa == 0 {
		aa = -1
	}
	expose(s, ex)
	var wg sync.WaitGroup
	xctx, xcancel := context.WithCancel(ctx)
	defer func() { xcancel(); wg.Wait() }()
	ex.saveDir = rg.stateDir
	ex.start(xctx, st.camera, st.stateDir, &wg)
	if rg.link != nil {
		wg.Add(1)
		go func() { defer wg.Done(); rg.link.Run(xctx) }()
	}
	soundOn := !st.kiosk
	if cur.Sound.Set {
		soundOn = cur.Sound.On
	}
	if st.sound != "" {
		soundOn = st.sound == "on"
	}
	lang := cur.Language
	if st.language != "" {
		lang = st.language
	}
	mopts := museum.Options{Fullscreen: st.fullscreen, Kiosk: st.kiosk, AttractAfter: aa, Screenshot: st.shot, Frames: st.frames,
		Institution: cur.Institution, Camera: ex.feed, Orientation: cur.Screen.Orientation, Rotate: cur.Screen.Rotate,
		AttractPace: cur.Attract.Pace, AttractText: cur.Attract.Text, Language: lang, LargeText: cur.LargeText,
		SoundAfterTouch: browser, Monitor: ex.mon, Logger: ex.log,
		WindowW: cur.Screen.Width, WindowH: cur.Screen.Height}
	if soundOn {
		mopts.Sound = audio.New(cur.Sound.Volume)
	}
	if st.stats {
		mopts.Stats = stdout
	}
	err = museum.Run(ctx, s, mopts)
	status := finish()
	if err != nil {
		fmt.Fprintf(stderr, "mark1-museum: %v\n", err)
		return 1
	}
	return status
}

// pretrainFor trains n epochs at full speed (fewer when an epoch passes without a
// correction), then sets the speed back and goes on training.
func pretrainFor(ctx context.Context, s *session.Session, n int, speed session.Speed) error {
	var f session.Frame
	s.Snapshot(&f)
	start := f.Epoch
	s.SetSpeed(session.Max)
	if err := s.TrainEpochs(n); err != nil {
		return err
	}
	for seq := uint64(0); ; {
		var err error
		if seq, err = s.Wait(ctx, seq); err != nil {
			return err
		}
		s.Snapshot(&f)
		// The session stops by itself after the n epochs, or after one without a correction.
		if f.Mode == session.Stopped && (f.Epoch >= start+n || f.Epoch > start && f.Converged) {
			break
		}
	}
	s.SetSpeed(speed)
	return s.Train()
}

// defaultStateDir is $XDG_STATE_HOME/mark1/museum, or ~/.local/state/mark1/museum; nothing
// in a browser.
func defaultStateDir() string {
	if browser {
		return ""
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "mark1", "museum")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "state", "mark1", "museum")
}
