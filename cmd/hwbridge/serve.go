package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
	"github.com/mark1-perceptron/mark1/drivers/rigdev"
	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/listenaddr"
	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/rig"
)

// rigFlags open a rig, real or simulated.
type rigFlags struct {
	rig         string
	simulate    bool
	trace       bool
	seed        uint64
	noise       float64
	oscErr      float64
	stateDir    string
	recalibrate bool
}

func (f *rigFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.rig, "rig", "", "the rig FILE (TOML; testdata/rig/example.toml shows every key), or builtin:loop or builtin:mirror\n(with --simulate and no --rig: builtin:loop)")
	fs.BoolVar(&f.simulate, "simulate", false, "run on simulated chips (PCA9685, MCP44x1, ADS1115, MCP23017 modelled from their datasheets): any machine")
	fs.BoolVar(&f.trace, "trace", false, "print every bus transaction on standard error")
	fs.Uint64Var(&f.seed, "seed", 1, "with --simulate: the seed of the simulated chips' noise and nonlinearity")
	fs.Float64Var(&f.noise, "noise", 0.5e-3, "with --simulate: the ADCs' input noise, volts")
	fs.Float64Var(&f.oscErr, "osc-error", 0, "with --simulate: how far servo board i's oscillator runs fast, times i+1 (0.03: 3%, 6%, ...)")
	fs.StringVar(&f.stateDir, "state-dir", "", "keep the read-back pots' calibration in this DIR when the rig file's folder cannot be written or the rig is\nbuilt in (default: $STATE_DIRECTORY, which systemd's StateDirectory= sets; with --simulate, only this flag)")
	fs.BoolVar(&f.recalibrate, "recalibrate", fs.Name() == "hwbridge calibrate", "sweep every read-back pot to both ends at start, whatever calibration is stored")
}

// calFiles decides where the read-back pots' calibration is kept: the file written (and read),
// "" to keep it in memory; other files read; and a sentence saying so. A rig file's calibration
// goes beside it (rig.toml.cal) when that folder can be written, else in the state directory
// (--state-dir, or systemd's $STATE_DIRECTORY); a built-in rig's in the state directory. A
// simulation's ends are no real rig's: they go only to a --state-dir, as NAME.sim.cal.
func (f *rigFlags) calFiles() (write string, read []string, note string) {
	state := f.stateDir
	if state == "" && !f.simulate {
		state, _, _ = strings.Cut(os.Getenv("STATE_DIRECTORY"), ":")
	}
	var name, beside string
	if b, ok := strings.CutPrefix(f.rig, rig.BuiltinPrefix); ok {
		name = "builtin-" + b + ".cal"
	} else {
		name, beside = filepath.Base(f.rig)+".cal", f.rig+".cal"
	}
	if f.simulate {
		if state == "" {
			return "", nil, "calibration kept in memory: a simulated rig's is stored only with --state-dir DIR"
		}
		name, beside = strings.TrimSuffix(name, ".cal")+".sim.cal", ""
	}
	var cands []string
	if beside != "" {
		cands = append(cands, beside)
	}
	if state != "" {
		cands = append(cands, filepath.Join(state, name))
	}
	var why []string
	for _, c := range cands {
		if write == "" {
			err := atomicfile.Check(c)
			if err == nil {
				write = c
				continue
			}
			why = append(why, err.Error())
		}
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			read = append(read, c)
		}
	}
	switch {
	case write != "" && len(read) > 0:
		note = fmt.Sprintf("calibration kept in %s (also read: %s)", write, strings.Join(read, ", "))
	case write != "":
		note = "calibration kept in " + write
	default:
		where := "no state directory is given"
		if len(why) > 0 {
			where = strings.Join(why, "; ")
			if state == "" {
				where += ", and no state directory is given"
			}
		}
		note = fmt.Sprintf("calibration kept in memory only (%s: give --state-dir DIR, or StateDirectory= in the systemd unit): every start sweeps the read-back pots to their ends", where)
	}
	return write, read, note
}

