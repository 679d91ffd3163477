package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/regfile"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// bound is the range lo..hi an integer flag's value must lie in.
type bound struct {
	name   string
	p      *int
	lo, hi int
}

// intRangeVar defines an int flag, as IntVar does, whose value must lie in lo..hi: parse
// refuses one outside with "--name V: want lo..hi". The flag is an int flag like any other (-h
// lists it so); def must lie in the range.
func (f *flagSet) intRangeVar(p *int, name string, def, lo, hi int, usage string) {
	if def < lo || def > hi {
		panic(fmt.Sprintf("mark1: --%s: default %d outside %d..%d", name, def, lo, hi))
	}
	f.IntVar(p, name, def, usage)
	f.bounds = append(f.bounds, bound{name, p, lo, hi})
}

// checkBounds refuses the first intRangeVar flag, in the order they were defined, whose value is
// outside its range.
func (f *flagSet) checkBounds() error {
	for _, b := range f.bounds {
		if v := *b.p; v < b.lo || v > b.hi {
			return usageErr(fmt.Sprintf("--%s %d: want %d..%d", b.name, v, b.lo, b.hi))
		}
	}
	return nil
}

// setList is a repeatable --set KEY=VALUE flag.
type setList []string

func (s *setList) String() string { return strings.Join(*s, " ") }

func (s *setList) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*s = append(*s, v)
	return nil
}

// viewFlags are the optics settings that may change between training and testing: where the
// card lies on the retina, how bright the lamps are, which part is the figure.
type viewFlags struct {
	fs                                      *flagSet
	polarity                                string
	scale, offsetX, offsetY, rotation, lamp float64
}

func (v *viewFlags) register(fs *flagSet) {
	r := retina.DefaultParams()
	v.fs = fs
	fs.StringVar(&v.polarity, "polarity", r.Polarity.String(), "auto: each card's figure is what differs from its border; dark: dark ink on light cards; light: bright figures on dark")
	fs.Float64Var(&v.scale, "scale", r.Scale, "card size on the retina, times the fit that spans 20 cells")
	fs.Float64Var(&v.offsetX, "offset-x", r.OffsetX, "shift the card right by this many cells")
	fs.Float64Var(&v.offsetY, "offset-y", r.OffsetY, "shift the card down by this many cells")
	fs.Float64Var(&v.rotation, "rotation", r.Rotation, "turn the card clockwise by this many degrees")
	fs.Float64Var(&v.lamp, "lamp", r.Lamp, "lamp brightness (1 nominal; the ideal retina ignores it)")
}

// sets returns the --set assignments the view flags given on the command line stand for.
func (v *viewFlags) sets() []string {
	var out []string
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	for _, s := range []struct {
		flag, key string
		value     func() string
	}{
		{"polarity", "retina.polarity", func() string { return v.polarity }},
		{"scale", "retina.scale", func() string { return num(v.scale) }},
		{"offset-x", "retina.offset_x_cells", func() string { return num(v.offsetX) }},
		{"offset-y", "retina.offset_y_cells", func() string { return num(v.offsetY) }},
		{"rotation", "retina.rotation_deg", func() string { return num(v.rotation) }},
		{"lamp", "retina.lamp", func() string { return num(v.lamp) }},
	} {
		if v.fs.given(s.flag) {
			out = append(out, "--"+s.flag+"\x00"+s.key+"="+s.value())
		}
	}
	return out
}

// apply changes a loaded machine's optics settings as the view flags given say.
func (v *viewFlags) apply(m *machine.Machine) error {
	p := m.Config().Retina
	given := v.fs.given
	if given("polarity") {
		pol, err := retina.ParsePolarity(v.polarity)
		if err != nil {
			return usageErr("--polarity: " + err.Error())
		}
		p.Polarity = pol
	}
	for _, f := range []struct {
		flag string
		dst  *float64
		v    float64
	}{
		{"scale", &p.Scale, v.scale}, {"offset-x", &p.OffsetX, v.offsetX}, {"offset-y", &p.OffsetY, v.offsetY},
		{"rotation", &p.Rotation, v.rotation}, {"lamp", &p.Lamp, v.lamp},
	} {
		if given(f.flag) {
			*f.dst = f.v
		}
	}
	if p == m.Config().Retina {
		return nil
	}
	if err := p.Validate(); err != nil {
		return usageErr(err.Error())
	}
	return m.SetOptics(p)
}

