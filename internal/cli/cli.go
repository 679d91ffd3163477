// Package cli is the small table-driven command dispatcher of mark1 and hwbridge: a table of
// commands, "help", -h and --help printing the same usage, and the same one-line errors and
// exit statuses (0 success or -h, 1 failure, 2 a usage error or an unknown command).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one command of a program.
type Command struct {
	// Name is the command's word; Args its arguments in the usage ("--rig FILE [flags]");
	// Help what it does, in a line.
	Name, Args, Help string
	// Run runs the command on the arguments after its name. A nil error or flag.ErrHelp (the
	// command's -h, already printed) exits 0; a *UsageError exits 2; another error exits 1
	// unless the program's Status says otherwise.
	Run func(args []string, stdout, stderr io.Writer) error
}

// UsageError is an error in the command line itself (exit status 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Program is a command with subcommands.
type Program struct {
	// Name is the program's name ("mark1"), Title the first line of its usage.
	Name, Title string
	// Synopsis follows "usage: NAME " ("COMMAND [flags]"); Footer ends the usage.
	Synopsis, Footer string
	// Default is the command run when the first argument is absent or a flag; with none, no
	// argument prints the usage and exits 2, and a flag is an unknown command.
	Default string
	// Commands are the commands, in the order the usage lists them.
	Commands []Command
	// Status, if set, gives the exit status of a command's error that is not a usage error
	// (ok false: 1).
	Status func(err error) (status int, ok bool)
}

// Run runs the command line args (without the program's name) and returns the exit status.
// A command's error is printed on stderr as "NAME COMMAND: error".
func (p *Program) Run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		p.Usage(stdout)
		return 0
	}
	name := p.Default
	switch {
	case len(args) > 0 && (p.Default == "" || len(args[0]) > 0 && args[0][0] != '-'):
		name, args = args[0], args[1:]
	case len(args) == 0 && p.Default == "":
		p.Usage(stdout)
		return 2
	}
	for _, c := range p.Commands {
		if c.Name != name {
			continue
		}
		err := c.Run(args, stdout, stderr)
		if err == nil || errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "%s %s: %v\n", p.Name, name, err)
		var ue *UsageError
		if errors.As(err, &ue) {
			return 2
		}
		if p.Status != nil {
			if status, ok := p.Status(err); ok {
				return status
			}
		}
		return 1
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (run \"%s help\")\n", p.Name, name, p.Name)
	return 2
}

// Usage prints the title, the synopsis, each command with its arguments and, below, what it
// does, and the footer.
func (p *Program) Usage(w io.Writer) {
	width := 0
	for _, c := range p.Commands {
		width = max(width, len(c.Name))
	}
	fmt.Fprintln(w, p.Title)
	fmt.Fprintf(w, "\nusage: %s %s\n", p.Name, p.Synopsis)
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-*s %s\n  %-*s   %s\n", width, c.Name, c.Args, width, "", c.Help)
	}
	fmt.Fprintln(w, "\n"+p.Footer)
}

// FlagUsage prints a command's -h: "usage: NAME COMMAND ARGS", then its flags as
// printDefaults prints them.
// A usage line of one line is wrapped at spaces to fit 80 columns, its next lines indented.
func FlagUsage(w io.Writer, fs *flag.FlagSet, args string, printDefaults func()) {
	fmt.Fprintf(w, "%s\n\nflags:\n", wrapUsage("usage: "+fs.Name()+" "+args, 80, "        "))
	fs.SetOutput(w)
	printDefaults()
}

// wrapUsage breaks a usage line at spaces into lines of at most width columns (a word longer
// than that stays whole), the lines after the first starting with indent.
func wrapUsage(s string, width int, indent string) string {
	if len(s) <= width || strings.Contains(s, "\n") {
		return s // short, or laid out by its command (a table of settings)
	}
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		switch {
		case i == 0:
		case n+1+len(word) > width:
			b.WriteString("\n" + indent)
			n = len(indent)
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
