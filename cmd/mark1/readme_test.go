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

	sc := bufio.NewScanner(f)
	inSh, line, ran := false, 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inSh = !inSh && trimmed == "```sh"
			continue
		case !inSh || !strings.HasPrefix(trimmed, "mark1 "):
			continue
		}
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		args := strings.Fields(trimmed)[1:]
		out := ""
		if n := len(args); n >= 2 && args[n-2] == ">" {
			out, args = args[n-1], args[:n-2]
		}
		code, stdout, stderr := mark1(t, args...)
		if code != 0 {
			t.Fatalf("README.md:%d: %s: exit %d: %s", line, trimmed, code, stderr)
		}
		if out != "" {
			if err := os.WriteFile(out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	if ran < 10 {
		t.Fatalf("ran only %d README examples", ran)
	}
}
