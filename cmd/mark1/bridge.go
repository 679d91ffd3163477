package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/machine"
)

func init() {
	commands = append(commands, command{"bridge", "--bridge HOST:PORT --data SPEC [flags]",
		"train with a hardware rig (hwbridge): mirror the weights on its knobs, or learn on its pots", cmdBridge})
}

// bridgeReport is the JSON output of "mark1 bridge --json".
type bridgeReport struct {
	Bridge    string               `json:"bridge"`
	Rig       string               `json:"rig"`
	Mode      string               `json:"mode"`
	Simulated bool                 `json:"simulated"`
	Data      string               `json:"data"`
	Cards     int                  `json:"cards"`
	Machine   machineSummary       `json:"machine"`
	Shown     int                  `json:"weights_shown"`
	Epochs    []machine.EpochStats `json:"epochs"`
	Converged bool                 `json:"converged"`
	Train     *machine.Result      `json:"train,omitempty"`
	Mirror    *hwapi.MirrorStats   `json:"mirror,omitempty"`
	// Loop: the weights the machine used, as the rig read them back, and the targets the
	// learning drove the pots to (R-unit by R-unit: A-units, then the bias).
	ReadBack [][]float64 `json:"read_back,omitempty"`
	Targets  [][]float64 `json:"targets,omitempty"`
	// Knobs: in a mirror, each knob's check at the end (the machine's weight, the rig's
	// reading).
	Knobs    []hwapi.KnobCheck `json:"knobs,omitempty"`
	Frames   hwapi.FrameStats  `json:"rig_frames"`
	Faulty   []string          `json:"faulty_chips,omitempty"`
	Problems []string          `json:"pot_problems,omitempty"`
	// RigError is the error that stopped the session (RigStopped), else the first fault the
	// machine met and went on after (a chip that did not answer for a while).
	RigError   string `json:"rig_error,omitempty"`
	RigStopped bool   `json:"rig_stopped,omitempty"`
	Stopped    string `json:"interrupted,omitempty"`
}

