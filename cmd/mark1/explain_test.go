package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestTrainExplains: what would puzzle a newcomer in train's output is explained there. The
// analog machine on builtin:ef ends with an epoch without a correction and then 59 of 60 right;
// the ideal machine makes more corrections than mistakes in an epoch; counts of one are
// singular.
func TestTrainExplains(t *testing.T) {
	tests := []struct {
		args      []string
		want, not []string
	}{
		{[]string{"train", "--data", "builtin:ef"},
			[]string{"epoch   8:     0 mistakes,      0 corrections\n", "training accuracy: 98.3% (59 of 60)\nEpoch 8 made no correction, yet 1 of the 60 cards came out wrong",
				"answers each presentation afresh", "epoch   5:     1 mistake,       1 correction   #\n"},
			[]string{"more corrections than mistakes"}},
		{[]string{"train", "--data", "builtin:ef", "--ideal"},
			[]string{"1 mistake,       2 corrections", "There\n  can be more corrections than mistakes: an R-unit can answer wrongly", "training accuracy: 100.0%"},
			[]string{"made no correction, yet"}},
		{[]string{"train", "--data", "builtin:ef", "--rule", "forced", "--epochs", "1"},
			[]string{"the forced rule drives the wanted answer on every card"}, nil},
		{[]string{"train", "--data", "builtin:leftright", "--ideal"},
			nil, []string{"made no correction, yet"}},
	}
	for _, tt := range tests {
		t.Run(caseName(tt.args), func(t *testing.T) {
			out := mustRun(t, tt.args...)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("mark1 %s: output lacks %q:\n%s", strings.Join(tt.args, " "), w, out)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(out, w) {
					t.Errorf("mark1 %s: output has %q:\n%s", strings.Join(tt.args, " "), w, out)
				}
			}
			if one := regexp.MustCompile(`\b1 (mistakes|corrections|cards)\b`).FindString(out); one != "" {
				t.Errorf("mark1 %s: %q", strings.Join(tt.args, " "), one)
			}
			for _, l := range strings.Split(out, "\n") {
				if len([]rune(l)) > 100 {
					t.Errorf("mark1 %s: a line of %d columns: %q", strings.Join(tt.args, " "), len([]rune(l)), l)
				}
			}
		})
	}
}

// TestCompareClosedForms: least squares and Fisher are closed forms: no epochs and no
// "converged" in the table, the JSON or the CSV, and the note says why; "converged" stays for
// the iterative methods. An analog machine that ends without a correction and yet errs on its
// training cards is explained.
func TestCompareClosedForms(t *testing.T) {
	out := mustRun(t, "lab", "compare", "--data", "problem:xor", "--methods", "perceptron,lsq,fisher", "--epochs", "5", "--json")
	var rep struct {
		Tables []struct {
			Columns []string   `json:"columns"`
			Rows    [][]string `json:"rows"`
			Note    string     `json:"note"`
		} `json:"tables"`
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Data {
		_, has := d["converged"]
		if closed := d["method"] != "perceptron"; has == closed {
			t.Errorf("%s: converged field %v", d["method"], d["converged"])
		}
	}
	tab := rep.Tables[0]
	for _, row := range tab.Rows {
		for i, c := range tab.Columns {
			if (c == "converged" || c == "epochs") && (row[i] == "-") != (row[0] != "perceptron") {
				t.Errorf("%s: %s %q", row[0], c, row[i])
			}
		}
	}
	if !strings.Contains(tab.Note, "lsq and fisher are closed forms, computed at once: no epochs, nothing to converge (-).") {
		t.Errorf("note %q", tab.Note)
	}
	text := mustRun(t, "lab", "compare", "--data", "problem:xor", "--methods", "lsq", "--margin", "3")
	for _, no := range []string{"variable increment", "epochs  ", "Converged:"} {
		if strings.Contains(text, no) {
			t.Errorf("lab compare --methods lsq: output has %q:\n%s", no, text)
		}
	}
	text = mustRun(t, "lab", "compare", "--data", "builtin:square-diamond", "--methods", "mark1,mark1-analog,variable")
	for _, w := range []string{"variable increment margin b = 1", "variable corrects every sample within the margin b",
		"mark1-analog: its last epoch made no correction, yet 1.7% of the training cards come out wrong"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
			t.Errorf("lab compare on square-diamond lacks %q:\n%s", w, text)
		}
	}
	if regexp.MustCompile(`mark1: its last epoch`).MatchString(text) {
		t.Errorf("the ideal machine explained:\n%s", text)
	}
}
