package main

import (
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/english"
)

func init() {
	commands = append(commands, command{"cards", "list | export --data SPEC --out DIR", "list the built-in and generated card sets; write any set as PNG folders", cmdCards})
}

// genCardBytes is what a generated card takes in a loader's budget: its 60x60 grey pixels and
// the overhead every card has.
const genCardBytes = 60*60 + images.CardOverhead

// loadCards reads a card spec: gen:KIND,key=value,... (a seeded generated set, see
// images/gen), or anything loadData reads (builtin:NAME, idx:IMAGES,LABELS, a folder). A
// generated set's memory is charged to the loader's budget before it is drawn.
func loadCards(spec string, l *images.Loader) (*images.Set, error) { return loadData(spec, l) }

// loadGen generates the cards of a gen: spec within the loader's budget.
func loadGen(spec string, l *images.Loader) (*images.Set, error) {
	text, _ := strings.CutPrefix(spec, "gen:")
	s, err := gen.Parse(text)
	if err != nil {
		kind, _, _ := strings.Cut(text, ",")
		return nil, usageErr(fmt.Sprintf("%q: %s%s", spec, strings.TrimPrefix(err.Error(), "gen: "), nameHint("gen:", kind)))
	}
	if err := l.Reserve(spec, int64(s.N)*genCardBytes); err != nil {
		return nil, budgetHint(err)
	}
	set, err := gen.Generate(s)
	if err != nil {
		return nil, err
	}
	set.Name = spec
	return set, nil
}

func cmdCards(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, "usage: mark1 cards list\n       mark1 cards export --data SPEC --out DIR\n\nSPEC: builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder (mark1 cards list shows the sets).")
		if len(args) == 0 {
			return usageErr("want a subcommand: list or export")
		}
		return nil
	}
	switch args[0] {
	case "list":
		return cardsList(args[1:], stdout)
	case "export":
		return cardsExport(args[1:], stdout, stderr)
	}
	return usageErr(fmt.Sprintf("unknown subcommand %q (want list or export)", args[0]))
}

func cardsList(args []string, stdout io.Writer) error {
	fs := newFlags("cards list", "", stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	fmt.Fprintln(stdout, "built-in sets (--data builtin:NAME), the same cards every time:")
	for _, n := range builtin.Names() {
		set, err := builtin.Load(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  %-16s %4d cards, %2d classes: %s\n", n, len(set.Cards), len(set.Classes), english.Brief(set.Classes))
	}
	fmt.Fprintln(stdout, "\ngenerated sets (--data gen:KIND,key=value,...), drawn from a seed; every kind takes n (cards) and seed:")
	for _, k := range gen.Kinds() {
		fmt.Fprintf(stdout, "  %-16s %s\n", k.Name, k.Doc)
		fmt.Fprintf(stdout, "  %-16s classes %s; default gen:%s\n", "", english.Brief(k.Classes), k.Default)
	}
	fmt.Fprintln(stdout, "\nOptions: fill=outline|solid|both, stroke=PX, size=PX or MIN-MAX, rotate=true|false, shift=PX (how far from the centre), font=bold|mono|both. A card is 60x60 pixels; 3 pixels are one retina cell.")
	return nil
}

// cardsExport writes a card set as a folder of class folders of PNG files, which mark1
// --data FOLDER (and other programs) read back: DIR/CLASS/NNNNN.png, NNNNN the card's place in
// the set, and DIR/cards.txt naming the set, its classes in order and where each card came
// from. mark1 reads the folder back in the set's order of cards and classes (images.LoadDir).
func cardsExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cards export", "--data SPEC --out DIR", stdout)
	var df dataFlags
	df.register(fs)
	data := fs.String("data", "", "cards: builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder")
	out := fs.String("out", "", "new (or empty) folder to write the class folders into")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	if *out == "" {
		return usageErr("--out is required (a new or empty folder)")
	}
	if err := checkEmptyDir(*out, "cards of another set would be mixed in"); err != nil {
		return err
	}
	loader, err := df.loader()
	if err != nil {
		return err
	}
	set, err := loadCards(*data, loader)
	if err != nil {
		return budgetHint(err)
	}
	for _, c := range set.Classes {
		if c == "" || c == "." || c == ".." || strings.ContainsAny(c, `/\`+"\x00") || strings.HasPrefix(c, ".") {
			return fmt.Errorf("--data %s: class %q cannot be a folder name", *data, c)
		}
	}
	stop := watchSignals()
	defer stop.release()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	digits := len(fmt.Sprint(len(set.Cards) - 1))
	digits = max(digits, 5)
	var list strings.Builder
	fmt.Fprintf(&list, "# %s: %s, %s, written by mark1 cards export\n", set.Name, english.Count(len(set.Cards), "card"), english.Count(len(set.Classes), "class"))
	// The cards' numbered names and this line keep the set's order: --data DIR reads the cards
	// and classes back in it, and a worksheet's numbers come out the same.
	fmt.Fprintf(&list, "%s\n# FILE SOURCE, in the set's order\n", images.ClassesComment(set.Classes))
	made := map[string]bool{}
	for i, c := range set.Cards {
		if sig := stop.signal(); sig != nil {
			return &interrupted{sig: sig, msg: fmt.Sprintf("interrupted by %s after %d of %d cards (each file written is whole)", sig, i, len(set.Cards))}
		}
		class := set.Classes[c.Class]
		dir := filepath.Join(*out, class)
		if !made[class] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			made[class] = true
		}
		name := fmt.Sprintf("%0*d.png", digits, i)
		if err := atomicfile.Write(filepath.Join(dir, name), 0o644, func(w io.Writer) error { return png.Encode(w, c.Image) }); err != nil {
			return err
		}
		fmt.Fprintf(&list, "%s/%s %s\n", class, name, c.Source)
	}
	if err := atomicfile.Write(filepath.Join(*out, images.ListFile), 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, list.String())
		return err
	}); err != nil {
		return err
	}
	classes := slices.Clone(set.Classes)
	slices.Sort(classes)
	fmt.Fprintf(stdout, "wrote %s of %s into %s: %s (%s); --data %s reads them back\n", english.Count(len(set.Cards), "card"), set.Name, *out, english.Count(len(classes), "class folder"), english.Brief(classes), *out)
	return nil
}

// checkEmptyDir refuses a path that is a file or a folder with anything in it, saying why
// that matters (a folder of cards must hold one set only: a later load would mix stale cards
// in; a report's folder one run).
func checkEmptyDir(dir, why string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("--out: %w", err)
	case !fi.IsDir():
		return usageErr(fmt.Sprintf("--out %s: not a folder", dir))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if len(entries) > 0 {
		return usageErr(fmt.Sprintf("--out %s: not empty (%s); name a new folder", dir, why))
	}
	return nil
}