func readTokenFile(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := openRegular(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if len(b) > 4096 {
		return "", fmt.Errorf("--token-file %s: larger than 4096 bytes", path)
	}
	return strings.TrimSpace(string(b)), nil
}

func cmdBridge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bridge", "--bridge HOST:PORT --data SPEC [--mode mirror|loop] [flags]", stdout)
	var mf machineFlags
	mf.register(fs)
	var df dataFlags
	df.register(fs)
	addr := fs.String("bridge", "", "the hardware bridge's HOST:PORT (hwbridge --listen)")
	tokenFile := fs.String("token-file", "", "a FILE holding the bridge's API token (needed unless it listens on loopback without one)")
	mode := fs.String("mode", "", "mirror (show this machine's weights on the rig's knobs) or loop (learn on the rig's pots); default: the rig's")
	data := fs.String("data", "", "cards: builtin:NAME, idx:IMAGES,LABELS, or a folder of class folders")
	epochs := fs.Int("epochs", 10, "most passes through the cards")
	pace := fs.String("pace", "auto", "wait between presentations: a duration (0: full speed), or auto: in a mirror, one update period after each\npresentation that moved a knob, so the knobs turn at the motors' pace; in the loop, none (the pots' own pace)")
	wait := fs.Duration("wait", 10*time.Second, "how long to wait for a bridge that is starting")
	grace := fs.Duration("grace", 15*time.Second, "in the loop, how long the pots may be off the weights the machine drove them to before training stops")
	jsonOut := fs.Bool("json", false, "print a JSON report")
	if err := fs.parse(args); err != nil {
		return err
	}
	autoPace, fixedPace := false, time.Duration(0)
	if *pace == "auto" {
		autoPace = true
	} else if d, err := time.ParseDuration(*pace); err != nil || d < 0 || d > time.Hour {
		return usageErr(fmt.Sprintf("--pace %q: want auto or a duration of 0 to 1h (50ms)", *pace))
	} else {
		fixedPace = d
	}
	switch {
	case fs.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case *addr == "":
		return usageErr("--bridge HOST:PORT is required")
	case *epochs < 1:
		return usageErr("--epochs must be at least 1")
	case *mode != "" && *mode != "mirror" && *mode != "loop":
		return usageErr(fmt.Sprintf("--mode %q: want mirror or loop", *mode))
	case *wait < 0 || *wait > time.Hour:
		return usageErr(fmt.Sprintf("--wait %v: want 0 to 1h", *wait))
	case *grace <= 0 || *grace > time.Hour:
		return usageErr(fmt.Sprintf("--grace %v: want more than 0, at most 1h", *grace))
	}
	token, err := readTokenFile(*tokenFile)
	if err != nil {
		return err
	}
	client, err := hwapi.NewClient(*addr, token)
	if err != nil {
		return usageErr("--bridge: " + strings.TrimPrefix(err.Error(), "hwapi: "))
	}
	ctx := context.Background()
	info, err := client.Wait(ctx, *wait, func() { fmt.Fprintf(stderr, "mark1 bridge: waiting for the bridge at %s ...\n", *addr) })
	var na *hwapi.NoAnswerError
	if errors.As(err, &na) {
		return err // it names the bridge
	}
	if err != nil {
		return fmt.Errorf("--bridge %s: %w", *addr, err)
	}
	if *mode != "" && *mode != info.Mode {
		return usageErr(fmt.Sprintf("--mode %s: the bridge at %s runs a %s rig (%s)", *mode, *addr, info.Mode, info.Rig))
	}
	if st, err := client.Status(ctx); errors.As(err, &na) {
		return err
	} else if err != nil {
		return fmt.Errorf("--bridge %s: %w", *addr, err)
	} else if st.Halted != "" {
		return fmt.Errorf("the rig at %s is halted (%s): hwbridge resume --bridge %s lets it move again", *addr, st.Halted, *addr)
	}
	loader, err := df.loader()
	if err != nil {
		return err
	}
	set, err := loadData(*data, loader)
	if err != nil {
		return budgetHint(err)
	}
	var m *machine.Machine
	var mirror *hwapi.Mirror
	if info.Mode == "loop" {
		if given := mf.givenBuildFlags(); len(given) > 0 {
			return usageErr(fmt.Sprintf("%s: in the loop the machine is the rig's (%d A-units, %d R-units); these flags only build an emulated one", strings.Join(given, ", "), info.Machine.AUnits, info.Machine.RUnits))
		}
		cfg, err := hwapi.LoopConfig(info.Machine)
		if err != nil {
			return err
		}
		if m, err = machine.New(cfg, set.Classes); err != nil {
			return err
		}
		racks, err := client.Racks(info)
		if err != nil {
			return err
		}
		for r, rk := range racks {
			rk.Grace = *grace
			if err := m.SetRack(r, rk); err != nil {
				return fmt.Errorf("bridge: %w", err)
			}
		}
	} else {
		if m, err = mf.build(set); err != nil {
			return err
		}
		mirror = hwapi.NewMirror(m, info.Pots, info.Period())
		if mirror.Shown() == 0 {
			return fmt.Errorf("bridge: none of the rig's %d pots shows a weight of this machine (%d A-units, %d R-units)", len(info.Pots), m.AUnits(), m.RUnits())
		}
		m.Observe(mirror)
	}
	deck, err := prepare(m, set, loader, "")
	if err != nil {
		return err
	}
	rep := bridgeReport{Bridge: *addr, Rig: info.Rig, Mode: info.Mode, Simulated: info.Simulate, Data: *data, Cards: deck.Len(), Machine: summarize(m)}
	if !*jsonOut {
		what := "learning on the pots of"
		if mirror != nil {
			what = fmt.Sprintf("mirroring %d weights on", mirror.Shown())
		}
		sim := ""
		if info.Simulate {
			sim = " (simulated)"
		}
		fmt.Fprintln(stdout, wrapText(fmt.Sprintf("%s %s%s at %s:", what, info.Rig, sim, *addr), reportWidth-2, "  "))
		fmt.Fprintln(stdout, "  "+wrapText(fmt.Sprintf("%s, %d cards, %d classes", *data, deck.Len(), len(set.Classes)), reportWidth-2, "  "))
		fmt.Fprintln(stdout, "  "+wrapText(describe(m), reportWidth-2, "  "))
	}
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	mirrorDone := make(chan error, 1)
	if mirror != nil {
		rep.Shown = mirror.Shown()
		mirror.Sync()
		beat := mirror.SetWatchdog(info.Watchdog)
		go func() { mirrorDone <- mirror.Run(runCtx, client, beat) }()
		go watchBoot(runCtx, client, info.Boot, mirror)
	}
	// rigErr is what ends the session early: the rig refused, went away, or did not follow.
	rigErr := func() error {
		if err := client.Err(); err != nil {
			return err
		}
		if mirror != nil {
			return mirror.Err()
		}
		return nil
	}

	stop := watchSignals()
	for e := 1; e <= *epochs; e++ {
		st := m.Epoch(deck, func(int) bool {
			switch {
			case fixedPace > 0:
				time.Sleep(fixedPace)
			case autoPace && mirror != nil && mirror.Pending() > 0:
				time.Sleep(info.Period()) // the knobs turn before the next presentation
			}
			return stop.signal() == nil && rigErr() == nil
		})
		st.Epoch = e
		rep.Epochs = append(rep.Epochs, st)
		if !*jsonOut {
			fmt.Fprintln(stdout, epochLine(st))
		}
		if st.Stopped || stop.signal() != nil || rigErr() != nil {
			break
		}
		if st.Corrections == 0 {
			rep.Converged = true
			break
		}
		if mirror != nil {
			mirror.Sync() // time passed: the simulated pots drifted
		}
	}
	stop.release()
	if mirror != nil {
		stopRun()
		if err := <-mirrorDone; err != nil {
			fmt.Fprintf(stderr, "mark1 bridge: the last frame: %v\n", err)
		}
		ms := mirror.Stats()
		rep.Mirror = &ms
	}
	fatal := rigErr()
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if mirror != nil && fatal == nil {
		// The knobs must show what the machine learnt, whatever the bridge said of its frames.
		var err error
		if rep.Knobs, err = hwapi.VerifyKnobs(sctx, client, info, mirror.Values(), 10*time.Second); err != nil {
			fatal = err
		}
	}
	if sig := stop.signal(); sig != nil {
		rep.Stopped = sig.String()
	} else if fatal == nil {
		r := m.Evaluate(deck)
		rep.Train = &r
		fatal = rigErr() // the evaluation's sums may meet the end too
	}
	if info.Mode == "loop" && fatal == nil {
		for r := range m.RUnits() {
			rep.ReadBack = append(rep.ReadBack, m.Weights(nil, r))
		}
	}
	switch {
	case fatal != nil:
		rep.RigError, rep.RigStopped = fatal.Error(), true
	case m.Err() != nil:
		rep.RigError = m.Err().Error()
	}
	// A bridge that did not answer would not answer these either: each would wait its time.
	mute := errors.As(fatal, &na)
	if mute {
		fmt.Fprintf(stderr, "mark1 bridge: the bridge does not answer: no status, and the rig is not released\n")
	} else if st, err := client.Status(sctx); err == nil {
		rep.Frames = st.Frames
		for _, c := range st.Chips {
			if !c.OK {
				rep.Faulty = append(rep.Faulty, c.Name+": "+c.Error)
			}
		}
		if info.Mode == "loop" && rep.ReadBack != nil {
			rep.Targets = make([][]float64, m.RUnits())
			for r := range rep.Targets {
				rep.Targets[r] = make([]float64, m.AUnits()+1)
			}
		}
		for _, p := range st.Pots {
			if p.Problem != "" {
				rep.Problems = append(rep.Problems, p.Weight+": "+p.Problem)
			}
			if rep.Targets != nil && p.R < m.RUnits() && p.A < m.AUnits() {
				i := p.A
				if i < 0 {
					i = m.AUnits()
				}
				rep.Targets[p.R][i] = p.Target
			}
		}
	} else {
		fmt.Fprintf(stderr, "mark1 bridge: status: %v\n", err)
	}
	// A clean end leaves the knobs where training put them: the bridge parks only a client lost.
	if !mute {
		if err := client.Release(sctx); err != nil {
			fmt.Fprintf(stderr, "mark1 bridge: releasing the rig: %v\n", err)
		}
	}
	if *jsonOut {
		if err := writeJSON(stdout, rep); err != nil {
			return err
		}
	} else {
		printBridgeReport(stdout, rep, info)
	}
	if sig := stop.signal(); sig != nil {
		return &interrupted{sig: sig, msg: fmt.Sprintf("interrupted by %s after %d presentations", sig, m.Presentations())}
	}
	if fatal != nil {
		return fmt.Errorf("bridge: stopped after %d presentations: %w", m.Presentations(), fatal)
	}
	return nil
}

