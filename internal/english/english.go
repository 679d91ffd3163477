// Package english writes counts in English for mark1's output: "1 card", "60 cards",
// "seed 1", "seeds 1-5". Every count a person reads goes through it, so that none says
// "1 mistakes".
package english

import (
	"fmt"
	"strings"
)

// Noun returns noun as it goes with the count n: itself for 1, its plural otherwise ("es" after
// s, x, z and sh: "class", "classes"; "s" after anything else, "epoch" too: "R-units", "epochs").
func Noun(n int, noun string) string {
	if n == 1 || noun == "" {
		return noun
	}
	for _, end := range []string{"s", "x", "z", "sh"} {
		if strings.HasSuffix(noun, end) {
			return noun + "es"
		}
	}
	return noun + "s"
}

// Count returns n and noun: "1 card", "60 cards", "0 mistakes".
func Count(n int, noun string) string { return fmt.Sprintf("%d %s", n, Noun(n, noun)) }

// Span names n numbered things from first on: "seed 1" for one, "seeds 1-5" for five, "no
// seed" for none.
func Span(noun string, first uint64, n int) string {
	switch {
	case n <= 0:
		return "no " + noun
	case n == 1:
		return fmt.Sprintf("%s %d", noun, first)
	}
	return fmt.Sprintf("%s %d-%d", Noun(n, noun), first, first+uint64(n)-1)
}

// List joins items as a sentence does: "a", "a and b", "a, b and c".
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Brief joins names with spaces, shortened past eight to the first three, "...", and the last:
// a set's classes in a line ("a b c ... z").
func Brief(names []string) string {
	if len(names) > 8 {
		return strings.Join(names[:3], " ") + " ... " + names[len(names)-1]
	}
	return strings.Join(names, " ")
}
