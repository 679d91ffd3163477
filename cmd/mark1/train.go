package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/english"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

// trainReport is the JSON output of "mark1 train --json".
type trainReport struct {
	Data        string               `json:"data"`
	Cards       int                  `json:"cards"`
	Classes     []string             `json:"classes"`
	Figures     figures              `json:"figures"`
	Machine     machineSummary       `json:"machine"`
	Resumed     string               `json:"resumed,omitempty"`
	Epochs      []machine.EpochStats `json:"epochs"`
	Converged   bool                 `json:"converged"`
	Interrupted string               `json:"interrupted,omitempty"`
	Train       *machine.Result      `json:"train,omitempty"`
	Test        *machine.Result      `json:"test,omitempty"`
	Saved       string               `json:"saved,omitempty"`
}

// figures counts the cards whose figure the retina took to be dark (ink on a light ground) and
// light (a bright figure on a dark ground).
type figures struct {
	Dark  int `json:"dark"`
	Light int `json:"light"`
}

func countFigures(d *machine.Deck) figures {
	var f figures
	for i := range d.Len() {
		if d.Polarity(i) == retina.LightFigure {
			f.Light++
		} else {
			f.Dark++
		}
	}
	return f
}

func (f figures) String() string {
	switch {
	case f.Light == 0:
		return fmt.Sprintf("all %d dark figures on a light ground", f.Dark)
	case f.Dark == 0:
		return fmt.Sprintf("all %d light figures on a dark ground", f.Light)
	}
	return fmt.Sprintf("%d dark figures on light, %d light on dark", f.Dark, f.Light)
}

type machineSummary struct {
	Seed       uint64 `json:"seed"`
	Rule       string `json:"rule"`
	Ideal      bool   `json:"ideal"`
	Flaws      string `json:"flaws"`
	SUnits     int    `json:"s_units"`
	AUnits     int    `json:"a_units"`
	RUnits     int    `json:"r_units"`
	Coding     string `json:"coding"`
	CodingUsed string `json:"coding_used"`
	Unused     []int  `json:"unused_r_units"`
	Wiring     string `json:"wiring"`
	Order      string `json:"order"`
	Polarity   string `json:"polarity"`
}

func summarize(m *machine.Machine) machineSummary {
	c := m.Config()
	unused := m.Unused()
	if unused == nil {
		unused = []int{}
	}
	return machineSummary{
		Seed: c.Seed, Rule: c.Rule.String(), Ideal: c.IsIdeal(), Flaws: flawsOn(c), SUnits: retina.N,
		AUnits: m.AUnits(), RUnits: m.RUnits(), Coding: c.Coding, CodingUsed: m.Coding(), Unused: unused,
		Wiring: c.Wiring, Order: c.Order, Polarity: c.Retina.Polarity.String(),
	}
}

// flawsOn names the analog flaws that are on: "none", "all", or a list.
func flawsOn(c machine.Config) string {
	var on []string
	all := machine.Flaws()
	for _, f := range all {
		for _, k := range f.Keys {
			if v, _ := c.Value(k); v != neutralValue(k) {
				on = append(on, f.Name)
				break
			}
		}
	}
	switch {
	case len(on) == 0:
		return "none"
	case len(on) == len(all):
		return "all"
	case 2*len(on) > len(all):
		var off []string
		for _, f := range all {
			if !slices.Contains(on, f.Name) {
				off = append(off, f.Name)
			}
		}
		return "all but " + strings.Join(off, ",")
	}
	return strings.Join(on, ",")
}

// neutralValue is a key's value when its flaw is off.
func neutralValue(key string) string {
	v, _ := machine.Default().Ideal().Value(key)
	return v
}

