package main

import (
	"bufio"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
)

func loadState(path string) (*machine.Machine, error) {
	if path == "" {
		return nil, usageErr("--state FILE is required")
	}
	return machine.Load(path)
}

// stateAndData parses --state, --data and the view flags, and prepares the cards for the
// machine. The returned set's Name is the --data spec as given, as train's reports name it.
func stateAndData(name, args string, argv []string, stdout io.Writer, extra func(*flagSet)) (*machine.Machine, *machine.Deck, *images.Set, error) {
	fs := newFlags(name, args, stdout)
	state := fs.String("state", "", "machine state FILE (from mark1 train --save)")
	data := fs.String("data", "", "cards: builtin:NAME, idx:IMAGES,LABELS, or a folder of class folders")
	var view viewFlags
	view.register(fs)
	var df dataFlags
	df.register(fs)
	if extra != nil {
		extra(fs)
	}
	if err := fs.parse(argv); err != nil {
		return nil, nil, nil, err
	}
	if fs.NArg() > 0 {
		return nil, nil, nil, usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	loader, err := df.loader()
	if err != nil {
		return nil, nil, nil, err
	}
	m, err := loadState(*state)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := view.apply(m); err != nil {
		return nil, nil, nil, err
	}
	set, err := loadData(*data, loader)
	if err != nil {
		return nil, nil, nil, budgetHint(err)
	}
	deck, err := prepare(m, set, loader, "")
	if err != nil {
		return nil, nil, nil, err
	}
	return m, deck, set, nil
}

// evalReport is the JSON output of "mark1 eval --json".
type evalReport struct {
	Data    string   `json:"data"`
	Classes []string `json:"classes"`
	machine.Result
}

func cmdEval(args []string, stdout, _ io.Writer) error {
	var jsonOut bool
	m, deck, set, err := stateAndData("eval", "--state FILE --data SPEC [flags]", args, stdout, func(fs *flagSet) {
		fs.BoolVar(&jsonOut, "json", false, "print a JSON report instead of text")
	})
	if err != nil {
		return err
	}
	res := m.Evaluate(deck)
	if jsonOut {
		return writeJSON(stdout, evalReport{Data: set.Name, Classes: m.Classes(), Result: res})
	}
	fmt.Fprintf(stdout, "accuracy: %.1f%% (%d of %d)\n\nconfusion (rows: wanted, columns: answered)\n", 100*res.Accuracy, res.Correct, res.Cards)
	w := 4
	for _, c := range m.Classes() {
		w = max(w, len(c)+1)
	}
	fmt.Fprintf(stdout, "%*s", w, "")
	for _, c := range m.Classes() {
		fmt.Fprintf(stdout, "%*s", w, c)
	}
	fmt.Fprintln(stdout)
	for i, row := range res.Confusion {
		fmt.Fprintf(stdout, "%*s", w, m.Classes()[i])
		for _, n := range row {
			fmt.Fprintf(stdout, "%*d", w, n)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// classifyReport is the JSON output of "mark1 classify --json".
type classifyReport struct {
	Image  string    `json:"image"`
	Class  string    `json:"class"`
	Sums   []float64 `json:"sums"`
	On     []bool    `json:"on"`
	Retina []string  `json:"retina"`
	Active int       `json:"active_a_units"`
}

func cmdClassify(args []string, stdout, _ io.Writer) error {
	fs := newFlags("classify", "--state FILE [flags] IMAGE", stdout)
	state := fs.String("state", "", "machine state FILE (from mark1 train --save)")
	jsonOut := fs.Bool("json", false, "print JSON instead of text")
	var view viewFlags
	view.register(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("want exactly one IMAGE file (flags go before it)")
	}
	m, err := loadState(*state)
	if err != nil {
		return err
	}
	if err := view.apply(m); err != nil {
		return err
	}
	path := fs.Arg(0)
	img, err := new(images.Loader).LoadFile(path)
	if err != nil {
		return err
	}
	var st retina.Stimulus
	m.PrepareImage(img, &st)
	class := m.Present(&st)
	s, sums := m.Last().S, m.Last().Sums
	rep := classifyReport{Image: path, Class: m.Classes()[class], Sums: sums, Retina: retinaRows(s)}
	for _, v := range sums {
		rep.On = append(rep.On, v > 0)
	}
	for _, w := range m.Last().A {
		rep.Active += bits.OnesCount64(w)
	}
	if *jsonOut {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "retina (%s):\n", path)
	for _, row := range rep.Retina {
		fmt.Fprintf(stdout, "  %s\n", row)
	}
	fmt.Fprintf(stdout, "A-units firing: %d of %d\nR-units:", rep.Active, m.AUnits())
	for r, v := range sums {
		mark := "off"
		if v > 0 {
			mark = "ON "
		}
		fmt.Fprintf(stdout, "\n  R%d %s sum %+.2f", r, mark, v)
	}
	fmt.Fprintf(stdout, "\nclass: %s\n", rep.Class)
	return nil
}

// retinaRows draws the S-units as text: '#' on, '.' off.
func retinaRows(s *retina.Bits) []string {
	rows := make([]string, retina.Rows)
	var b strings.Builder
	for r := range retina.Rows {
		b.Reset()
		for c := range retina.Cols {
			if s.Get(r*retina.Cols + c) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		rows[r] = b.String()
	}
	return rows
}

func cmdFeatures(args []string, stdout, _ io.Writer) error {
	m, deck, _, err := stateAndData("features", "--state FILE --data SPEC [flags]", args, stdout, nil)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	n := m.AUnits()
	bw.WriteString("label")
	for a := range n {
		bw.WriteString(",a")
		bw.WriteString(strconv.Itoa(a))
	}
	bw.WriteByte('\n')
	row := make([]byte, 0, 2*n+32)
	for i := range deck.Stimuli {
		m.Present(&deck.Stimuli[i])
		row = append(row[:0], csvField(m.Classes()[deck.Class[i]])...)
		for a, w := 0, m.Last().A; a < n; a++ {
			row = append(row, ',', '0'+byte(w[a>>6]>>(uint(a)&63)&1))
		}
		row = append(row, '\n')
		bw.Write(row)
	}
	return bw.Flush()
}

// csvField quotes s if CSV needs it.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func cmdWeights(args []string, stdout, _ io.Writer) error {
	fs := newFlags("weights", "--state FILE", stdout)
	state := fs.String("state", "", "machine state FILE (from mark1 train --save)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr(fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	m, err := loadState(*state)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	n := m.AUnits()
	bw.WriteString("r_unit,bias")
	for a := range n {
		fmt.Fprintf(bw, ",w%d", a)
	}
	bw.WriteByte('\n')
	for r := range m.RUnits() {
		w := m.Weights(nil, r)
		bw.WriteString(strconv.Itoa(r))
		bw.WriteByte(',')
		bw.WriteString(formatWeight(w[n]))
		for _, v := range w[:n] {
			bw.WriteByte(',')
			bw.WriteString(formatWeight(v))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// formatWeight writes a weight in the shortest form that reads back exactly; a wiper resting
// at zero from below prints as 0, not -0.
func formatWeight(v float64) string {
	if v == 0 {
		v = 0
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
