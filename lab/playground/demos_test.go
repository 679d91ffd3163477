package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
)

// mark1Dir is the folder mark1Bin built mark1 in ("" before), removed after the tests.
var mark1Dir string

// mark1Bin builds mark1 once for the tests that compare with it.
var mark1Bin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "playground-test")
	if err != nil {
		return "", err
	}
	mark1Dir = dir
	bin := filepath.Join(dir, "mark1")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/mark1").CombinedOutput()
	if err != nil {
		return "", &buildError{string(out)}
	}
	return bin, nil
})

type buildError struct{ out string }

func (e *buildError) Error() string { return "go build ./cmd/mark1: " + e.out }

func TestMain(m *testing.M) {
	code := m.Run()
	if mark1Dir != "" {
		os.RemoveAll(mark1Dir)
	}
	os.Exit(code)
}

// tablesOf reads the tables of a report's JSON.
type tablesOf struct {
	Command string `json:"command"`
	Tables  []struct {
		Name    string     `json:"name"`
		Columns []string   `json:"columns"`
		Rows    [][]string `json:"rows"`
	} `json:"tables"`
}

// worksheetCommands returns the mark1 lab commands of docs/lab/*.md that run one of names,
// without --out.
func worksheetCommands(t *testing.T, names ...string) [][]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/lab/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("docs/lab: %v", err)
	}
	var out [][]string
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		blocks, _, err := mdblock.Parse(f, bytes.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			if b.Lang != "sh" {
				continue
			}
			for _, line := range b.Lines() {
				c, ok := mdblock.ParseCommand("mark1", line)
				if !ok || c.Out != "" || len(c.Args) < 2 || c.Args[0] != "lab" || !slices.Contains(names, c.Args[1]) {
					continue
				}
				args := c.Args
				if slices.Contains(args, "--data") {
					continue // a file a block before it wrote: the page sends samples as csv= (TestRunDemoCSV)
				}
				if i := slices.Index(args, "--out"); i >= 0 {
					args = slices.Delete(slices.Clone(args), i, i+2)
				}
				out = append(out, args)
			}
		}
	}
	return out
}

// query writes a command's flags (after "lab NAME") as a URL query, the way the page's links
// do: each value escaped, a "+" as %2B.
func query(flags []string) string {
	var q []string
	for i := 0; i < len(flags); i++ {
		name := strings.TrimPrefix(flags[i], "--")
		if k, v, ok := strings.Cut(name, "="); ok {
			q = append(q, k+"="+url.QueryEscape(v))
			continue
		}
		if name == "quick" || i+1 == len(flags) || strings.HasPrefix(flags[i+1], "--") {
			q = append(q, name+"=true")
			continue
		}
		q = append(q, name+"="+url.QueryEscape(flags[i+1]))
		i++
	}
	return strings.Join(q, "&")
}

// TestRunDemoAsCommand: for the worksheets' commands of the demos the browser lab runs, RunDemo
// with the same flags as a URL query gives the tables mark1 lab ... --json gives, cell for
// cell, and the same command line.
func TestRunDemoAsCommand(t *testing.T) {
	bin, err := mark1Bin()
	if err != nil {
		t.Fatal(err)
	}
	cmds := worksheetCommands(t, "trace", "geometry", "loss", "regions", "masking", "boolean", "fisher-lsq")
	if len(cmds) < 20 {
		t.Fatalf("%d worksheet commands: the worksheets lost their commands?", len(cmds))
	}
	for _, args := range cmds {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			out, err := exec.Command(bin, append(slices.Clone(args), "--json")...).Output()
			if err != nil {
				t.Fatalf("mark1 %s: %v", strings.Join(args, " "), err)
			}
			var want tablesOf
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			res, err := RunDemo(context.Background(), args[1], query(args[2:]))
			if err != nil {
				t.Fatalf("RunDemo(%q): %v", query(args[2:]), err)
			}
			var got tablesOf
			if err := json.Unmarshal(res.Report, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Tables) != len(want.Tables) || len(want.Tables) == 0 {
				t.Fatalf("%d tables, mark1 gives %d", len(got.Tables), len(want.Tables))
			}
			for i, w := range want.Tables {
				g := got.Tables[i]
				if g.Name != w.Name || !slices.Equal(g.Columns, w.Columns) || len(g.Rows) != len(w.Rows) {
					t.Fatalf("table %d: %s %q, %d rows; mark1: %s %q, %d rows", i, g.Name, g.Columns, len(g.Rows), w.Name, w.Columns, len(w.Rows))
				}
				for r := range w.Rows {
					if !slices.Equal(g.Rows[r], w.Rows[r]) {
						t.Fatalf("table %s, row %d: %q; mark1: %q", w.Name, r+1, g.Rows[r], w.Rows[r])
					}
				}
			}
			if wantCmd := strings.TrimSuffix(want.Command, " --json"); res.Command != wantCmd || got.Command != wantCmd {
				t.Errorf("command %q (report %q), mark1 %q", res.Command, got.Command, wantCmd)
			}
		})
	}
}

