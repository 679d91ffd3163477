package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/plot"
)

func sample() *Report {
	r := &Report{Name: "demo", Title: "A demonstration", Command: "mark1 lab demo", Summary: "What it shows."}
	r.Condition("cards", 60)
	r.Findings = append(r.Findings, Finding{What: "E vs F", Record: "over 80%", Source: "somewhere", Measured: "93.3% on 60 held-out cards", Value: 0.933, Gap: "none: the emulator does better"})
	t := &Table{Name: "runs", Title: "Runs", Columns: []string{"method", "train error", "note"}}
	t.AddRow("perceptron", 0.0123456, `a "quoted", comma`)
	t.AddRow("pocket", 0.5, "")
	r.Tables = append(r.Tables, t)
	r.Figures = append(r.Figures, &plot.Figure{Name: "curve", Title: "curve", Series: []plot.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{3, 4}}}})
	r.Notes = append(r.Notes, "a note")
	r.Data = map[string]int{"answer": 42}
	return r
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	if err := sample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"A demonstration\n===============", "cards  60", "record:   over 80% (somewhere)", "measured: 93.3%", "perceptron     0.01235 a", "curve.png", "note: a note"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestTableHeadings(t *testing.T) {
	long := []string{"problem", "perceptron: range over the last half", "pocket: final error", "least squares error on the test cards"}
	cases := []struct {
		name      string
		columns   []string
		row       []any
		headLines int // lines of headings
		maxWidth  int // the widest line
	}{
		{"narrow table: one heading line", []string{"method", "training error", "test error"}, []any{"pocket", "0.0%", "1.2%"}, 1, 34},
		{"wide table: headings wrapped", long, []any{"xor", "30.0% to 62.0%", "26.0%", "50.0%"}, 4, LineWidth}, // 103 columns unwrapped
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := &Table{Columns: c.columns}
			tab.AddRow(c.row...)
			var b strings.Builder
			writeTable(&b, tab)
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if got := len(lines) - 1; got != c.headLines {
				t.Errorf("%d heading lines, want %d:\n%s", got, c.headLines, b.String())
			}
			for _, l := range lines {
				if n := len([]rune(l)); n > c.maxWidth {
					t.Errorf("line of %d columns, want at most %d: %q", n, c.maxWidth, l)
				}
			}
			// Every word of every heading is still there, in order.
			text := strings.Join(strings.Fields(b.String()), " ")
			for _, h := range c.columns {
				for _, w := range strings.Fields(h) {
					if !strings.Contains(text, w) {
						t.Errorf("heading word %q lost:\n%s", w, b.String())
					}
				}
			}
		})
	}
}

// TestTextWidth: no line of the text is wider than LineWidth, however long the conditions,
// titles, cells and tables, and nothing is lost: every word of every cell and heading is still
// there, and each row's cells in order.
func TestTextWidth(t *testing.T) {
	long := "a condition long enough to need wrapping over more than one line of a terminal, with words"
	wide := &Table{Name: "wide", Title: "A table of twelve columns"}
	for i := range 12 {
		wide.Columns = append(wide.Columns, fmt.Sprintf("column number %d of the table", i))
	}
	for r := range 3 {
		var row []any
		for i := range 12 {
			row = append(row, fmt.Sprintf("r%dc%d %.1f%%", r, i, float64(10*i)))
		}
		wide.AddRow(row...)
	}
	text := &Table{Name: "text", Title: "A table with a long text column", Columns: []string{"flaw", "error", "note"}}
	text.AddRow("gamma", "0.0%", "no effect here: the same corrections and errors as the ideal machine, and more words to make it longer than any terminal")
	text.AddRow("blur", "1.5%", "")
	cases := []struct {
		name string
		r    *Report
		want []string // lines, trimmed, that must appear
	}{
		{"conditions", &Report{Title: "Conditions", Conditions: []Item{{"short", long + " " + long}, {"a label", "v"}}}, []string{"a label  v"}},
		{"a long label", &Report{Title: "Label", Conditions: []Item{{strings.Repeat("label ", 12), long}}}, nil},
		{"a long title", &Report{Title: strings.Repeat("title ", 30)}, nil},
		{"wide table", &Report{Title: "Wide", Tables: []*Table{wide}}, []string{"(continued: more columns of the same rows)"}},
		{"text column", &Report{Title: "Text", Tables: []*Table{text}}, []string{"blur   1.5%"}},
		{"figures", &Report{Title: "Figures", Figures: figures(20)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			for _, l := range strings.Split(out, "\n") {
				if n := len([]rune(l)); n > LineWidth {
					t.Errorf("line of %d columns: %q", n, l)
				}
			}
			words := " " + strings.Join(strings.Fields(out), " ") + " "
			var all []string
			for _, cd := range c.r.Conditions {
				all = append(all, cd.Label, cd.Value)
			}
			for _, tb := range c.r.Tables {
				all = append(all, tb.Columns...)
				for _, row := range tb.Rows {
					all = append(all, row...)
				}
			}
			for _, f := range c.r.Figures {
				all = append(all, f.Name+".png")
			}
			for _, s := range all {
				for _, w := range strings.Fields(s) {
					if !strings.Contains(words, " "+w+" ") && !strings.Contains(words, " "+w+", ") {
						t.Errorf("%q lost:\n%s", w, out)
					}
				}
			}
			for _, w := range c.want {
				found := false
				for _, l := range strings.Split(out, "\n") {
					found = found || strings.TrimSpace(l) == w
				}
				if !found {
					t.Errorf("no line %q:\n%s", w, out)
				}
			}
			// Each row's first cell starts a line, its cells in order along it.
			for _, tb := range c.r.Tables {
				for _, row := range tb.Rows {
					if !strings.Contains(out, "\n  "+row[0]+" ") {
						t.Errorf("row %q does not start a line:\n%s", row[0], out)
					}
				}
			}
		})
	}
}

