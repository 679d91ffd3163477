package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var ran []string
	cmd := func(name string, err error) func([]string, io.Writer, io.Writer) error {
		return func(args []string, _, _ io.Writer) error {
			ran = append(ran, name+" "+strings.Join(args, " "))
			return err
		}
	}
	p := &Program{
		Name: "prog", Title: "prog: a test", Synopsis: "[COMMAND] [flags]", Footer: "Footer.",
		Commands: []Command{
			{"go", "[flags]", "go on", cmd("go", nil)},
			{"fail", "", "fail", cmd("fail", errors.New("broke"))},
			{"misuse", "", "misuse", cmd("misuse", &UsageError{"bad flag"})},
			{"help-me", "", "print flags", cmd("help-me", flag.ErrHelp)},
			{"odd", "", "exit 7", cmd("odd", errors.New("odd"))},
		},
		Status: func(err error) (int, bool) { return 7, err.Error() == "odd" },
	}
	usage := "prog: a test\n\nusage: prog [COMMAND] [flags]\n\ncommands:\n" +
		"  go      [flags]\n            go on\n  fail    \n            fail\n" +
		"  misuse  \n            misuse\n  help-me \n            print flags\n" +
		"  odd     \n            exit 7\n\nFooter.\n"
	cases := []struct {
		name           string
		def            string
		args           []string
		status         int
		stdout, stderr string
	}{
		{"no-args", "", nil, 2, usage, ""},
		{"help", "", []string{"help"}, 0, usage, ""},
		{"-h", "", []string{"-h"}, 0, usage, ""},
		{"--help", "", []string{"--help"}, 0, usage, ""},
		{"go_-x", "", []string{"go", "-x"}, 0, "", ""},
		{"-x", "", []string{"-x"}, 2, "", "prog: unknown command \"-x\" (run \"prog help\")\n"},
		{"nope", "", []string{"nope"}, 2, "", "prog: unknown command \"nope\" (run \"prog help\")\n"},
		{"fail", "", []string{"fail"}, 1, "", "prog fail: broke\n"},
		{"misuse", "", []string{"misuse"}, 2, "", "prog misuse: bad flag\n"},
		{"help-me", "", []string{"help-me"}, 0, "", ""},
		{"odd", "", []string{"odd"}, 7, "", "prog odd: odd\n"},
		{"default=go,no-args", "go", nil, 0, "", ""},
		{"default=go,-x_y", "go", []string{"-x", "y"}, 0, "", ""},
		{"default=go,fail", "go", []string{"fail"}, 1, "", "prog fail: broke\n"},
	}
	done := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			done++
			p.Default = tc.def
			var stdout, stderr bytes.Buffer
			if status := p.Run(tc.args, &stdout, &stderr); status != tc.status || stdout.String() != tc.stdout || stderr.String() != tc.stderr {
				t.Errorf("default %q, %q: status %d, stdout %q, stderr %q; want %d, %q, %q",
					tc.def, tc.args, status, stdout.String(), stderr.String(), tc.status, tc.stdout, tc.stderr)
			}
		})
	}
	// What ran is checked over the whole table: not when -run picks some of its cases.
	if done < len(cases) {
		return
	}
	want := "go -x|fail |misuse |help-me |odd |go |go -x y|fail "
	if got := strings.Join(ran, "|"); got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestFlagUsage(t *testing.T) {
	fs := flag.NewFlagSet("prog go", flag.ContinueOnError)
	fs.Int("n", 3, "how many")
	var b bytes.Buffer
	FlagUsage(&b, fs, "[flags]", fs.PrintDefaults)
	if want := "usage: prog go [flags]\n\nflags:\n  -n int\n    \thow many (default 3)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// A usage line longer than 80 columns is wrapped at spaces, its next lines indented.
func TestFlagUsageWraps(t *testing.T) {
	fs := flag.NewFlagSet("prog go", flag.ContinueOnError)
	var b bytes.Buffer
	FlagUsage(&b, fs, strings.Repeat("[--flag N] ", 12), fs.PrintDefaults)
	head, _, _ := strings.Cut(b.String(), "\n\n")
	lines := strings.Split(head, "\n")
	if len(lines) < 2 {
		t.Fatalf("one line: %q", head)
	}
	for i, l := range lines {
		if len(l) > 80 || i > 0 && !strings.HasPrefix(l, "        [") {
			t.Errorf("line %d: %q", i+1, l)
		}
	}
	if got := strings.Join(strings.Fields(head), " "); got != "usage: prog go "+strings.TrimSpace(strings.Repeat("[--flag N] ", 12)) {
		t.Errorf("words changed: %q", got)
	}
}
