package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The teacher's key (docs/lab/key.md) answers every question of every worksheet. The convention
// the tests hold:
//
//   - a worksheet's questions are the paragraphs that start "*Question N.M:*" or
//     "*Questions N.M:*" (one question or several that belong together), N the worksheet's
//     number and M counting from 1 in the order of the worksheet; no other paragraph of a
//     worksheet asks anything (has a "?" outside code);
//   - the key has a section "## N. TITLE" for each worksheet, in order, TITLE the worksheet's
//     own ("# Worksheet N: TITLE"), and in it one answer for each of the worksheet's questions,
//     in order: a paragraph that starts "**N.M**", running on to the next answer or section;
//   - a figure an answer quotes from a run is written as a code span; every code span with a
//     digit in it must be in what the commands of the key's section, or of its worksheet,
//     printed (TestLabWorksheets runs them; see checkKeyFigures).

const keyFile = "../../docs/lab/key.md"

var (
	worksheetTitle = regexp.MustCompile(`^# Worksheet (\d+): (.+)$`)
	questionLabel  = regexp.MustCompile(`^\*Questions? (\d+)\.(\d+):\*`)
	keySectionHead = regexp.MustCompile(`^## (\d+)\. (.+)$`)
	answerLabel    = regexp.MustCompile(`^\*\*(\d+)\.(\d+)\*\*`)
	linkTarget     = regexp.MustCompile(`\]\([^)\s]*\)`) // a Markdown link's address
)

// mdParagraph is a paragraph of a Markdown file outside its code blocks, lines joined; a heading
// is a paragraph of its own.
type mdParagraph struct {
	line int
	text string
}

func mdParagraphs(t *testing.T, file string) []mdParagraph {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []mdParagraph
	var cur []string
	start, inCode := 0, false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, mdParagraph{start, strings.Join(cur, " ")})
		}
		cur = nil
	}
	for i, l := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			inCode = !inCode
		case inCode:
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "#"):
			flush()
			out = append(out, mdParagraph{i + 1, trimmed})
		default:
			if len(cur) == 0 {
				start = i + 1
			}
			cur = append(cur, trimmed)
		}
	}
	flush()
	return out
}

// worksheet is a worksheet's number, title and question labels ("3.1", "3.2", ...).
type worksheet struct {
	file      string
	n         int
	title     string
	questions []string
}

// readWorksheet reads a worksheet's title and questions, failing the test where they break the
// convention.
func readWorksheet(t *testing.T, file string) worksheet {
	t.Helper()
	w := worksheet{file: file, n: worksheetNumber(file)}
	for i, p := range mdParagraphs(t, file) {
		if i == 0 {
			m := worksheetTitle.FindStringSubmatch(p.text)
			if m == nil || m[1] != strconv.Itoa(w.n) {
				t.Errorf("%s:%d: want the title \"# Worksheet %d: TITLE\", have %q", file, p.line, w.n, p.text)
				continue
			}
			w.title = m[2]
			continue
		}
		if m := questionLabel.FindStringSubmatch(p.text); m != nil {
			want := fmt.Sprintf("%d.%d", w.n, len(w.questions)+1)
			if got := m[1] + "." + m[2]; got != want {
				t.Errorf("%s:%d: question %s, want %s (worksheet %d's questions numbered in order)", file, p.line, got, want, w.n)
			}
			w.questions = append(w.questions, want)
			continue
		}
		// A link's address (the page's /lab/?demo=...) asks nothing.
		if !strings.HasPrefix(p.text, "#") && strings.Contains(linkTarget.ReplaceAllString(codeSpan.ReplaceAllString(p.text, ""), "]"), "?") {
			t.Errorf("%s:%d: a question outside a \"*Question N.M:*\" paragraph (the key could not answer it): %q", file, p.line, p.text)
		}
	}
	if len(w.questions) == 0 {
		t.Errorf("%s: no questions", file)
	}
	return w
}

// keySection is one worksheet's part of the key.
type keySection struct {
	n       int
	title   string
	line    int
	answers []keyAnswer
}

type keyAnswer struct {
	label string // "3.1"
	line  int
	text  string // its paragraphs, joined
}

