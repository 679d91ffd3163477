package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

// mark1 runs one command line in-process and returns its exit status and output.
func mark1(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// mustRun runs a command line that must succeed, with nothing on standard error.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := mark1(t, args...)
	if code != 0 || errs != "" {
		t.Fatalf("mark1 %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
	}
	return out
}

// trainState trains an ideal machine on builtin:ef to convergence and saves it in dir.
func trainState(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "ef.state")
	mustRun(t, "train", "--data", "builtin:ef", "--ideal", "--epochs", "20", "--save", path)
	return path
}

// writeCard encodes card i of a built-in set as a PNG file in dir and returns its path and class.
func writeCard(t *testing.T, dir, set string, i int) (string, string) {
	t.Helper()
	s, err := builtin.Load(set)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, s.Cards[i].Image); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, set+strconv.Itoa(i)+".png")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, s.Classes[s.Cards[i].Class]
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// keys returns the sorted keys of a JSON object.
func keys(m map[string]any) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	slices.Sort(k)
	return k
}

func sorted(s ...string) []string { slices.Sort(s); return s }

// checkKeys checks that v is a JSON object with exactly the given keys.
func checkKeys(t *testing.T, what string, v any, want ...string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not a JSON object: %T", what, v)
	}
	if got := keys(m); !slices.Equal(got, sorted(want...)) {
		t.Errorf("%s: keys %v, want %v", what, got, sorted(want...))
	}
	return m
}

type trainJSON struct {
	Data    string   `json:"data"`
	Cards   int      `json:"cards"`
	Classes []string `json:"classes"`
	Machine struct {
		Seed   uint64 `json:"seed"`
		Rule   string `json:"rule"`
		Ideal  bool   `json:"ideal"`
		SUnits int    `json:"s_units"`
		AUnits int    `json:"a_units"`
		RUnits int    `json:"r_units"`
		Coding string `json:"coding"`
		Wiring string `json:"wiring"`
	} `json:"machine"`
	Epochs []struct {
		Epoch       int     `json:"epoch"`
		Cards       int     `json:"cards"`
		Mistakes    int     `json:"mistakes"`
		Corrections int     `json:"corrections"`
		Clock       float64 `json:"clock_s"`
	} `json:"epochs"`
	Converged bool        `json:"converged"`
	Train     resultJSON  `json:"train"`
	Test      *resultJSON `json:"test"`
	Saved     string      `json:"saved"`
}

type resultJSON struct {
	Cards     int     `json:"cards"`
	Correct   int     `json:"correct"`
	Accuracy  float64 `json:"accuracy"`
	Confusion [][]int `json:"confusion"`
}

func checkResult(t *testing.T, what string, r resultJSON, cards, classes int) {
	t.Helper()
	if r.Cards != cards || r.Correct < 0 || r.Correct > cards {
		t.Errorf("%s: cards %d correct %d, want %d cards", what, r.Cards, r.Correct, cards)
	}
	if want := float64(r.Correct) / float64(cards); r.Accuracy != want {
		t.Errorf("%s: accuracy %v, want %v", what, r.Accuracy, want)
	}
	if len(r.Confusion) != classes {
		t.Fatalf("%s: confusion has %d rows, want %d", what, len(r.Confusion), classes)
	}
	total, diag := 0, 0
	for i, row := range r.Confusion {
		if len(row) != classes {
			t.Fatalf("%s: confusion row %d has %d columns, want %d", what, i, len(row), classes)
		}
		for j, n := range row {
			total += n
			if i == j {
				diag += n
			}
		}
	}
	if total != cards || diag != r.Correct {
		t.Errorf("%s: confusion sums to %d (diagonal %d), want %d (%d)", what, total, diag, cards, r.Correct)
	}
}

