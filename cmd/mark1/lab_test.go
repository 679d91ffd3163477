package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// TestLabErrors: bad command lines are refused with one line naming what is wrong, exit 2,
// before any work.
func TestLabErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"lab", "knn"}, `unknown demo "knn"`},
		{[]string{"experiment", "mnist"}, `unknown experiment "mnist"`},
		{[]string{"experiment", "ef", "--seeds", "-1"}, "--seeds -1"},
		{[]string{"experiment", "figure4", "--lit", "1.5"}, "--lit 1.5"},
		{[]string{"experiment", "ef", "--lit", "0.5"}, "flag provided but not defined: -lit"},
		{[]string{"experiment", "ef", "--out", file}, "not a folder"},
		{[]string{"experiment", "ef", "--out", filepath.Join(dir, "no", "such")}, "does not exist"},
		{[]string{"experiment", "ef", "--seed", "0"}, "--seed 0"},
		{[]string{"experiment", "ef", "--out", full}, "--out " + full + ": not empty"},
		{[]string{"lab", "outliers", "--out", full}, "--out " + full + ": not empty"},
		{[]string{"lab", "compare", "--data", "problem:xor", "--out", full}, "--out " + full + ": not empty"},
		{[]string{"lab", "flaws", "--out", full}, "--out " + full + ": not empty"},
		{[]string{"lab", "compare"}, "--data is required"},
		{[]string{"lab", "compare", "--data", "problem:xor", "--methods", "svm"}, `--methods: unknown method "svm"`},
		{[]string{"lab", "compare", "--data", "problem:xor", "--methods", "mark1"}, "the Mark I learns cards"},
		{[]string{"lab", "compare", "--data", "problem:circle"}, `unknown problem "circle"`},
		{[]string{"lab", "compare", "--data", "problem:xor", "--test", "builtin:ef"}, "--test: a problem of features"},
		{[]string{"lab", "compare", "--data", "problem:xor", "--test", "problem:parity"}, "6 features and 2 classes"},
		{[]string{"lab", "compare", "--data", "problem:xor", "--schedule", "exp"}, `--schedule: unknown schedule "exp"`},
		{[]string{"lab", "compare", "--data", "problem:xor", "--eta", "0"}, "--eta 0"},
		{[]string{"lab", "compare", "--data", "builtin:ef", "--methods", "fisher/kdisc"}, "Fisher's discriminant is for two classes"},
		{[]string{"lab", "compare", "--data", "gen:ef,n=0"}, `"gen:ef,n=0": ef: n=0`},
		{[]string{"lab", "compare", "--data", "builtin:ef", "--r-units", "4"}, "--r-units: the lab gives the Mark I"},
		{[]string{"lab", "flaws", "--data", "builtin:ef", "--test", "builtin:xe"}, `--test builtin:xe: classes "X" are not among`},
		{[]string{"lab", "flaws", "--epochs", "0"}, "--epochs 0"},
		{[]string{"lab", "forget", "--hours", "1,x"}, `--hours "1,x"`},
		{[]string{"lab", "forget", "--hours", "-1"}, "--hours -1"},
		{[]string{"lab", "aunits", "--counts", "0"}, "--counts 0"},
		{[]string{"lab", "aunits", "--wiring", "identity"}, "this demo sets the wiring itself"},
		{[]string{"lab", "novikoff", "--margin", "0.7"}, "--margin 0.7"},
		{[]string{"lab", "nonseparable", "--cards", "1"}, "--cards 1"},
		{[]string{"lab", "outliers", "--draws", "0"}, "--draws 0"},
		{[]string{"lab", "outliers", "extra"}, `unexpected argument "extra"`},
		{[]string{"lab", "compare", "--data", "gen:ef", "--max-data-mb", "0.001"}, "raise it with --max-data-mb"},
		{[]string{"cards"}, "want a subcommand"},
		{[]string{"cards", "export", "--data", "builtin:ef"}, "--out is required"},
		{[]string{"cards", "export", "--data", "builtin:ef", "--out", full}, "not empty"},
		{[]string{"cards", "export", "--data", "gen:squares", "--out", filepath.Join(dir, "new")}, `unknown kind "squares"`},
		{[]string{"cards", "fold"}, `unknown subcommand "fold"`},
	}
	for _, tt := range tests {
		t.Run(caseName(tt.args), func(t *testing.T) {
			code, out, errs := mark1(t, tt.args...)
			if code != 2 && !strings.Contains(tt.want, "max-data-mb") {
				t.Errorf("mark1 %s: exit %d, want 2 (stderr %q)", strings.Join(tt.args, " "), code, errs)
			}
			if code == 0 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("mark1 %s: exit %d, stderr %q, want one line with %q", strings.Join(tt.args, " "), code, errs, tt.want)
			}
			if out != "" && !strings.HasPrefix(out, "usage") {
				t.Errorf("mark1 %s: printed %q before refusing", strings.Join(tt.args, " "), out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Error("a refused export made its folder")
	}
}

// TestLabListings: the commands without a name list what there is.
func TestLabListings(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"experiment"}, []string{"letters", "squares-circles", "figure4", "record: 99.8%"}},
		{[]string{"lab"}, []string{"compare", "novikoff", "nonseparable", "outliers", "flaws", "forget", "aunits", "fields", "problem:NAME"}},
		{[]string{"cards", "list"}, []string{"letters-both", "416 cards", "gen:squares-circles,n=200,seed=1", "connected"}},
		{[]string{"help"}, []string{"experiment", "lab", "cards"}},
	} {
		t.Run(caseName(c.args), func(t *testing.T) {
			out := mustRun(t, c.args...)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("mark1 %s: output lacks %q", strings.Join(c.args, " "), w)
				}
			}
		})
	}
}

