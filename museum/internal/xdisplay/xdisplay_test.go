//go:build unix

package xdisplay

import (
	"net"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		d, host, n string
		ok         bool
	}{
		{":0", "", "0", true},
		{":10.0", "", "10", true},
		{"localhost:10.0", "localhost", "10", true},
		{"unix:3", "unix", "3", true},
		{"example.org:1", "example.org", "1", true},
		{"[::1]:1", "[::1]", "1", true},
		{"/private/tmp/launch-x/org.xquartz:0", "", "", false},
		{"nonsense", "", "", false},
		{":x", "", "", false},
		{":1x", "", "", false},
	} {
		t.Run(c.d, func(t *testing.T) {
			host, n, ok := parse(c.d)
			if host != c.host || n != c.n || ok != c.ok {
				t.Errorf("parse(%q) = %q, %q, %v; want %q, %q, %v", c.d, host, n, ok, c.host, c.n, c.ok)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	if msg := Check(""); !strings.Contains(msg, "not set") {
		t.Errorf("Check(\"\") = %q", msg)
	}
	if msg := Check(":987"); !strings.Contains(msg, "cannot reach") {
		t.Errorf("Check(\":987\") = %q (is an X server on :987?)", msg)
	}
	if msg := Check("remote.example:0"); msg != "" {
		t.Errorf("a remote display was judged: %q", msg)
	}
	// A server on localhost's TCP port for display 93 is found.
	ln, err := net.Listen("tcp", "127.0.0.1:6093")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	if msg := Check("localhost:93.0"); msg != "" {
		t.Errorf("Check(localhost:93.0) with a listener: %q", msg)
	}
}
