package main

import (
	"context"
	"errors"
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

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/learn"
	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/problem"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

func init() {
	commands = append(commands, command{"lab", "[DEMO [flags]]", "the lecture notes' methods on the Mark I's features, and what its analog parts do", cmdLab})
}

// contextT is the context every lab run takes.
type contextT = context.Context

// labDemo is one "mark1 lab" subcommand.
type labDemo struct {
	name, args, help string
	run              func(name string, args []string, stdout, stderr io.Writer) error
}

func labDemos() []labDemo {
	return []labDemo{
		{"compare", "--data SPEC [--test SPEC] [--methods LIST]", "learners and the Mark I on the same features: errors, corrections, time, curves", labCompare},
		{"novikoff", "[--problems N --dim D --points N --margin G]", "the convergence theorem: corrections against the bound R^2/gamma^2", labNovikoff},
		{"nonseparable", "[--epochs N --cards N]", "XOR, parity, connectedness: the perceptron cycles, the pocket keeps its best", labNonSeparable},
		{"outliers", "[--draws N --outliers N]", "least squares fails on outliers; the perceptron and Fisher do not", labOutliers},
		{"flaws", "[--data SPEC --test SPEC --epochs N]", "the Mark I ideal, with each analog flaw alone, with all", labFlaws},
		{"forget", "[--data SPEC --test SPEC --hours LIST]", "a trained machine left idle for machine-hours forgets", labForget},
		{"aunits", "[--data SPEC --test SPEC --counts LIST]", "why random A-units help: pixels against 512 and 4,096 A-units", labAUnits},
		{"fields", "[--data SPEC]", "what each R-unit has learned, carried back onto the retina", labFields},
		{"trace", "--data FILE | --point X,...,Y ... [--init W]", "a rule worked by hand: every presentation in exact numbers", labTrace},
		{"geometry", "--data FILE | --point X1,X2,Y ... [--w W]", "w normal to the boundary, distances g(x)/|w|, projections", labGeometry},
		{"loss", "[--points N --epochs N]", "mistakes and the perceptron criterion E_P; the rule as SGD on E_P", labLoss},
		{"regions", "[--method lsq|perceptron --classes K]", "one-vs-rest, one-vs-one, K discriminants: who answers where", labRegions},
		{"masking", "[--n N --noise S]", "least squares never answers the middle of three classes; perceptron, Fisher do", labMasking},
		{"boolean", "[--epochs N]", "AND, OR, NOT, m-of-n learned by one threshold unit; XOR and parity not", labBoolean},
		{"digits", "[--updates N]", "the pocket against the perceptron: MNIST 1s against 5s on two features", labDigits},
		{"fisher-lsq", "[--data FILE | --point X,...,Y ...]", "least squares with targets N/N1, -N/N2 is Fisher's discriminant, exactly", labFisherLSQ},
	}
}

func cmdLab(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "list" || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, "usage: mark1 lab DEMO [flags] [--json] [--out DIR]\n\ndemos (\"mark1 lab DEMO -h\" for the flags):")
		for _, d := range labDemos() {
			fmt.Fprintf(stdout, "  %-13s %s\n  %-13s   %s\n", d.name, d.args, "", d.help)
		}
		fmt.Fprintln(stdout, "\nData: builtin:NAME, gen:KIND[,key=value...] (seeded generated cards; mark1 cards list),\nidx:IMAGES,LABELS, a folder of class folders, or for compare problem:NAME[,key=value...]\n(xor, parity, separable, outliers, blobs).")
		return nil
	}
	for _, d := range labDemos() {
		if d.name == args[0] {
			return d.run(d.name, args[1:], stdout, stderr)
		}
	}
	var names []string
	for _, d := range labDemos() {
		names = append(names, d.name)
	}
	return usageErr(fmt.Sprintf("unknown demo %q (have %s)", args[0], strings.Join(names, ", ")))
}

// outFlags are the output flags of every lab and experiment run.
type outFlags struct {
	json    bool
	out     string
	workers int
}