// describe says in one line what the machine is, for the text reports.
func describe(m *machine.Machine) string {
	c := m.Config()
	coding := c.Coding
	if coding != m.Coding() {
		coding += " -> " + m.Coding()
	}
	s := fmt.Sprintf("%s, %s (%s coding", english.Count(m.AUnits(), "A-unit"), english.Count(m.RUnits(), "R-unit"), coding)
	if u := m.Unused(); len(u) > 0 {
		s += fmt.Sprintf(", %s unused", unitList(u))
	}
	flaws := flawsOn(c)
	switch flaws {
	case "none":
		flaws = "ideal"
	case "all":
		flaws = "analog"
	default:
		flaws = "analog, flaws " + flaws
	}
	return s + fmt.Sprintf("), rule %s, %s", c.Rule, flaws)
}

// unitList writes R-unit numbers briefly: "R4-R7", "R2, R5".
func unitList(u []int) string {
	if len(u) > 1 && u[len(u)-1]-u[0] == len(u)-1 {
		return fmt.Sprintf("R%d-R%d", u[0], u[len(u)-1])
	}
	var s []string
	for _, r := range u {
		s = append(s, fmt.Sprintf("R%d", r))
	}
	return strings.Join(s, ", ")
}

func cmdTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "--data SPEC [flags] | --state FILE --data SPEC [flags]", stdout)
	var mf machineFlags
	mf.register(fs)
	var df dataFlags
	df.register(fs)
	data := fs.String("data", "", "cards: builtin:NAME, idx:IMAGES,LABELS, or a folder of class folders")
	test := fs.String("test", "", "optional held-out cards to evaluate after training (same spec forms)")
	resume := fs.String("state", "", "continue training the machine saved in this state FILE (instead of building one)")
	epochs := fs.Int("epochs", 10, "maximum number of passes through the cards")
	keepGoing := fs.Bool("keep-going", false, "train all epochs even after an epoch with no correction")
	save := fs.String("save", "", "write the trained machine to this state FILE (also when interrupted)")
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
	if *resume != "" {
		if given := mf.givenBuildFlags(); len(given) > 0 {
			return usageErr(fmt.Sprintf("%s: the machine comes from --state %s; these flags only build a new one", strings.Join(given, ", "), *resume))
		}
	}
	order, err := mf.orderFlag()
	if err != nil {
		return err
	}
	if *save != "" {
		if err := checkSavePath(*save); err != nil {
			return err
		}
	}
	loader, err := df.loader()
	if err != nil {
		return err
	}
	var m *machine.Machine
	if *resume != "" {
		if m, err = loadState(*resume); err != nil {
			return err
		}
		if err := mf.view.apply(m); err != nil {
			return err
		}
	}
	set, err := loadData(*data, loader)
	if err != nil {
		return budgetHint(err)
	}
	var testSet *images.Set
	if *test != "" {
		if testSet, err = loadData(*test, loader); err != nil {
			return budgetHint(err)
		}
	}
	if m == nil {
		if m, err = mf.build(set); err != nil {
			return err
		}
	}
	if order != "" {
		if err := m.SetOrder(order); err != nil {
			return usageErr(err.Error())
		}
	}
	deck, err := prepareCompact(m, set, loader, "")
	if err != nil {
		return err
	}
	// The test cards are prepared (optics only, no random draw) before training, so that a test
	// set the machine cannot take fails at once rather than after the training is spent.
	var testDeck *machine.Deck
	if testSet != nil {
		if testDeck, err = prepareCompact(m, testSet, loader, "--test: "); err != nil {
			return err
		}
	}
	rep := trainReport{Data: *data, Cards: deck.Len(), Classes: set.Classes, Figures: countFigures(deck), Machine: summarize(m), Resumed: *resume}
	if !*jsonOut {
		verb := "training"
		if *resume != "" {
			verb = "continuing " + *resume + " on"
		}
		fmt.Fprintf(stdout, "%s %s: %s, %s\n", verb, *data, english.Count(deck.Len(), "card"), english.Count(len(set.Classes), "class"))
		fmt.Fprintf(stdout, "  polarity %s: %s; order %s\n", m.Config().Retina.Polarity, rep.Figures, m.Config().Order)
		fmt.Fprintf(stdout, "  %s\n", describe(m))
	}

	stop := watchSignals()
	bar := newBar(stderr, *jsonOut, *epochs*deck.Len())
	for e := 1; e <= *epochs; e++ {
		st := m.Epoch(deck, func(int) bool { bar.step(); return stop.signal() == nil })
		st.Epoch = e
		rep.Epochs = append(rep.Epochs, st)
		bar.clear()
		if !*jsonOut {
			fmt.Fprintln(stdout, epochLine(st))
		}
		if st.Stopped || stop.signal() != nil {
			break
		}
		if st.Corrections == 0 {
			rep.Converged = true
			if !*keepGoing {
				break
			}
		}
	}
	bar.finish()
	// Save before anything else presents a card: the saved machine is the trained machine.
	if *save != "" {
		if err := m.Save(*save); err != nil {
			stop.release()
			return err
		}
		rep.Saved = *save
	}
	if sig := stop.signal(); sig != nil {
		stop.release()
		rep.Interrupted = sig.String()
		presented := m.Presentations()
		if *jsonOut {
			writeJSON(stdout, rep)
		}
		msg := fmt.Sprintf("interrupted by %s after %d presentations", sig, presented)
		if rep.Saved != "" {
			msg += "; saved " + rep.Saved
		} else {
			msg += "; nothing saved (no --save)"
		}
		return &interrupted{sig: sig, msg: msg}
	}
	stop.release()
	// Each deck is evaluated on a copy of the trained machine, so the accuracies are those that
	// evaluating the saved state gives.
	evaluate := func(d *machine.Deck) (*machine.Result, error) {
		c, err := m.Clone()
		if err != nil {
			return nil, err
		}
		r := c.Evaluate(d)
		return &r, nil
	}
	if rep.Train, err = evaluate(deck); err != nil {
		return err
	}
	if testDeck != nil {
		if rep.Test, err = evaluate(testDeck); err != nil {
			return err
		}
	}
	if *jsonOut {
		return writeJSON(stdout, rep)
	}
	if why := correctionsWhy(rep.Epochs, m.Config().Rule); why != "" {
		fmt.Fprintln(stdout, why)
	}
	fmt.Fprintf(stdout, "training accuracy: %.1f%% (%d of %d)\n", 100*rep.Train.Accuracy, rep.Train.Correct, rep.Train.Cards)
	if why := cleanEpochWhy(rep, m.Config()); why != "" {
		fmt.Fprintln(stdout, why)
	}
	if rep.Test != nil {
		fmt.Fprintf(stdout, "test accuracy:     %.1f%% (%d of %d) on %s\n", 100*rep.Test.Accuracy, rep.Test.Correct, rep.Test.Cards, *test)
	}
	if rep.Saved != "" {
		fmt.Fprintf(stdout, "saved %s\n", rep.Saved)
	}
	return nil
}

