package mdblock

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	doc := strings.Join([]string{
		"# Title",                          // 1
		"",                                 // 2
		"<!-- docs-test: simulate -->",     // 3
		"```sh",                            // 4
		"hwbridge serve &",                 // 5
		"```",                              // 6
		"",                                 // 7
		"1. A step:",                       // 8
		"",                                 // 9
		"   ```sh",                         // 10
		"   mark1 train --data builtin:ef", // 11
		"   ```",                           // 12
		"",                                 // 13
		"   text continuing the item",      // 14
		"",                                 // 15
		"       indented code in the item", // 16
		"",                                 // 17
		"Para.",                            // 18
		"    not code: continues the para", // 19
		"",                                 // 20
		"    indented code",                // 21
		"    more of it",                   // 22
		"",                                 // 23
		"~~~toml",                          // 24
		"a = 1",                            // 25
		"~~~",                              // 26
	}, "\n")
	blocks, indented, err := Parse("d.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d blocks: %+v", len(blocks), blocks)
	}
	want := []Block{
		{Line: 4, Lang: "sh", Text: "hwbridge serve &\n", Directive: "simulate"},
		{Line: 10, Lang: "sh", Text: "mark1 train --data builtin:ef\n"},
		{Line: 24, Lang: "toml", Text: "a = 1\n"},
	}
	for i := range want {
		if blocks[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, blocks[i], want[i])
		}
	}
	if fmt.Sprint(indented) != "[16 21]" {
		t.Errorf("indented code blocks at %v, want lines 16 and 21", indented)
	}
	if _, _, err := Parse("d.md", strings.NewReader("```sh\nnever closed\n")); err == nil || !strings.Contains(err.Error(), "d.md:1: a code block that is never closed") {
		t.Errorf("unclosed fence: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("# t\n\n```sh\necho hi\n```\n")
	f.Add("1. x\n\n       code\n")
	f.Add("<!-- docs-test: simulate -->\n~~~~sh\na\n~~~~\n")
	f.Fuzz(func(t *testing.T, s string) {
		blocks, indented, err := Parse("f.md", strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		lines := strings.Count(s, "\n") + 1
		for _, b := range blocks {
			if b.Line < 1 || b.Line > lines || !strings.HasSuffix(b.Text, "\n") {
				t.Fatalf("block %+v of a %d-line file", b, lines)
			}
		}
		for _, n := range indented {
			if n < 1 || n > lines {
				t.Fatalf("indented line %d of %d", n, lines)
			}
		}
	})
}

func TestSection(t *testing.T) {
	doc := "# T\n\n```sh\na\n```\n\n## One\n\n```sh\nb\n## not a heading\n```\n\n## Two\n\n```text\nc\n```\n"
	blocks, _, err := Parse("s.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, b := range blocks {
		got = append(got, b.Section)
	}
	if fmt.Sprint(got) != "[0 1 2]" {
		t.Errorf("sections %v, want [0 1 2]", got)
	}
}

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		ok   bool
		args string
		out  string
	}{
		{"command", "mark1 train --data builtin:ef", true, "[train --data builtin:ef]", ""},
		{"redirect-and-comment", "  mark1 weights --state d.state > weights.csv   # the weights", true, "[weights --state d.state]", "weights.csv"},
		{"another-program", "mark1x train", false, "[]", ""},
		{"mark1-as-an-argument", "go build -o mark1 ./cmd/mark1", false, "[]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := ParseCommand("mark1", tc.line)
			if ok != tc.ok || fmt.Sprint(c.Args) != tc.args || c.Out != tc.out {
				t.Errorf("ParseCommand(%q) = %+v, %v", tc.line, c, ok)
			}
		})
	}
}

func ExampleParse() {
	doc := "## Try it\n\n<!-- docs-test: timeout=10s -->\n```sh\nmark1 demo\n```\n"
	blocks, _, err := Parse("README.md", strings.NewReader(doc))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks {
		fmt.Printf("line %d, %s, section %d, %q: %s", b.Line, b.Lang, b.Section, b.Directive, b.Text)
	}
	// Output: line 4, sh, section 1, "timeout=10s": mark1 demo
}