func (o *outFlags) register(fs *flagSet) {
	fs.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	fs.StringVar(&o.out, "out", "", "write everything the run makes into this new (or empty) folder: index.html, report.json, CSV tables, PNG figures and their data")
	fs.intRangeVar(&o.workers, "workers", 0, 0, 1024, "runs at once (0: one per core); the numbers do not depend on it")
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

// runReport runs a lab or experiment run with a progress bar, stopping cleanly on Ctrl-C (no
// output then), and prints its report (text or JSON), writing its files with --out.
func runReport(of *outFlags, name string, stdout, stderr io.Writer, cmdline string, run func(ctx contextT, progress func(int, int)) (*report.Report, error)) error {
	stop := watchSignals()
	ctx, cancel := signalContext(stop)
	defer cancel()
	bar := newLabBar(stderr, of.json, name)
	start := time.Now()
	rep, err := run(ctx, bar.update)
	bar.finish()
	if sig := stop.signal(); sig != nil {
		stop.release()
		return &interrupted{sig: sig, msg: fmt.Sprintf("interrupted by %s; nothing written", sig)}
	}
	if err != nil {
		stop.release()
		return err
	}
	rep.Command = cmdline
	if rep.Seconds == 0 {
		rep.Seconds = time.Since(start).Seconds()
	}
	if of.out != "" {
		err := rep.WriteDir(of.out)
		if sig := stop.signal(); sig != nil {
			stop.release()
			return &interrupted{sig: sig, msg: fmt.Sprintf("interrupted by %s while writing %s; every file written there is whole", sig, of.out)}
		}
		if err != nil {
			stop.release()
			return fmt.Errorf("--out: %w", err)
		}
	}
	stop.release()
	if of.json {
		return writeJSON(stdout, rep)
	}
	if err := rep.WriteText(stdout); err != nil {
		return err
	}
	if of.out != "" {
		fmt.Fprintf(stdout, "\nwrote %s (open %s)\n", of.out, filepath.Join(of.out, "index.html"))
	}
	return nil
}

// cardArgs are the flags of the demos that train the Mark I on cards.
type cardArgs struct {
	fs         *flagSet
	mf         machineFlags
	df         dataFlags
	of         outFlags
	data, test string
	epochs     int
	seeds      int
	quick      bool
	loader     *images.Loader
}

// quickFlags are the flags a demo's --quick run sets itself.
var quickFlags = []string{"data", "test", "epochs", "seeds", "hours", "counts", "problems", "dim", "points", "margin", "no-cards", "cards", "draws", "outliers"}

// addQuick registers --quick: the demo's quick run, with the checks the tests hold.
func addQuick(fs *flagSet, quick *bool) {
	fs.BoolVar(quick, "quick", false, "the demo's quick run: its own data, sizes and machines, in seconds, with the checks the tests hold (leave out the flags that set them)")
}

// checkQuick refuses, with --quick, the flags the quick run sets itself.
func checkQuick(fs *flagSet, quick bool) error {
	if !quick {
		return nil
	}
	for _, f := range quickFlags {
		if fs.given(f) {
			return usageErr(fmt.Sprintf("--quick runs the demo's own data, sizes and machines: leave out --%s", f))
		}
	}
	return nil
}

func newCardArgs(name, args string, stdout io.Writer, data, test string, epochs int) *cardArgs {
	c := &cardArgs{fs: newFlags("lab "+name, args, stdout)}
	c.mf.register(c.fs)
	c.df.register(c.fs)
	c.of.register(c.fs)
	c.fs.StringVar(&c.data, "data", data, "cards to train on: builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder")
	c.fs.StringVar(&c.test, "test", test, "cards to test on (same forms; \"none\" for none; the default only goes with the default --data)")
	c.fs.intRangeVar(&c.epochs, "epochs", epochs, 1, 100000, "most epochs of training")
	c.fs.intRangeVar(&c.seeds, "seeds", 3, 1, 1000, "machines per condition, seeds SEED, SEED+1, ... (flaws, aunits); figures are medians")
	return c
}

// load parses the command line and loads the cards and the machine configuration.
func (c *cardArgs) load(args []string) (train, test *images.Set, cfg machine.Config, err error) {
	if err = c.fs.parse(args); err != nil {
		return
	}
	if c.fs.NArg() > 0 {
		err = usageErr(fmt.Sprintf("unexpected argument %q", c.fs.Arg(0)))
		return
	}
	if err = checkQuick(c.fs, c.quick); err != nil {
		return
	}
	if err = c.of.check(); err != nil {
		return
	}
	for _, f := range []string{"r-units", "coding"} {
		if c.fs.given(f) {
			err = usageErr(fmt.Sprintf("--%s: the lab gives the Mark I one R-unit for two classes and one per class for more", f))
			return
		}
	}
	if cfg, err = c.mf.buildConfig(); err != nil || c.quick {
		return // a quick run loads its own cards
	}
	loader, lerr := c.df.loader()
	if lerr != nil {
		err = lerr
		return
	}
	c.loader = loader
	if train, err = loadCards(c.data, loader); err != nil {
		err = budgetHint(err)
		return
	}
	if c.fs.given("data") && !c.fs.given("test") {
		c.test = "" // the default test cards go with the default training cards only
	}
	if c.test != "" && c.test != "none" {
		if test, err = loadCards(c.test, loader); err != nil {
			err = budgetHint(err)
			return
		}
		var unknown []string
		for _, cl := range test.Classes {
			if !slices.Contains(train.Classes, cl) {
				unknown = append(unknown, strconv.Quote(cl))
			}
		}
		if len(unknown) > 0 {
			err = usageErr(fmt.Sprintf("--test %s: classes %s are not among the training classes of --data %s", c.test, briefClasses(unknown), c.data))
			return
		}
	}
	return
}

// cards returns the demonstrations' CardsConfig.
func (c *cardArgs) cards(train, test *images.Set, cfg machine.Config, progress func(int, int)) demo.CardsConfig {
	return demo.CardsConfig{Train: train, Test: test, Machine: cfg, Epochs: c.epochs, Seeds: c.seeds, Quick: c.quick, Workers: c.of.workers, Progress: progress}
}

func labFlaws(name string, args []string, stdout, stderr io.Writer) error {
	c := newCardArgs(name, "[--data SPEC] [--test SPEC] [--epochs N] [--quick] [machine flags]", stdout, "builtin:letters", "gen:letters,n=520,seed=2,shift=4", 20)
	addQuick(c.fs, &c.quick)
	train, test, cfg, err := c.load(args)
	if err != nil {
		return err
	}
	return runReport(&c.of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.Flaws(ctx, c.cards(train, test, cfg, p))
	})
}

