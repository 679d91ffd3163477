package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/experiment"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

// Param is a parameter of a run, for the page's controls.
type Param struct {
	Name string `json:"name"`
	// Kind is int, uint, float, string, bool, floats, points or cards.
	Kind    string `json:"kind"`
	Default string `json:"default"`
	// Min and Max bound the value (null when there is no bound); MinOpen and MaxOpen leave the
	// ends out.
	Min     *float64 `json:"min"`
	Max     *float64 `json:"max"`
	MinOpen bool     `json:"minOpen"`
	MaxOpen bool     `json:"maxOpen"`
	Choices []string `json:"choices"`
	Help    string   `json:"help"`
	// Want ends the refusal of a value out of range ("--NAME VALUE: WANT").
	Want string `json:"want,omitempty"`
	// QuickSets: the quick run sets it itself (refused with quick).
	QuickSets bool `json:"quickSets,omitempty"`
	// Machine: a setting of the machine the run uses (mark1's machine flags), not of the run.
	Machine bool `json:"machine,omitempty"`
}

// Demo is a run of the lab's registry, for the page: a demonstration of lab/demo or a
// historical experiment of lab/experiment.
type Demo struct {
	Name string `json:"name"`
	// Kind is "demo" (mark1 lab NAME) or "experiment" (mark1 experiment NAME).
	Kind   string  `json:"kind"`
	Help   string  `json:"help"`
	Args   string  `json:"args"`
	Usage  string  `json:"usage"`
	Params []Param `json:"params"`
	// Quick says that the run has a quick run (the quick parameter); QuickHelp says what it is.
	Quick     bool   `json:"quick"`
	QuickHelp string `json:"quickHelp,omitempty"`
	// Uses are "machine", "cards" and "workers", as the run takes them from its host.
	Uses []string `json:"uses"`
	// Browser says what the browser runs: "run" (the run as asked), "quick" (its quick run
	// only: the full one takes too long for a page) or "no" (mark1 only).
	Browser string `json:"browser"`
	// Record, Source and SourceKind are an experiment's historical record.
	Record     string `json:"record,omitempty"`
	Source     string `json:"source,omitempty"`
	SourceKind string `json:"sourceKind,omitempty"`
}

var kindNames = map[lab.Kind]string{lab.Int: "int", lab.Uint: "uint", lab.Float: "float", lab.String: "string", lab.Bool: "bool",
	lab.Floats: "floats", lab.Points: "points", lab.Cards: "cards"}

// registry is a run with what the page needs to know of it.
type registry struct {
	d          lab.Demo
	experiment bool
	rec        experiment.Experiment
}

func runs() []registry {
	var out []registry
	for _, d := range demo.All() {
		out = append(out, registry{d: d})
	}
	for _, e := range experiment.Historical() {
		out = append(out, registry{d: e.Demo, experiment: true, rec: e})
	}
	return out
}

func find(name string) (registry, error) {
	var names []string
	for _, r := range runs() {
		if r.d.Name == name {
			return r, nil
		}
		names = append(names, r.d.Name)
	}
	return registry{}, fmt.Errorf("unknown demo %q (have %s)", name, strings.Join(names, ", "))
}

// browser says what the browser runs of r: the runs that take cards or build machines (and
// every experiment) only as their quick run, those without a quick run not at all.
func (r registry) browser() string {
	long := r.experiment || r.d.Uses&(lab.UsesCards|lab.UsesMachine) != 0
	switch {
	case !long:
		return "run"
	case r.d.Quick != nil:
		return "quick"
	}
	return "no"
}

// machineParams are the machine's settings the browser takes for a run that uses the
// machine: its seed and whether it is ideal.
func machineParams() []lab.Param {
	return []lab.Param{
		{Name: "seed", Kind: lab.Uint, Default: "1", Help: "the machine's seed: its wiring, its parts' spreads, its noise (mark1's --seed)"},
		{Name: "ideal", Kind: lab.Bool, Help: "every analog flaw off: the textbook perceptron on the A-units' features (mark1's --ideal)"},
	}
}

func (r registry) command() string {
	if r.experiment {
		return "mark1 experiment " + r.d.Name
	}
	return "mark1 lab " + r.d.Name
}

