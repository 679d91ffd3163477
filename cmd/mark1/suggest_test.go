package main

import (
	"slices"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"data", "data", 0},
		{"dat", "data", 1},
		{"bultin", "builtin", 1},
		{"Builtin", "builtin", 0},
		{"metods", "methods", 1},
		{"epcohs", "epochs", 1}, // two neighbours swapped
		{"seed", "seeds", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
	} {
		t.Run(tt.a+" "+tt.b, func(t *testing.T) {
			if got := editDistance(tt.a, tt.b); got != tt.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := editDistance(tt.b, tt.a); got != tt.want {
				t.Errorf("editDistance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	flags := []string{"data", "test", "epochs", "seed", "set", "save", "json"}
	for _, tt := range []struct {
		word  string
		names []string
		want  []string
	}{
		{"dat", flags, []string{"data"}},
		{"epoch", flags, []string{"epochs"}},
		{"ep", flags, []string{"epochs"}},
		{"se", flags, []string{"seed", "set"}},
		{"jsn", flags, []string{"json"}},
		{"x", flags, nil},
		{"verbose", flags, nil},
		{"squares", []string{"squares-circles", "square-diamond", "ef"}, []string{"squares-circles"}},
		{"eff", []string{"ef", "leftright", "xe"}, []string{"ef"}},
	} {
		t.Run(tt.word, func(t *testing.T) {
			if got := nearest(tt.word, tt.names); !slices.Equal(got, tt.want) {
				t.Errorf("nearest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

// TestTypos: a mistyped flag or data spec is refused on one line that names it, says what is
// wanted and suggests the nearest, with exit status 2 for a command line (a flag, a kind of
// generated cards or problem) and 1 for data not found (a folder, a built-in set).
func TestTypos(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train", "-dat", "builtin:ef"}, 2, "flag provided but not defined: -dat; did you mean --data?"},
		{[]string{"train", "-epoch", "3", "--data", "builtin:ef"}, 2, "flag provided but not defined: -epoch; did you mean --epochs?"},
		{[]string{"lab", "compare", "--data", "builtin:ef", "--metods", "lsq"}, 2, "-metods; did you mean --methods?"},
		{[]string{"lab", "flaws", "--sed", "2"}, 2, "-sed; did you mean --seed or --set?"},
		{[]string{"train", "--verbose"}, 2, "flag provided but not defined: -verbose"},
		{[]string{"train", "--data", "bultin:ef"}, 1, `"bultin:ef": no such folder, and "bultin:" is no kind of data (want builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder); did you mean builtin:ef?`},
		{[]string{"train", "--data", "Builtin:xe"}, 1, "did you mean builtin:xe?"},
		{[]string{"train", "--data", "builtin:ef", "--test", "gne:ef,n=20"}, 1, `"gne:ef,n=20": no such folder, and "gne:" is no kind of data`},
		{[]string{"train", "--data", "builtin:ef", "--test", "gne:ef,n=20"}, 1, "did you mean gen:ef,n=20?"},
		{[]string{"train", "--data", "ef"}, 1, `"ef": no such folder (want builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder); did you mean builtin:ef or gen:ef?`},
		{[]string{"train", "--data", "builtin:eff"}, 1, `unknown built-in set "eff"`},
		{[]string{"train", "--data", "builtin:eff"}, 1, "did you mean builtin:ef?"},
		{[]string{"cards", "export", "--data", "gen:squares", "--out", "x"}, 2, "did you mean gen:squares-circles?"},
		{[]string{"cards", "export", "--data", "bultin:ef", "--out", "x"}, 1, "did you mean builtin:ef?"},
		{[]string{"lab", "compare", "--data", "bultin:ef"}, 1, "--data \"bultin:ef\": no such folder, and \"bultin:\" is no kind of data (want builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS, problem:NAME[,key=value...] or a folder); did you mean builtin:ef?"},
		{[]string{"lab", "compare", "--data", "problme:xor"}, 1, "did you mean problem:xor?"},
		{[]string{"lab", "compare", "--data", "xor"}, 1, "did you mean problem:xor?"},
		{[]string{"lab", "compare", "--data", "problem:xr"}, 2, `unknown problem "xr" (have separable, xor, parity, outliers, blobs); did you mean problem:xor?`},
		{[]string{"lab", "compare", "--data", "builtin:ef", "--test", "bultin:xe"}, 1, `--test "bultin:xe": no such folder`},
		{[]string{"lab", "flaws", "--data", "bultin:ef"}, 1, "did you mean builtin:ef?"},
		{[]string{"train", "--data", "no-such-folder"}, 1, `"no-such-folder": no such folder (want builtin:NAME`},
	}
	for _, tt := range tests {
		t.Run(caseName(tt.args), func(t *testing.T) {
			code, out, errs := mark1(t, tt.args...)
			cmd := strings.Join(tt.args, " ")
			if status := tt.code; code != status || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("mark1 %s: exit %d, stderr %q; want exit %d and one line with %q", cmd, code, errs, status, tt.want)
			}
			if out != "" {
				t.Errorf("mark1 %s: printed %q", cmd, out)
			}
			if strings.Contains(errs, "did you mean") && strings.Contains(tt.want, "verbose") {
				t.Errorf("mark1 %s: a suggestion for a name far from every flag: %q", cmd, errs)
			}
		})
	}
}
