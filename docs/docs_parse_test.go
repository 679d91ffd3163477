package docs

import (
	"testing"
	"time"
)

func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want how
	}{
		{"", true, how{}},
		{"simulate", true, how{simulate: true}},
		{"display, limit=20s", true, how{display: true, limit: 20e9}},
		{"display, timeout=20s", false, how{}}, // a program that runs until stopped says what shows it runs
		{"timeout=20s, limit=1m, expect: up", false, how{}},
		{"fails, timeout=20s, expect: up", false, how{}},
		{"limit=11m", false, how{}},
		{"pi: raspi-config is the Pi's", true, how{pi: "raspi-config is the Pi's"}},
		{"fails, system: writes /etc/mark1", true, how{system: "writes /etc/mark1", fails: true}},
		{"pi: on the Pi, as its user, then", true, how{pi: "on the Pi, as its user, then"}},
		{"simulate, skip: make test, itself", true, how{simulate: true, skip: "make test, itself"}},
		{"skip", false, how{}},
		{"timeout=forever", false, how{}},
		{"teleport", false, how{}},
	} {
		name := tc.in
		if name == "" {
			name = "none"
		}
		t.Run(name, func(t *testing.T) {
			h, err := parseDirective(tc.in)
			if (err == nil) != tc.ok || (tc.ok && h != tc.want) {
				t.Errorf("parseDirective(%q) = %+v, %v", tc.in, h, err)
			}
		})
	}
}

// TestParseExpect: an expect runs to the end of the comment and must compile.
func TestParseExpect(t *testing.T) {
	h, err := parseDirective("display, timeout=2m, expect: a window opened: Mark I")
	if err != nil || h.timeout != 2*time.Minute || h.expect == nil || h.expect.String() != "a window opened: Mark I" {
		t.Fatalf("parseDirective = %+v, %v", h, err)
	}
	h, err = parseDirective("simulate, expect: epoch +1: +[1-9], then(?s).*moved")
	if err != nil || !h.simulate || h.expect == nil || h.expect.String() != "epoch +1: +[1-9], then(?s).*moved" {
		t.Fatalf("parseDirective = %+v, %v", h, err)
	}
	if !h.expect.MatchString("epoch   1:     2, then\nknobs moved") {
		t.Error("the expect does not match what it should")
	}
	for _, bad := range []string{"expect: (", "expect:"} {
		t.Run(bad, func(t *testing.T) {
			if _, err := parseDirective(bad); err == nil {
				t.Errorf("parseDirective(%q) accepted", bad)
			}
		})
	}
}
