package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs every mark1 command of the README's "sh" code blocks, in order, in a
// fresh folder that holds the repository's testdata: the examples must run as written. A
// command may end with "> FILE" (its output is written there) and a "# comment".
func TestReadmeExamples(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := t.TempDir()
	testdata, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(testdata, filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	// The blocks whose every line is a mark1 command run here, in-process (docs/docs_test.go
	// runs every block, with the installed commands, in make test); a block after a
	// "docs-test:" comment needs a display, a rig or a server, and is left to that test.
	sc := bufio.NewScanner(f)
	var block []string
	inSh, line, start, ran, prev, directive := false, 0, 0, 0, "", false
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "```") && !inSh:
			inSh = trimmed == "```sh"
			block, start, directive = nil, line, strings.Contains(prev, "docs-test:")
		case strings.HasPrefix(trimmed, "```"):
			inSh = false
			if !directive {
				ran += runReadmeBlock(t, block, start)
			}
		case inSh:
			block = append(block, trimmed)
		}
		prev = text
	}
	if ran < 10 {
		t.Fatalf("ran only %d README examples", ran)
	}
}

// runReadmeBlock runs a README block (its first line at line start) when every line of it is a
// mark1 command, and returns how many commands ran.
func runReadmeBlock(t *testing.T, block []string, start int) int {
	t.Helper()
	for _, l := range block {
		if l != "" && !strings.HasPrefix(l, "mark1 ") {
			return 0
		}
	}
	ran := 0
	for i, trimmed := range block {
		if trimmed == "" {
			continue
		}
		if j := strings.Index(trimmed, " #"); j >= 0 {
			trimmed = strings.TrimSpace(trimmed[:j])
		}
		args := strings.Fields(trimmed)[1:]
		out := ""
		if n := len(args); n >= 2 && args[n-2] == ">" {
			out, args = args[n-1], args[:n-2]
		}
		code, stdout, stderr := mark1(t, args...)
		if code != 0 {
			t.Fatalf("README.md:%d: %s: exit %d: %s", start+1+i, trimmed, code, stderr)
		}
		if out != "" {
			if err := os.WriteFile(out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	return ran
}
