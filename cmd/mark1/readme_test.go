package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/mdblock"
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
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	// The blocks whose every line is a mark1 command run here, in-process (docs/docs_test.go
	// runs every block, with the installed commands, in make test); a block after a
	// "docs-test:" comment needs a display, a rig or a server, and is left to that test.
	blocks, _, err := mdblock.Parse("README.md", f)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, b := range blocks {
		if b.Lang == "sh" && b.Directive == "" {
			ran += runReadmeBlock(t, b.Lines(), b.Line)
		}
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
	for i, l := range block {
		if l == "" {
			continue
		}
		c, _ := mdblock.ParseCommand("mark1", l)
		code, stdout, stderr := mark1(t, c.Args...)
		if code != 0 {
			t.Fatalf("README.md:%d: %s: exit %d: %s", start+1+i, l, code, stderr)
		}
		if c.Out != "" {
			if err := os.WriteFile(c.Out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ran++
	}
	return ran
}