// machineFlags are the flags that build a new machine.
type machineFlags struct {
	fs     *flagSet
	config string
	sets   setList
	flaws  string
	ideal  bool

	seed                   uint64
	rule, coding, wiring   string
	order                  string
	shuffle                bool
	rUnits, aUnits, fanout int
	blur                   float64
	view                   viewFlags
}

func (mf *machineFlags) register(fs *flagSet) {
	d := machine.Default()
	mf.fs = fs
	fs.StringVar(&mf.config, "config", "", "read the machine configuration from this TOML FILE (mark1 config writes one)")
	fs.Var(&mf.sets, "set", "set one configuration KEY=VALUE, e.g. retina.blur_cells=0.5 (repeatable; mark1 config lists the keys)")
	fs.StringVar(&mf.flaws, "flaws", "", "turn on only these analog flaws, comma-separated: none (the ideal machine), all, or "+flawNames())
	fs.BoolVar(&mf.ideal, "ideal", false, "turn every analog flaw off (the textbook perceptron; same as --flaws none)")
	fs.Uint64Var(&mf.seed, "seed", d.Seed, "seed of every random choice (wiring, spreads, noise, order)")
	fs.StringVar(&mf.rule, "rule", d.Rule.String(), "learning rule: alpha, gamma or forced")
	fs.IntVar(&mf.rUnits, "r-units", d.RUnits, "number of R-units")
	fs.IntVar(&mf.aUnits, "a-units", d.MarkI.AUnits, "number of A-units (random or local wiring); the fan-out limit follows")
	fs.IntVar(&mf.fanout, "fanout", d.MarkI.FanOut, "most A-units one S-unit may feed (random wiring; 40, scaled up with --a-units above 512)")
	fs.StringVar(&mf.coding, "coding", d.Coding, "class coding: auto, onehot, binary, or a code FILE")
	fs.StringVar(&mf.wiring, "wiring", d.Wiring, "plug-board: random, identity, local, or a wiring FILE")
	fs.StringVar(&mf.order, "order", d.Order, "order of the cards in an epoch: shuffle (from the seed), file, or interleave (round-robin over the classes)")
	fs.BoolVar(&mf.shuffle, "shuffle", false, "same as --order shuffle")
	fs.Float64Var(&mf.blur, "blur", d.Retina.Blur, "lens defocus, Gaussian sigma in cells (an analog flaw)")
	mf.view.register(fs)
}