// open reads the rig file and opens its hardware (or its simulation), logging to logger.
func (f *rigFlags) open(logger *slog.Logger, stderr io.Writer) (*rigdev.Hardware, *rigdev.Sim, error) {
	if f.rig == "" {
		if !f.simulate {
			return nil, nil, usageErr("--rig FILE is required (or --simulate, which runs the built-in loop rig)")
		}
		f.rig = rig.BuiltinPrefix + "loop"
		var others []string
		for _, n := range rig.Builtins() {
			if rig.BuiltinPrefix+n != f.rig {
				others = append(others, rig.BuiltinPrefix+n)
			}
		}
		logger.Info(fmt.Sprintf("no --rig: simulating the built-in rig %s (the others: %s)", f.rig, strings.Join(others, ", ")))
	}
	spec, err := readRig(f.rig)
	if err != nil {
		return nil, nil, err
	}
	var env rigdev.Env
	var sim *rigdev.Sim
	if f.simulate {
		if f.noise < 0 || f.noise > 1 || f.oscErr < -0.2 || f.oscErr > 0.2 {
			return nil, nil, usageErr("--noise 0..1 V and --osc-error -0.2..0.2")
		}
		sim, env = rigdev.Simulate(spec, i2csim.WallClock{}, rigdev.SimOpts{Seed: f.seed, Noise: f.noise, OscillatorError: f.oscErr})
	} else if env, err = hostEnv(logger); err != nil {
		return nil, nil, err
	}
	env.Logger = logger
	if f.trace {
		env.Trace = stderr
	}
	for _, p := range spec.Pots {
		if p.Readback != nil {
			var note string
			env.CalFile, env.CalRead, note = f.calFiles()
			env.Recalibrate = f.recalibrate
			logger.Info(note)
			break
		}
	}
	hw, err := rigdev.Open(spec, env)
	if err != nil {
		return nil, nil, err
	}
	return hw, sim, nil
}

// readRig reads a rig file, or a built-in rig ("builtin:loop").
func readRig(name string) (*rig.Rig, error) {
	if b, ok := strings.CutPrefix(name, rig.BuiltinPrefix); ok {
		return rig.Builtin(b)
	}
	return rig.ReadFile(name)
}

// readToken reads a token file: one line, at least 16 characters, readable by its owner only.
func readToken(path string) (string, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("--token-file %s: readable by others (mode %04o): chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	if len(b) > 4096 {
		return "", fmt.Errorf("--token-file %s: larger than 4096 bytes", path)
	}
	tok := strings.TrimSpace(string(b))
	switch {
	case len(tok) < 16:
		return "", fmt.Errorf("--token-file %s: the token has %d characters, want at least 16 (head -c 24 /dev/urandom | base64)", path, len(tok))
	case strings.ContainsAny(tok, " \t\r\n"):
		return "", fmt.Errorf("--token-file %s: one token on one line, no spaces", path)
	}
	return tok, nil
}

// checkListen refuses to listen beyond loopback without a token.
func checkListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageErr("--listen %q: want HOST:PORT (127.0.0.1:8707)", addr)
	}
	if isLoopback(host) || token != "" {
		return nil
	}
	where := host
	if where == "" {
		where = "every interface"
	}
	return usageErr("--listen %s: %s is not loopback: give --token-file FILE, or anyone on the network could drive the rig", addr, where)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveFlags are the API's.
type serveFlags struct {
	listen, tokenFile, addrFile string
	allowHosts                  stringList
}

// stringList is a flag given several times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error {
	if s == "" || strings.ContainsAny(s, "/:@ ") {
		return fmt.Errorf("%q: want a host name (raspberrypi.local) or an address, without a port", s)
	}
	*l = append(*l, s)
	return nil
}

func (f *serveFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8707", "the API's address; beyond loopback a --token-file is required")
	fs.Var(&f.allowHosts, "allow-host", "without a token, also answer requests naming this HOST (besides 127.0.0.1, [::1] and localhost); repeatable")
	fs.StringVar(&f.tokenFile, "token-file", "", "a FILE holding the API token (mode 600); clients send it as \"Authorization: Bearer TOKEN\"")
	fs.StringVar(&f.addrFile, "addr-file", "", "write the address listened on to this FILE (for --listen 127.0.0.1:0)")
}