// epochLine is the line train prints after an epoch: its mistakes and corrections, and a bar
// as long as its share of mistakes.
func epochLine(st machine.EpochStats) string {
	line := fmt.Sprintf("epoch %3d: %5d %-9s %6d %-11s  %s", st.Epoch, st.Mistakes, english.Noun(st.Mistakes, "mistake")+",",
		st.Corrections, english.Noun(st.Corrections, "correction"), errBar(st.Mistakes, max(st.Cards, 1), 30))
	return strings.TrimRight(line, " ")
}

// correctionsWhy explains, when an epoch made more corrections than mistakes, how that can be.
func correctionsWhy(epochs []machine.EpochStats, rule machine.Rule) string {
	more := false
	for _, st := range epochs {
		more = more || st.Corrections > st.Mistakes
	}
	if !more {
		return ""
	}
	why := "an R-unit can answer wrongly (its sum on the wrong side of zero, or at zero) while the card's class still comes out right, and a wrong card can move several R-units"
	if rule == machine.Forced {
		why = "the forced rule drives the wanted answer on every card, right or wrong"
	}
	return wrapText(fmt.Sprintf("A mistake is a card answered with the wrong class; a correction moves one R-unit's pots. There can be more corrections than mistakes: %s.", why), 96, "  ")
}