// flawNames lists the flaws for the --flaws help.
func flawNames() string {
	var names []string
	for _, f := range machine.Flaws() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// buildFlags are the flags that only make sense when a machine is built.
var buildFlags = []string{"config", "set", "flaws", "ideal", "seed", "rule", "r-units", "a-units", "fanout", "coding", "wiring", "blur"}

// givenBuildFlags returns the machine-building flags given on the command line.
func (mf *machineFlags) givenBuildFlags() []string {
	var given []string
	for _, f := range buildFlags {
		if mf.fs.given(f) {
			given = append(given, "--"+f)
		}
	}
	return given
}

// orderFlag returns the order the command line asks for, or "".
func (mf *machineFlags) orderFlag() (string, error) {
	order, shuffle := mf.fs.given("order"), mf.fs.given("shuffle")
	if order {
		switch mf.order {
		case machine.OrderShuffle, machine.OrderFile, machine.OrderInterleave:
		default:
			return "", usageErr(fmt.Sprintf("--order %q: want shuffle, file or interleave", mf.order))
		}
	}
	switch {
	case shuffle && order && mf.shuffle != (mf.order == machine.OrderShuffle):
		return "", usageErr(fmt.Sprintf("--shuffle=%t and --order %s disagree", mf.shuffle, mf.order))
	case shuffle && !mf.shuffle && !order:
		// Not shuffling leaves two orders: say which (it was silently ignored).
		return "", usageErr("--shuffle=false: name the order instead: --order file (the cards' order) or --order interleave (round-robin over the classes)")
	case order:
		return mf.order, nil
	case shuffle:
		return machine.OrderShuffle, nil
	}
	return "", nil
}

// buildConfig turns the flags into a machine configuration: the defaults, then --config, then
// --ideal or --flaws, then the single flags, then each --set in order.
func (mf *machineFlags) buildConfig() (machine.Config, error) {
	cfg := machine.Default()
	fanoutSet := mf.fs.given("fanout")
	if mf.config != "" {
		f, err := openRegular(mf.config)
		if err != nil {
			return cfg, fmt.Errorf("--config: %w", err)
		}
		defer f.Close()
		cfg, err = machine.ReadConfig(f, mf.config, cfg)
		if err != nil {
			return cfg, err
		}
		fanoutSet = fanoutSet || cfg.MarkI.FanOut != machine.Default().MarkI.FanOut
	}
	switch {
	case mf.ideal && mf.flaws != "" && mf.flaws != "none":
		return cfg, usageErr(fmt.Sprintf("--ideal and --flaws %s disagree", mf.flaws))
	case mf.ideal:
		cfg = cfg.Ideal()
	case mf.flaws != "":
		var err error
		if cfg, err = cfg.WithFlaws(strings.Split(mf.flaws, ",")); err != nil {
			return cfg, usageErr("--flaws: " + strings.TrimPrefix(err.Error(), "machine: "))
		}
	}
	set := func(flag, key, value string) error {
		if err := cfg.Set(key, value); err != nil {
			return usageErr("--" + flag + " " + value + ": " + err.Error())
		}
		return nil
	}
	given := mf.fs.given
	num := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	steps := []struct {
		flag, key string
		value     func() string
	}{
		{"seed", "seed", func() string { return strconv.FormatUint(mf.seed, 10) }},
		{"rule", "rule", func() string { return mf.rule }},
		{"r-units", "r_units", func() string { return strconv.Itoa(mf.rUnits) }},
		{"blur", "retina.blur_cells", func() string { return num(mf.blur) }},
	}
	for _, s := range steps {
		if given(s.flag) {
			if err := set(s.flag, s.key, s.value()); err != nil {
				return cfg, err
			}
		}
	}
	if order, err := mf.orderFlag(); err != nil {
		return cfg, err
	} else if order != "" {
		cfg.Order = order
	}
	for _, s := range mf.view.sets() {
		flag, kv, _ := strings.Cut(s, "\x00")
		key, val, _ := strings.Cut(kv, "=")
		if err := cfg.Set(key, val); err != nil {
			return cfg, usageErr(flag + ": " + err.Error())
		}
	}
	if given("wiring") {
		switch mf.wiring {
		case machine.WiringRandom, machine.WiringIdentity, machine.WiringLocal:
			cfg.Wiring = mf.wiring
		default:
			b, err := readWiring(mf.wiring)
			if err != nil {
				return cfg, err
			}
			cfg.Wiring, cfg.Board = machine.WiringFile, b
		}
	}
	if given("a-units") {
		if mf.aUnits < 1 || mf.aUnits > patchboard.MaxUnits {
			return cfg, usageErr(fmt.Sprintf("--a-units %d: want 1..%d", mf.aUnits, patchboard.MaxUnits))
		}
		switch cfg.Wiring {
		case machine.WiringRandom:
			cfg.MarkI.AUnits = mf.aUnits
			if !fanoutSet {
				cfg.MarkI.FanOut = patchboard.FanOutFor(mf.aUnits)
			}
		case machine.WiringLocal:
			cfg.LocalUnits = mf.aUnits
		default:
			return cfg, usageErr(fmt.Sprintf("--a-units: the %s wiring has its own A-units (one per cell for identity, one per line of a wiring file)", cfg.Wiring))
		}
	}
	if given("fanout") {
		if err := set("fanout", "mark_i.fanout", strconv.Itoa(mf.fanout)); err != nil {
			return cfg, err
		}
	}
	for _, kv := range mf.sets {
		key, val, _ := strings.Cut(kv, "=")
		if err := cfg.Set(strings.TrimSpace(key), strings.TrimSpace(val)); err != nil {
			return cfg, usageErr("--set " + kv + ": " + err.Error())
		}
		if strings.TrimSpace(key) == "mark_i.fanout" {
			fanoutSet = true
		}
	}
	if cfg.Wiring == machine.WiringRandom {
		if err := cfg.MarkI.Validate(); err != nil {
			msg := strings.TrimPrefix(err.Error(), "patchboard: ")
			if strings.HasPrefix(msg, "fanout:") {
				return cfg, usageErr("--fanout: " + strings.TrimPrefix(msg, "fanout: "))
			}
			return cfg, usageErr(msg)
		}
	}
	return cfg, nil
}

// build makes a machine for the classes of set.
func (mf *machineFlags) build(set *images.Set) (*machine.Machine, error) {
	if mf.rUnits < 1 || mf.rUnits > machine.MaxRUnits {
		return nil, usageErr(fmt.Sprintf("--r-units %d: want 1..%d", mf.rUnits, machine.MaxRUnits))
	}
	cfg, err := mf.buildConfig()
	if err != nil {
		return nil, err
	}
	switch mf.coding {
	case machine.CodingAuto, machine.CodingOneHot, machine.CodingBinary:
		if mf.fs.given("coding") {
			cfg.Coding = mf.coding
		}
	default:
		f, err := openRegular(mf.coding)
		if err != nil {
			return nil, fmt.Errorf("--coding: %w", err)
		}
		defer f.Close()
		codes, err := machine.ReadCodes(f, mf.coding, set.Classes, cfg.RUnits)
		if err != nil {
			return nil, err
		}
		cfg.Coding, cfg.Codes = machine.CodingTable, codes
	}
	m, err := machine.New(cfg, set.Classes)
	if err != nil && strings.Contains(err.Error(), "R-units") && strings.Contains(err.Error(), "coding") {
		return nil, fmt.Errorf("%w (--r-units)", err)
	}
	return m, err
}

func readWiring(path string) (*patchboard.Board, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, fmt.Errorf("--wiring: %w", err)
	}
	defer f.Close()
	return patchboard.Read(f, path)
}