func labForget(name string, args []string, stdout, stderr io.Writer) error {
	c := newCardArgs(name, "[--data SPEC] [--test SPEC] [--hours LIST] [--quick] [machine flags]", stdout, "builtin:letters", "gen:letters,n=520,seed=2,shift=4", 100)
	hours := c.fs.String("hours", "1,10,100,1000,10000", "machine-hours of idling to test, comma-separated")
	addQuick(c.fs, &c.quick)
	train, test, cfg, err := c.load(args)
	if err != nil {
		return err
	}
	hs, err := parseFloats(*hours, "--hours")
	if err != nil {
		return err
	}
	for _, h := range hs {
		if h < 0 || float64(h*3600) > machine.MaxIdle {
			return usageErr(fmt.Sprintf("--hours %v: want 0 to %.0f", h, machine.MaxIdle/3600))
		}
	}
	return runReport(&c.of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.Forget(ctx, demo.ForgetConfig{CardsConfig: c.cards(train, test, cfg, p), Hours: hs})
	})
}

func labAUnits(name string, args []string, stdout, stderr io.Writer) error {
	c := newCardArgs(name, "[--data SPEC] [--test SPEC] [--counts LIST] [--quick] [machine flags]", stdout, "gen:squares-circles,n=1000", "gen:squares-circles,n=1000,seed=2", 30)
	counts := c.fs.String("counts", "512,4096", "numbers of random A-units to set against the pixels, comma-separated")
	addQuick(c.fs, &c.quick)
	train, test, cfg, err := c.load(args)
	if err != nil {
		return err
	}
	if c.fs.given("wiring") || c.fs.given("a-units") {
		return usageErr("--wiring and --a-units: this demo sets the wiring itself (pixels, then --counts A-units)")
	}
	fs, err := parseFloats(*counts, "--counts")
	if err != nil {
		return err
	}
	var ns []int
	for _, f := range fs {
		if f != float64(int(f)) || f < 1 || f > 65536 {
			return usageErr(fmt.Sprintf("--counts %v: want whole numbers of A-units, 1..65536", f))
		}
		ns = append(ns, int(f))
	}
	return runReport(&c.of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.AUnits(ctx, demo.AUnitsConfig{CardsConfig: c.cards(train, test, cfg, p), Counts: ns})
	})
}

