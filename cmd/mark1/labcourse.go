package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/lab/trace"
)

// The demonstrations of lab/course: the rules by hand, the loss view, many classes, Boolean
// functions, the pocket on digits, least squares and Fisher.

// pointList is a repeatable --point X1,X2,...,LABEL flag.
type pointList []string

func (p *pointList) String() string { return strings.Join(*p, " ") }

func (p *pointList) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// traceFlags are the flags of a trace: the data, where it starts, the rule.
type traceFlags struct {
	data                                string
	points                              pointList
	init, bias, rule, eta, margin, zero string
	epochs                              int
}

func (t *traceFlags) register(fs *flagSet) {
	fs.StringVar(&t.data, "data", "", "a CSV file of samples, one a line: the features, then a label of +1 or -1 (integers, decimals or fractions such as 1/3; # comments)")
	fs.Var(&t.points, "point", "a sample X1,X2,...,LABEL (label +1 or -1); repeat for more, in order (instead of --data)")
	fs.StringVar(&t.init, "init", "", "the initial weights, comma-separated, as long as an augmented sample (default zeros)")
	fs.StringVar(&t.bias, "bias", "last", "where the constant 1 goes: last (x1..xd, 1), first (1, x1..xd), or none (the samples as given)")
	fs.StringVar(&t.rule, "rule", "fixed", "fixed (increment), margin (met only when y w.x > b) or batch (an epoch's mistakes summed)")
	fs.StringVar(&t.eta, "eta", "1", "the increment eta (a number such as 1, 0.5 or 1/2)")
	fs.StringVar(&t.margin, "margin", "0", "the margin rule's b >= 0")
	fs.StringVar(&t.zero, "at-zero", "wrong", "what a score w.x of exactly 0 answers: wrong (a mistake for either label), +1 or -1")
	fs.intRangeVar(&t.epochs, "epochs", 100, 1, trace.MaxPresentations, "most epochs (the trace stops at an epoch that meets every sample, or when the weights cycle)")
}

// load reads the data and the rule's settings the flags give.
func (t *traceFlags) load(fs *flagSet) (*trace.Data, trace.Config, error) {
	var c trace.Config
	var err error
	if c.Rule, err = trace.ParseRule(t.rule); err != nil {
		return nil, c, usageErr("--rule: " + err.Error())
	}
	if c.Bias, err = trace.ParseBias(t.bias); err != nil {
		return nil, c, usageErr("--bias: " + err.Error())
	}
	if c.Zero, err = trace.ParseZero(t.zero); err != nil {
		return nil, c, usageErr("--at-zero: " + err.Error())
	}
	if c.Eta, err = exact.Parse(t.eta); err != nil || c.Eta.Sign() <= 0 {
		return nil, c, usageErr(fmt.Sprintf("--eta %s: want a number > 0", t.eta))
	}
	if c.B, err = exact.Parse(t.margin); err != nil || c.B.Sign() < 0 {
		return nil, c, usageErr(fmt.Sprintf("--margin %s: want a number >= 0", t.margin))
	}
	switch {
	case fs.given("margin") && c.Rule != trace.Margin:
		return nil, c, usageErr("--margin goes with --rule margin")
	case fs.given("at-zero") && c.Rule == trace.Margin:
		return nil, c, usageErr("--at-zero: the margin rule meets a sample when y w.x > b; no answer at zero to choose")
	}
	c.Epochs = t.epochs
	if t.init != "" {
		if c.Init, err = exact.ParseVec(t.init); err != nil {
			return nil, c, usageErr(fmt.Sprintf("--init %s: %v", t.init, err))
		}
	}
	var d *trace.Data
	switch {
	case t.data != "" && len(t.points) > 0:
		return nil, c, usageErr("--data and --point: give the samples one way")
	case t.data != "":
		f, err := os.Open(t.data)
		if err != nil {
			return nil, c, fmt.Errorf("--data: %w", err)
		}
		defer f.Close()
		if d, err = trace.ReadCSV(t.data, f); err != nil {
			return nil, c, err
		}
	case len(t.points) > 0:
		if d, err = trace.Points(t.points); err != nil {
			return nil, c, usageErr(err.Error())
		}
	default:
		return nil, c, usageErr("no samples: give --data FILE or --point X1,X2,...,LABEL (repeated)")
	}
	if err := c.Validate(d); err != nil {
		if strings.HasPrefix(err.Error(), "initial weights") {
			return nil, c, usageErr("--init " + t.init + ": " + strings.TrimPrefix(err.Error(), "initial weights "+c.Init.String()+": "))
		}
		return nil, c, usageErr(err.Error())
	}
	return d, c, nil
}