func TestTrainJSON(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "ef.state")
	out := mustRun(t, "train", "--data", "builtin:ef", "--ideal", "--epochs", "20", "--save", state, "--json")
	if strings.Contains(out, "training") || strings.Contains(out, "\r") || strings.Contains(out, "epoch   1:") {
		t.Errorf("train --json: stdout has text besides the JSON:\n%s", out)
	}

	// The documented shape, key for key.
	var raw any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("train --json: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("train --json: more than one JSON value on stdout")
	}
	top := checkKeys(t, "train", raw, "data", "cards", "classes", "figures", "machine", "epochs", "converged", "train", "saved")
	checkKeys(t, "machine", top["machine"], "seed", "rule", "ideal", "flaws", "s_units", "a_units", "r_units", "coding", "coding_used",
		"unused_r_units", "wiring", "order", "polarity")
	checkKeys(t, "figures", top["figures"], "dark", "light")
	eps, ok := top["epochs"].([]any)
	if !ok || len(eps) == 0 {
		t.Fatalf("epochs: %v", top["epochs"])
	}
	for _, e := range eps {
		checkKeys(t, "epochs[]", e, "epoch", "cards", "mistakes", "corrections", "clock_s")
	}
	checkKeys(t, "train.train", top["train"], "cards", "correct", "accuracy", "confusion")

	var rep trainJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Data != "builtin:ef" || rep.Cards != 60 || !slices.Equal(rep.Classes, []string{"E", "F"}) {
		t.Errorf("data %q cards %d classes %v", rep.Data, rep.Cards, rep.Classes)
	}
	m := rep.Machine
	if m.Seed != 1 || m.Rule != "alpha" || !m.Ideal || m.SUnits != 400 || m.AUnits != 512 || m.RUnits != 8 || m.Coding != "auto" || m.Wiring != "random" {
		t.Errorf("machine: %+v", m)
	}
	clock := 0.0
	for i, e := range rep.Epochs {
		if e.Epoch != i+1 || e.Cards != 60 || e.Mistakes < 0 || e.Mistakes > 60 || e.Corrections < 0 || e.Clock <= clock {
			t.Errorf("epoch %d: %+v", i+1, e)
		}
		if e.Mistakes > 0 && e.Corrections == 0 {
			t.Errorf("epoch %d: %d mistakes but no correction", i+1, e.Mistakes)
		}
		clock = e.Clock
	}
	last := rep.Epochs[len(rep.Epochs)-1]
	if !rep.Converged || last.Corrections != 0 || len(rep.Epochs) == 20 {
		t.Errorf("ideal E/F did not converge and stop in 20 epochs: converged %v, last %+v", rep.Converged, last)
	}
	checkResult(t, "train", rep.Train, 60, 2)
	if rep.Train.Accuracy != 1 {
		t.Errorf("a converged ideal machine has training accuracy %v", rep.Train.Accuracy)
	}
	if rep.Saved != state {
		t.Errorf("saved %q, want %q", rep.Saved, state)
	}
	if fi, err := os.Stat(state); err != nil || fi.Size() == 0 {
		t.Errorf("state file: %v", err)
	}
	if !bytes.HasPrefix(readFile(t, state), []byte("mark1-state 2 ")) {
		t.Errorf("state file does not start with its header")
	}

	// "test" appears when asked for; "saved" does not when not.
	out = mustRun(t, "train", "--data", "builtin:ef", "--test", "builtin:ef", "--ideal", "--epochs", "20", "--json")
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	top = checkKeys(t, "train --test", raw, "data", "cards", "classes", "figures", "machine", "epochs", "converged", "train", "test")
	checkKeys(t, "test", top["test"], "cards", "correct", "accuracy", "confusion")
}

func TestTrainText(t *testing.T) {
	out := mustRun(t, "train", "--data", "builtin:leftright", "--epochs", "2", "--keep-going")
	for _, want := range []string{"training builtin:leftright: 60 cards, 2 classes", "epoch   1:", "epoch   2:", "training accuracy:"} {
		if !strings.Contains(out, want) {
			t.Errorf("train text output lacks %q:\n%s", want, out)
		}
	}
}

