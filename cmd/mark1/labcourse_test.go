package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabCourseErrors: the course demos refuse bad samples, labels, weights and flags with one
// line naming what is wrong (the file and line for a CSV file), before any work.
func TestLabCourseErrors(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "pts.csv")
	if err := os.WriteFile(csv, []byte("x1,x2,y\n1,2,+1\n2,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ragged := filepath.Join(dir, "ragged.csv")
	if err := os.WriteFile(ragged, []byte("1,2,+1\n# comment\n2,0,1,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("1,2,+1\n2,zero,-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"lab", "trace"}, "no samples: give --data FILE or --point", 2},
		{[]string{"lab", "trace", "--point", "1,x,1"}, `--point 1,x,1 (point 1): feature 2: "x" is not a number`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--point", "1,2,2"}, `--point 1,2,2 (point 2): label "2": want +1 or -1`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--point", "1,-1"}, "--point 1,-1 (point 2): 1 feature, but --point 1 has 2", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--init", "0,0"}, "--init 0,0: 2 numbers, want 3 (2 features and the bias last)", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--init", "0,0,x"}, `--init 0,0,x: number 3: "x" is not a number`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--bias", "none", "--init", "0,0,0"}, "--init 0,0,0: 3 numbers, want 2 (2 features and no bias added)", 2},
		{[]string{"lab", "trace", "--data", csv}, csv + `:3: label "0": want +1 or -1, the last number of the line (a 0/1 label: write 0 as -1)`, 1},
		{[]string{"lab", "trace", "--data", ragged}, ragged + ":3: 3 features, but " + ragged + ":1 has 2", 1},
		{[]string{"lab", "trace", "--data", bad}, bad + `:2: feature 2: "zero" is not a number`, 1},
		{[]string{"lab", "trace", "--data", filepath.Join(dir, "none.csv")}, "none.csv: no such file or directory", 1},
		{[]string{"lab", "trace", "--data", csv, "--point", "1,1"}, "--data and --point: give the samples one way", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--rule", "pocket"}, `--rule: unknown rule "pocket"`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--bias", "middle"}, `--bias: unknown bias place "middle"`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--eta", "0"}, "--eta 0: want a number > 0", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--margin", "1"}, "--margin goes with --rule margin", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--rule", "margin", "--at-zero", "+1"}, "--at-zero: the margin rule", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--at-zero", "0"}, `--at-zero: unknown answer at zero "0"`, 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "--epochs", "0"}, "--epochs 0", 2},
		{[]string{"lab", "trace", "--point", "1,2,1", "extra"}, `unexpected argument "extra"`, 2},
		{[]string{"lab", "geometry", "--point", "1,2,3,1"}, "want 2 features, the data have 3", 2},
		{[]string{"lab", "geometry", "--point", "1,2,1", "--bias", "none"}, "the geometry needs a bias", 2},
		{[]string{"lab", "geometry", "--point", "1,2,1", "--w", "0,0,1"}, "no boundary", 2},
		{[]string{"lab", "geometry", "--point", "1,2,1", "--w", "1,1"}, "weights (1, 1): 2 numbers, want 3", 2},
		{[]string{"lab", "fisher-lsq", "--point", "1,5,+1", "--point", "2,4,+1", "--point", "6,5,-1", "--point", "7,4,-1"}, "S_W is singular (the classes do not vary in every direction), so Fisher's direction is not defined (exact: the matrix is singular); mark1 lab lsq solves least squares alone", 1},
		{[]string{"lab", "lsq", "--point", "1,1,+1", "--point", "2,2,-1"}, "least squares: the normal equations A^T A w = A^T t are singular", 1},
		{[]string{"lab", "lsq", "--point", "1,1,+1", "--lambda", "-1"}, "--lambda -1: want a number >= 0", 2},
		{[]string{"lab", "lsq"}, "no samples: give --data FILE or --point", 2},
		{[]string{"lab", "loss", "--margin", "0"}, "--margin 0: want a number > 0", 2},
	}
	for _, tt := range tests {
		t.Run(caseName(tt.args), func(t *testing.T) {
			code, out, errs := mark1(t, tt.args...)
			if code != tt.code || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("mark1 %s: exit %d, stderr %q; want exit %d and one line with %q", strings.Join(tt.args, " "), code, errs, tt.code, tt.want)
			}
			if out != "" {
				t.Errorf("mark1 %s: printed %q before refusing", strings.Join(tt.args, " "), out)
			}
		})
	}
}

// TestLabCourseText: the course's demos are listed by mark1 lab, and their text (each run of
// the worksheets' kinds, the quick runs and the help) fits a terminal of 100 columns.
func TestLabCourseText(t *testing.T) {
	list := mustRun(t, "lab")
	for _, d := range []string{"trace", "geometry", "loss", "regions", "masking", "boolean", "digits", "fisher-lsq", "lsq", "circle"} {
		if !strings.Contains(list, "\n  "+d+" ") {
			t.Errorf("mark1 lab does not list %s", d)
		}
	}
	pts := []string{"--point", "3,2,+1", "--point", "1,0,-1", "--point", "0,1,-1", "--point", "2,3,+1", "--point", "2,0,-1"}
	runs := [][]string{
		{"lab"},
		append([]string{"lab", "trace"}, pts...),
		append([]string{"lab", "trace", "--rule", "batch", "--bias", "first", "--eta", "1/3"}, pts...),
		append([]string{"lab", "trace", "--rule", "margin", "--margin", "5/2"}, pts...),
		append([]string{"lab", "geometry"}, pts...),
		{"lab", "loss"}, {"lab", "loss", "--points", "10"},
		{"lab", "regions"}, {"lab", "regions", "--method", "perceptron", "--classes", "5"},
		{"lab", "masking"}, {"lab", "masking", "--middle", "30"},
		{"lab", "boolean"}, {"lab", "boolean", "--epochs", "3"},
		{"lab", "digits", "--updates", "100"},
		{"lab", "fisher-lsq"}, {"lab", "fisher-lsq", "--point", "0,0,+1", "--point", "1,0,+1", "--point", "0,2,+1", "--point", "3,1,-1", "--point", "4,3,-1"},
	}
	for _, d := range []string{"loss", "regions", "masking", "boolean", "digits", "fisher-lsq"} {
		runs = append(runs, []string{"lab", d, "--quick"})
	}
	for _, args := range runs {
		t.Run(caseName(args), func(t *testing.T) {
			out := mustRun(t, args...)
			for i, line := range strings.Split(out, "\n") {
				if n := len([]rune(line)); n > 100 {
					t.Errorf("mark1 %s: line %d is %d columns wide: %q", strings.Join(args, " "), i+1, n, line)
				}
			}
		})
	}
}
