package docs

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
	blocks, indented, err := parse("d.md", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d blocks: %+v", len(blocks), blocks)
	}
	want := []block{
		{file: "d.md", line: 4, lang: "sh", text: "hwbridge serve &\n", directive: "simulate"},
		{file: "d.md", line: 10, lang: "sh", text: "mark1 train --data builtin:ef\n"},
		{file: "d.md", line: 24, lang: "toml", text: "a = 1\n"},
	}
	for i := range want {
		if blocks[i] != want[i] {
			t.Errorf("block %d: %+v, want %+v", i, blocks[i], want[i])
		}
	}
	if fmt.Sprint(indented) != "[16 21]" {
		t.Errorf("indented code blocks at %v, want lines 16 and 21", indented)
	}
	if _, _, err := parse("d.md", strings.NewReader("```sh\nnever closed\n")); err == nil || !strings.Contains(err.Error(), "d.md:1: a code block that is never closed") {
		t.Errorf("unclosed fence: %v", err)
	}
}

func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want how
	}{
		{"", true, how{}},
		{"simulate", true, how{simulate: true}},
		{"display, timeout=20s", true, how{display: true, timeout: 20e9}},
		{"pi: raspi-config is the Pi's", true, how{pi: "raspi-config is the Pi's"}},
		{"fails, system: writes /etc/mark1", true, how{system: "writes /etc/mark1", fails: true}},
		{"pi: on the Pi, as its user, then", true, how{pi: "on the Pi, as its user, then"}},
		{"simulate, skip: make test, itself", true, how{simulate: true, skip: "make test, itself"}},
		{"skip", false, how{}},
		{"timeout=forever", false, how{}},
		{"teleport", false, how{}},
	} {
		h, err := parseDirective(tc.in)
		if (err == nil) != tc.ok || (tc.ok && h != tc.want) {
			t.Errorf("parseDirective(%q) = %+v, %v", tc.in, h, err)
		}
	}
}

// TestParseExpect: an expect runs to the end of the comment and must compile.
func TestParseExpect(t *testing.T) {
	h, err := parseDirective("simulate, expect: epoch +1: +[1-9], then(?s).*moved")
	if err != nil || !h.simulate || h.expect == nil || h.expect.String() != "epoch +1: +[1-9], then(?s).*moved" {
		t.Fatalf("parseDirective = %+v, %v", h, err)
	}
	if !h.expect.MatchString("epoch   1:     2, then\nknobs moved") {
		t.Error("the expect does not match what it should")
	}
	for _, bad := range []string{"expect: (", "expect:"} {
		if _, err := parseDirective(bad); err == nil {
			t.Errorf("parseDirective(%q) accepted", bad)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("# t\n\n```sh\necho hi\n```\n")
	f.Add("1. x\n\n       code\n")
	f.Add("<!-- docs-test: simulate -->\n~~~~sh\na\n~~~~\n")
	f.Fuzz(func(t *testing.T, s string) {
		blocks, indented, err := parse("f.md", strings.NewReader(s))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		lines := strings.Count(s, "\n") + 1
		for _, b := range blocks {
			if b.line < 1 || b.line > lines || !strings.HasSuffix(b.text, "\n") {
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
