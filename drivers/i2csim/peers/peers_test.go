package peers

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/mark1-perceptron/mark1/drivers/i2csim"
)

// wire records what reaches a chip and answers reads with fixed bytes.
type wire struct {
	w    [][]byte
	r    []int
	read []byte
}

func (d *wire) Tx(w, r []byte) error {
	d.w = append(d.w, append([]byte(nil), w...))
	d.r = append(d.r, len(r))
	copy(r, d.read)
	return nil
}

func server(t *testing.T) (*Server, *wire, *i2csim.ManualClock) {
	clk := i2csim.NewManualClock()
	bus := i2csim.NewBus("1", clk, 1)
	d := &wire{read: []byte{0x12, 0x34, 0x56}}
	if err := bus.Attach(0x48, d); err != nil {
		t.Fatal(err)
	}
	s := &Server{Buses: map[int]i2c.Bus{1: bus}, Clock: clk}
	if got := s.Handle("open 1"); got != "ok" {
		t.Fatalf("open 1: %q", got)
	}
	return s, d, clk
}

// TestSMBusOnTheWire: each SMBus operation is the transaction Linux's i2c-dev makes of it on a
// plain I2C adapter (i2c_smbus_xfer_emulated): words travel low byte first.
func TestSMBusOnTheWire(t *testing.T) {
	for _, tc := range []struct {
		req, reply string
		w          string
		n          int
	}{
		{"rb 0x48 1", "ok 18", "01", 1},
		{"wb 0x48 1 0x85", "ok", "0185", 0},
		{"rw 0x48 1", "ok 13330", "01", 2}, // 0x3412: the first byte on the wire is the low one
		{"ww 0x48 1 0x8583", "ok", "018385", 0},
		{"rib 0x48 0x12 3", "ok 123456", "12", 3},
		{"wib 0x48 0x14 0d0e", "ok", "140d0e", 0},
		{"sb 0x48 7", "ok", "07", 0},
		{"recv 0x48", "ok 18", "", 1},
		{"i2c 0x48 0a0b 2", "ok 1234", "0a0b", 2},
		{"i2c 0x48 - 1", "ok 12", "", 1},
		{"quick 0x48", "ok", "", 0},
	} {
		t.Run(tc.req, func(t *testing.T) {
			s, d, _ := server(t)
			if got := s.Handle(tc.req); got != tc.reply {
				t.Errorf("%s: %q, want %q", tc.req, got, tc.reply)
			}
			if len(d.w) != 1 || len(d.r) != 1 {
				t.Errorf("%s: %d transactions, want 1", tc.req, len(d.w))
				return
			}
			if got := bytes.ToLower([]byte(strings.TrimSpace(hexOrDash(d.w[0])))); string(got) != tc.w && !(tc.w == "" && string(got) == "-") || d.r[0] != tc.n {
				t.Errorf("%s: wrote %x, read %d; want %s, %d", tc.req, d.w[0], d.r[0], tc.w, tc.n)
			}
		})
	}
}

func TestRequestsRefused(t *testing.T) {
	s, d, clk := server(t)
	t0 := clk.Now()
	for req, want := range map[string]string{
		"":                                       "err 22 ",
		"frob 1":                                 "err 22 ",
		"rb 0x48":                                "err 22 ",
		"rb 0x80 1":                              "err 22 ",
		"wb 0x48 1 256":                          "err 22 ",
		"rib 0x48 1 33":                          "err 22 ",
		"wib 0x48 1 " + strings.Repeat("00", 33): "err 22 ",
		"i2c 0x48 zz 0":                          "err 22 ",
		"rb 0x49 1":                              "err 121 ",
		"open 7":                                 "err 2 ",
		"sleep -1":                               "err 22 ",
	} {
		// The request names the case ("" runs as #00); a refused request changes nothing, so
		// each runs alone as after the others.
		t.Run(req, func(t *testing.T) {
			if got := s.Handle(req); !strings.HasPrefix(got, want) {
				t.Errorf("%q: %q, want %q...", req, got, want)
			}
		})
	}
	if len(d.w) != 0 {
		t.Errorf("refused requests reached the chip: %x", d.w)
	}
	if got := s.Handle("sleep 2500000"); got != "ok" || clk.Now().Sub(t0) != 2500*time.Microsecond {
		t.Errorf("sleep: %q, clock moved %v", got, clk.Now().Sub(t0))
	}
	bus := s.Buses[1].(*i2csim.Bus)
	bus.Inject(i2csim.Fault{Addr: 0x48, Kind: i2csim.Timeout, Count: 1})
	if got := s.Handle("rb 0x48 1"); !strings.HasPrefix(got, "err 110 ") {
		t.Errorf("a timeout: %q", got)
	}
}

// TestRequestsNeverPanic: arbitrary request lines get a reply.
func TestRequestsNeverPanic(t *testing.T) {
	s, _, _ := server(t)
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"open", "i2c", "rb", "wb", "rw", "ww", "rib", "wib", "sb", "recv", "quick", "sleep", "1", "0x48", "-", "ff", "0x7f", "-1", "99999999999999999999", "0x", "zz", "32", "33", ""}
	for range 20000 {
		var f []string
		for range rng.IntN(6) {
			f = append(f, words[rng.IntN(len(words))])
		}
		if got := s.Handle(strings.Join(f, " ")); !strings.HasPrefix(got, "ok") && !strings.HasPrefix(got, "err ") {
			t.Fatalf("%q: %q", f, got)
		}
	}
}

// TestPinnedVersions: install.sh installs the versions Check wants.
func TestPinnedVersions(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(Dir(), "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^pins=\(([^)]*)\)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("install.sh has no pins=(...)")
	}
	got := map[string]string{}
	for _, p := range strings.Fields(string(m[1])) {
		i := strings.LastIndex(p, "@")
		got[p[:i]] = p[i+1:]
	}
	if len(got) != len(Pinned) {
		t.Errorf("install.sh pins %v, run.go %v", got, Pinned)
	}
	for name, v := range Pinned {
		t.Run(name, func(t *testing.T) {
			if got[name] != v {
				t.Errorf("%s: install.sh pins %q, run.go %q", name, got[name], v)
			}
		})
	}
}
