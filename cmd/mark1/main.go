// Command mark1 runs the Mark I Perceptron emulator from the command line: train a machine on
// a card set, evaluate and query it, export its features and weights, write wiring files, and
// measure its speed.
//
// Run "mark1 help" for the commands; the README documents every flag and JSON format.
package main

import (
	"errors"
	"flag"
	"io"
	"os"

	"github.com/mark1-perceptron/mark1/internal/cli"
)

func usageErr(msg string) error { return &cli.UsageError{Msg: msg} }

type command struct {
	name, args, help string
	run              func(args []string, stdout, stderr io.Writer) error
}

// commands are mark1's commands, in the order help lists them. Files that add a command append
// it in an init function (package variables are set before any init runs).
var commands = []command{
	{"train", "--data SPEC [flags]", "train a machine on a card set", cmdTrain},
	{"eval", "--state FILE --data SPEC", "accuracy and confusion matrix of a saved machine", cmdEval},
	{"classify", "--state FILE IMAGE", "show the retina, the firing R-units and the class of one image", cmdClassify},
	{"features", "--state FILE --data SPEC", "CSV of each card's A-unit states", cmdFeatures},
	{"weights", "--state FILE", "CSV of each R-unit's bias and weights, in increments", cmdWeights},
	{"config", "[flags]", "print the machine configuration as a commented TOML file", cmdConfig},
	{"idle", "--state FILE --hours H --save FILE", "let machine time pass with no cards (drift, warm-up)", cmdIdle},
	{"wiring", "generate|check|print ...", "generate, validate and print plug-board wiring files", cmdWiring},
	{"demo", "[--data SPEC]", "train on a built-in set and show the machine learning", cmdDemo},
	{"bench", "[--json]", "presentations per second of the full-size machine", cmdBench},
}

func main() {
	// With no arguments and a display, mark1 opens the museum (museum.go); without a display, or
	// without the window program, it prints its usage as before. Only main does this: run is
	// called in-process by the tests.
	if len(os.Args) == 1 {
		if status, ok := museumNoArgs(os.Stderr); ok {
			os.Exit(status)
		}
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status: 0 success, 1 failure, 2 usage,
// 128 plus the signal's number when a signal stopped the work (130 for Ctrl-C).
func run(args []string, stdout, stderr io.Writer) int { return program().Run(args, stdout, stderr) }

// program is mark1 as the dispatcher runs it: its commands as they are when it is called.
func program() *cli.Program {
	cmds := make([]cli.Command, len(commands))
	for i, c := range commands {
		cmds[i] = cli.Command{Name: c.name, Args: c.args, Help: c.help, Run: c.run}
	}
	return &cli.Program{
		Name: "mark1", Title: "mark1: an emulator of the Mark I Perceptron (Cornell, 1960)",
		Synopsis: "COMMAND [flags]", Footer: "Run \"mark1 COMMAND -h\" for a command's flags.",
		Commands: cmds,
		Status: func(err error) (int, bool) {
			var ie *interrupted
			if errors.As(err, &ie) {
				return signalStatus(ie.sig), true
			}
			return 0, false
		},
	}
}

// flagSet is a command's flags: errors come back as one-line usage errors, -h prints the flags
// on standard output.
type flagSet struct {
	*flag.FlagSet
	args   string
	out    io.Writer
	bounds []bound // the ranges of the intRangeVar flags
}

func newFlags(name, args string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet("mark1 "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, args: args, out: stdout}
}

// given reports whether the flag name was set on the command line.
func (f *flagSet) given(name string) bool {
	found := false
	f.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}

func (f *flagSet) parse(args []string) error {
	err := f.Parse(args)
	switch {
	case err == nil:
		return f.checkBounds()
	case errors.Is(err, flag.ErrHelp):
		cli.FlagUsage(f.out, f.FlagSet, f.args, f.printDefaults)
		return err
	}
	return usageErr(err.Error() + f.flagHint(err))
}
