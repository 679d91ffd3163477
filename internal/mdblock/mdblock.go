// Package mdblock reads the code blocks of a Markdown file, for the tests that run the
// documentation's commands (docs/, cmd/mark1's README and worksheet tests): fenced blocks with
// their language, the line they open on, the "## " section they are in and the
// "<!-- docs-test: ... -->" comment before them, and the lines of any indented code block (which
// the project does not use: a command is fenced ```sh, anything else with its language).
package mdblock

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// A Block is a fenced code block.
type Block struct {
	Line    int    // the opening fence's line, from 1
	Lang    string // the first word of the fence's info string ("sh", "text", "" for none)
	Text    string // the lines between the fences, the fence's indentation removed; ends in "\n"
	Section int    // how many "## " headings come before the block
	// Directive is the comment "<!-- docs-test: ... -->" on the line before the fence, if any
	// (what is between "docs-test:" and "-->", trimmed).
	Directive string
}

// Lines returns the block's lines, trimmed of spaces.
func (b Block) Lines() []string {
	lines := strings.Split(strings.TrimSuffix(b.Text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return lines
}

var (
	fenceRe     = regexp.MustCompile("^(\\s*)(```+|~~~+)\\s*([^`\\s]*)")
	listItemRe  = regexp.MustCompile(`^(\s*)([-*+]|\d+[.)])\s+`)
	directiveRe = regexp.MustCompile(`^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$`)
)

// Parse returns the fenced blocks of the Markdown file read from r (name is used in errors)
// and the lines of its indented code blocks. A block never closed is an error naming its line.
func Parse(name string, r io.Reader) (blocks []Block, indented []int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var (
		n         int
		in        *Block
		fence     string
		indent    int // the fence's indentation, stripped from its lines
		body      []string
		prev      string // the previous line
		blank     = true
		listInner = 0 // the content indentation of the list item in force (0: none)
		inCode    bool
		section   int
	)
	for sc.Scan() {
		n++
		line := sc.Text()
		if in != nil {
			t := strings.TrimSpace(line)
			if strings.HasPrefix(t, fence[:3]) && strings.Trim(t, fence[:1]) == "" && len(t) >= len(fence) {
				in.Text = strings.Join(body, "\n") + "\n"
				blocks = append(blocks, *in)
				in = nil
				prev, blank = line, false
				continue
			}
			// The fence's indentation (a block in a list item) is not part of the code.
			cut := min(indent, len(line)-len(strings.TrimLeft(line, " ")))
			body = append(body, line[cut:])
			continue
		}
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			in = &Block{Line: n, Lang: m[3], Section: section}
			if d := directiveRe.FindStringSubmatch(prev); d != nil {
				in.Directive = d[1]
			}
			fence, indent, body, inCode = m[2], len(m[1]), nil, false
			prev, blank = line, false
			continue
		}
		t := strings.TrimSpace(line)
		lead := len(line) - len(strings.TrimLeft(line, " \t"))
		if strings.HasPrefix(line, "## ") {
			section++
		}
		switch {
		case t == "":
			blank = true
			prev = line
			continue
		case inCode && lead >= listInner+4:
			prev = line
			continue
		case listItemRe.MatchString(line):
			m := listItemRe.FindStringSubmatch(line)
			listInner = len(m[0])
			inCode = false
		case blank && lead >= listInner+4:
			indented = append(indented, n)
			inCode = true
		case lead < listInner && lead == 0:
			listInner, inCode = 0, false
		default:
			inCode = false
		}
		prev, blank = line, false
	}
	if in != nil {
		return nil, nil, fmt.Errorf("%s:%d: a code block that is never closed", name, in.Line)
	}
	return blocks, indented, sc.Err()
}

// A Command is a line of a shell block that runs one program: "PROG ARGS... [> FILE] [# note]".
type Command struct {
	Args []string // the arguments after the program's name
	Out  string   // the file its standard output goes to, or ""
}

// ParseCommand reads a line that runs prog (e.g. "mark1"): ok is false for any other line. A
// trailing " # comment" is dropped; "> FILE" at the end names the output's file.
func ParseCommand(prog, line string) (c Command, ok bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, prog+" ") {
		return c, false
	}
	if i := strings.Index(line, " #"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	args := strings.Fields(line)[1:]
	if n := len(args); n >= 2 && args[n-2] == ">" {
		c.Out, args = args[n-1], args[:n-2]
	}
	c.Args = args
	return c, true
}
