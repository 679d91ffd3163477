package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// machineFlags are the flags that build a new machine.
type machineFlags struct {
	seed   uint64
	rule   string
	ideal  bool
	rUnits int
	aUnits int
	coding string
	wiring string

	polarity                                      string
	scale, offsetX, offsetY, rotation, lamp, blur float64
}

func (mf *machineFlags) register(fs *flagSet) {
	d := machine.Default()
	fs.Uint64Var(&mf.seed, "seed", d.Seed, "seed of every random choice (wiring, spreads, noise, order)")
	fs.StringVar(&mf.rule, "rule", "alpha", "learning rule: alpha, gamma or forced")
	fs.BoolVar(&mf.ideal, "ideal", false, "turn every analog flaw off (the textbook perceptron)")
	fs.IntVar(&mf.rUnits, "r-units", d.RUnits, "number of R-units")
	fs.IntVar(&mf.aUnits, "a-units", d.MarkI.AUnits, "number of A-units of the random plug-board")
	fs.StringVar(&mf.coding, "coding", "auto", "class coding: auto, onehot, binary, or a code FILE")
	fs.StringVar(&mf.wiring, "wiring", "random", "plug-board: random, identity, local, or a wiring FILE")
	r := d.Retina
	fs.StringVar(&mf.polarity, "polarity", r.Polarity.String(), "dark: cells see dark ink on light cards; light: bright figures on dark")
	fs.Float64Var(&mf.scale, "scale", r.Scale, "card size on the retina, times the fit that spans 20 cells")
	fs.Float64Var(&mf.offsetX, "offset-x", r.OffsetX, "shift the card right by this many cells")
	fs.Float64Var(&mf.offsetY, "offset-y", r.OffsetY, "shift the card down by this many cells")
	fs.Float64Var(&mf.rotation, "rotation", r.Rotation, "turn the card clockwise by this many degrees")
	fs.Float64Var(&mf.lamp, "lamp", r.Lamp, "lamp brightness (1 nominal; analog only)")
	fs.Float64Var(&mf.blur, "blur", r.Blur, "lens defocus, Gaussian sigma in cells (analog only)")
}

// check refuses flag values out of range as usage errors naming the flag, before the machine
// packages refuse them with messages in their own terms.
func (mf *machineFlags) check() error {
	switch {
	case mf.rUnits < 1 || mf.rUnits > machine.MaxRUnits:
		return usageErr(fmt.Sprintf("--r-units %d: want 1..%d", mf.rUnits, machine.MaxRUnits))
	case mf.aUnits < 1 || mf.aUnits > patchboard.MaxUnits:
		return usageErr(fmt.Sprintf("--a-units %d: want 1..%d", mf.aUnits, patchboard.MaxUnits))
	}
	return nil
}

// build makes a machine for the classes of set.
func (mf *machineFlags) build(set *images.Set) (*machine.Machine, error) {
	cfg := machine.Default()
	cfg.Seed = mf.seed
	rule, err := machine.ParseRule(mf.rule)
	if err != nil {
		return nil, usageErr("--rule: " + err.Error())
	}
	cfg.Rule = rule
	cfg.RUnits = mf.rUnits
	cfg.MarkI.AUnits = mf.aUnits
	pol, err := retina.ParsePolarity(mf.polarity)
	if err != nil {
		return nil, usageErr("--polarity: " + err.Error())
	}
	r := &cfg.Retina
	r.Polarity, r.Scale, r.OffsetX, r.OffsetY, r.Rotation = pol, mf.scale, mf.offsetX, mf.offsetY, mf.rotation
	r.Lamp, r.Blur = mf.lamp, mf.blur
	if err := r.Validate(); err != nil {
		return nil, usageErr(err.Error())
	}
	if mf.ideal {
		cfg = cfg.Ideal()
	}
	switch mf.wiring {
	case machine.WiringRandom, machine.WiringIdentity, machine.WiringLocal:
		cfg.Wiring = mf.wiring
	default:
		b, err := readWiring(mf.wiring)
		if err != nil {
			return nil, err
		}
		cfg.Wiring, cfg.Board = machine.WiringFile, b
	}
	switch mf.coding {
	case machine.CodingAuto, machine.CodingOneHot, machine.CodingBinary:
		cfg.Coding = mf.coding
	default:
		f, err := os.Open(mf.coding)
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
	return machine.New(cfg, set.Classes)
}

func readWiring(path string) (*patchboard.Board, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--wiring: %w", err)
	}
	defer f.Close()
	return patchboard.Read(f, path)
}

// trainReport is the JSON output of "mark1 train --json".
type trainReport struct {
	Data      string               `json:"data"`
	Cards     int                  `json:"cards"`
	Classes   []string             `json:"classes"`
	Machine   machineSummary       `json:"machine"`
	Epochs    []machine.EpochStats `json:"epochs"`
	Converged bool                 `json:"converged"`
	Train     machine.Result       `json:"train"`
	Test      *machine.Result      `json:"test,omitempty"`
	Saved     string               `json:"saved,omitempty"`
}