// courseRun parses a course demo's flags (register adds its own), refuses stray arguments and
// a bad --out, then runs it and prints or writes its report. With quick non-nil the demo has a
// quick run, --quick: its own default run with the checks of its effect (the run adds them),
// which refuses the demo's own flags.
func courseRun(name, usage string, args []string, stdout, stderr io.Writer, quick *bool, register func(fs *flagSet), run func(fs *flagSet) (*report.Report, error)) error {
	fs := newFlags("lab "+name, usage, stdout)
	var of outFlags
	fs.BoolVar(&of.json, "json", false, "print the report as JSON instead of text")
	fs.StringVar(&of.out, "out", "", "write everything the run makes into this new (or empty) folder: index.html, report.json, CSV tables, PNG figures and their data")
	if quick != nil {
		fs.BoolVar(quick, "quick", false, "the demo's own default run with the checks of its effect that the tests hold (leave out the demo's other flags)")
	}
	register(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if quick != nil && *quick {
		var own []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name != "quick" && f.Name != "json" && f.Name != "out" {
				own = append(own, "--"+f.Name)
			}
		})
		if len(own) > 0 {
			return usageErr(fmt.Sprintf("--quick runs the demo's own data and sizes: leave out %s", strings.Join(own, ", ")))
		}
	}
	if err := of.check(); err != nil {
		return err
	}
	return runReport(&of, "lab "+name, stdout, stderr, "mark1 lab "+name+argString(args), func(ctx contextT, _ func(int, int)) (*report.Report, error) {
		return run(fs)
	})
}

func labTrace(name string, args []string, stdout, stderr io.Writer) error {
	var tf traceFlags
	return courseRun(name, "--data FILE | --point X1,...,LABEL ... [--init W] [--rule R] [flags]",
		args, stdout, stderr, nil, tf.register, func(fs *flagSet) (*report.Report, error) {
			d, c, err := tf.load(fs)
			if err != nil {
				return nil, err
			}
			return demo.Trace(d, c)
		})
}

func labGeometry(name string, args []string, stdout, stderr io.Writer) error {
	var tf traceFlags
	var w string
	return courseRun(name, "--data FILE | --point X1,X2,LABEL ... [--w W] [trace flags]", args, stdout, stderr, nil, func(fs *flagSet) {
		tf.register(fs)
		fs.StringVar(&w, "w", "", "the weights to draw, comma-separated, bias where --bias says (default: the trace's last weights)")
	}, func(fs *flagSet) (*report.Report, error) {
		d, c, err := tf.load(fs)
		if err != nil {
			return nil, err
		}
		var wv exact.Vec
		if w != "" {
			if wv, err = exact.ParseVec(w); err != nil {
				return nil, usageErr(fmt.Sprintf("--w %s: %v", w, err))
			}
		}
		r, err := demo.GeometryReport(d, c, wv)
		if err != nil {
			return nil, usageErr(err.Error())
		}
		return r, nil
	})
}

func labLoss(name string, args []string, stdout, stderr io.Writer) error {
	var points, epochs int
	var seed uint64
	var quick bool
	return courseRun(name, "[--points N] [--epochs N] [--seed N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.intRangeVar(&points, "points", 40, 2, 1000, "integer samples of each problem")
		fs.intRangeVar(&epochs, "epochs", 20, 1, 1000, "most epochs of the fixed-increment rule")
		fs.Uint64Var(&seed, "seed", 1, "the problems' seed")
	}, func(fs *flagSet) (*report.Report, error) {
		if seed == 0 {
			return nil, usageErr("--seed 0: seeds start at 1")
		}
		c := demo.LossConfig{Points: points, Epochs: epochs, Seed: seed}
		r, err := demo.Loss(c)
		if err != nil || !quick {
			return r, err
		}
		r.Checks, err = demo.LossChecks(c)
		r.Notes = append(r.Notes, demo.QuickNote)
		return r, err
	})
}

func labRegions(name string, args []string, stdout, stderr io.Writer) error {
	var method string
	var k int
	var seed uint64
	var quick bool
	return courseRun(name, "[--method lsq|perceptron] [--classes K] [--seed N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.StringVar(&method, "method", "lsq", "how the discriminants are fitted: lsq (least squares) or perceptron (fixed increment)")
		fs.intRangeVar(&k, "classes", 3, 3, 8, "classes: blobs on a circle")
		fs.Uint64Var(&seed, "seed", 1, "the blobs' seed")
	}, func(fs *flagSet) (*report.Report, error) {
		switch {
		case method != "lsq" && method != "perceptron":
			return nil, usageErr(fmt.Sprintf("--method %q: want lsq or perceptron", method))
		case seed == 0:
			return nil, usageErr("--seed 0: seeds start at 1")
		}
		r, stats, err := demo.Regions(demo.RegionsConfig{Method: method, K: k, Seed: seed})
		if err == nil && quick {
			r.Checks = demo.RegionsChecks(stats)
			r.Notes = append(r.Notes, demo.QuickNote)
		}
		return r, err
	})
}

