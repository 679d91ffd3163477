package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const root = "../../.."

func loadFigures(t *testing.T) (*Accuracy, *State, *Speed) {
	t.Helper()
	var acc Accuracy
	var st State
	var sp Speed
	for name, v := range map[string]any{"accuracy": &acc, "state": &st, "speed": &sp} {
		if err := readJSON(filepath.Join(root, "docs/figures", name+".json"), v); err != nil {
			t.Fatalf("%v (go run ./internal/tools/figures writes it)", err)
		}
	}
	return &acc, &st, &sp
}

var space = regexp.MustCompile(`\s+`)

// sections splits README.md into its sections by heading (the heading's text without the
// #s), each section's text with runs of white space made one space.
func sections(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := map[string]string{}
	var title string
	var text strings.Builder
	flush := func() { s[title] = space.ReplaceAllString(text.String(), " ") }
	inCode := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if !inCode && strings.HasPrefix(line, "#") {
			flush()
			title, text = strings.TrimSpace(strings.TrimLeft(line, "#")), strings.Builder{}
			continue
		}
		text.WriteString(line + "\n")
	}
	flush()
	return s
}

// section finds the section whose heading starts with name.
func section(t *testing.T, s map[string]string, name string) (string, string) {
	t.Helper()
	for title, text := range s {
		if strings.HasPrefix(title, name) {
			return title, text
		}
	}
	t.Fatalf("README.md has no section %q", name)
	return "", ""
}

// figureWords are the figures checked in each section: every one must stand in a quote.
var figureWords = map[string]*regexp.Regexp{
	digitsSection: regexp.MustCompile(`\d[\d,.]*%`),
	curveSection:  regexp.MustCompile(`\d[\d,.]*%|\(\d+ against \d+`),
	analogSection: regexp.MustCompile(`\d[\d,.]*%`),
	speedSection:  regexp.MustCompile(`\d[\d,.]*(-\d[\d,.]*)? ?(ns|us)\b|\d[\d.]*x\b|\d[\d.]* times`),
	limitsSection: regexp.MustCompile(`\d[\d,.]* MB\b|\d[\d,.]* s\b`),
}

// notFigures are passages of those sections whose numbers are not mark1's figures.
var notFigures = []Quote{
	{analogSection, "the 85% the 1960 Navy caption reports"}, // the record's figure (lab/experiment/letters.go)
}

// TestReadmeQuotesFigures: every figure README.md quotes under "Measured figures" (and the
// biggest state's size) is one docs/figures gives, written as Quotes writes it, and every
// percentage, time and size in those sections stands in such a quote.
func TestReadmeQuotesFigures(t *testing.T) {
	acc, st, sp := loadFigures(t)
	quotes, err := Quotes(acc, st, sp)
	if err != nil {
		t.Fatal(err)
	}
	s := sections(t)
	covered := map[string][][2]int{}
	for _, q := range append(quotes, notFigures...) {
		title, text := section(t, s, q.Section)
		want := space.ReplaceAllString(q.Text, " ")
		at := 0
		found := false
		for {
			i := strings.Index(text[at:], want)
			if i < 0 {
				break
			}
			found = true
			covered[title] = append(covered[title], [2]int{at + i, at + i + len(want)})
			at += i + 1
		}
		if !found {
			t.Errorf("README.md, section %q, does not say what docs/figures gives (go run ./internal/tools/figures -quotes):\n\t%s", title, want)
		}
	}
	for name, re := range figureWords {
		title, text := section(t, s, name)
	words:
		for _, m := range re.FindAllStringIndex(text, -1) {
			for _, c := range covered[title] {
				if m[0] >= c[0] && m[1] <= c[1] {
					continue words
				}
			}
			from := max(0, m[0]-60)
			t.Errorf("README.md, section %q, quotes %q, which no figure of docs/figures gives: ...%s...", title, text[m[0]:m[1]], text[from:min(len(text), m[1]+20)])
		}
	}
}