func (f *serveFlags) token() (string, error) {
	tok := ""
	if f.tokenFile != "" {
		var err error
		if tok, err = readToken(f.tokenFile); err != nil {
			return "", err
		}
	}
	return tok, checkListen(f.listen, tok)
}

func bootID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// backend serves a rigdev.Hardware through hwapi.
type backend struct {
	hw    *rigdev.Hardware
	sim   *rigdev.Sim
	info  hwapi.Info
	racks []*rigdev.LoopRack
	own   string // when not "": the bridge runs its own machine, and says so to clients
}

func newBackend(hw *rigdev.Hardware, sim *rigdev.Sim) (*backend, error) {
	spec := hw.Rig()
	b := &backend{hw: hw, sim: sim}
	b.info = hwapi.Info{Version: hwapi.Version, Boot: bootID(), Rig: filepath.Base(spec.File), Mode: spec.Mode,
		Simulate: sim != nil, UpdateHz: spec.UpdateHz, Watchdog: spec.Watchdog.Seconds()}
	for _, p := range spec.Pots {
		pi := hwapi.PotInfo{R: p.Weight.R, A: p.Weight.A, Range: p.Range, Out: p.Out.String(), Step: hw.OutputStep(p.Weight)}
		if p.Readback != nil {
			pi.Readback = p.Readback.String()
			b.info.Tolerance = spec.Tolerance
		}
		b.info.Pots = append(b.info.Pots, pi)
	}
	if m := spec.Machine; m != nil {
		b.info.Machine = &hwapi.Machine{AUnits: m.AUnits, RUnits: m.RUnits, Seed: m.Seed, Rule: m.Rule, Wiring: m.Wiring, Data: m.Data}
		cfg, err := spec.MachineConfig()
		if err != nil {
			return nil, err
		}
		if cfg.Board != nil && spec.Mode == rig.ModeLoop {
			var sb strings.Builder
			if _, err := cfg.Board.WriteTo(&sb); err != nil {
				return nil, err
			}
			b.info.Machine.Board = sb.String()
		}
	}
	if spec.Mode == rig.ModeLoop {
		var err error
		if b.racks, err = hw.LoopRacks(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *backend) Info() hwapi.Info { return b.info }

func (b *backend) Status() hwapi.Status {
	s := b.hw.Status()
	out := hwapi.Status{Mode: s.Mode, Held: s.Held, Buses: map[string]hwapi.BusStats{}}
	for _, c := range s.Chips {
		out.Chips = append(out.Chips, hwapi.ChipStatus(c))
	}
	for _, p := range s.Pots {
		out.Pots = append(out.Pots, hwapi.PotStatus(p))
	}
	for name, bs := range s.Buses {
		out.Buses[name] = hwapi.BusStats(bs)
	}
	out.Frames = hwapi.FrameStats{Frames: s.Stats.Frames, WriteFrames: s.Stats.WriteFrames, LastFrameBytes: s.Stats.FrameBytes,
		MaxFrameBytes: s.Stats.MaxFrameBytes, TotalWriteBytes: s.Stats.TotalWriteBytes, Corrections: s.Stats.Corrections, Reads: s.Stats.Reads}
	for _, e := range s.Events {
		out.Events = append(out.Events, hwapi.Event(e))
	}
	return out
}

func (b *backend) SetWeights(ws []hwapi.Weight) (int, error) {
	switch {
	case b.own != "":
		return 0, errors.New(b.own)
	case b.info.Mode == rig.ModeLoop:
		return 0, errors.New("a loop rig's pots are its machine's weights: they move by corrections (POST /v1/loop/drive), not frames")
	}
	vals := make([]rigdev.WeightValue, len(ws))
	for i, w := range ws {
		vals[i] = rigdev.WeightValue{Weight: rig.Weight{R: w.R, A: w.A}, Value: w.W}
	}
	return b.hw.SetWeights(vals), nil
}

func (b *backend) Hold()   { b.hw.Hold() }
func (b *backend) Park()   { b.hw.Park() }
func (b *backend) Resume() { b.hw.Resume() }

func (b *backend) rack(r int) (*rigdev.LoopRack, error) {
	if b.own != "" {
		return nil, errors.New(b.own)
	}
	if r < 0 || r >= len(b.racks) {
		return nil, fmt.Errorf("r: %d: the rig has %d R-units", r, len(b.racks))
	}
	return b.racks[r], nil
}

func (b *backend) Sum(r int, active []uint16) (float64, error) {
	rk, err := b.rack(r)
	if err != nil {
		return 0, err
	}
	return rk.Sum(active)
}

func (b *backend) Drive(r int, active []uint16, onA, onI float64) error {
	rk, err := b.rack(r)
	if err != nil {
		return err
	}
	return rk.Drive(active, onA, onI)
}

func (b *backend) Readings(r int) ([]float64, error) {
	rk, err := b.rack(r)
	if err != nil {
		return nil, err
	}
	w := make([]float64, rk.Len())
	return w, rk.Readings(w)
}

// InjectFault implements hwapi.Simulator (a simulated rig only).
func (b *backend) InjectFault(f hwapi.Fault) error {
	if b.sim == nil {
		return errors.New("not a simulated rig")
	}
	bus := b.sim.Bus(f.Bus)
	if bus == nil {
		return fmt.Errorf("bus %q: no such bus in the rig", f.Bus)
	}
	addr := uint16(f.Addr)
	if f.Addr < 0 {
		addr = i2csim.AnyAddr
	}
	switch f.Kind {
	case "clear":
		bus.ClearFaults()
	case "stuck":
		bus.SetStuck(true)
	case "nack":
		bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.NACK, Count: f.Count, Prob: f.Prob})
	case "timeout":
		bus.Inject(i2csim.Fault{Addr: addr, Kind: i2csim.Timeout, Count: f.Count, Prob: f.Prob})
	}
	return nil
}

