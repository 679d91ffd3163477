package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/problem"
	"github.com/mark1-perceptron/mark1/lab/report/folder"
	"github.com/mark1-perceptron/mark1/machine"
)

func init() {
	commands = append(commands, command{"lab", "[DEMO [flags]]", "the lecture notes' methods on the Mark I's features, and what its analog parts do", cmdLab})
}

// cmdLab lists the demonstrations of lab/demo, or runs one.
func cmdLab(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "list" || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, "usage: mark1 lab DEMO [flags] [--json] [--out DIR]\n\ndemos (\"mark1 lab DEMO -h\" for the flags):")
		for _, d := range demo.All() {
			fmt.Fprintf(stdout, "  %-13s %s\n  %-13s   %s\n", d.Name, d.Args, "", d.Help)
		}
		fmt.Fprintln(stdout, "\nData: builtin:NAME, gen:KIND[,key=value...] (seeded generated cards; mark1 cards\nlist), idx:IMAGES,LABELS, a folder of class folders, or for compare\nproblem:NAME[,key=value...] (xor, parity, separable, outliers, blobs).")
		return nil
	}
	d, ok := demo.Find(args[0])
	if !ok {
		var names []string
		for _, d := range demo.All() {
			names = append(names, d.Name)
		}
		return usageErr(fmt.Sprintf("unknown demo %q (have %s)", args[0], strings.Join(names, ", ")))
	}
	return runDemo("lab", d, args[1:], stdout, stderr)
}

// outFlags are the output flags of every lab and experiment run.
type outFlags struct {
	json    bool
	out     string
	workers int
}

// register adds --json and --out, and --workers for a run of parallel jobs.
func (o *outFlags) register(fs *flagSet, workers bool) {
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	fs.StringVar(&o.out, "out", "", "write everything the run makes into this new (or empty) folder: index.html, report.json, CSV tables, PNG figures and their data")
	if workers {
		fs.intRangeVar(&o.workers, "workers", 0, 0, 1024, "runs at once (0: one per core); the numbers do not depend on it")
	}
}

// check refuses, before any work, an --out that cannot be a new folder to write in: a file, a
// folder that does not hold nothing, or a path whose folder does not exist.
func (o *outFlags) check() error {
	if o.out == "" {
		return nil
	}
	fi, err := os.Stat(o.out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(o.out))
		if pi, err := os.Stat(parent); err != nil || !pi.IsDir() {
			return usageErr(fmt.Sprintf("--out %s: its folder %s does not exist", o.out, parent))
		}
		return nil
	case err != nil:
		return fmt.Errorf("--out: %w", err)
	case !fi.IsDir():
		return usageErr(fmt.Sprintf("--out %s: not a folder", o.out))
	}
	// A folder that holds anything is refused, as cards export refuses one: the run would
	// overwrite another run's files without a word, or leave them mixed in with its own.
	if err := checkEmptyDir(o.out, "the files of this run would overwrite or mix with what is there"); err != nil {
		return err
	}
	if err := atomicfile.Check(filepath.Join(o.out, "index.html")); err != nil {
		return fmt.Errorf("--out %w", err)
	}
	return nil
}

// pointList is a repeatable --point X1,X2,...,LABEL flag.
type pointList []string

func (p *pointList) String() string { return strings.Join(*p, " ") }

func (p *pointList) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// registerParams adds a flag for each of a run's parameters, of its kind, with its default
// and help (the ranges are the parameters' own: lab.Values.Check).
func registerParams(fs *flagSet, params []lab.Param) map[string]*pointList {
	points := map[string]*pointList{}
	for _, p := range params {
		def := p.Default
		num := func() string {
			if def == "" {
				return "0"
			}
			return def
		}
		var err error
		switch p.Kind {
		case lab.Int:
			var n int
			n, err = strconv.Atoi(num())
			fs.Int(p.Name, n, p.Help)
		case lab.Uint:
			var n uint64
			n, err = strconv.ParseUint(num(), 10, 64)
			fs.Uint64(p.Name, n, p.Help)
		case lab.Float:
			var f float64
			f, err = strconv.ParseFloat(num(), 64)
			fs.Float64(p.Name, f, p.Help)
		case lab.Bool:
			fs.Bool(p.Name, def == "true", p.Help)
		case lab.Points:
			points[p.Name] = &pointList{}
			fs.Var(points[p.Name], p.Name, p.Help)
		default:
			fs.String(p.Name, def, p.Help)
		}
		if err != nil {
			panic(fmt.Sprintf("mark1: --%s: default %q: %v", p.Name, def, err))
		}
	}
	return points
}