func paramJSON(p lab.Param, mach bool) Param {
	j := Param{Name: p.Name, Kind: kindNames[p.Kind], Default: p.Default, MinOpen: p.MinOpen, MaxOpen: p.MaxOpen,
		Choices: p.Choices, Help: p.Help, Want: p.Want, QuickSets: p.QuickSets, Machine: mach}
	lo, hi := p.Min, p.Max
	switch {
	case p.Kind == lab.Int:
		j.Min, j.Max = &lo, &hi
	case p.Kind == lab.Uint && p.Want != "":
		j.Min = &lo
	case (p.Kind == lab.Float || p.Kind == lab.Floats) && p.Want != "":
		j.Min, j.Max = &lo, &hi
	}
	if j.Choices == nil {
		j.Choices = []string{}
	}
	return j
}

// Demos returns the lab's registry: the demonstrations of lab/demo, in mark1 lab's order, then
// the historical experiments of lab/experiment.
func Demos() []Demo {
	var out []Demo
	for _, r := range runs() {
		d := r.d
		j := Demo{Name: d.Name, Kind: "demo", Help: d.Help, Args: d.Args, Usage: d.Usage, Quick: d.Quick != nil, Uses: []string{}, Browser: r.browser()}
		if r.experiment {
			j.Kind, j.Record, j.Source, j.SourceKind = "experiment", r.rec.Record, r.rec.Source, r.rec.Kind
		}
		if d.Quick != nil {
			j.QuickHelp = d.Quick.Help
		}
		for _, u := range []struct {
			u    lab.Uses
			name string
		}{{lab.UsesMachine, "machine"}, {lab.UsesCards, "cards"}, {lab.UsesWorkers, "workers"}} {
			if d.Uses&u.u != 0 {
				j.Uses = append(j.Uses, u.name)
			}
		}
		for _, p := range d.Params {
			j.Params = append(j.Params, paramJSON(p, false))
		}
		if d.Uses&lab.UsesMachine != 0 {
			for _, p := range machineParams() {
				if !slices.ContainsFunc(d.Params, func(q lab.Param) bool { return q.Name == p.Name }) {
					j.Params = append(j.Params, paramJSON(p, true))
				}
			}
		}
		if j.Params == nil {
			j.Params = []Param{}
		}
		out = append(out, j)
	}
	return out
}

// Result is what RunDemo returns: the report as JSON and the command line that runs the same.
type Result struct {
	// Report is report.Report's JSON with "figures" holding each figure's data (plot.Figure's
	// JSON) instead of the names of its files.
	Report json.RawMessage `json:"report"`
	// Command is the equivalent command line: mark1 lab NAME --flag value ...
	Command string `json:"command"`
}

// pageKeys are the page's own URL parameters, which RunDemo leaves to it.
var pageKeys = []string{"demo", "lang", "view"}