// simBackend is a backend that also injects faults: only a simulated rig's handler gets one.
type simBackend struct{ *backend }

func (b simBackend) InjectFault(f hwapi.Fault) error { return b.backend.InjectFault(f) }

// api returns the handler of b, as a Simulator only when the rig is simulated.
func api(b *backend, opts hwapi.Opts) *hwapi.Handler {
	var be hwapi.Backend = plainBackend{b}
	if b.sim != nil {
		be = simBackend{b}
	}
	return hwapi.NewHandler(be, opts)
}

// plainBackend hides InjectFault from the handler.
type plainBackend struct{ b *backend }

func (p plainBackend) Info() hwapi.Info                          { return p.b.Info() }
func (p plainBackend) Status() hwapi.Status                      { return p.b.Status() }
func (p plainBackend) SetWeights(ws []hwapi.Weight) (int, error) { return p.b.SetWeights(ws) }
func (p plainBackend) Hold()                                     { p.b.Hold() }
func (p plainBackend) Park()                                     { p.b.Park() }
func (p plainBackend) Resume()                                   { p.b.Resume() }
func (p plainBackend) Sum(r int, a []uint16) (float64, error)    { return p.b.Sum(r, a) }
func (p plainBackend) Drive(r int, a []uint16, x, y float64) error {
	return p.b.Drive(r, a, x, y)
}
func (p plainBackend) Readings(r int) ([]float64, error) { return p.b.Readings(r) }

// frames runs the rig's update frames until ctx ends, and saves an MCP4461's changed wipers
// now and then (debounced by the rig's nv_save_s).
func frames(ctx context.Context, hw *rigdev.Hardware, logger *slog.Logger) {
	t := time.NewTicker(hw.Rig().Period())
	defer t.Stop()
	nv := time.NewTicker(5 * time.Second)
	defer nv.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			hw.Step()
		case <-nv.C:
			if err := hw.SaveNV(); err != nil {
				logger.Warn(fmt.Sprintf("saving wipers: %v", err))
			}
		}
	}
}

// server serves h on ln until ctx ends; the server's own errors are logged as warnings.
func server(ctx context.Context, h http.Handler, ln net.Listener, logger *slog.Logger) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
}