// TestQueryPlus: a label's "+" reaches RunDemo as "+", "%2B", a space (a form's decoding of
// "+") or not at all, and each reads alike.
func TestQueryPlus(t *testing.T) {
	var first string
	for _, q := range []string{"bias=first&init=-5,0,1&point=5,7,+1&point=2,6,-1", "bias=first&init=-5,0,1&point=5,7,%2B1&point=2,6,-1",
		"bias=first&init=-5,0,1&point=5,7,%201&point=2,6,-1", "bias=first&init=-5,0,1&point=5,7,1&point=2,6,-1",
		"?demo=trace&bias=first&init=-5%2C0%2C1&point=5%2C7%2C+1&point=2.0,6,-1&lang=de"} {
		t.Run(q, func(t *testing.T) {
			res, err := RunDemo(context.Background(), "trace", q)
			if err != nil {
				t.Fatal(err)
			}
			var got tablesOf
			if err := json.Unmarshal(res.Report, &got); err != nil {
				t.Fatal(err)
			}
			rows := strings.Join(got.Tables[0].Rows[0], " ")
			if first == "" {
				first = rows
			}
			if rows != first || !strings.Contains(rows, "(1, 5, 7) +1 2 2 yes (-5, 0, 1)") {
				t.Errorf("first row %q, want %q", rows, first)
			}
			if want := "mark1 lab trace --bias first --init -5,0,1 --point 5,7,+1 --point 2,6,-1"; res.Command != want {
				t.Errorf("command %q, want %q", res.Command, want)
			}
		})
	}
}