type machineSummary struct {
	Seed   uint64 `json:"seed"`
	Rule   string `json:"rule"`
	Ideal  bool   `json:"ideal"`
	SUnits int    `json:"s_units"`
	AUnits int    `json:"a_units"`
	RUnits int    `json:"r_units"`
	Coding string `json:"coding"`
	Wiring string `json:"wiring"`
}

func summarize(m *machine.Machine) machineSummary {
	c := m.Config()
	return machineSummary{c.Seed, c.Rule.String(), c.IsIdeal(), 400, m.AUnits(), m.RUnits(), c.Coding, c.Wiring}
}

func cmdTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "--data SPEC [flags]", stdout)
	var mf machineFlags
	mf.register(fs)
	data := fs.String("data", "", "cards: builtin:NAME, idx:IMAGES,LABELS, or a folder of class folders")
	test := fs.String("test", "", "optional held-out cards to evaluate after training (same spec forms)")
	epochs := fs.Int("epochs", 10, "maximum number of passes through the cards")
	keepGoing := fs.Bool("keep-going", false, "train all epochs even after an epoch with no correction")
	shuffle := fs.Bool("shuffle", false, "shuffle the cards each epoch (from the seed); off means file order")
	save := fs.String("save", "", "write the trained machine to this state FILE")
	jsonOut := fs.Bool("json", false, "print a JSON report instead of text")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *epochs < 1 {
		return usageErr("--epochs must be at least 1")
	}
	if err := mf.check(); err != nil {
		return err
	}
	if *save != "" {
		if err := checkSavePath(*save); err != nil {
			return err
		}
	}
	set, err := loadData(*data)
	if err != nil {
		return err
	}
	var testSet *images.Set
	if *test != "" {
		if testSet, err = loadData(*test); err != nil {
			return err
		}
	}
	m, err := mf.build(set)
	if err != nil {
		return err
	}
	deck, err := m.Prepare(set)
	if err != nil {
		return err
	}
	// The test cards are prepared (optics only, no random draw) before training, so that a test
	// set the machine cannot take fails at once rather than after the training is spent.
	var testDeck *machine.Deck
	if testSet != nil {
		if testDeck, err = m.Prepare(testSet); err != nil {
			return fmt.Errorf("--test: %w", err)
		}
	}
	rep := trainReport{Data: *data, Cards: deck.Len(), Classes: set.Classes, Machine: summarize(m)}
	if !*jsonOut {
		fmt.Fprintf(stdout, "training %s: %d cards, %d classes; %d A-units, %d R-units (%s coding), rule %s, %s\n",
			*data, deck.Len(), len(set.Classes), m.AUnits(), m.RUnits(), m.Config().Coding, m.Config().Rule, idealWord(m))
	}
	if *shuffle {
		m.SetOrder(machine.OrderShuffle)
	}
	bar := newBar(stderr, *jsonOut, *epochs*deck.Len())
	for e := 1; e <= *epochs; e++ {
		st := m.Epoch(deck, bar.step)
		st.Epoch = e
		rep.Epochs = append(rep.Epochs, st)
		bar.clear()
		if !*jsonOut {
			fmt.Fprintf(stdout, "epoch %3d: %5d mistakes, %6d corrections  %s\n", e, st.Mistakes, st.Corrections, errBar(st.Mistakes, deck.Len(), 40))
		}
		if st.Corrections == 0 {
			rep.Converged = true
			if !*keepGoing {
				break
			}
		}
	}
	bar.finish()
	rep.Train = m.Evaluate(deck)
	if testDeck != nil {
		r := m.Evaluate(testDeck)
		rep.Test = &r
	}
	if *save != "" {
		if err := m.Save(*save); err != nil {
			return err
		}
		rep.Saved = *save
	}
	if *jsonOut {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "training accuracy: %.1f%% (%d of %d)\n", 100*rep.Train.Accuracy, rep.Train.Correct, rep.Train.Cards)
	if rep.Test != nil {
		fmt.Fprintf(stdout, "test accuracy:     %.1f%% (%d of %d) on %s\n", 100*rep.Test.Accuracy, rep.Test.Correct, rep.Test.Cards, *test)
	}
	if rep.Saved != "" {
		fmt.Fprintf(stdout, "saved %s\n", rep.Saved)
	}
	return nil
}

// checkSavePath checks, before any training, that a state file can be written at path: path is
// not a folder and its folder exists and takes a new file. (The save itself writes a temporary
// file there and renames it.)
func checkSavePath(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("--save %s: is a folder", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name would only confuse
		}
		return fmt.Errorf("--save %s: cannot write there: %w", path, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func idealWord(m *machine.Machine) string {
	if m.Config().IsIdeal() {
		return "ideal (no analog flaws)"
	}
	return "analog"
}

// errBar draws the error fraction n/of as a bar of up to width characters.
func errBar(n, of, width int) string {
	if of == 0 {
		return ""
	}
	return strings.Repeat("#", (width*n+of-1)/of)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// progress is a progress bar on a terminal, or nothing.
type progress struct{ bar *progressbar.ProgressBar }

func newBar(stderr io.Writer, quiet bool, total int) *progress {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return &progress{progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("training"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) step(int) bool {
	if p.bar != nil {
		p.bar.Add(1)
	}
	return true
}

func (p *progress) clear() {
	if p.bar != nil {
		p.bar.Clear()
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