// watchBoot asks the bridge for its boot id every few seconds: when it changed (the bridge
// restarted, its servos lost their positions) the mirror sends every weight again.
func watchBoot(ctx context.Context, c *hwapi.Client, boot string, mi *hwapi.Mirror) {
	t := time.NewTicker(3 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			info, err := c.Info(ctx)
			if err == nil && info.Boot != boot {
				boot = info.Boot
				mi.Resend()
			}
		}
	}
}

// reportWidth is the width the text report fits in.
const reportWidth = 80

// printBridgeReport prints the text report, in lines of at most reportWidth columns.
func printBridgeReport(w io.Writer, rep bridgeReport, info hwapi.Info) {
	line := func(format string, a ...any) {
		fmt.Fprintln(w, wrapText(fmt.Sprintf(format, a...), reportWidth-2, "  "))
	}
	if rep.Train != nil {
		line("training accuracy: %.1f%% (%d of %d)", 100*rep.Train.Accuracy, rep.Train.Correct, rep.Train.Cards)
	}
	if ms := rep.Mirror; ms != nil {
		line("mirror: %d frames, %d weight values sent, at most %g frames a second", ms.Frames, ms.Weights, info.UpdateHz)
		fmt.Fprintln(w, "  "+wrapText(fmt.Sprintf("latency to the bridge's write: mean %.2f, most %.2f update periods (%v)", ms.MeanLatency, ms.MaxLatency, info.Period()), reportWidth-4, "    "))
	}
	f := rep.Frames
	if f.WriteFrames > 0 {
		line("rig: %d frames wrote %d bytes on the bus (the last %d, the most %d)", f.WriteFrames, f.TotalWriteBytes, f.LastFrameBytes, f.MaxFrameBytes)
	}
	if f.Reads > 0 {
		// The machine's corrections are the epochs'; the closed loop's are re-drives.
		line("rig: %s, %s (a pot read back off its target, driven again)", english.Count(int(f.Reads), "read-back"), english.Count(int(f.Corrections), "re-drive"))
	}
	writeReadBack(w, rep)
	for _, s := range rep.Faulty {
		line("faulty chip: %s", s)
	}
	for _, s := range rep.Problems {
		line("pot: %s", s)
	}
	switch {
	case rep.RigStopped:
		line("rig error, training stopped: %s", rep.RigError)
	case rep.RigError != "":
		line("a rig fault the machine met and went on after: %s", rep.RigError)
	}
}

