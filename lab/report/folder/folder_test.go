package folder

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
)

func sample() *report.Report {
	r := &report.Report{Name: "demo", Title: "A demonstration", Command: "mark1 lab demo", Summary: "What it shows."}
	r.Condition("cards", 60)
	r.Findings = append(r.Findings, report.Finding{What: "E vs F", Record: "over 80%", Source: "somewhere", Measured: "93.3% on 60 held-out cards", Value: 0.933, Gap: "none: the emulator does better"})
	t := &report.Table{Name: "runs", Title: "Runs", Columns: []string{"method", "train error", "note"}}
	t.AddRow("perceptron", 0.0123456, `a "quoted", comma`)
	t.AddRow("pocket", 0.5, "")
	r.Tables = append(r.Tables, t)
	r.Figures = append(r.Figures, &plot.Figure{Name: "curve", Title: "curve", Series: []plot.Series{{Name: "a", X: []float64{1, 2}, Y: []float64{3, 4}}}})
	r.Notes = append(r.Notes, "a note")
	r.Data = map[string]int{"answer": 42}
	return r
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, sample()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "report.json", "runs.csv", "curve.png", "curve.csv"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := csv.NewReader(bytes.NewReader(must(os.ReadFile(filepath.Join(dir, "runs.csv"))))).ReadAll()
	if err != nil || len(rows) != 3 || rows[1][2] != `a "quoted", comma` || rows[1][1] != "0.01235" {
		t.Fatalf("runs.csv: %q, %v", rows, err)
	}
	var j map[string]any
	if err := json.Unmarshal(must(os.ReadFile(filepath.Join(dir, "report.json"))), &j); err != nil {
		t.Fatal(err)
	}
	figs := j["figures"].([]any)
	if len(figs) != 1 || figs[0].(map[string]any)["png"] != "curve.png" || j["data"].(map[string]any)["answer"] != 42.0 {
		t.Fatalf("report.json: %v", j)
	}
	html := string(must(os.ReadFile(filepath.Join(dir, "index.html"))))
	for _, want := range []string{"<h1>A demonstration</h1>", `<img src="curve.png"`, `<td class="num">0.01235</td>`, "a &#34;quoted&#34;, comma", "<code>mark1 lab demo</code>"} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	// A file where the folder should be is refused, naming it.
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(file, sample()); err == nil || !strings.Contains(err.Error(), file) {
		t.Fatalf("Write onto a file: %v", err)
	}
	r := sample()
	r.Tables[0].Name = "curve"
	if err := Write(t.TempDir(), r); err == nil {
		t.Fatal("two files named curve: no error")
	}
}

// TestHTMLChecks: the page names a finding's source kind and marks a check out of its band.
func TestHTMLChecks(t *testing.T) {
	r := sample()
	r.Findings[0].Kind = report.Tertiary
	r.Checks = []report.Check{
		{What: "right after 40 trials", Value: 97, Min: 90, Max: 100, Broken: "about 50"},
		{What: "left out", Value: 0.5, Min: 0.6, Max: 1},
	}
	var h bytes.Buffer
	if err := WriteHTML(&h, r); err != nil || !strings.Contains(h.String(), "somewhere; tertiary") || !strings.Contains(h.String(), "<td>NO</td>") {
		t.Errorf("html: %v\n%s", err, h.String())
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