// TestRunDemoRefusals: what the browser does not run is refused in one line that says why,
// and a bad value as mark1 refuses it.
func TestRunDemoRefusals(t *testing.T) {
	tests := []struct{ name, query, want string }{
		{"nothing", "", `unknown demo "nothing" (have compare, novikoff,`},
		{"trace", "point=1,2,+1&colour=red", "--colour: mark1 lab trace has no such parameter"},
		{"trace", "data=samples.csv", "--data: the browser reads no files: send the samples' CSV text as csv=..."},
		{"trace", "point=1,2,+1&epochs=0", "--epochs 0: want 1..200000"},
		{"trace", "point=1,2,3", "--point 1,2,3 (point 1): label \"3\": want +1 or -1"},
		{"trace", "", "no samples: give --data FILE or --point X1,X2,...,LABEL (repeated)"},
		{"trace", "csv=" + url.QueryEscape("1,2,+1\n3,x,-1\n"), `csv:2: feature 2: "x" is not a number`},
		{"novikoff", "", "novikoff runs in the browser only as its quick run (quick=true): run mark1 lab novikoff on your computer"},
		{"novikoff", "quick=true&problems=5", "--quick runs the demo's own data, sizes and machines: leave out --problems"},
		{"compare", "", "compare takes minutes and cards: run mark1 lab compare on your computer"},
		{"flaws", "quick=true&data=builtin:ef", "--data: the browser loads no cards: run mark1 lab flaws on your computer"},
		{"ef", "seeds=2", "ef runs in the browser only as its quick run (quick=true): run mark1 experiment ef --seeds 2 on your computer"},
		{"loss", "quick=maybe", `--quick "maybe": want true or false`},
		{"loss", "points=1%ZZ", `query: --points "1%ZZ": a bad %-escape`},
	}
	for _, tt := range tests {
		t.Run(tt.name+"?"+tt.query, func(t *testing.T) {
			_, err := RunDemo(context.Background(), tt.name, tt.query)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestRunDemoCSV: samples sent as CSV text run as the same points given one by one, and the
// command names them as --point flags.
func TestRunDemoCSV(t *testing.T) {
	csv := "x1,x2,y\n# the three-point problem\n1,2,+1\n2, 0, -1\n-1 1 1\n"
	a, err := RunDemo(context.Background(), "trace", "rule=batch&csv="+url.QueryEscape(csv))
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunDemo(context.Background(), "trace", "rule=batch&point=1,2,%2B1&point=2,0,-1&point=-1,1,%2B1")
	if err != nil {
		t.Fatal(err)
	}
	var ta, tb tablesOf
	if json.Unmarshal(a.Report, &ta) != nil || json.Unmarshal(b.Report, &tb) != nil {
		t.Fatal("not JSON")
	}
	if len(ta.Tables) == 0 || !slices.EqualFunc(ta.Tables[0].Rows, tb.Tables[0].Rows, slices.Equal) {
		t.Errorf("csv rows %q\npoint rows %q", ta.Tables[0].Rows, tb.Tables[0].Rows)
	}
	if a.Command != "mark1 lab trace --rule batch --point 1,2,+1 --point 2,0,-1 --point -1,1,+1" || a.Command != b.Command {
		t.Errorf("commands %q and %q", a.Command, b.Command)
	}
}

// TestRunDemoFigures: the report's JSON carries each figure's data for the page to draw.
func TestRunDemoFigures(t *testing.T) {
	res, err := RunDemo(context.Background(), "regions", "quick=true")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Name    string `json:"name"`
		Checks  []any  `json:"checks"`
		Figures []struct {
			Name    string `json:"name"`
			Regions struct {
				Cols, Rows int
				Class      []int `json:"class"`
			} `json:"regions"`
			Series []struct {
				X []float64 `json:"x"`
			} `json:"series"`
		} `json:"figures"`
	}
	if err := json.Unmarshal(res.Report, &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "regions" || len(r.Checks) == 0 || len(r.Figures) != 4 || len(r.Figures[0].Regions.Class) != 120*120 || len(r.Figures[0].Series) != 3 || len(r.Figures[0].Series[0].X) != 30 {
		t.Errorf("report %s: %d checks, %d figures", r.Name, len(r.Checks), len(r.Figures))
	}
	if res.Command != "mark1 lab regions --quick" {
		t.Errorf("command %q", res.Command)
	}
}

// TestDemos: the registry as the page reads it: every run once, demonstrations then
// experiments, what the browser runs of each, and the parameters' kinds and ranges.
func TestDemos(t *testing.T) {
	ds := Demos()
	by := map[string]Demo{}
	for _, d := range ds {
		if _, dup := by[d.Name]; dup {
			t.Errorf("%s twice", d.Name)
		}
		by[d.Name] = d
	}
	for name, want := range map[string]string{"trace": "run", "loss": "run", "outliers": "run", "digits": "run", "novikoff": "quick", "flaws": "quick", "compare": "no", "letters": "quick"} {
		if d := by[name]; d.Browser != want {
			t.Errorf("%s: browser %q, want %q", name, d.Browser, want)
		}
	}
	if ds[0].Kind != "demo" || ds[len(ds)-1].Kind != "experiment" || by["ef"].Record == "" {
		t.Errorf("kinds %s ... %s", ds[0].Kind, ds[len(ds)-1].Kind)
	}
	b, err := json.Marshal(by["trace"])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"point","kind":"points"`, `{"name":"epochs","kind":"int","default":"100","min":1,"max":200000,"minOpen":false,"maxOpen":false,"choices":[]`, `"uses":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("trace's JSON lacks %s:\n%s", want, b)
		}
	}
	nov := by["novikoff"]
	if i := slices.IndexFunc(nov.Params, func(p Param) bool { return p.Name == "seed" }); i < 0 || !nov.Params[i].Machine {
		t.Errorf("novikoff's params lack the machine's seed: %+v", nov.Params)
	}
}