// paramValues are the values of a run's parameters the command line gave.
func paramValues(fs *flagSet, params []lab.Param, points map[string]*pointList) (lab.Values, error) {
	v := lab.NewValues(params)
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, p := range params {
			switch {
			case p.Name != f.Name || err != nil:
			case p.Kind == lab.Points:
				for _, s := range *points[p.Name] {
					if err = v.Set(p.Name, s); err != nil {
						return
					}
				}
			default:
				err = v.Set(p.Name, f.Value.String())
			}
		}
	})
	if err == nil {
		err = v.Check()
	}
	return v, err
}

// runDemo is the one harness of every lab demo and historical experiment (cmd is "lab" or
// "experiment"): it makes the run's flags from its parameters (and the machine's, the data
// budget's and the output's, as the run uses them), refuses a bad command line before any
// work, loads the cards it names, runs it with a progress bar, stopping cleanly on Ctrl-C (no
// output then, exit 130), and prints its report (text or JSON), writing its files with --out.
func runDemo(cmd string, d lab.Demo, args []string, stdout, stderr io.Writer) error {
	err := runDemoErr(cmd, d, args, stdout, stderr)
	if lab.IsParamError(err) {
		return usageErr(err.Error())
	}
	return err
}

func runDemoErr(cmd string, d lab.Demo, args []string, stdout, stderr io.Writer) error {
	name := cmd + " " + d.Name
	fs := newFlags(name, d.Usage, stdout)
	var of outFlags
	of.register(fs, d.Uses&lab.UsesWorkers != 0)
	var mf machineFlags
	if d.Uses&lab.UsesMachine != 0 {
		mf.register(fs)
	}
	var df dataFlags
	if d.Uses&lab.UsesCards != 0 {
		df.register(fs)
	}
	var quick bool
	if d.Quick != nil {
		fs.BoolVar(&quick, "quick", false, d.Quick.Help)
	}
	points := registerParams(fs, d.Params)
	if err := fs.parse(args); err != nil {
		return err
	}
	vals, err := paramValues(fs, d.Params, points)
	switch {
	case err != nil:
		return err
	case fs.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if quick {
		if err := d.QuickRefusal(vals); err != nil {
			return err
		}
	}
	if err := of.check(); err != nil {
		return err
	}
	c := lab.Config{Values: vals, Machine: machine.Default(), Quick: quick, Workers: of.workers}
	if d.Uses&lab.UsesMachine != 0 {
		if d.Uses&lab.UsesCards != 0 {
			for _, f := range []string{"r-units", "coding"} {
				if fs.given(f) {
					return usageErr(fmt.Sprintf("--%s: the lab gives the Mark I one R-unit for two classes and one per class for more", f))
				}
			}
		}
		if c.Machine, err = mf.buildConfig(); err != nil {
			return err
		}
		fs.Visit(func(f *flag.Flag) {
			own := slices.ContainsFunc(d.Params, func(p lab.Param) bool { return p.Name == f.Name })
			if !own && !slices.Contains([]string{"json", "out", "workers", "quick", "max-data-mb"}, f.Name) {
				c.MachineSet = append(c.MachineSet, f.Name)
			}
		})
	}
	// From here on Ctrl-C stops the run: loading the cards, running, writing.
	stop := watchSignals()
	defer stop.release()
	ctx, cancel := signalContext(stop)
	defer cancel()
	stopped := func(what string) error {
		sig := stop.signal()
		stop.release()
		return &interrupted{sig: sig, msg: fmt.Sprintf("interrupted by %s%s", sig, what)}
	}
	if d.Uses&lab.UsesCards != 0 && !quick {
		err := loadCardParams(&c, &df)
		if stop.signal() != nil {
			return stopped("; nothing written")
		}
		if err != nil {
			return err
		}
	}
	bar := newLabBar(stderr, of.json, name)
	c.Progress = bar.update
	start := time.Now()
	rep, err := d.Run(ctx, c)
	bar.finish()
	switch {
	case stop.signal() != nil:
		return stopped("; nothing written")
	case err != nil:
		return err
	}
	rep.Command = "mark1 " + name + argString(args)
	if rep.Seconds == 0 {
		rep.Seconds = time.Since(start).Seconds()
	}
	if of.out != "" {
		err := folder.Write(of.out, rep)
		if stop.signal() != nil {
			return stopped(fmt.Sprintf(" while writing %s; every file written there is whole", of.out))
		}
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	stop.release()
	if of.json {
		return writeJSON(stdout, rep)
	}
	if of.out == "" {
		// The text names the figures as written with --out: without it none is.
		rep.Figures = nil
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	if of.out != "" {
		fmt.Fprintf(stdout, "\nwrote %s (open %s)\n", of.out, filepath.Join(of.out, "index.html"))
	}
	return nil
}

// loadCardParams loads the cards (and, where a run takes them, the problems of features) its
// Cards parameters name, within the --max-data-mb budget, and lets the run charge what it
// computes from them to the same budget.
func loadCardParams(c *lab.Config, df *dataFlags) error {
	loader, err := df.loader()
	if err != nil {
		return err
	}
	c.Reserve = func(what string, bytes int64) error { return budgetHint(loader.Reserve(what, bytes)) }
	for _, p := range c.Params() {
		if p.Kind != lab.Cards {
			continue
		}
		spec := c.String(p.Name)
		switch {
		case spec == "none" || spec == "" && !p.Required:
			continue
		case spec == "":
			return usageErr(fmt.Sprintf("--%s is required (%s)", p.Name, dataKinds(p.Problems)))
		case p.Problems:
			if err := checkSpec(spec, true); err != nil {
				return fmt.Errorf("--%s %w", p.Name, err)
			}
			if strings.HasPrefix(spec, "problem:") {
				d, err := loadProblem(spec, "--"+p.Name)
				if err != nil {
					return err
				}
				c.SetData(p.Name, d)
				continue
			}
		}
		set, err := loadCards(spec, loader)
		if err != nil {
			return budgetHint(err)
		}
		c.SetData(p.Name, set)
	}
	return nil
}

// loadProblem reads a problem:NAME spec for compare.
func loadProblem(spec, flag string) (*learn.Data, error) {
	text := strings.TrimPrefix(spec, "problem:")
	s, err := problem.Parse(text)
	if err != nil {
		name, _, _ := strings.Cut(text, ",")
		return nil, usageErr(fmt.Sprintf("%s %q: %s%s", flag, spec, strings.TrimPrefix(err.Error(), "problem: "), nameHint("problem:", name)))
	}
	return s.Generate()
}

// signalContext returns a context that ends when the watch sees a stop signal.
func signalContext(w *signalWatch) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if w.signal() != nil {
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}

// labBar is a progress bar on a terminal (created at the first report of progress), or
// nothing. Its update may be called from several goroutines.
type labBar struct {
	mu   sync.Mutex
	f    *os.File
	desc string
	bar  *progressbar.ProgressBar
}

func newLabBar(stderr io.Writer, quiet bool, desc string) *labBar {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &labBar{}
	}
	return &labBar{f: f, desc: desc}
}

func (b *labBar) update(done, total int) {
	if b.f == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar == nil {
		b.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(b.f), progressbar.OptionSetDescription(b.desc),
			progressbar.OptionShowCount(), progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(), progressbar.OptionSetPredictTime(true))
	}
	b.bar.Set(done)
}

func (b *labBar) finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		b.bar.Finish()
		b.bar.Clear()
	}
}

// argString quotes the arguments of a command line as a shell would need them.
func argString(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteByte(' ')
		if a == "" || strings.ContainsAny(a, " \t\"'$\\|&;<>()*?[]#~") {
			a = strconv.Quote(a)
		}
		b.WriteString(a)
	}
	return b.String()
}