// figures returns n figures with long names.
func figures(n int) []*plot.Figure {
	var out []*plot.Figure
	for i := range n {
		out = append(out, &plot.Figure{Name: fmt.Sprintf("regions-perceptron-ovo-%d", i)})
	}
	return out
}

// TestCSVNumbers: the CSV holds numbers: percentages without their sign (the heading says
// "(%)"), a median with its range in brackets as three columns, "-" as an empty cell; other
// cells as they are.
func TestCSVNumbers(t *testing.T) {
	tab := &Table{Columns: []string{"method", "error", "spread", "count", "seconds", "note", "mixed", "none"}}
	tab.Rows = [][]string{
		{"a", "12.5%", "97.5% (95.0-99.0%)", "7 (3-9)", "1.7e-05", "no effect", "1.0%", "-"},
		{"b", "-", "50.0%", "4", "0.25", "", "five", "-"},
	}
	cols, rows := tab.CSV()
	want := [][]string{
		{"method", "error (%)", "spread (%)", "spread: lowest (%)", "spread: highest (%)", "count", "count: lowest", "count: highest", "seconds", "note", "mixed", "none"},
		{"a", "12.5", "97.5", "95.0", "99.0", "7", "3", "9", "1.7e-05", "no effect", "1.0%", "-"},
		{"b", "", "50.0", "50.0", "50.0", "4", "4", "4", "0.25", "", "five", "-"},
	}
	got := append([][]string{cols}, rows...)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("CSV:\n%q\nwant\n%q", got, want)
	}
	var b bytes.Buffer
	if err := tab.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "method,error (%),spread (%),") || !strings.Contains(b.String(), "\na,12.5,97.5,95.0,99.0,7,3,9,") {
		t.Fatalf("WriteCSV:\n%s", b.String())
	}
}

// TestChecksAndKinds: a finding names its source's kind after the source; a quick run's checks
// come out as a table that says which figure left its band, and in the JSON.
func TestChecksAndKinds(t *testing.T) {
	r := sample()
	r.Findings[0].Kind = Tertiary
	r.Checks = []Check{
		{What: "right after 40 trials", Value: 97, Min: 90, Max: 100, Broken: "about 50"},
		{What: "left out", Value: 0.5, Min: 0.6, Max: 1},
	}
	if !r.Checks[0].Within() || r.Checks[1].Within() || !(Check{Value: 1, Min: 1, Max: 1}).Within() {
		t.Fatal("Within")
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(somewhere; tertiary)", "Quick-run checks", "yes", "97 90 to 100", "(broken: about 50)", "NO", "0.5 0.6 to 1"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	j, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(j), `"checks":[{"what":"right after 40 trials","value":97,"min":90,"max":100,"broken":"about 50"}`) || !strings.Contains(string(j), `"kind":"tertiary"`) {
		t.Errorf("json: %v %s", err, j)
	}
	r.Checks = nil
	b.Reset()
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Quick-run") {
		t.Error("a run without checks prints a checks table")
	}
}