func labFields(name string, args []string, stdout, stderr io.Writer) error {
	c := newCardArgs(name, "[--data SPEC] [--epochs N] [--quick] [machine flags]", stdout, "builtin:leftright", "none", 100)
	addQuick(c.fs, &c.quick)
	train, test, cfg, err := c.load(args)
	if err != nil {
		return err
	}
	return runReport(&c.of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.Fields(ctx, c.cards(train, test, cfg, p))
	})
}

// parseFloats reads a comma-separated list of numbers for a flag.
func parseFloats(s, flag string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v != v {
			return nil, usageErr(fmt.Sprintf("%s %q: want numbers separated by commas", flag, s))
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, usageErr(fmt.Sprintf("%s: want at least one number", flag))
	}
	return out, nil
}

func labNovikoff(name string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lab "+name, "[--problems N] [--dim D] [--points N] [--margin G] [--no-cards] [--quick]", stdout)
	var of outFlags
	of.register(fs)
	var mf machineFlags
	mf.register(fs)
	problems := fs.intRange("problems", 200, 1, 100000, "random separable problems")
	dim := fs.intRange("dim", 10, 1, 1000, "features of each problem")
	points := fs.intRange("points", 100, 2, 100000, "samples of each problem")
	margin := fs.Float64("margin", 0.05, "least distance of a sample from the planted hyperplane, 0 < G < 0.5")
	noCards := fs.Bool("no-cards", false, "leave out the Mark I's own problems (the built-in two-class sets through its A-units)")
	var quick bool
	addQuick(fs, &quick)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkQuick(fs, quick); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case !(*margin > 0 && *margin < 0.5):
		return usageErr(fmt.Sprintf("--margin %v: want 0 < G < 0.5", *margin))
	}
	if err := of.check(); err != nil {
		return err
	}
	cfg, err := mf.buildConfig()
	if err != nil {
		return err
	}
	return runReport(&of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.Novikoff(ctx, demo.NovikoffConfig{Problems: *problems, Dim: *dim, Points: *points, Margin: *margin, Seed: cfg.Seed,
			Cards: !*noCards, Machine: cfg, Quick: quick, Workers: of.workers, Progress: p})
	})
}

func labNonSeparable(name string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lab "+name, "[--epochs N] [--cards N] [--seed N] [--quick] [machine flags]", stdout)
	var of outFlags
	of.register(fs)
	var mf machineFlags
	mf.register(fs)
	epochs := fs.intRange("epochs", 100, 2, 100000, "epochs of the perceptron and the pocket")
	cards := fs.intRange("cards", 400, 2, 20000, "connectedness cards to train on, and as many new ones to test on")
	var quick bool
	addQuick(fs, &quick)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkQuick(fs, quick); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if err := of.check(); err != nil {
		return err
	}
	cfg, err := mf.buildConfig()
	if err != nil {
		return err
	}
	return runReport(&of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.NonSeparable(ctx, demo.NonSeparableConfig{Epochs: *epochs, Cards: *cards, Seed: cfg.Seed, Machine: cfg, Quick: quick, Workers: of.workers, Progress: p})
	})
}

func labOutliers(name string, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("lab "+name, "[--draws N] [--outliers N] [--seed N] [--quick]", stdout)
	var of outFlags
	of.register(fs)
	draws := fs.intRange("draws", 20, 1, 10000, "random draws of the data")
	outliers := fs.intRange("outliers", 10, 1, 10000, "outlying samples added")
	seed := fs.Uint64("seed", 1, "first seed")
	var quick bool
	addQuick(fs, &quick)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := checkQuick(fs, quick); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case *seed == 0:
		return usageErr("--seed 0: seeds start at 1")
	}
	if err := of.check(); err != nil {
		return err
	}
	return runReport(&of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, p func(int, int)) (*report.Report, error) {
		return demo.Outliers(ctx, demo.OutliersConfig{Draws: *draws, Outliers: *outliers, Seed: *seed, Quick: quick, Workers: of.workers, Progress: p})
	})
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

