package main

import (
	"bytes"
	"flag"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
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
			line = "    \t" + wrapText(text, 72, "    \t") // the tab reaches column 8: 80 columns in all
		}
		fmt.Fprintln(out, line)
	}
}
