package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/mark1-perceptron/mark1/lab/experiment"
)

func init() {
	commands = append(commands, command{"experiment", "[NAME [--json] [--out DIR]]", "the Mark I's historical experiments, the record beside the emulator", cmdExperiment})
}

// cmdExperiment lists the historical experiments of lab/experiment, or runs one through the
// lab's harness (runDemo).
func cmdExperiment(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "list" {
		fmt.Fprintln(stdout, "The Mark I's reported experiments (mark1 experiment NAME runs one; -h: flags):")
		for _, e := range experiment.Historical() {
			fmt.Fprintf(stdout, "  %-16s %s\n", e.Name, e.Help)
			rec := "record: " + e.Record + " (" + e.Source + "; " + e.Kind + ")"
			fmt.Fprintf(stdout, "%s%s\n", listIndent, wrapWords(rec, 80-len(listIndent), listIndent+"        "))
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
	return runDemo("experiment", e.Demo, args[1:], stdout, stderr)
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
