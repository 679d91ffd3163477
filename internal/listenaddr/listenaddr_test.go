package listenaddr

import (
	"net"
	"slices"
	"strings"
	"testing"
)

type addr string

func (a addr) Network() string { return "ip+net" }
func (a addr) String() string  { return string(a) }

func TestURLs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"127.0.0.1:8707", []string{"http://127.0.0.1:8707/"}},
		{"[::1]:8707", []string{"http://[::1]:8707/"}},
		{"192.168.1.20:80", []string{"http://192.168.1.20:80/"}},
		{"rig.local:80", []string{"http://rig.local:80/"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := URLs(tc.in); !slices.Equal(got, tc.want) {
				t.Errorf("URLs(%s) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
	// A wildcard never comes back as such.
	for _, in := range []string{"0.0.0.0:8080", "[::]:8080", ":8080"} {
		t.Run(in, func(t *testing.T) {
			got := URLs(in)
			if len(got) == 0 || got[0] != "http://localhost:8080/" {
				t.Errorf("URLs(%s) = %v", in, got)
			}
			for _, u := range got {
				if strings.Contains(u, "0.0.0.0") || strings.Contains(u, "[::]") {
					t.Errorf("URLs(%s) = %v: a wildcard", in, got)
				}
			}
		})
	}
}

func TestInterfaceURLs(t *testing.T) {
	ifs := []net.Addr{addr("127.0.0.1/8"), addr("::1/128"), addr("192.168.1.20/24"), addr("10.0.0.5/8"),
		addr("fe80::1/64"), addr("2001:db8::7/64")}
	want := []string{"http://localhost:8080/", "http://10.0.0.5:8080/", "http://192.168.1.20:8080/", "http://[2001:db8::7]:8080/"}
	if got := urls(ifs, "8080", false); !slices.Equal(got, want) {
		t.Errorf("urls = %v\nwant %v", got, want)
	}
	if got := urls(ifs, "8080", true); !slices.Equal(got, want[:3]) {
		t.Errorf("urls v4 only = %v", got)
	}
}