// cleanEpochWhy explains, when the last epoch made no correction and yet the training accuracy
// measured after it is under 100%, how that can be.
func cleanEpochWhy(rep trainReport, cfg machine.Config) string {
	if !rep.Converged || rep.Train == nil || rep.Train.Correct == rep.Train.Cards || len(rep.Epochs) == 0 {
		return ""
	}
	last := rep.Epochs[len(rep.Epochs)-1]
	s := fmt.Sprintf("Epoch %d made no correction, yet %d of the %d cards came out wrong when all were shown again to measure the accuracy (in the file's order)", last.Epoch, rep.Train.Cards-rep.Train.Correct, rep.Train.Cards)
	if cfg.IsIdeal() {
		s += "."
	} else {
		s += ": the analog machine answers each presentation afresh, with its photocells' noise, their after-image of the card before and its pots' drift, so a card near the threshold can fall either way. The ideal machine (--ideal) answers the same every time."
	}
	return wrapText(s, 96, "  ")
}

// wrapText breaks s into lines of at most width runes, every line after the first starting
// with indent.
func wrapText(s string, width int, indent string) string {
	var out, line strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		w := utf8.RuneCountInString(word)
		if n > 0 && n+1+w > width {
			out.WriteString(line.String() + "\n" + indent)
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteString(" ")
			n++
		}
		line.WriteString(word)
		n += w
	}
	out.WriteString(line.String())
	return out.String()
}

// stimulusBytes is the memory one prepared card takes.
const stimulusBytes = int64(unsafe.Sizeof(retina.Stimulus{})) + 24

// prepareCompact prepares a deck for a training: for a machine whose retina is ideal, each
// card's S- and A-units only (machine.PrepareBits: the same training, without the optics and the
// A-units after the first pass), else every card's optics (prepare). The budget is charged
// before the cards are prepared, and for their lists of firing A-units once they are known.
func prepareCompact(m *machine.Machine, set *images.Set, loader *images.Loader, prefix string) (*machine.Deck, error) {
	if !m.Config().Retina.Ideal {
		return prepare(m, set, loader, prefix)
	}
	per := int64(unsafe.Sizeof(retina.Bits{})) + 8*int64((m.AUnits()+63)/64) + 32
	if err := loader.Reserve(set.Name, int64(len(set.Cards))*per); err != nil {
		return nil, budgetHint(err)
	}
	d, err := m.PrepareBits(set)
	if err != nil {
		return nil, errors.New(prefix + err.Error())
	}
	// The lists of firing A-units, whose size the cards decide.
	if err := loader.Reserve(set.Name, d.ActiveBytes()); err != nil {
		return nil, budgetHint(err)
	}
	return d, nil
}

// prepare reserves the memory of the deck in the loader's budget and runs the optics on the
// cards.
func prepare(m *machine.Machine, set *images.Set, loader *images.Loader, prefix string) (*machine.Deck, error) {
	if err := loader.Reserve(set.Name, int64(len(set.Cards))*stimulusBytes); err != nil {
		return nil, budgetHint(err)
	}
	d, err := m.Prepare(set)
	if err != nil {
		return nil, errors.New(prefix + err.Error())
	}
	return d, nil
}

// checkSavePath checks, before any training, that a state file can be written at path: path
// is a regular file or a new path (a folder, a FIFO or a device is refused) and its folder
// exists and takes a new file.
func checkSavePath(path string) error {
	if err := atomicfile.Check(path); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
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

func (p *progress) step() {
	if p.bar != nil {
		p.bar.Add(1)
	}
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