// openRegular opens a file the user names for reading, refusing anything but a regular file
// (a FIFO would make mark1 wait for ever, a device would never end).
func openRegular(path string) (*os.File, error) { return regfile.OpenFor(path, "a file to read") }

// dataFlags bound the memory of the cards a command loads.
type dataFlags struct{ maxMB float64 }

func (d *dataFlags) register(fs *flagSet) {
	fs.Float64Var(&d.maxMB, "max-data-mb", images.DefaultBudget>>20, "most memory the cards (images and their prepared optics) may take, in MiB")
}

func (d *dataFlags) loader() (*images.Loader, error) {
	if !(d.maxMB > 0) || math.IsInf(d.maxMB, 0) || d.maxMB > 1<<30 {
		return nil, usageErr(fmt.Sprintf("--max-data-mb %v: want a positive number of MiB", d.maxMB))
	}
	if d.maxMB*(1<<20) < 1 { // a Budget of 0 would be the default
		return nil, usageErr(fmt.Sprintf("--max-data-mb %v: under one byte (the least is %g, one byte)", d.maxMB, 1.0/(1<<20)))
	}
	return &images.Loader{Budget: int64(d.maxMB * (1 << 20))}, nil
}

// budgetHint adds how to raise the data budget to an error that hit it.
func budgetHint(err error) error {
	if errors.Is(err, images.ErrBudget) {
		return fmt.Errorf("%w (raise it with --max-data-mb)", err)
	}
	return err
}
