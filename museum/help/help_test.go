package help

import (
	"strings"
	"testing"
)

func TestAsked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-h"}, true},
		{[]string{"--help"}, true},
		{[]string{"-help"}, true},
		{[]string{"--h"}, true},
		{[]string{"--kiosk", "-h"}, true},
		{[]string{"--experiment", "ef", "--help"}, true},
		{[]string{"--experiment=ef", "-h"}, true},
		{[]string{"--stats", "--ideal", "-h"}, true},
		{nil, false},
		{[]string{"--kiosk"}, false},
		{[]string{"--screenshot", "-h"}, false}, // a file named -h
		{[]string{"--experiment", "ef", "extra", "-h"}, false},
		{[]string{"--", "-h"}, false},
		{[]string{"-", "-h"}, false},
		{[]string{"---h"}, false},
		{[]string{"-hx"}, false},
	} {
		name := strings.Join(c.args, " ")
		if name == "" {
			name = "no arguments"
		}
		t.Run(name, func(t *testing.T) {
			if got := Asked(c.args); got != c.want {
				t.Errorf("Asked(%q) = %v, want %v", c.args, got, c.want)
			}
		})
	}
}

// Every flag is in the usage (mark1 museum's old short list left three out).
func TestTextListsEveryFlag(t *testing.T) {
	for _, f := range []string{"--fullscreen", "--kiosk", "--experiment", "--state-dir", "--save-every", "--speed", "--seed",
		"--ideal", "--attract", "--pretrain", "--screenshot", "--frames", "--stats"} {
		if !strings.Contains(Text, "\n  "+f+" ") {
			t.Errorf("the usage does not list %s", f)
		}
	}
}

// The flags Asked takes to have no value are flags the usage lists without one (the window
// tests check, through Asked, that they are the program's flags that take none).
func TestBoolFlagsListed(t *testing.T) {
	for _, name := range boolFlags {
		line := "\n  --" + name + " "
		_, rest, ok := strings.Cut("\n"+Flags, line)
		if !ok {
			t.Errorf("the usage does not list --%s", name)
			continue
		}
		if !strings.HasPrefix(rest, "  ") { // a value's name would follow the flag's
			rest, _, _ = strings.Cut(rest, "\n")
			t.Errorf("the usage gives --%s a value: %q", name, rest)
		}
	}
}

// The usage fits a terminal of 80 columns, as every other command's does.
func TestTextFits80Columns(t *testing.T) {
	for i, line := range strings.Split(Text, "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("line %d of the usage is %d columns: %q", i+1, n, line)
		}
	}
}