// RunDemo runs the demonstration or experiment name with the parameters of a URL query
// (query: a=1&b=2, with or without its "?"): each parameter is the command's flag of that
// name, a point one sample (repeat it), quick the quick run, csv the samples' CSV text in the
// --data FILE format (for a run that takes --data or --point). Values are decoded as a form
// decodes them, and the spaces around each comma-separated part dropped, so that a label's
// "+1", "%2B1", " 1" (a "+" decoded) and "1" read alike. The page's own parameters (demo, lang, view) are
// skipped; any other the run does not have is refused, and so is data (a file). A run that
// takes cards or builds machines runs only as its quick run. The error is one line, as mark1
// writes it.
func RunDemo(ctx context.Context, name, query string) (*Result, error) {
	r, err := find(name)
	if err != nil {
		return nil, err
	}
	d := r.d
	pairs, err := parseQuery(query)
	if err != nil {
		return nil, err
	}
	vals := lab.NewValues(d.Params)
	var mvals lab.Values
	usesMachine := d.Uses&lab.UsesMachine != 0
	if usesMachine {
		mvals = lab.NewValues(machineParams())
	}
	has := func(name string) (lab.Param, bool) {
		i := slices.IndexFunc(d.Params, func(p lab.Param) bool { return p.Name == name })
		if i < 0 {
			return lab.Param{}, false
		}
		return d.Params[i], true
	}
	var args []string
	quick := false
	for _, kv := range pairs {
		k, v := kv[0], normalize(kv[1])
		p, own := has(k)
		switch {
		case slices.Contains(pageKeys, k):
			continue
		case k == "quick" && d.Quick != nil:
			if quick, err = strconv.ParseBool(v); err != nil {
				return nil, fmt.Errorf("--quick %q: want true or false", v)
			}
			if quick {
				args = append(args, "--quick")
			}
			continue
		case k == "csv" && !own && hasSamples(d):
			pts, err := csvPoints(kv[1])
			if err != nil {
				return nil, err
			}
			for _, pt := range pts {
				if err := vals.Set("point", pt); err != nil {
					return nil, err
				}
				args = append(args, flagArg("point", pt))
			}
			continue
		case k == "data" && own && hasSamples(d):
			return nil, errors.New("--data: the browser reads no files: send the samples' CSV text as csv=... (or each as point=X1,X2,LABEL)")
		case !own && usesMachine && (k == "seed" || k == "ideal"):
			if err := mvals.Set(k, v); err != nil {
				return nil, err
			}
			args = append(args, boolOrFlag(k, v, lab.Bool == machineKind(k))...)
			continue
		case !own:
			return nil, fmt.Errorf("--%s: %s has no such parameter", k, r.command())
		case p.Kind == lab.Cards:
			return nil, fmt.Errorf("--%s: the browser loads no cards: run %s on your computer", k, r.command())
		}
		if p.Kind == lab.Points {
			v = canonicalPoint(v)
		}
		if err := vals.Set(k, v); err != nil {
			return nil, err
		}
		args = append(args, boolOrFlag(k, v, p.Kind == lab.Bool)...)
	}
	if err := vals.Check(); err != nil {
		return nil, err
	}
	if quick {
		if err := d.QuickRefusal(vals); err != nil {
			return nil, err
		}
	}
	command := r.command() + argString(args)
	switch r.browser() {
	case "no":
		return nil, fmt.Errorf("%s takes minutes and cards: run %s on your computer", d.Name, command)
	case "quick":
		if !quick {
			return nil, fmt.Errorf("%s runs in the browser only as its quick run (quick=true): run %s on your computer for the whole run", d.Name, command)
		}
	}
	c := lab.Config{Values: vals, Machine: machine.Default(), Quick: quick, Workers: 1}
	if usesMachine {
		if mvals.Bool("ideal") {
			c.Machine = c.Machine.Ideal()
			c.MachineSet = append(c.MachineSet, "ideal")
		}
		if mvals.Given("seed") {
			c.Machine.Seed = mvals.Uint("seed")
			c.MachineSet = append(c.MachineSet, "seed")
		}
	}
	start := time.Now()
	rep, err := d.Run(ctx, c)
	if err != nil {
		return nil, err
	}
	rep.Command = command
	if rep.Seconds == 0 {
		rep.Seconds = time.Since(start).Seconds()
	}
	b, err := ReportJSON(rep)
	if err != nil {
		return nil, err
	}
	return &Result{Report: b, Command: command}, nil
}

func machineKind(name string) lab.Kind {
	for _, p := range machineParams() {
		if p.Name == name {
			return p.Kind
		}
	}
	return lab.String
}

// hasSamples reports whether a run takes samples as --data FILE and --point.
func hasSamples(d lab.Demo) bool {
	n := 0
	for _, p := range d.Params {
		if p.Name == "data" && p.Kind == lab.String || p.Name == "point" && p.Kind == lab.Points {
			n++
		}
	}
	return n == 2
}

// ReportJSON returns the report as JSON, as report.Report writes it, with "figures" holding
// each figure's data (plot.Figure's JSON) instead of the names of its files.
func ReportJSON(r *report.Report) (json.RawMessage, error) {
	plain := *r
	plain.Figures = nil
	b, err := json.Marshal(&plain)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	f, err := json.Marshal(r.Figures)
	if err != nil {
		return nil, fmt.Errorf("report: figures: %w", err)
	}
	if len(r.Figures) == 0 {
		f = []byte("[]")
	}
	out := append(b[:len(b)-1:len(b)-1], `,"figures":`...)
	out = append(out, f...)
	return append(out, '}'), nil
}
