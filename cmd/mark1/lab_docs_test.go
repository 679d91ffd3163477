package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
)

// TestLabWorksheets runs every mark1 command of the worksheets' "sh" code blocks
// (docs/lab/NN-*.md), each worksheet in a fresh folder, in order: the commands a teacher hands
// out must run as written, and their text must fit a terminal (checkWidth). A command may end with "> FILE" (its output is written there). From
// worksheet 9 on, what each part's "*Observe:*" paragraphs quote must be in what the part's
// commands printed (see checkObservations); in worksheets 1 to 8, every figure they quote must
// be what its command measured (see checkFigures). Then the teacher's key's commands run, and
// every figure its answers quote must be in what they or the worksheet's commands printed (see
// checkKeyFigures).
func TestLabWorksheets(t *testing.T) {
	files, err := filepath.Glob("../../docs/lab/[0-9][0-9]-*.md")
	if err != nil || len(files) < 14 {
		t.Fatalf("worksheets: %v, %v", files, err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	start := time.Now()
	ran := 0
	worksheetOutput := map[int]string{} // by worksheet number: everything its commands printed
	for _, file := range files {
		cmds := shCommands(t, file)
		if len(cmds) == 0 {
			t.Errorf("%s: no mark1 command", file)
		}
		if err := os.Chdir(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		printed := map[int]string{} // each part's commands' output
		outs := make([]string, len(cmds))
		for i, c := range cmds {
			t0 := time.Now()
			code, stdout, stderr := mark1(t, c.args...)
			if testing.Verbose() {
				t.Logf("%v %s", time.Since(t0).Round(time.Millisecond), c.text)
			}
			if code != 0 {
				t.Fatalf("%s:%d: %s: exit %d: %s", file, c.line, c.text, code, stderr)
			}
			if c.out != "" {
				if err := os.WriteFile(c.out, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if c.args[0] == "lab" || c.args[0] == "experiment" {
				checkWidth(t, c.args, stdout, textWidth()) // a teacher's terminal: see labColumns
			}
			printed[c.part] += stdout + "\n"
			worksheetOutput[worksheetNumber(file)] += stdout + "\n"
			outs[i] = stdout
			ran++
		}
		if !checked(file) {
			checkFigures(t, filepath.Join(wd, file), cmds, outs) // worksheets 1 to 8: lab_figures_test.go
		}
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
		if checked(file) {
			checkObservations(t, file, printed)
		}
	}
	if ran < 20 {
		t.Fatalf("ran only %d worksheet commands", ran)
	}
	if err := os.Chdir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	ran += checkKeyFigures(t, filepath.Join(wd, keyFile), worksheetOutput)
	t.Logf("%d commands in %v", ran, time.Since(start))
}

type shCommand struct {
	line, part int // part: the "## " headings above it
	text, out  string
	args       []string
}

// shCommands returns the mark1 commands of a Markdown file's ```sh blocks (any other line in
// them is an error: a worksheet's blocks are all mark1 commands).
func shCommands(t *testing.T, file string) []shCommand {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks, _, err := mdblock.Parse(file, f)
	if err != nil {
		t.Fatal(err)
	}
	var out []shCommand
	for _, b := range blocks {
		if b.Lang != "sh" {
			continue
		}
		for k, l := range b.Lines() {
			c, ok := mdblock.ParseCommand("mark1", l)
			if !ok {
				if l != "" {
					t.Errorf("%s:%d: a line in a sh block that is not a mark1 command: %q", file, b.Line+1+k, l)
				}
				continue
			}
			out = append(out, shCommand{line: b.Line + 1 + k, part: b.Section, text: l, args: c.Args, out: c.Out})
		}
	}
	return out
}

// checked reports whether a worksheet's observations are checked against its output: those
// numbered 9 and on (09-trace.md, ...).
func checked(file string) bool {
	return worksheetNumber(file) >= 9
}

// worksheetNumber is the number a worksheet's file name starts with (0 for another file).
func worksheetNumber(file string) int {
	n, err := strconv.Atoi(strings.SplitN(filepath.Base(file), "-", 2)[0])
	if err != nil {
		return 0
	}
	return n
}

var (
	// A number as a worksheet writes it: alone, not part of a name such as x1, w0 or K-1.
	proseNumber = regexp.MustCompile(`(?:^|[\s(\[])(-?\d+(?:\.\d+)?(?:/\d+)?)(?:%|\b)`)
	// A number anywhere in a program's output.
	outputNumber = regexp.MustCompile(`-?\d+(?:\.\d+)?(?:/\d+)?`)
	thousands    = regexp.MustCompile(`(\d),(\d{3})\b`)
	codeSpan     = regexp.MustCompile("`([^`]*)`")
)

// flat joins a text's lines and runs of spaces, and writes 1,620 as 1620.
func flat(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for thousands.MatchString(s) {
		s = thousands.ReplaceAllString(s, "$1$2")
	}
	return s
}

// checkObservations holds each "*Observe:*" paragraph of a worksheet to what the commands of
// its part (the text under the same "## " heading) printed: every `code span` with a digit in
// it must be in the output as written (lines and spaces joined), and every other number of the
// paragraph must be among the output's numbers. A worksheet cannot quote a figure its commands
// do not print.
func checkObservations(t *testing.T, file string, printed map[int]string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	part, n := 0, 0
	inCode := false
	var para []string
	paraLine := 0
	flush := func() {
		defer func() { para = nil }()
		text := strings.Join(para, " ")
		if !strings.HasPrefix(text, "*Observe") {
			return
		}
		n++
		out := flat(printed[part])
		if out == "" {
			t.Errorf("%s:%d: an observation in a part without commands", file, paraLine)
			return
		}
		have := map[string]bool{}
		for _, m := range outputNumber.FindAllString(out, -1) {
			have[m] = true
		}
		for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
			if strings.ContainsAny(m[1], "0123456789") && !strings.Contains(out, flat(m[1])) {
				t.Errorf("%s:%d: the output of the part's commands lacks `%s`", file, paraLine, m[1])
			}
		}
		prose := flat(codeSpan.ReplaceAllString(text, " "))
		for _, m := range proseNumber.FindAllStringSubmatch(prose, -1) {
			if !have[m[1]] {
				t.Errorf("%s:%d: the output of the part's commands has no number %s", file, paraLine, m[1])
			}
		}
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
		case strings.HasPrefix(trimmed, "## "):
			flush()
			part++
		default:
			if len(para) == 0 {
				paraLine = i + 1
			}
			para = append(para, trimmed)
		}
	}
	flush()
	if n == 0 {
		t.Errorf("%s: no *Observe:* paragraph", file)
	}
}