// TestLabCompareOut: compare on a problem of two features writes every file the report
// names, the figures with their data, the decision boundaries, and the same numbers again.
func TestLabCompareOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"lab", "compare", "--data", "problem:xor", "--methods", "perceptron,pocket,lsq,fisher", "--epochs", "20", "--out", dir}
	out := mustRun(t, args...)
	if !strings.Contains(out, "wrote "+dir) {
		t.Fatalf("output %q", out)
	}
	var rep struct {
		Command string `json:"command"`
		Tables  []struct {
			Name string     `json:"name"`
			Rows [][]string `json:"rows"`
		} `json:"tables"`
		Figures []struct{ PNG, CSV string } `json:"figures"`
		Data    []struct {
			Method     string  `json:"method"`
			TrainError float64 `json:"train_error"`
			Curve      []struct {
				Epoch       int `json:"epoch"`
				Corrections int `json:"corrections"`
			} `json:"curve"`
		} `json:"data"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "report.json")), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Command, "mark1 lab compare --data problem:xor") || len(rep.Data) != 4 {
		t.Fatalf("report: %+v", rep)
	}
	names := map[string]bool{}
	for _, f := range rep.Figures {
		names[f.PNG] = true
		img, err := png.Decode(bytes.NewReader(readFile(t, filepath.Join(dir, f.PNG))))
		if err != nil || img.Bounds().Dx() < 400 {
			t.Fatalf("%s: %v", f.PNG, err)
		}
		rows, err := csv.NewReader(bytes.NewReader(readFile(t, filepath.Join(dir, f.CSV)))).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Fatalf("%s: %d rows, %v", f.CSV, len(rows), err)
		}
	}
	if !names["boundaries.png"] || !names["training-error.png"] {
		t.Fatalf("figures %v", names)
	}
	// XOR: the perceptron corrects in every epoch; the pocket ends better than it began.
	p := rep.Data[0]
	if p.Method != "perceptron" || len(p.Curve) != 20 {
		t.Fatalf("perceptron run %+v", p)
	}
	for _, c := range p.Curve {
		if c.Corrections == 0 {
			t.Fatalf("the perceptron converged on XOR at epoch %d", c.Epoch)
		}
	}
	if rep.Data[1].TrainError > 0.35 {
		t.Fatalf("pocket error %v on XOR", rep.Data[1].TrainError)
	}
	html := string(readFile(t, filepath.Join(dir, "index.html")))
	if !strings.Contains(html, `<img src="boundaries.png"`) || !strings.Contains(html, "runs.csv") {
		t.Fatal("index.html lacks the figures or the table")
	}
	// The same command, the same numbers (the times aside).
	again := filepath.Join(t.TempDir(), "again")
	mustRun(t, append(args[:len(args)-1], again)...)
	a, b := withoutTimes(t, readFile(t, filepath.Join(dir, "report.json"))), withoutTimes(t, readFile(t, filepath.Join(again, "report.json")))
	if a != b {
		t.Fatalf("two runs of the same command differ:\n%s\n%s", a, b)
	}
}

// withoutTimes returns a JSON report without what differs from run to run: the command line
// (its --out), every "seconds" field and the tables' seconds column.
func withoutTimes(t *testing.T, b []byte) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "command")
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			delete(x, "seconds")
			if cols, ok := x["columns"].([]any); ok {
				for i, c := range cols {
					if c == "seconds" {
						for _, row := range x["rows"].([]any) {
							row.([]any)[i] = ""
						}
					}
				}
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestLabJSON: --json prints the report as JSON, nothing else.
func TestLabJSON(t *testing.T) {
	out := mustRun(t, "lab", "compare", "--data", "builtin:ef", "--methods", "mark1,perceptron", "--in-order", "--json")
	var rep struct {
		Data []struct {
			Method      string `json:"method"`
			Corrections int    `json:"corrections"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if len(rep.Data) != 2 || rep.Data[0].Corrections != rep.Data[1].Corrections || rep.Data[0].Corrections == 0 {
		t.Fatalf("mark1 and perceptron in order: %+v", rep.Data)
	}
	out = mustRun(t, "experiment", "figure4", "--quick", "--json", "--lit", "0.3")
	var exp struct {
		Findings []struct{ Record, Measured string } `json:"findings"`
		Data     struct {
			R float64 `json:"r"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &exp); err != nil || len(exp.Findings) != 1 || exp.Data.R != 0.3 {
		t.Fatalf("figure4 JSON: %v, %+v", err, exp)
	}
}

// TestCardsExport writes a generated set and reads it back: the same classes, the same cards
// pixel for pixel, in the set's order.
func TestCardsExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cards")
	mustRun(t, "cards", "export", "--data", "gen:leftright,n=10,seed=4", "--out", dir)
	got, err := images.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := loadCards("gen:leftright,n=10,seed=4", new(images.Loader))
	if err != nil {
		t.Fatal(err)
	}
	sameCards(t, got, want)
	list := string(readFile(t, filepath.Join(dir, "cards.txt")))
	if !strings.Contains(list, "left/00000.png gen:leftright,seed=4#0") {
		t.Fatalf("cards.txt:\n%s", list)
	}
}

// sameCards fails unless got holds want's classes in its order and its cards, pixel for pixel,
// in its order.
func sameCards(t *testing.T, got, want *images.Set) {
	t.Helper()
	if !slices.Equal(got.Classes, want.Classes) || len(got.Cards) != len(want.Cards) {
		t.Fatalf("classes %q, %d cards; want %q, %d cards", got.Classes, len(got.Cards), want.Classes, len(want.Cards))
	}
	for i, w := range want.Cards {
		g := got.Cards[i]
		if g.Class != w.Class || !bytes.Equal(gray(t, g.Image), gray(t, w.Image)) {
			t.Fatalf("card %d: %s (class %d) is not %s (class %d)", i, g.Source, g.Class, w.Source, w.Class)
		}
	}
}

// TestCardsExportKeepsOrder: a built-in set exported and read back is the same set, its cards
// and classes in the same order, so that lab compare gives the same table on the folder as on
// the set (the worksheets' numbers come back). xe's classes are not in name order (X, E).
func TestCardsExportKeepsOrder(t *testing.T) {
	for _, name := range []string{"ef", "xe"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			mustRun(t, "cards", "export", "--data", "builtin:"+name, "--out", dir)
			got, err := images.LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			want, err := builtin.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			sameCards(t, got, want)
			table := func(data string) string {
				out := mustRun(t, "lab", "compare", "--data", data, "--methods", "mark1,perceptron,lsq", "--in-order", "--json")
				var rep struct {
					Tables json.RawMessage `json:"tables"`
					Data   json.RawMessage `json:"data"`
				}
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				b, err := json.Marshal(rep)
				if err != nil {
					t.Fatal(err)
				}
				return withoutTimes(t, b)
			}
			if a, b := table("builtin:"+name), table(dir); a != b {
				t.Errorf("lab compare on builtin:%s and on its export differ:\n%s\n%s", name, a, b)
			}
		})
	}
}

// gray returns the pixels of a grey card.
func gray(t *testing.T, img image.Image) []byte {
	t.Helper()
	g, ok := img.(*image.Gray)
	if !ok {
		t.Fatalf("a %T, not a grey card", img)
	}
	return g.Pix
}

// labColumns is the width the lab's text is to fit: a teacher's terminal and a projector.
// Until lab/report's text writer wraps its paragraphs and splits its tables at it (today at
// report.LineWidth, 100), the tests hold the text to the wider of the two; the demos' own
// texts (their help in the listing, their table cells) fit labColumns already.
const labColumns = 80

// wideLines are the lines of the lab's text allowed over labColumns (up to 100), each with its
// reason: the command (its arguments joined; "..." at the end stands for any more), the start
// of the line ("" for any), why it cannot fit.
var wideLines = []struct{ cmd, prefix, why string }{
	{"experiment squares-circles ...", "  training cards ", "the card spec gen:squares-circles,n=1000,seed=SEED,fill=outline|solid: is one word of 58 characters after a label of 24"},
	{"lab", "Data: ", "cmd/mark1's own paragraph under the listing, not a demo's text"},
	{"lab", "idx:IMAGES,LABELS", "cmd/mark1's own paragraph under the listing, not a demo's text"},
	{"experiment", "", "cmd/mark1's listing of the experiments (cmd/mark1/experiment.go) wraps the records at 96 columns"},
}

// textWidth is the width the lab's text is held to now (see labColumns).
func textWidth() int { return max(labColumns, report.LineWidth) }

// checkWidth fails the test for each line of out, the output of mark1 args, wider than width
// columns and not among wideLines (a flag's help line, indented by a tab, taken to 8 columns).
func checkWidth(t *testing.T, args []string, out string, width int) {
	t.Helper()
	cmd := strings.Join(args, " ")
	for i, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "    \t") {
			line = "        " + line[5:]
		}
		n := len([]rune(line))
		if n <= width {
			continue
		}
		exempt := false
		for _, w := range wideLines {
			head, any := strings.CutSuffix(w.cmd, " ...")
			match := cmd == w.cmd || any && strings.HasPrefix(cmd, head+" ")
			exempt = exempt || match && strings.HasPrefix(line, w.prefix) && n <= 100
		}
		if !exempt {
			t.Errorf("mark1 %s: line %d is %d columns wide (at most %d): %q", cmd, i+1, n, width, line)
		}
	}
}

// TestLabTextWidth: the text of every lab demo (its quick run, or a run on the least data it
// takes) and historical experiment (in quick runs), and of the lab's listing, fits labColumns
// (see textWidth): long conditions and cells are wrapped, wide tables split (the CSV files and
// the HTML page hold them whole). The flags' help (cmd/mark1's) fits 100 columns.
func TestLabTextWidth(t *testing.T) {
	if report.LineWidth > labColumns {
		t.Logf("lab/report writes lines of up to %d columns: the text is held to that until it wraps at %d", report.LineWidth, labColumns)
	}
	runs := [][]string{
		{"lab"},
		{"lab", "compare", "--data", "builtin:ef", "--test", "gen:ef,n=50,seed=2"},
		{"lab", "compare", "--data", "problem:blobs,k=4", "--methods", "perceptron/ovr,perceptron/ovo,perceptron/kdisc,lsq/ovr,lsq/ovo,fisher/ovo,variable/kdisc"},
		{"lab", "compare", "--data", "builtin:letters", "--test", "builtin:letters2", "--methods", "perceptron/ovr,mark1-analog", "--epochs", "2"},
		{"lab", "novikoff", "--problems", "5", "--points", "30"},
		{"lab", "nonseparable", "--epochs", "10", "--cards", "50"},
		{"lab", "outliers", "--draws", "2"},
		{"lab", "flaws", "--data", "builtin:ef", "--test", "gen:ef,n=50,seed=2", "--epochs", "3", "--seeds", "1"},
		{"lab", "flaws", "--data", "builtin:ef", "--test", "none", "--epochs", "3", "--seeds", "2"},
		{"lab", "forget", "--data", "builtin:ef", "--hours", "100,10000", "--epochs", "20"},
		{"lab", "aunits", "--data", "gen:squares-circles,n=100", "--test", "gen:squares-circles,n=100,seed=2", "--epochs", "3", "--seeds", "1"},
		{"lab", "fields", "--data", "builtin:ef", "--wiring", "identity"},
		{"lab", "fields", "--data", "builtin:shapes", "--epochs", "3"},
		{"lab", "trace", "--bias", "first", "--init=-5,0,1", "--point", "5,7,+1", "--point", "2,6,-1"},
		{"lab", "geometry", "--point", "3,2,+1", "--point", "1,0,-1", "--point", "0,1,-1", "--point", "2,3,+1", "--point", "2,0,-1"},
		{"lab", "lsq", "--point", "1,5,+1", "--point", "2,4,+1", "--point", "6,5,-1", "--point", "7,4,-1", "--lambda", "1/10"},
	}
	for _, d := range demo.All() {
		if d.Quick != nil {
			runs = append(runs, []string{"lab", d.Name, "--quick"})
		}
	}
	for _, e := range []string{"letters", "squares-circles", "square-diamond", "ef", "xe", "leftright", "figure4"} {
		runs = append(runs, []string{"experiment", e, "--quick", "--seeds", "1"})
	}
	for _, args := range runs {
		t.Run(caseName(args), func(t *testing.T) {
			width := textWidth()
			if len(args) == 1 { // the listing: the demos' help, written by mark1 lab itself
				width = labColumns
			}
			checkWidth(t, args, mustRun(t, args...), width)
		})
	}
	// And the flags' help (a tab taken to the next multiple of 8 columns).
	var help [][]string
	for _, d := range demo.All() {
		help = append(help, []string{"lab", d.Name, "-h"})
	}
	help = append(help, []string{"experiment", "figure4", "-h"}, []string{"train", "-h"}, []string{"cards", "export", "-h"})
	for _, args := range help {
		t.Run(caseName(args), func(t *testing.T) {
			checkWidth(t, args, mustRun(t, args...), 100)
		})
	}
}

// TestLabWording: counts of one are singular, one machine is not summed up as medians over
// machines, a list is written as words, not as Go prints a slice, and a table has no column
// that only a run with test cards fills.
func TestLabWording(t *testing.T) {
	tests := []struct {
		args      []string
		want, not []string
	}{
		{[]string{"lab", "flaws", "--data", "builtin:ef", "--test", "none", "--epochs", "1", "--seeds", "1"},
			[]string{"1 R-unit,", "1 (seed 1: wiring", "alpha rule, 1 epoch each", "One machine per condition: its own figures, no medians or ranges", "\nErrors after training\n"},
			[]string{"test error", "figures are medians", "(median"}},
		{[]string{"lab", "flaws", "--data", "builtin:ef", "--test", "gen:ef,n=20,seed=2", "--epochs", "2", "--seeds", "2"},
			[]string{"2 (seeds 1-2: wiring", "figures are medians", "Medians over the 2 machines, ranges in brackets", "(median of the machines)", "test error"}, nil},
		{[]string{"lab", "forget", "--data", "builtin:ef", "--hours", "100,10000", "--epochs", "1"},
			[]string{"100 and 10,000 machine-hours", "or 1 epoch\n"}, nil},
		{[]string{"lab", "aunits", "--data", "gen:squares-circles,n=40", "--test", "none", "--counts", "512", "--epochs", "1", "--seeds", "1"},
			[]string{"1 (seed 1)", "alpha rule, 1 epoch\n", "One wiring per condition"}, []string{"median of the wirings"}},
		{[]string{"lab", "outliers", "--draws", "1"}, []string{"1 (seed 1); the figures show it"}, nil},
		{[]string{"lab", "novikoff", "--problems", "1", "--no-cards"}, []string{"(seed 1)"}, nil},
		{[]string{"lab", "compare", "--data", "problem:separable,d=1", "--methods", "perceptron", "--epochs", "1"}, []string{"100 samples, 1 feature, 2 classes"}, nil},
		{[]string{"lab", "fields", "--data", "builtin:ef", "--epochs", "1"}, []string{"1 R-unit,", "or 1 epoch: 1 epoch,"}, nil},
		{[]string{"experiment", "ef", "--quick", "--seeds", "1"}, []string{"1 (seed 1)"}, []string{"the median machine", "Medians over"}},
		{[]string{"experiment", "leftright", "--quick", "--seeds", "1"}, []string{"1 (seed 1)"}, []string{"(median)", "Medians over"}},
		{[]string{"experiment", "letters", "--quick", "--seeds", "1"}, []string{"not within the exposures allowed"},
			[]string{"never exposures", "needs never", "after never"}},
	}
	bad := regexp.MustCompile(`\b1 (R-units|A-units|epochs|mistakes|corrections|cards|classes|samples|features|machines|seeds|wirings|trials)\b|\bseeds (\d+)-(\d+)\b|\[\d+( \d+)*\]`)
	for _, tt := range tests {
		t.Run(caseName(tt.args), func(t *testing.T) {
			out := mustRun(t, tt.args...)
			cmd := strings.Join(tt.args, " ")
			flat := strings.Join(strings.Fields(out), " ") // the text unwrapped
			for _, w := range tt.want {
				if !strings.Contains(out, w) && !strings.Contains(flat, w) {
					t.Errorf("mark1 %s: output lacks %q:\n%s", cmd, w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out, w) || strings.Contains(flat, w) {
					t.Errorf("mark1 %s: output has %q:\n%s", cmd, w, out)
				}
			}
			for _, m := range bad.FindAllStringSubmatch(out, -1) {
				if m[2] == "" || m[2] == m[3] { // seeds 1-5 is right, seeds 1-1 is not
					t.Errorf("mark1 %s: %q", cmd, m[0])
				}
			}
		})
	}
}

// caseName names a subtest after its command line, a path by its last element, so that one
// case can be run alone (go test -run 'TestLabErrors/lab_flaws_--out_full$').
func caseName(args []string) string {
	var out []string
	for _, a := range args {
		if filepath.IsAbs(a) {
			a = filepath.Base(a)
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}

// TestLabDataFIFO: a FIFO named as --data to a demo that reads a student's samples is refused
// at once (exit 1, the FIFO named), as the README promises; it used to wait for a writer, and
// one SIGTERM did not stop it.
func TestLabDataFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "samples.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"trace", "geometry", "fisher-lsq", "lsq"} {
		args := []string{"lab", name, "--data", fifo}
		t.Run(caseName(args), func(t *testing.T) {
			cmd := mark1Process(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
				want := "mark1 lab: --data: " + fifo + ": a FIFO, not a CSV file of samples\n"
				if code := cmd.ProcessState.ExitCode(); code != 1 || stderr.String() != want {
					t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Errorf("mark1 %s waits on a FIFO", strings.Join(args, " "))
			}
		})
	}
}

// TestLabLossPoints: mark1 lab loss --out writes each problem's samples as a CSV file that
// mark1 lab trace --data reads back: the same samples, in the same order, so the trace makes
// the updates the loss report counts and ends at its weights.
func TestLabLossPoints(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "loss")
	mustRun(t, "lab", "loss", "--out", dir)
	var loss struct {
		Data map[string]struct {
			Updates []struct {
				Sample string `json:"sample"`
			} `json:"updates"`
			Final []string `json:"final"`
		} `json:"data"`
	}
	if err := json.Unmarshal(mustReadFile(t, filepath.Join(dir, "report.json")), &loss); err != nil {
		t.Fatal(err)
	}
	for _, problem := range []string{"separable", "overlapping"} {
		t.Run(problem, func(t *testing.T) {
			want := loss.Data[problem]
			var tr struct {
				Data struct {
					Steps []struct {
						Met bool `json:"met"`
					} `json:"steps"`
					Final []string `json:"final"`
				} `json:"data"`
			}
			out := mustRun(t, "lab", "trace", "--data", filepath.Join(dir, "points-"+problem+".csv"), "--epochs", "20", "--json")
			if err := json.Unmarshal([]byte(out), &tr); err != nil {
				t.Fatal(err)
			}
			updates := 0
			for _, s := range tr.Data.Steps {
				if !s.Met {
					updates++
				}
			}
			if updates != len(want.Updates) || len(want.Updates) < 5 || !slices.Equal(tr.Data.Final, want.Final) {
				t.Errorf("the trace of points-%s.csv: %d updates, ending at %v; the loss report: %d, ending at %v", problem, updates, tr.Data.Final, len(want.Updates), want.Final)
			}
		})
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLabFiguresLine: the text names the figures ("figures (written with --out): ...") only
// when --out writes them.
func TestLabFiguresLine(t *testing.T) {
	args := []string{"lab", "trace", "--bias", "first", "--init=-5,0,1", "--point", "5,7,+1", "--point", "2,6,-1"}
	if out := mustRun(t, args...); strings.Contains(out, "figures") {
		t.Errorf("mark1 %s names figures it did not write:\n%s", strings.Join(args, " "), out)
	}
	dir := filepath.Join(t.TempDir(), "trace")
	out := mustRun(t, append(args, "--out", dir)...)
	if !strings.Contains(out, "\nfigures (written with --out): updates.png\n") {
		t.Errorf("mark1 %s --out: no line naming updates.png:\n%s", strings.Join(args, " "), out)
	}
	if _, err := os.Stat(filepath.Join(dir, "updates.png")); err != nil {
		t.Error(err)
	}
}
