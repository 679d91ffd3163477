package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLabWorksheets runs every mark1 command of the worksheets' "sh" code blocks
// (docs/lab/*.md), each worksheet in a fresh folder, in order: the commands a teacher hands out
// must run as written. A command may end with "> FILE" (its output is written there).
func TestLabWorksheets(t *testing.T) {
	files, err := filepath.Glob("../../docs/lab/*.md")
	if err != nil || len(files) < 8 {
		t.Fatalf("worksheets: %v, %v", files, err)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	start := time.Now()
	ran := 0
	for _, file := range files {
		cmds := shCommands(t, file)
		if strings.HasSuffix(file, "README.md") {
			continue
		}
		if len(cmds) == 0 {
			t.Errorf("%s: no mark1 command", file)
		}
		if err := os.Chdir(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
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
			}
			ran++
		}
		os.Chdir(wd)
	}
	if ran < 20 {
		t.Fatalf("ran only %d worksheet commands", ran)
	}
	t.Logf("%d commands in %v", ran, time.Since(start))
}

type shCommand struct {
	line      int
	text, out string
	args      []string
}

// shCommands returns the mark1 commands of a Markdown file's ```sh blocks.
func shCommands(t *testing.T, file string) []shCommand {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []shCommand
	sc := bufio.NewScanner(f)
	inSh, line := false, 0
	for sc.Scan() {
		line++
		trimmed := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inSh = !inSh && trimmed == "```sh"
			continue
		case !inSh:
			continue
		case !strings.HasPrefix(trimmed, "mark1 "):
			if trimmed != "" {
				t.Errorf("%s:%d: a line in a sh block that is not a mark1 command: %q", file, line, trimmed)
			}
			continue
		}
		text := trimmed
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		args := strings.Fields(trimmed)[1:]
		c := shCommand{line: line, text: text}
		if n := len(args); n >= 2 && args[n-2] == ">" {
			c.out, args = args[n-1], args[:n-2]
		}
		c.args = args
		out = append(out, c)
	}
	return out
}