// writeReadBack prints a loop rig's read-back weights, each named by its weight (A0, ...,
// bias) and followed, when known, by the weight the machine drove its pot to, in columns
// that fit the report's width:
//
//	R0 read back: A0   -0.04 (+0)  A1   -1.17 (-1)  A2   -0.79 (-1)
//	              ...
//	              bias +0.09 (+0)
func writeReadBack(w io.Writer, rep bridgeReport) {
	if len(rep.ReadBack) == 0 {
		return
	}
	if rep.Targets != nil {
		fmt.Fprintln(w, "read back (in parentheses: the weight the machine drove the pot to):")
	}
	type cell struct{ name, value, target string }
	var cells [][]cell
	nw, vw, tw := 0, 0, 0
	for r, ws := range rep.ReadBack {
		var row []cell
		for i, v := range ws {
			c := cell{name: fmt.Sprintf("A%d", i), value: fmt.Sprintf("%+.2f", v)}
			if i == len(ws)-1 {
				c.name = "bias"
			}
			if rep.Targets != nil && r < len(rep.Targets) && i < len(rep.Targets[r]) {
				c.target = fmt.Sprintf("(%+.4g)", rep.Targets[r][i])
			}
			nw, vw, tw = max(nw, len(c.name)), max(vw, len(c.value)), max(tw, len(c.target))
			row = append(row, c)
		}
		cells = append(cells, row)
	}
	for r, row := range cells {
		label := fmt.Sprintf("R%d read back: ", r)
		width := nw + 1 + vw
		if tw > 0 {
			width += 1 + tw
		}
		per := max(1, (reportWidth-len(label)+2)/(width+2))
		var b strings.Builder
		for i, c := range row {
			switch {
			case i == 0:
				b.WriteString(label)
			case i%per == 0:
				b.WriteString("\n" + strings.Repeat(" ", len(label)))
			default:
				b.WriteString("  ")
			}
			s := fmt.Sprintf("%-*s %*s", nw, c.name, vw, c.value)
			if tw > 0 {
				s += " " + fmt.Sprintf("%-*s", tw, c.target)
			}
			if i%per == per-1 || i == len(row)-1 {
				s = strings.TrimRight(s, " ")
			}
			b.WriteString(s)
		}
		fmt.Fprintln(w, b.String())
	}
}
