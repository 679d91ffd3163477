package view_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// museumTexts returns every text the museum may show or print, each with where it is: the
// string constants of the non-test Go files of view and its catalogue (view/i18n: every
// language), museum (with its subpackages), session
// and cmd/mark1-museum, and the lines of the page in web/; and, apart, the paragraphs of
// docs/museum.md, which may speak of 1958 without a claim.
func museumTexts(t *testing.T) (shown, docs map[string]string) {
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range []string{".", "../museum", "../session", "../cmd/mark1-museum"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && dir == "." && path != "." && path != "i18n" {
				return filepath.SkipDir // view's own folder and its catalogue (testdata holds no Go)
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out[fset.Position(lit.Pos()).String()] = s
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("../web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		out["../web/index.html:"+strconv.Itoa(i+1)] = line
	}
	if len(out) < 500 {
		t.Fatalf("only %d texts found: the test is not reading the museum's sources", len(out))
	}
	b, err = os.ReadFile("../docs/museum.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = map[string]string{}
	for i, p := range strings.Split(string(b), "\n\n") {
		docs["../docs/museum.md, paragraph "+strconv.Itoa(i+1)] = strings.ReplaceAll(p, "\n", " ")
	}
	return out, docs
}

var builtIn1958 = regexp.MustCompile(`(?i)built[^.]{0,80}1958|1958[^.]{0,80}built|1958\s*[-–]\s*(19)?60|as in 1958`)

// cited1958 is a 1958 paper cited by name, whose year dates the paper, not the machine.
var cited1958 = regexp.MustCompile(`(Research Trends|Psychological Review)[^.()]{0,30}1958`)

// The Mark I was built and shown in 1960 (its operators' manual is dated February 1960; Hay
// and Wightman described it in CAL's Research Trends, Spring 1960); what was demonstrated in
// July 1958 was the perceptron simulated on an IBM 704 (issue 20). No museum text says the
// machine was built in 1958; a text naming 1958 speaks of the IBM 704 or the simulation, or
// cites a paper of 1958 by name (Research Trends, 1958). And
// the original's pace of about 3 s a card comes from a secondary account without a source: a
// text giving it says it is assumed.
func TestNoTextSaysBuiltIn1958(t *testing.T) {
	n1958, n3s := 0, 0
	shown, docs := museumTexts(t)
	for where, s := range docs {
		if builtIn1958.MatchString(s) {
			t.Errorf("%s: %q: the Mark I was built and shown in 1960; 1958 was a simulation on an IBM 704", where, s)
		}
		shown[where] = s // and the pace, below
	}
	for where, s := range shown {
		if strings.Contains(s, "1958") && docs[where] == "" {
			n1958++
			uncited := strings.Contains(cited1958.ReplaceAllString(s, ""), "1958")
			if builtIn1958.MatchString(s) || uncited && !strings.Contains(s, "704") && !strings.Contains(strings.ToLower(s), "simulat") {
				t.Errorf("%s: %q: the Mark I was built and shown in 1960; 1958 was a simulation on an IBM 704", where, s)
			}
		}
		if strings.Contains(s, "3 s a card") || strings.Contains(s, "3 seconds a card") {
			n3s++
			if !strings.Contains(s, "assumed") {
				t.Errorf("%s: %q: about 3 s a card is an assumed pace; say so", where, s)
			}
		}
	}
	if n3s == 0 {
		t.Errorf("no text gives the pace of 3 s a card: the test reads the wrong files")
	}
	t.Logf("%d texts name 1958, %d give 3 s a card", n1958, n3s)
}

// unsourced are claims about the Mark I that ../shared/mark1-facts.md does not support, in
// the catalogue's four languages: a superlative (the first machine, the best-known test), or
// a result the record gives for another perceptron (squares and circles 99.8% with 500
// A-units, E and F over 80% with 1,000) credited to the Mark I in the same sentence.
var unsourced = regexp.MustCompile(`(?i)the first (machine|computer)|best[- ]known|most famous|` +
	`erste Maschine|bekannteste|berühmteste|première machine|plus connu|plus célèbre|` +
	`primera máquina|más conocid|más famos|` +
	`Mark I[^.]{0,120}(99[.,]8|80[\s\x{a0}]?%)|(99[.,]8|80[\s\x{a0}]?%)[^.]{0,120}Mark I`)

// No museum text, in any language, makes a claim about the Mark I that the sources do not
// support: no superlative, and no other perceptron's result credited to the Mark I.
func TestNoUnsourcedClaims(t *testing.T) {
	shown, docs := museumTexts(t)
	for where, s := range docs {
		shown[where] = s
	}
	n := 0
	for where, s := range shown {
		if strings.Contains(s, "Mark I") {
			n++
		}
		if m := unsourced.FindString(s); m != "" {
			t.Errorf("%s: %q: %q is not in the sources (../shared/mark1-facts.md)", where, s, m)
		}
	}
	if n < 20 {
		t.Errorf("only %d texts name the Mark I: the test reads the wrong files", n)
	}
}