func labMasking(name string, args []string, stdout, stderr io.Writer) error {
	var n, middle int
	var noise float64
	var seed uint64
	var quick bool
	return courseRun(name, "[--n N] [--middle N] [--noise S] [--seed N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.intRangeVar(&n, "n", 30, 2, 10000, "samples of the low and the high class")
		fs.intRangeVar(&middle, "middle", 20, 2, 10000, "samples of the middle class")
		fs.Float64Var(&noise, "noise", 0.7, "the classes' standard deviation")
		fs.Uint64Var(&seed, "seed", 1, "the samples' seed")
	}, func(fs *flagSet) (*report.Report, error) {
		switch {
		case !(noise > 0 && noise <= 10):
			return nil, usageErr(fmt.Sprintf("--noise %v: want 0 < S <= 10", noise))
		case seed == 0:
			return nil, usageErr("--seed 0: seeds start at 1")
		}
		r, methods, err := demo.Masking(demo.MaskingConfig{N: n, Middle: middle, Noise: noise, Seed: seed})
		if err == nil && quick {
			r.Checks = demo.MaskingChecks(methods)
			r.Notes = append(r.Notes, demo.QuickNote)
		}
		return r, err
	})
}

func labBoolean(name string, args []string, stdout, stderr io.Writer) error {
	var epochs int
	var quick bool
	return courseRun(name, "[--epochs N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.intRangeVar(&epochs, "epochs", 1000, 1, 10000, "most epochs of the rule on each truth table")
	}, func(fs *flagSet) (*report.Report, error) {
		r, results, err := demo.BooleanReport(epochs)
		if err == nil && quick {
			r.Checks = demo.BooleanChecks(results)
			r.Notes = append(r.Notes, demo.QuickNote)
		}
		return r, err
	})
}

func labDigits(name string, args []string, stdout, stderr io.Writer) error {
	var updates int
	var seed uint64
	var quick bool
	return courseRun(name, "[--updates N] [--seed N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.intRangeVar(&updates, "updates", 1000, 1, 100000, "updates of the perceptron (and the pocket beside it)")
		fs.Uint64Var(&seed, "seed", 1, "the seed of the digits drawn for the updates")
	}, func(fs *flagSet) (*report.Report, error) {
		if seed == 0 {
			return nil, usageErr("--seed 0: seeds start at 1")
		}
		r, curve, err := demo.PocketDigits(demo.PocketConfig{Updates: updates, Seed: seed})
		if err == nil && quick {
			r.Checks = demo.PocketChecks(curve)
			r.Notes = append(r.Notes, demo.QuickNote)
		}
		return r, err
	})
}

func labFisherLSQ(name string, args []string, stdout, stderr io.Writer) error {
	var data string
	var pts pointList
	var seed uint64
	var quick bool
	return courseRun(name, "[--data FILE | --point X1,...,LABEL ...] [--seed N] [--quick]", args, stdout, stderr, &quick, func(fs *flagSet) {
		fs.StringVar(&data, "data", "", "a CSV file of samples (features, then a label of +1 or -1), as mark1 lab trace reads (default: two classes of 12 and 20 integer points)")
		fs.Var(&pts, "point", "a sample X1,...,LABEL; repeat for more (instead of --data)")
		fs.Uint64Var(&seed, "seed", 1, "the seed of the default samples")
	}, func(fs *flagSet) (*report.Report, error) {
		var d *trace.Data
		var err error
		switch {
		case data != "" && len(pts) > 0:
			return nil, usageErr("--data and --point: give the samples one way")
		case seed == 0:
			return nil, usageErr("--seed 0: seeds start at 1")
		case data != "":
			f, err := os.Open(data)
			if err != nil {
				return nil, fmt.Errorf("--data: %w", err)
			}
			defer f.Close()
			if d, err = trace.ReadCSV(data, f); err != nil {
				return nil, err
			}
		case len(pts) > 0:
			if d, err = trace.Points(pts); err != nil {
				return nil, usageErr(err.Error())
			}
		}
		r, f, err := demo.FisherLSQReport(d, seed)
		if err == nil && quick {
			r.Checks = demo.FisherLSQChecks(f)
			r.Notes = append(r.Notes, demo.QuickNote)
		}
		return r, err
	})
}