func TestPct(t *testing.T) {
	for _, c := range []struct {
		r    Result
		want string
	}{
		{Result{2000, 1715}, "85.8%"}, {Result{2000, 1699}, "85.0%"}, {Result{208, 207}, "99.5%"},
		{Result{60, 60}, "100%"}, {Result{1040, 391}, "37.6%"}, {Result{3, 2}, "66.7%"},
	} {
		t.Run(fmt.Sprintf("%d of %d", c.r.Correct, c.r.Cards), func(t *testing.T) {
			if got := pct(c.r); got != c.want {
				t.Errorf("pct(%v) = %s, want %s", c.r, got, c.want)
			}
		})
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands: %s", got)
	}
	if got := spread(Bench{Values: []float64{1340, 1280, 1390}}); got != "1.3-1.4 us" {
		t.Errorf("spread: %s", got)
	}
	if got := dur(970); got != "0.97 us" {
		t.Errorf("dur: %s", got)
	}
}

func gunzip(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "testdata/mnist", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMNISTSplit checks what testdata/README.md says of the digits: the small sets the tests
// use are the first digits of the 8,000 and the 2,000, which are 10,000 digits in all.
func TestMNISTSplit(t *testing.T) {
	for _, c := range []struct {
		small, big   string
		n, bigN      int
		header, item int
	}{
		{"train-images.idx.gz", "train8000-images.idx.gz", 600, 8000, 16, 784},
		{"train-labels.idx.gz", "train8000-labels.idx.gz", 600, 8000, 8, 1},
		{"test-images.idx.gz", "test2000-images.idx.gz", 200, 2000, 16, 784},
		{"test-labels.idx.gz", "test2000-labels.idx.gz", 200, 2000, 8, 1},
	} {
		t.Run(c.small, func(t *testing.T) {
			small, big := gunzip(t, c.small), gunzip(t, c.big)
			if len(big) != c.header+c.bigN*c.item {
				t.Errorf("%s: %d bytes, want %d digits", c.big, len(big), c.bigN)
			}
			if len(small) != c.header+c.n*c.item || !bytes.Equal(small[c.header:], big[c.header:c.header+c.n*c.item]) {
				t.Errorf("%s is not the first %d of %s", c.small, c.n, c.big)
			}
		})
	}
}

// TestFiguresReproduce runs the seeded commands of docs/figures/accuracy.json again and
// compares their figures with the file. The scikit-learn runs need Debian's python3-sklearn at
// the version the file names; -short runs the built-in sets only (not the MNIST digits).
func TestFiguresReproduce(t *testing.T) {
	want, _, _ := loadFigures(t)
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEnv(abs)
	if err != nil {
		t.Fatal(err)
	}
	defer e.close()
	version := e.sklearnVersion()
	var specs []spec
	for _, s := range allRuns() {
		switch {
		case testing.Short() && strings.HasPrefix(s.id, "mnist-"):
			continue
		case s.sklearn() && version == "":
			t.Logf("%s not run: /usr/bin/python3 cannot import scikit-learn (bash scripts/need.sh python3-sklearn)", s.id)
			continue
		case s.sklearn() && version != want.SklearnVersion:
			t.Logf("%s not run: scikit-learn %s here, the file's figures are of %s", s.id, version, want.SklearnVersion)
			continue
		}
		specs = append(specs, s)
	}
	got, err := e.accuracy(specs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Runs) != len(specs) {
		t.Fatalf("%d runs, want %d", len(got.Runs), len(specs))
	}
	for _, s := range specs {
		if _, ok := want.run(s.id); !ok {
			t.Errorf("docs/figures/accuracy.json has no run %s (go run ./internal/tools/figures -only accuracy)", s.id)
		}
	}
	for _, d := range got.diff(want) {
		t.Errorf("docs/figures/accuracy.json: %s (after a deliberate change: make figures FIGURES=accuracy, then README.md as go run ./internal/tools/figures -quotes prints it)", d)
	}
}
