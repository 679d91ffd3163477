package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/lab/problem"
)

// editDistance is the number of single-rune insertions, deletions, substitutions and swaps of
// two neighbours that turn a into b (the optimal string alignment distance), ignoring case.
func editDistance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// d[i][j] is the distance between x[:i] and y[:j].
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// nearest returns the candidates closest to word, when close enough to be what was meant: at
// most 1 edit from a word of up to 4 runes, 2 up to 8, 3 beyond; or word (of 2 runes or more)
// the start of the candidate. Several equally close are all returned, in the candidates' order.
func nearest(word string, candidates []string) []string {
	n := utf8.RuneCountInString(word)
	limit := 3
	switch {
	case n <= 4:
		limit = 1
	case n <= 8:
		limit = 2
	}
	best, out := limit+1, []string(nil)
	for _, c := range candidates {
		d := editDistance(word, c)
		if n >= 2 && strings.HasPrefix(strings.ToLower(c), strings.ToLower(word)) {
			d = min(d, limit) // the start of a name: as near as the farthest typo
		}
		if d > limit {
			continue
		}
		switch {
		case d < best:
			best, out = d, []string{c}
		case d == best && !slices.Contains(out, c):
			out = append(out, c)
		}
	}
	return out
}

// didYouMean writes "; did you mean X?" (or "X or Y") for the suggestions, or "" for none.
func didYouMean(s []string) string {
	if len(s) == 0 {
		return ""
	}
	if len(s) > 3 {
		s = s[:3]
	}
	return "; did you mean " + strings.Join(s, " or ") + "?"
}

// flagHint is what parse adds to the flag package's error for a flag the command does not
// have: the nearest of its flags ("; did you mean --data?"), or "".
func (f *flagSet) flagHint(err error) string {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return ""
	}
	var names []string
	f.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
	s := nearest(name, names)
	for i := range s {
		s[i] = "--" + s[i]
	}
	return didYouMean(s)
}

// printDefaults prints the flags as the flag package does, each help text wrapped to stay
// within 100 columns (a tab counted as 8).
func (f *flagSet) printDefaults() {
	var b bytes.Buffer
	out := f.Output()
	f.SetOutput(&b)
	f.PrintDefaults()
	f.SetOutput(out)
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if text, ok := strings.CutPrefix(line, "    \t"); ok {
			line = "    \t" + wrapText(text, 92, "    \t")
		}
		fmt.Fprintln(out, line)
	}
}

// dataKinds are the forms of a card spec, for the errors; problems adds lab compare's.
func dataKinds(problems bool) string {
	if problems {
		return "builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS, problem:NAME[,key=value...] or a folder"
	}
	return "builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder"
}

// checkSpec refuses a data spec that names neither a kind of data mark1 knows nor a file or
// folder that exists, saying what it wants and suggesting the nearest spec: "bultin:ef" is
// builtin:ef mistyped, "ef" is builtin:ef without its prefix. problems says whether
// problem:NAME is a spec here (lab compare). Like any data not found, it is not a usage error
// (exit status 1).
func checkSpec(spec string, problems bool) error {
	prefixes := []string{"builtin:", "gen:", "idx:"}
	if problems {
		prefixes = append(prefixes, "problem:")
	}
	for _, p := range prefixes {
		if strings.HasPrefix(spec, p) {
			return nil
		}
	}
	if _, err := os.Stat(spec); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var guesses []string
	if pre, rest, ok := strings.Cut(spec, ":"); ok && pre != "" {
		for _, p := range nearest(pre+":", prefixes) {
			guesses = append(guesses, p+nearName(p, rest))
		}
		return fmt.Errorf("%q: no such folder, and %q is no kind of data (want %s)%s", spec, pre+":", dataKinds(problems), didYouMean(guesses))
	}
	// A name without its prefix: a built-in set, a generated kind, a problem.
	if slices.Contains(builtin.Names(), spec) {
		guesses = append(guesses, "builtin:"+spec)
	}
	if slices.Contains(genKinds(), spec) {
		guesses = append(guesses, "gen:"+spec)
	}
	if problems && slices.Contains(problemNames(), spec) {
		guesses = append(guesses, "problem:"+spec)
	}
	return fmt.Errorf("%q: no such folder (want %s)%s", spec, dataKinds(problems), didYouMean(guesses))
}

// nearName returns, for a spec of kind prefix, name or the nearest name of that kind (the
// part before any comma for gen: and problem:, which take options).
func nearName(prefix, name string) string {
	head, tail, comma := strings.Cut(name, ",")
	var names []string
	switch prefix {
	case "builtin:":
		names = builtin.Names()
	case "gen:":
		names = genKinds()
	case "problem:":
		names = problemNames()
	}
	if slices.Contains(names, head) {
		return name
	}
	if s := nearest(head, names); len(s) > 0 {
		head = s[0]
	}
	if comma {
		return head + "," + tail
	}
	return head
}

// nameHint suggests, for an unknown name of a kind of data ("eff" for builtin:), the nearest
// known one: "; did you mean builtin:ef?", or "".
func nameHint(prefix, name string) string {
	if n := nearName(prefix, name); n != name {
		return didYouMean([]string{prefix + n})
	}
	return ""
}

func genKinds() []string {
	var out []string
	for _, k := range gen.Kinds() {
		out = append(out, k.Name)
	}
	return out
}

func problemNames() []string {
	var out []string
	for _, p := range problem.Names() {
		out = append(out, p[0])
	}
	return out
}