func labCompare(name string, args []string, stdout, stderr io.Writer) error {
	c := newCardArgs(name, "--data SPEC [--test SPEC] [--methods LIST] [--epochs N] [machine flags]", stdout, "", "", 50)
	methods := c.fs.String("methods", "", "methods, comma-separated: "+strings.Join(lab.MethodNames()[:9], ", ")+", mark1+FLAW; a learner may end in /ovr, /ovo or /kdisc (default: every learner, and mark1 and mark1-analog for cards)")
	keepGoing := c.fs.Bool("keep-going", false, "train every epoch even after one without a correction")
	inOrder := c.fs.Bool("in-order", false, "present the samples in the data's order every epoch (then mark1 and perceptron make the same corrections)")
	margin := c.fs.Float64("margin", 1, "the variable-increment rule's margin b")
	eta := c.fs.Float64("eta", 1, "the perceptron rules' first increment eta(1)")
	schedule := c.fs.String("schedule", "1/k", "the variable-increment rule's eta(k): const, 1/k or 1/sqrt(k)")
	// Problems of features are not cards: parse first, then load what the specs name.
	if err := c.fs.parse(args); err != nil {
		return err
	}
	if c.fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", c.fs.Arg(0)))
	}
	if c.data == "" {
		return usageErr("--data is required (" + dataKinds(true) + ")")
	}
	for _, s := range []struct{ flag, spec string }{{"--data", c.data}, {"--test", c.test}} {
		if s.spec == "" || s.spec == "none" {
			continue
		}
		if err := checkSpec(s.spec, true); err != nil {
			return fmt.Errorf("%s %w", s.flag, err)
		}
	}
	sched, err := learn.ParseSchedule(*schedule)
	if err != nil {
		return usageErr("--schedule: " + strings.TrimPrefix(err.Error(), "learn: "))
	}
	if !(*margin >= 0) || !(*eta > 0) || *margin > 1e12 || *eta > 1e12 {
		return usageErr(fmt.Sprintf("--margin %v, --eta %v: want margin >= 0 and eta > 0", *margin, *eta))
	}
	var p *lab.Dataset
	if strings.HasPrefix(c.data, "problem:") {
		if c.test != "" && !strings.HasPrefix(c.test, "problem:") {
			return usageErr("--test: a problem of features is tested on a problem (problem:NAME,seed=...)")
		}
		if err := c.of.check(); err != nil {
			return err
		}
		train, err := loadProblem(c.data, "--data")
		if err != nil {
			return err
		}
		p = &lab.Dataset{Name: c.data, Train: train}
		if c.test != "" {
			if p.Test, err = loadProblem(c.test, "--test"); err != nil {
				return err
			}
			if p.Test.Dim() != train.Dim() || p.Test.K() != train.K() {
				return usageErr(fmt.Sprintf("--test %s: %d features and %d classes, the training problem has %d and %d", c.test, p.Test.Dim(), p.Test.K(), train.Dim(), train.K()))
			}
		}
	} else {
		train, test, cfg, err := c.load(args)
		if err != nil {
			return err
		}
		// The learners work on the A-unit states of every card, one float64 each.
		board, err := machine.BuildBoard(cfg)
		if err != nil {
			return err
		}
		cards := len(train.Cards)
		if test != nil {
			cards += len(test.Cards)
		}
		if err := c.loader.Reserve("the A-unit features", int64(cards)*int64(board.Len())*8); err != nil {
			return budgetHint(err)
		}
		if p, err = lab.NewCardDataset(cfg, train, test); err != nil {
			return err
		}
	}
	list := *methods
	if list == "" {
		list = "perceptron,batch,variable,pocket,lsq,fisher"
		if p.Config != nil {
			list += ",mark1,mark1-analog"
		}
	}
	ms, err := lab.ParseMethods(list)
	if err != nil {
		return usageErr("--methods: " + strings.TrimPrefix(err.Error(), "lab: "))
	}
	for _, m := range ms {
		if m.Rule == "mark1" && p.Config == nil {
			return usageErr(fmt.Sprintf("--methods %s: the Mark I learns cards, not a problem of features", m.Name))
		}
	}
	o := lab.Options{Epochs: c.epochs, KeepGoing: *keepGoing, Seed: machineSeed(p), InOrder: *inOrder, Eta: *eta, Margin: *margin, Schedule: sched, Workers: c.of.workers}
	return runReport(&c.of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, progress func(int, int)) (*report.Report, error) {
		o.Progress = progress
		runs, err := lab.Compare(ctx, p, ms, o)
		if err != nil {
			return nil, err
		}
		rep := demo.CompareReport(p, runs, o)
		return rep, nil
	})
}

// machineSeed is the seed the learners shuffle with: the machine's, or 1 for problems.
func machineSeed(p *lab.Dataset) uint64 {
	if p.Config != nil {
		return p.Config.Seed
	}
	return 1
}
