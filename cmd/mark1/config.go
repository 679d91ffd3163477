package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/mark1-perceptron/mark1/machine"
)

// maxIdle is the longest idle time a command line may ask for, in seconds.
const maxIdle = machine.MaxIdle

func flawList() []machine.Flaw { return machine.Flaws() }

// cmdConfig prints the configuration the machine-building flags describe (the default
// machine without any) as a commented TOML file that --config reads back.
func cmdConfig(args []string, stdout, _ io.Writer) error {
	fs := newFlags("config", "[machine flags] | --table | --list-flaws\n\n"+paramRanges(), stdout)
	var mf machineFlags
	mf.register(fs)
	flaws := fs.Bool("list-flaws", false, "list the analog flaws --flaws can turn on, and their keys")
	table := fs.Bool("table", false, "print every parameter's key, unit, range and source as a Markdown table (docs/parameters.md)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *flaws {
		for _, f := range machineFlaws() {
			fmt.Fprintln(stdout, f)
		}
		return nil
	}
	if *table {
		return writeParamTable(stdout)
	}
	if mf.fs.given("coding") && !isPreset(mf.coding, "auto", "onehot", "binary") {
		return usageErr("--coding: a code file belongs to a data set; mark1 config prints presets only")
	}
	cfg, err := mf.buildConfig()
	if err != nil {
		return err
	}
	if mf.fs.given("coding") {
		cfg.Coding = mf.coding
	}
	if cfg.Board != nil {
		return usageErr("--wiring: a wiring file is not part of a configuration file; give it to mark1 train")
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	return cfg.WriteConfig(stdout)
}

// writeParamTable writes every settable parameter as a Markdown table: key, unit, range,
// default, where the default comes from, and what it models. docs/parameters.md is its output
// (a test keeps it current).
func writeParamTable(w io.Writer) error {
	def := machine.Default()
	var b strings.Builder
	b.WriteString("# Parameters\n\n")
	b.WriteString("Every parameter of a machine, as `--set KEY=VALUE`, configuration files (`mark1 config`) and\n")
	b.WriteString("state files name it, with its unit and the range every one of those inputs is checked\n")
	b.WriteString("against. Written by `mark1 config --table > docs/parameters.md` (a test keeps it current).\n\n")
	b.WriteString("| key | unit | range | default | source | models |\n|---|---|---|---|---|---|\n")
	for _, k := range machine.Keys() {
		v, err := def.Value(k.Name)
		if err != nil {
			return err
		}
		unit := k.Unit
		if unit == "" {
			unit = "-"
		}
		models := k.Models
		if k.Note != "" {
			models += "; " + k.Note
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", k.Name, unit, k.Range, v, k.Source, strings.ReplaceAll(models, "|", "/"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// paramRanges lists every settable parameter's key, unit and range for mark1 config -h: the
// table every input is checked against (docs/parameters.md adds what each models).
func paramRanges() string {
	var b strings.Builder
	b.WriteString("Every parameter, as --set KEY=VALUE, configuration and state files name it, with its unit\n")
	b.WriteString("and the range each of those inputs is checked against (mark1 config --table, or\n")
	b.WriteString("docs/parameters.md, adds its default, its source and what it models):\n\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  KEY\tUNIT\tRANGE")
	for _, k := range machine.Keys() {
		unit := k.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", k.Name, unit, k.Range)
	}
	tw.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

func isPreset(s string, presets ...string) bool {
	for _, p := range presets {
		if s == p {
			return true
		}
	}
	return false
}

// machineFlaws describes each flaw in one line.
func machineFlaws() []string {
	var lines []string
	for _, f := range flawList() {
		lines = append(lines, fmt.Sprintf("%-14s %s (%s)", f.Name, f.Models, strings.Join(f.Keys, ", ")))
	}
	return lines
}

// cmdIdle lets machine time pass for a saved machine, with no cards shown: the wipers drift and
// the racks warm up, as the machine would standing switched on.
func cmdIdle(args []string, stdout, _ io.Writer) error {
	fs := newFlags("idle", "--state FILE --hours H --save FILE", stdout)
	state := fs.String("state", "", "machine state FILE (from mark1 train --save)")
	hours := fs.Float64("hours", 0, "machine time to let pass, in hours")
	save := fs.String("save", "", "write the machine after the idle time to this state FILE (may be --state itself)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if !(*hours >= 0) || math.IsInf(*hours, 0) || *hours*3600 > maxIdle {
		return usageErr(fmt.Sprintf("--hours %v: want 0 to %.0f hours", *hours, maxIdle/3600))
	}
	if *save == "" {
		return usageErr("--save FILE is required (the idle machine must go somewhere)")
	}
	if err := checkSavePath(*save); err != nil {
		return err
	}
	m, err := loadState(*state)
	if err != nil {
		return err
	}
	before := m.Clock()
	if err := m.Idle(*hours * 3600); err != nil {
		return err
	}
	if err := m.Save(*save); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "idled %s for %g hours of machine time (clock %.1f h -> %.1f h); saved %s\n", *state, *hours, before/3600, m.Clock()/3600, *save)
	return nil
}