// TestQueries runs eval, classify, features and weights on a saved machine and checks that
// none of them changes the state file.
func TestQueries(t *testing.T) {
	dir := t.TempDir()
	state := trainState(t, dir)
	before := readFile(t, state)
	png, class := writeCard(t, dir, "ef", 1) // the cards alternate E, F: card 1 is an F
	if class != "F" {
		t.Fatalf("card 1 of ef is %q", class)
	}
	rows := func(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, out string)
	}{
		{"eval json", []string{"eval", "--state", state, "--data", "builtin:ef", "--json"}, func(t *testing.T, out string) {
			var raw any
			if err := json.Unmarshal([]byte(out), &raw); err != nil {
				t.Fatal(err)
			}
			checkKeys(t, "eval", raw, "data", "classes", "cards", "correct", "accuracy", "confusion")
			var r struct {
				Data    string   `json:"data"`
				Classes []string `json:"classes"`
				resultJSON
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Data != "builtin:ef" || !slices.Equal(r.Classes, []string{"E", "F"}) {
				t.Errorf("eval: data %q classes %v", r.Data, r.Classes)
			}
			checkResult(t, "eval", r.resultJSON, 60, 2)
			if r.Accuracy != 1 {
				t.Errorf("eval of the converged ideal machine on its training cards: accuracy %v", r.Accuracy)
			}
		}},
		{"eval text", []string{"eval", "--state", state, "--data", "builtin:ef"}, func(t *testing.T, out string) {
			if !strings.HasPrefix(out, "accuracy: 100.0% (60 of 60)") || !strings.Contains(out, "confusion") {
				t.Errorf("eval text:\n%s", out)
			}
		}},
		{"classify text", []string{"classify", "--state", state, png}, func(t *testing.T, out string) {
			if !strings.HasSuffix(out, "class: F\n") {
				t.Errorf("classify: want class F:\n%s", out)
			}
			if !strings.Contains(out, "retina ("+png+"):") || !strings.Contains(out, "#") || strings.Count(out, "\n  R") != 8 {
				t.Errorf("classify text: want the retina and 8 R-units:\n%s", out)
			}
		}},
		{"classify json", []string{"classify", "--json", "--state", state, png}, func(t *testing.T, out string) {
			var raw any
			if err := json.Unmarshal([]byte(out), &raw); err != nil {
				t.Fatal(err)
			}
			checkKeys(t, "classify", raw, "image", "class", "sums", "on", "retina", "active_a_units")
			var r struct {
				Image  string    `json:"image"`
				Class  string    `json:"class"`
				Sums   []float64 `json:"sums"`
				On     []bool    `json:"on"`
				Retina []string  `json:"retina"`
				Active int       `json:"active_a_units"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Image != png || r.Class != "F" || len(r.Sums) != 8 || len(r.On) != 8 || r.Active < 1 || r.Active > 512 {
				t.Errorf("classify json: %+v", r)
			}
			for i, s := range r.Sums {
				if r.On[i] != (s > 0) {
					t.Errorf("R%d: sum %v but on %v", i, s, r.On[i])
				}
			}
			lit := 0
			if len(r.Retina) != 20 {
				t.Fatalf("retina has %d rows", len(r.Retina))
			}
			for _, row := range r.Retina {
				if len(row) != 20 || strings.Trim(row, "#.") != "" {
					t.Errorf("retina row %q", row)
				}
				lit += strings.Count(row, "#")
			}
			if lit == 0 || lit == 400 {
				t.Errorf("retina shows %d cells on", lit)
			}
		}},
		{"features", []string{"features", "--state", state, "--data", "builtin:ef"}, func(t *testing.T, out string) {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1+60 {
				t.Fatalf("features: %d rows, want a header and 60", len(recs))
			}
			if len(recs[0]) != 513 || recs[0][0] != "label" || recs[0][1] != "a0" || recs[0][512] != "a511" {
				t.Errorf("features header: %d fields, %v ... %v", len(recs[0]), recs[0][:2], recs[0][len(recs[0])-1])
			}
			for i, r := range recs[1:] {
				if want := []string{"E", "F"}[i%2]; r[0] != want {
					t.Errorf("row %d: label %q, want %q (file order)", i, r[0], want)
				}
				for _, v := range r[1:] {
					if v != "0" && v != "1" {
						t.Fatalf("row %d: value %q is not 0 or 1", i, v)
					}
				}
			}
		}},
		{"weights", []string{"weights", "--state", state}, func(t *testing.T, out string) {
			recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1+8 {
				t.Fatalf("weights: %d rows, want a header and 8", len(recs))
			}
			h := recs[0]
			if len(h) != 514 || h[0] != "r_unit" || h[1] != "bias" || h[2] != "w0" || h[513] != "w511" {
				t.Errorf("weights header: %d fields %v", len(h), h[:3])
			}
			nonzero := false
			for i, r := range recs[1:] {
				if r[0] != strconv.Itoa(i) {
					t.Errorf("row %d: r_unit %q", i, r[0])
				}
				for _, v := range r[1:] {
					f, err := strconv.ParseFloat(v, 64)
					if err != nil {
						t.Fatalf("row %d: %v", i, err)
					}
					nonzero = nonzero || f != 0
				}
			}
			if !nonzero {
				t.Errorf("weights: every weight of a trained machine is 0")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, mustRun(t, tc.args...))
			if !bytes.Equal(readFile(t, state), before) {
				t.Fatalf("%s changed the state file", tc.name)
			}
		})
	}
	// Features of the same cards are the same on a second call (the ideal machine is exact).
	a := mustRun(t, "features", "--state", state, "--data", "builtin:ef")
	b := mustRun(t, "features", "--state", state, "--data", "builtin:ef")
	if a != b {
		t.Errorf("features of an ideal machine differ between runs")
	}
	if len(rows(a)) != 61 {
		t.Errorf("features: %d lines", len(rows(a)))
	}
}

func TestDeterminism(t *testing.T) {
	train := func(seed string) string {
		return mustRun(t, "train", "--data", "builtin:ef", "--epochs", "3", "--keep-going", "--shuffle", "--seed", seed, "--json")
	}
	a, b, c := train("5"), train("5"), train("6")
	if a != b {
		t.Errorf("same seed, different reports:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 5 and 6 give the same report")
	}
	// State files too: same seed, same bytes.
	dir := t.TempDir()
	s1, s2 := filepath.Join(dir, "1.state"), filepath.Join(dir, "2.state")
	mustRun(t, "train", "--data", "builtin:leftright", "--epochs", "2", "--seed", "9", "--save", s1)
	mustRun(t, "train", "--data", "builtin:leftright", "--epochs", "2", "--seed", "9", "--save", s2)
	if !bytes.Equal(readFile(t, s1), readFile(t, s2)) {
		t.Errorf("same seed, different state files")
	}
}

// TestWiringGenerateIsTrainBoard checks the documented equivalence: "wiring generate --seed N"
// writes the board "train --seed N" builds, so training on the file gives the same machine.
func TestWiringGenerateIsTrainBoard(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		seed  string
		extra []string
	}{
		{"1", nil},
		{"7", []string{"--ideal"}},
		{"3", []string{"--a-units", "100"}},
	} {
		t.Run("seed"+tc.seed, func(t *testing.T) {
			board := filepath.Join(dir, "board"+tc.seed+".txt")
			flags := []string{"--seed", tc.seed}
			if i := slices.Index(tc.extra, "--a-units"); i >= 0 {
				flags = append(flags, tc.extra[i:i+2]...)
			}
			if out := mustRun(t, append([]string{"wiring", "generate", "-o", board}, flags...)...); out != "" {
				t.Errorf("wiring generate -o wrote %q on stdout", out)
			}
			out := mustRun(t, "wiring", "check", board)
			if !strings.HasPrefix(out, board+": ok:") {
				t.Errorf("wiring check: %q", out)
			}
			if stdout := mustRun(t, append([]string{"wiring", "generate"}, flags...)...); stdout != string(readFile(t, board)) {
				t.Errorf("wiring generate on stdout differs from -o FILE")
			}

			train := func(wiring, state string) trainJSON {
				args := []string{"train", "--data", "builtin:ef", "--epochs", "3", "--keep-going", "--seed", tc.seed,
					"--wiring", wiring, "--save", state, "--json"}
				for i := 0; i < len(tc.extra); i++ {
					if tc.extra[i] == "--a-units" { // the board file has its A-units
						if wiring == "random" {
							args = append(args, tc.extra[i:i+2]...)
						}
						i++
						continue
					}
					args = append(args, tc.extra[i])
				}
				var rep trainJSON
				if err := json.Unmarshal([]byte(mustRun(t, args...)), &rep); err != nil {
					t.Fatal(err)
				}
				return rep
			}
			sr, sf := filepath.Join(dir, "r"+tc.seed+".state"), filepath.Join(dir, "f"+tc.seed+".state")
			r, f := train("random", sr), train(board, sf)
			if r.Machine.Wiring != "random" || f.Machine.Wiring != "file" {
				t.Errorf("wiring reported as %q and %q", r.Machine.Wiring, f.Machine.Wiring)
			}
			if !reflect.DeepEqual(r.Epochs, f.Epochs) || !reflect.DeepEqual(r.Train, f.Train) || r.Machine.AUnits != f.Machine.AUnits {
				t.Errorf("train --wiring random and --wiring FILE differ:\n%+v %+v\n%+v %+v", r.Epochs, r.Train, f.Epochs, f.Train)
			}
			wr, wf := mustRun(t, "weights", "--state", sr), mustRun(t, "weights", "--state", sf)
			if wr != wf {
				t.Errorf("weights after training differ between --wiring random and --wiring FILE")
			}
		})
	}
}

func TestHelp(t *testing.T) {
	code, out, errs := mark1(t, "help")
	if code != 0 || errs != "" {
		t.Errorf("help: exit %d, stderr %q", code, errs)
	}
	for _, c := range []string{"train", "eval", "classify", "features", "weights", "wiring", "demo", "bench"} {
		if !strings.Contains(out, "\n  "+c+" ") {
			t.Errorf("help does not list %q:\n%s", c, out)
		}
	}
	for _, args := range [][]string{{"train", "-h"}, {"train", "--help"}} {
		t.Run(caseName(args), func(t *testing.T) {
			code, out, errs := mark1(t, args...)
			if code != 0 || errs != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errs)
			}
			for _, f := range []string{"data", "test", "epochs", "keep-going", "seed", "rule", "ideal", "r-units", "a-units", "coding", "wiring", "shuffle", "save", "json"} {
				if !strings.Contains(out, "  -"+f+" ") && !strings.Contains(out, "  -"+f+"\n") {
					t.Errorf("%v does not list -%s:\n%s", args, f, out)
				}
			}
		})
	}
	for _, cmd := range []string{"eval", "classify", "features", "weights", "demo", "bench"} {
		t.Run(cmd+" -h", func(t *testing.T) {
			code, out, errs := mark1(t, cmd, "-h")
			if code != 0 || errs != "" || !strings.HasPrefix(out, "usage: mark1 "+cmd) {
				t.Errorf("%s -h: exit %d, stdout %q, stderr %q", cmd, code, out, errs)
			}
		})
	}
	if code, out, _ := mark1(t); code != 2 || !strings.Contains(out, "commands:") {
		t.Errorf("no command: exit %d, want 2 and the usage", code)
	}
}

// TestErrors checks that each bad input gives exit status 1 (a bad file or data) or 2 (a
// malformed command line) and one line on standard error naming what is wrong.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	state := trainState(t, dir)
	good := readFile(t, state)
	flip := slices.Clone(good)
	flip[len(flip)/2] ^= 0x01
	corrupt := writeFile(t, filepath.Join(dir, "corrupt.state"), flip)
	truncated := writeFile(t, filepath.Join(dir, "truncated.state"), good[:len(good)-100])
	header := writeFile(t, filepath.Join(dir, "header.state"), good[:20])
	empty := writeFile(t, filepath.Join(dir, "empty.state"), nil)
	notState := writeFile(t, filepath.Join(dir, "notes.txt"), []byte("hello, world\n"))
	badWiring := writeFile(t, filepath.Join(dir, "bad.wiring"), []byte("# mark1 wiring\nformat 1\nfanout 40\na0 theta=x +1\n"))
	dupWiring := writeFile(t, filepath.Join(dir, "dup.wiring"), []byte("format 1\nfanout 40\na0 theta=1 +1\na1 theta=1 +5 +5\n"))
	badCodes := writeFile(t, filepath.Join(dir, "bad.codes"), []byte("# E and F\nE 11110000\nQ 00001111\n"))
	shortCodes := writeFile(t, filepath.Join(dir, "short.codes"), []byte("E 1\nF 0\n"))
	missing := filepath.Join(dir, "no-such-file")
	noDir := filepath.Join(dir, "no-such-folder")
	png, _ := writeCard(t, dir, "ef", 0)

	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of the message
	}{
		{"unknown command", []string{"frobnicate"}, 2, []string{`"frobnicate"`}},
		{"unknown flag", []string{"train", "--data", "builtin:ef", "--nosuch"}, 2, []string{"-nosuch"}},
		{"bad flag value", []string{"train", "--data", "builtin:ef", "--epochs", "many"}, 2, []string{"-epochs", "many"}},
		{"data missing", []string{"train"}, 2, []string{"--data"}},
		{"data builtin unknown", []string{"train", "--data", "builtin:nosuch"}, 1, []string{"nosuch"}},
		{"data folder missing", []string{"train", "--data", noDir}, 1, []string{noDir}},
		{"data idx one file", []string{"train", "--data", "idx:onlyone"}, 2, []string{"idx:onlyone"}},
		{"data idx missing files", []string{"train", "--data", "idx:" + missing + "," + missing}, 1, []string{missing}},
		{"test set other classes", []string{"train", "--data", "builtin:ef", "--epochs", "1", "--test", "builtin:leftright"}, 1, []string{"--test", "leftright"}},
		{"rule bogus", []string{"train", "--data", "builtin:ef", "--rule", "bogus"}, 2, []string{"--rule", "bogus"}},
		{"onehot on too few R-units", []string{"train", "--data", "builtin:ef", "--coding", "onehot", "--r-units", "1"}, 1, []string{"--r-units"}},
		{"r-units 0", []string{"train", "--data", "builtin:ef", "--r-units", "0"}, 2, []string{"--r-units"}},
		{"r-units 65", []string{"train", "--data", "builtin:ef", "--r-units", "65"}, 2, []string{"--r-units"}},
		{"a-units 0", []string{"train", "--data", "builtin:ef", "--a-units", "0"}, 2, []string{"--a-units"}},
		{"epochs 0", []string{"train", "--data", "builtin:ef", "--epochs", "0"}, 2, []string{"--epochs"}},
		{"extra argument", []string{"train", "--data", "builtin:ef", "stray"}, 2, []string{"stray"}},
		{"state missing flag", []string{"weights"}, 2, []string{"--state"}},
		{"state missing file", []string{"eval", "--state", missing, "--data", "builtin:ef"}, 1, []string{missing}},
		{"state corrupt", []string{"eval", "--state", corrupt, "--data", "builtin:ef"}, 1, []string{corrupt, "corrupt"}},
		{"state corrupt weights", []string{"weights", "--state", corrupt}, 1, []string{corrupt, "corrupt"}},
		{"state truncated", []string{"weights", "--state", truncated}, 1, []string{truncated, "truncated"}},
		{"state header only", []string{"features", "--state", header, "--data", "builtin:ef"}, 1, []string{header}},
		{"state empty", []string{"classify", "--state", empty, png}, 1, []string{empty}},
		{"state not a state file", []string{"weights", "--state", notState}, 1, []string{notState, "not a mark1 state"}},
		{"state a folder", []string{"weights", "--state", dir}, 1, []string{dir}},
		{"eval other classes", []string{"eval", "--state", state, "--data", "builtin:leftright"}, 1, []string{"leftright"}},
		{"wiring bad line", []string{"train", "--data", "builtin:ef", "--wiring", badWiring}, 1, []string{badWiring + ":4", "theta"}},
		{"wiring plug twice", []string{"train", "--data", "builtin:ef", "--wiring", dupWiring}, 1, []string{dupWiring + ":4"}},
		{"wiring missing file", []string{"train", "--data", "builtin:ef", "--wiring", missing}, 1, []string{"--wiring", missing}},
		{"wiring check bad line", []string{"wiring", "check", badWiring}, 1, []string{badWiring + ":4"}},
		{"wiring check no file", []string{"wiring", "check"}, 2, []string{"FILE"}},
		{"wiring unknown subcommand", []string{"wiring", "frob"}, 2, []string{"frob"}},
		{"wiring print unit out of range", []string{"wiring", "print", "--unit", "600", badWiring}, 1, []string{badWiring + ":4"}},
		{"coding unknown class", []string{"train", "--data", "builtin:ef", "--coding", badCodes}, 1, []string{badCodes + ":3", `"Q"`}},
		{"coding wrong length", []string{"train", "--data", "builtin:ef", "--coding", shortCodes}, 1, []string{shortCodes + ":1"}},
		{"coding missing file", []string{"train", "--data", "builtin:ef", "--coding", missing}, 1, []string{"--coding", missing}},
		{"classify non-image", []string{"classify", "--state", state, notState}, 1, []string{notState}},
		{"classify missing image", []string{"classify", "--state", state, missing}, 1, []string{missing}},
		{"classify no image", []string{"classify", "--state", state}, 2, []string{"IMAGE"}},
		{"classify two images", []string{"classify", "--state", state, png, png}, 2, []string{"IMAGE"}},
		{"bench seconds", []string{"bench", "--seconds", "0"}, 2, []string{"--seconds"}},
		{"demo epochs", []string{"demo", "--epochs", "0"}, 2, []string{"--epochs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := mark1(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errs)
			}
			if strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
				t.Errorf("stderr is not one line: %q", errs)
			}
			// "mark1 CMD: ..." for a command's errors, "mark1: ..." before a command is known.
			if !strings.HasPrefix(errs, "mark1 ") && !strings.HasPrefix(errs, "mark1: ") {
				t.Errorf("stderr does not start with \"mark1 \": %q", errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not name %q", errs, w)
				}
			}
			for _, bad := range []string{"panic", "goroutine", "runtime error"} {
				if strings.Contains(errs, bad) || strings.Contains(out, bad) {
					t.Errorf("output mentions %q: %q", bad, errs)
				}
			}
			if strings.Contains(strings.Join(tc.args, " "), "--json") && out != "" {
				t.Errorf("a failed --json command wrote %q", out)
			}
		})
	}
	if !bytes.Equal(readFile(t, state), good) {
		t.Errorf("the state file changed")
	}
}

// TestTrainChecksBeforeTraining checks that a --test set the machine cannot take and a --save
// path that cannot be written are refused before any training (no epoch line is printed).
func TestTrainChecksBeforeTraining(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"test other classes", []string{"--test", "builtin:xe"}, []string{"--test", `"X"`}},
		{"save in a missing folder", []string{"--save", filepath.Join(dir, "nope", "x.state")}, []string{"--save", filepath.Join(dir, "nope", "x.state")}},
		{"save on a folder", []string{"--save", dir}, []string{"--save", dir, "folder"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := mark1(t, append([]string{"train", "--data", "builtin:ef", "--epochs", "1"}, tc.args...)...)
			if code != 1 || strings.Count(errs, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line", code, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q does not name %q", errs, w)
				}
			}
			if strings.Contains(out, "epoch") {
				t.Errorf("trained before refusing:\n%s", out)
			}
		})
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 0 {
		t.Errorf("left files behind: %v, %v", ents, err)
	}
}

// docs/parameters.md is what mark1 config --table prints: the table of every parameter's unit
// and range (the one the inputs are checked against) stays current.
func TestParameterTableCurrent(t *testing.T) {
	out := mustRun(t, "config", "--table")
	doc, err := os.ReadFile("../../docs/parameters.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(doc) != out {
		t.Errorf("docs/parameters.md is not what mark1 config --table prints: run go run ./cmd/mark1 config --table > docs/parameters.md")
	}
	for _, k := range machine.Keys() {
		if !strings.Contains(out, "| `"+k.Name+"` |") {
			t.Errorf("the table lacks %s", k.Name)
		}
	}
}
