package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/experiment"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func init() {
	commands = append(commands, command{"experiment", "[NAME [--json] [--out DIR]]", "the Mark I's historical experiments, the record beside the emulator", cmdExperiment})
}

func cmdExperiment(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "list" {
		fmt.Fprintln(stdout, "The Mark I's reported experiments (mark1 experiment NAME runs one; --help for its flags):")
		for _, e := range experiment.Historical() {
			fmt.Fprintf(stdout, "  %-16s %s\n", e.Name, e.Title)
			rec := "record: " + e.Record + " (" + e.Source + "; " + e.Kind + ")"
			fmt.Fprintf(stdout, "%s%s\n", listIndent, wrapWords(rec, 100-len(listIndent), listIndent+"        "))
		}
		return nil
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, "usage: mark1 experiment [NAME [flags]]\n\nWithout NAME, lists the experiments. Run \"mark1 experiment NAME -h\" for the flags.")
		return nil
	}
	e, ok := experiment.Find(args[0])
	if !ok {
		var names []string
		for _, e := range experiment.Historical() {
			names = append(names, e.Name)
		}
		return usageErr(fmt.Sprintf("unknown experiment %q (have %s)", args[0], strings.Join(names, ", ")))
	}
	fs := newFlags("experiment "+e.Name, "[--seed N] [--seeds N] [--quick] [--json] [--out DIR]", stdout)
	var of outFlags
	of.register(fs)
	seed := fs.Uint64("seed", 1, "first seed: the conditions' machines and cards use SEED, SEED+1, ...")
	seeds := fs.intRange("seeds", 0, 0, 1000, "machines per condition (0: the experiment's own number)")
	quick := fs.Bool("quick", false, "fewer cards, epochs and machines: a first look in seconds, not the record's conditions")
	var lit float64
	if e.Name == "figure4" {
		fs.Float64Var(&lit, "lit", 0.5, "fraction of the retina lit in the random patterns (Rosenblatt's R), 0 < R < 1")
	}
	if err := fs.parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if e.Name == "figure4" && !(lit > 0 && lit < 1) {
		return usageErr(fmt.Sprintf("--lit %v: want a fraction between 0 and 1", lit))
	}
	if err := of.check(); err != nil {
		return err
	}
	if *seed == 0 {
		return usageErr("--seed 0: seeds start at 1")
	}
	if *seed > math.MaxUint64-1000 {
		return usageErr("--seed: too large (the conditions count up from it)")
	}
	return runReport(&of, "experiment "+e.Name, stdout, stderr, "mark1 experiment "+e.Name+argString(args[1:]), func(ctx contextT, progress func(int, int)) (*report.Report, error) {
		return e.Run(ctx, experiment.Settings{Seed: *seed, Seeds: *seeds, Quick: *quick, Lit: lit, Workers: of.workers, Progress: progress})
	})
}

// listIndent is where the experiments' records start in the listing.
const listIndent = "                     "

// wrapWords wraps text at spaces into lines of at most width columns, the lines after the
// first starting with indent (counted in the width).
func wrapWords(text string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case line+1+len(w) > width:
			b.WriteString("\n" + indent)
			line = len(indent) - len(listIndent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
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