// daemonFlags are the flags of the commands that serve a rig (serve, run): the rig, how it is
// served, the log.
type daemonFlags struct {
	rf rigFlags
	sf serveFlags
	lf logFlags
}

func (f *daemonFlags) register(fs *flag.FlagSet) {
	f.rf.register(fs)
	f.sf.register(fs)
	f.lf.register(fs)
}

// open reads the token file, makes the logger and opens the rig, from the parsed flags.
func (f *daemonFlags) open(stderr io.Writer) (token string, logger *slog.Logger, hw *rigdev.Hardware, sim *rigdev.Sim, err error) {
	if token, err = f.sf.token(); err != nil {
		return
	}
	if logger, err = f.lf.logger(stderr); err != nil {
		return
	}
	hw, sim, err = f.rf.open(logger, stderr)
	return
}

func cmdServe(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("serve", "--rig FILE [--listen ADDR] [--token-file FILE] [--simulate] [--trace]", stdout)
	var df daemonFlags
	df.register(fs)
	if err := parse(args); err != nil {
		return err
	}
	token, logger, hw, sim, err := df.open(stderr)
	if err != nil {
		return err
	}
	sf := df.sf
	b, err := newBackend(hw, sim)
	if err != nil {
		return err
	}
	spec := hw.Rig()
	servos, digital := hw.Parts()
	h := api(b, hwapi.Opts{Token: token, AllowHosts: sf.allowHosts, Watchdog: spec.Watchdog, OnWatchdog: spec.OnWatchdog,
		Servos: servos, DigitalPots: digital, Logger: logger})
	hw.OnEvent(func(e rigdev.Event) { h.Events().Publish(hwapi.Event(e)) })
	return serveUntilSignal(context.Background(), hw, h, sf, logger, func(context.Context, string) {})
}

// serveUntilSignal listens, runs the frames and the watchdog (and extra, the headless
// machine, given the address listened on), and on SIGINT or SIGTERM, or when parent ends,
// parks the servos (the rig's Shutdown, which it names in the words of the rig's parts) and
// stops.
func serveUntilSignal(parent context.Context, hw *rigdev.Hardware, h *hwapi.Handler, sf serveFlags, logger *slog.Logger, extra func(ctx context.Context, addr string)) error {
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	addr := ln.Addr().String()
	if sf.addrFile != "" {
		if err := os.WriteFile(sf.addrFile, []byte(addr+"\n"), 0o644); err != nil {
			ln.Close()
			return fmt.Errorf("--addr-file: %w", err)
		}
	}
	logger.Info(fmt.Sprintf("%s: %s; serving %s", hw.Rig().File, hw.Rig().Summary(), strings.Join(listenaddr.URLs(addr), " ")), "addr", addr)
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go frames(ctx, hw, logger)
	go h.Watch(ctx)
	go func() { <-ctx.Done(); h.Events().Close() }() // the event streams end, so the server can stop
	go extra(ctx, addr)
	err = server(ctx, h, ln, logger)
	stop() // a second signal ends the program at once
	logger.Info("stopping: " + hw.ShutdownPlan())
	if serr := hw.Shutdown(10 * time.Second); serr != nil {
		logger.Error(fmt.Sprintf("shutdown: %v", serr))
	}
	return err
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs, parse := newFlags("check", "--rig FILE", stdout)
	file := fs.String("rig", "", "the rig FILE, or builtin:NAME")
	if err := parse(args); err != nil {
		return err
	}
	if *file == "" {
		return usageErr("--rig FILE is required")
	}
	spec, err := readRig(*file)
	if err != nil {
		return err
	}
	if spec.Machine != nil {
		if _, err := spec.MachineConfig(); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "%s: %s\n", *file, spec.Summary())
	for _, p := range spec.PotsOf() {
		rb := ""
		if p.Readback != nil {
			rb = ", read back on " + p.Readback.String()
		}
		fmt.Fprintf(stdout, "  %-9s %s %s%s, range +-%g\n", p.Weight, p.Kind, p.Out, rb, p.Range)
	}
	return nil
}