// readKey reads the key's sections and answers.
func readKey(t *testing.T, file string) []keySection {
	t.Helper()
	var out []keySection
	for _, p := range mdParagraphs(t, file) {
		if strings.HasPrefix(p.text, "## ") {
			m := keySectionHead.FindStringSubmatch(p.text)
			if m == nil {
				t.Errorf("%s:%d: a section that is not \"## N. TITLE\": %q", file, p.line, p.text)
				continue
			}
			n, _ := strconv.Atoi(m[1])
			out = append(out, keySection{n: n, title: m[2], line: p.line})
			continue
		}
		if strings.HasPrefix(p.text, "#") || len(out) == 0 {
			continue
		}
		s := &out[len(out)-1]
		if m := answerLabel.FindStringSubmatch(p.text); m != nil {
			s.answers = append(s.answers, keyAnswer{label: m[1] + "." + m[2], line: p.line, text: p.text})
			continue
		}
		if len(s.answers) > 0 {
			a := &s.answers[len(s.answers)-1]
			a.text += " " + p.text
		}
	}
	return out
}

// TestLabKey: the key answers every question of every worksheet, in the worksheets' order, and
// nothing else (see the convention above).
func TestLabKey(t *testing.T) {
	files, err := filepath.Glob("../../docs/lab/[0-9][0-9]-*.md")
	if err != nil || len(files) < 14 {
		t.Fatalf("worksheets: %v, %v", files, err)
	}
	sections := readKey(t, keyFile)
	for i, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".md"), func(t *testing.T) {
			w := readWorksheet(t, file)
			if w.n != i+1 {
				t.Fatalf("%s: worksheet %d where %d was due", file, w.n, i+1)
			}
			if i >= len(sections) {
				t.Errorf("%s: no section \"## %d. %s\"", keyFile, w.n, w.title)
				return
			}
			s := sections[i]
			if s.n != w.n || s.title != w.title {
				t.Errorf("%s:%d: section \"## %d. %s\", want \"## %d. %s\" (the worksheet's title)", keyFile, s.line, s.n, s.title, w.n, w.title)
			}
			var got []string
			for _, a := range s.answers {
				got = append(got, a.label)
				if words := len(strings.Fields(a.text)); words < 12 {
					t.Errorf("%s:%d: answer %s has %d words: an answer, not a placeholder", keyFile, a.line, a.label, words)
				}
			}
			for j, q := range w.questions {
				if !strings.Contains(strings.Join(got, " ")+" ", q+" ") {
					t.Errorf("%s: question %s (%s) has no answer \"**%s**\" in section %d", keyFile, q, filepath.Base(file), q, w.n)
				} else if j >= len(got) || got[j] != q {
					t.Errorf("%s: section %d answers %v, want %v in that order", keyFile, w.n, got, w.questions)
					break
				}
			}
			if len(got) > len(w.questions) {
				t.Errorf("%s: section %d answers %v, but worksheet %d asks only %v", keyFile, w.n, got, w.n, w.questions)
			}
		})
	}
	if len(sections) > len(files) {
		t.Errorf("%s: %d sections for %d worksheets", keyFile, len(sections), len(files))
	}
}

// checkKeyFigures runs the mark1 commands of the key's sh blocks (in the current folder, in
// order) and holds every code span with a digit in an answer to what the commands of its
// section, or of its worksheet (worksheetOutput, by number), printed. It returns the number of
// commands run.
func checkKeyFigures(t *testing.T, file string, worksheetOutput map[int]string) int {
	t.Helper()
	sections := readKey(t, file)
	printed := map[int]string{} // by the key's part: its "## " headings in order, from 1
	cmds := shCommands(t, file)
	for _, c := range cmds {
		code, stdout, stderr := mark1(t, c.args...)
		if code != 0 {
			t.Fatalf("%s:%d: %s: exit %d: %s", file, c.line, c.text, code, stderr)
		}
		if c.out != "" {
			if err := os.WriteFile(c.out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		printed[c.part] += stdout + "\n"
	}
	for i, s := range sections {
		out := flat(printed[i+1] + worksheetOutput[s.n])
		for _, a := range s.answers {
			for _, m := range codeSpan.FindAllStringSubmatch(a.text, -1) {
				if strings.ContainsAny(m[1], "0123456789") && !strings.Contains(out, flat(m[1])) {
					t.Errorf("%s:%d: answer %s quotes `%s`, which no command of the key's section %d or of worksheet %d printed", file, a.line, a.label, m[1], s.n, s.n)
				}
			}
		}
	}
	return len(cmds)
}
