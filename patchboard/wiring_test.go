package patchboard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/mark1-perceptron/mark1/retina"
)

// roundTrip writes b, reads it back, checks the boards are the same and that writing the copy
// gives the same bytes, and returns the text.
func roundTrip(t testing.TB, b *Board) string {
	t.Helper()
	var buf bytes.Buffer
	n, err := b.WriteTo(&buf)
	if err != nil {
		t.Fatalf("WriteTo: %v", err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo returned %d, wrote %d bytes", n, buf.Len())
	}
	text := buf.String()
	c, err := Read(strings.NewReader(text), "roundtrip.txt")
	if err != nil {
		t.Fatalf("Read(WriteTo(b)): %v\n%s", err, text)
	}
	if !sameWiring(b, c) {
		t.Fatalf("Read(WriteTo(b)) differs from b:\n%s", text)
	}
	buf.Reset()
	if _, err := c.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != text {
		t.Fatalf("WriteTo(Read(WriteTo(b))) differs from WriteTo(b):\n%s\n----\n%s", text, buf.String())
	}
	return text
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	markI, err := MarkI(DefaultMarkI(), rng)
	if err != nil {
		t.Fatal(err)
	}
	local, err := Local(512, 2, rng)
	if err != nil {
		t.Fatal(err)
	}
	noLimit, err := MarkI(MarkIParams{AUnits: 100, Exc: 200, Inh: 200, Theta: 9, FanOut: 0}, rng)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*Board{
		"MarkI":    markI,
		"Identity": Identity(),
		"Local":    local,
		"no limit": noLimit,
		"unsorted": {Units: []Unit{
			{Exc: []uint16{399, 0, 17}, Inh: []uint16{5, 2}, Theta: 3},
			{Exc: []uint16{5}, Theta: 1},
		}, FanOut: 2},
	} {
		t.Run(name, func(t *testing.T) { roundTrip(t, b) })
	}
}

func TestWriteToCanonicalForm(t *testing.T) {
	b := &Board{Units: []Unit{
		{Exc: []uint16{12, 45, 300}, Inh: []uint16{7, 99}, Theta: 2},
		{Exc: []uint16{3}, Inh: []uint16{250}, Theta: 1},
	}, FanOut: 40}
	want := `# mark1 wiring: 2 A-units
# S-unit index = row*20 + col (0..399); +S excitatory plug, -S inhibitory plug;
# an A-unit fires when (lit +S) - (lit -S) >= theta.
format 1
fanout 40
a0 theta=2 +12 +45 +300 -7 -99
a1 theta=1 +3 -250
`
	if got := roundTrip(t, b); got != want {
		t.Errorf("WriteTo wrote\n%s\nwant\n%s", got, want)
	}
}

func TestReadAccepts(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     *Board
	}{
		{"minimal, default fan-out 40", "a0 theta=1 +0", &Board{Units: []Unit{{Exc: []uint16{0}, Theta: 1}}, FanOut: 40}},
		{"comments, blanks, tabs, CRLF, plugs mixed",
			"# wiring\r\n\r\n  format 1 # version\r\nfanout 0\r\n\ta0\ttheta=2 -5 +7 +3   -1 # a unit\r\n# end\r\na1 +8 theta=+1\r\n",
			&Board{Units: []Unit{{Exc: []uint16{7, 3}, Inh: []uint16{5, 1}, Theta: 2}, {Exc: []uint16{8}, Theta: 1}}}},
		{"leading zeros", "fanout 2\na0 theta=01 +007\na01 theta=1 +7", &Board{Units: []Unit{{Exc: []uint16{7}, Theta: 1}, {Exc: []uint16{7}, Theta: 1}}, FanOut: 2}},
		{"no final newline", "a0 theta=1 +399 -398", &Board{Units: []Unit{{Exc: []uint16{399}, Inh: []uint16{398}, Theta: 1}}, FanOut: 40}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read(strings.NewReader(tt.in), "ok.txt")
			if err != nil {
				t.Fatal(err)
			}
			if !sameWiring(b, tt.want) {
				t.Fatalf("Read = %+v, want %+v", b, tt.want)
			}
			roundTrip(t, b)
		})
	}
}

// lines returns the lines of a file: header, then n A-units made by unit(i).
func lines(header string, n int, unit func(i int) string) string {
	var sb strings.Builder
	sb.WriteString(header)
	for i := range n {
		fmt.Fprintf(&sb, "a%d %s\n", i, unit(i))
	}
	return sb.String()
}

// allPlugs plugs every S-unit into a unit, excitatory.
var allPlugs = func() string {
	var sb strings.Builder
	sb.WriteString("theta=1")
	for s := range retina.N {
		fmt.Fprintf(&sb, " +%d", s)
	}
	return sb.String()
}()

func TestReadErrors(t *testing.T) {
	const plugHelp = "(want +S for excitatory, -S for inhibitory, S = 0..399)"
	for _, tt := range []struct{ name, in, want string }{
		{"unknown S-unit", "format 1\na0 theta=1 +400", "wiring.txt:2: unknown S-unit 400 in a0 (S-units are 0..399)"},
		{"unknown S-unit, huge", "a0 theta=1 -123456789012345678901234567890", "wiring.txt:1: unknown S-unit 123456789012... in a0 (S-units are 0..399)"},
		{"plugged twice", "\n\na0 theta=1 +5 +6\na1 theta=1 +15 -15", "wiring.txt:4: S-unit 15 plugged twice into a1"},
		{"plugged twice, same sign", "a0 theta=1 +5 +5", "wiring.txt:1: S-unit 5 plugged twice into a0"},
		{"fan-out over the limit", "fanout 2\na0 theta=1 +9\na1 theta=1 -9 +8\n# note\na2 theta=1 +9", "wiring.txt:5: fan-out of S-unit 9 is 3, over the limit 2"},
		{"fan-out over the default limit", lines("", 41, func(int) string { return "theta=1 +3" }), "wiring.txt:41: fan-out of S-unit 3 is 41, over the limit 40"},
		{"malformed threshold", "a0 theta=x +1", `wiring.txt:1: malformed threshold "theta=x" (want theta=N)`},
		{"empty threshold", "a0 theta= +1", `wiring.txt:1: malformed threshold "theta=" (want theta=N)`},
		{"huge threshold", "a0 theta=100000000 +1", `wiring.txt:1: malformed threshold "theta=100000000" (want theta=N)`},
		{"no threshold", "a0 +1 -2", "wiring.txt:1: a0 has no threshold (want theta=N)"},
		{"threshold twice", "a0 theta=1 +1 theta=1", "wiring.txt:1: threshold of a0 given twice"},
		{"threshold below 1", "a0 theta=0 +1", "wiring.txt:1: theta 0 of a0 is below 1 (the unit would fire on a blank field)"},
		{"negative threshold", "a0 theta=-2 +1", "wiring.txt:1: theta -2 of a0 is below 1 (the unit would fire on a blank field)"},
		{"threshold over the plugs", "a0 theta=3 +1 +2 -3", "wiring.txt:1: theta 3 of a0 is over its 2 excitatory plugs (the unit could never fire)"},
		{"no plugs", "a0 theta=1", "wiring.txt:1: theta 1 of a0 is over its 0 excitatory plugs (the unit could never fire)"},
		{"plug without sign", "a0 theta=1 12", `wiring.txt:1: malformed plug "12" in a0 ` + plugHelp},
		{"plug with junk", "a0 theta=1 +1x", `wiring.txt:1: malformed plug "+1x" in a0 ` + plugHelp},
		{"bare sign", "a0 theta=1 -", `wiring.txt:1: malformed plug "-" in a0 ` + plugHelp},
		{"double sign", "a0 theta=1 +-5", `wiring.txt:1: malformed plug "+-5" in a0 ` + plugHelp},
		{"long junk", "a0 theta=1 " + strings.Repeat("x", 100), `wiring.txt:1: malformed plug "` + strings.Repeat("x", 40) + `"... in a0 ` + plugHelp},
		{"first unit not a0", "a1 theta=1 +1", "wiring.txt:1: a1 out of order: a0 expected next (A-units are listed a0, a1, ... in order)"},
		{"gap", "a0 theta=1 +1\na1 theta=1 +1\na3 theta=1 +1", "wiring.txt:3: a3 out of order: a2 expected next (A-units are listed a0, a1, ... in order)"},
		{"huge index", "a0 theta=1 +1\na1234567890123456 theta=1 +1", "wiring.txt:2: a12345678901... out of order: a1 expected next (A-units are listed a0, a1, ... in order)"},
		{"duplicate", "a0 theta=1 +1\n\na1 theta=1 +1\na0 theta=1 +2", "wiring.txt:4: a0 listed twice (first on line 1)"},
		{"newer format", "format 2\na0 theta=1 +1", "wiring.txt:1: wiring format 2 is newer than this program reads (1)"},
		{"malformed format", "format one", `wiring.txt:1: malformed format version "format one" (want format 1)`},
		{"format 0", "format 0", `wiring.txt:1: malformed format version "format 0" (want format 1)`},
		{"format twice", "format 1\nfanout 40\nformat 1", "wiring.txt:3: format given twice (first on line 1)"},
		{"format after units", "a0 theta=1 +1\nformat 1", "wiring.txt:2: format must come before the A-units"},
		{"fanout after units", "a0 theta=1 +1\nfanout 40", "wiring.txt:2: fanout must come before the A-units"},
		{"fanout twice", "fanout 40\nfanout 30", "wiring.txt:2: fanout given twice (first on line 1)"},
		{"negative fanout", "fanout -1", `wiring.txt:1: malformed fan-out limit "fanout -1" (want fanout N, N >= 0; 0 = no limit)`},
		{"fanout missing value", "fanout", `wiring.txt:1: malformed fan-out limit "fanout" (want fanout N, N >= 0; 0 = no limit)`},
		{"fanout extra value", "fanout 40 41", `wiring.txt:1: malformed fan-out limit "fanout 40 41" (want fanout N, N >= 0; 0 = no limit)`},
		{"unknown directive", "format 1\nplugs 40", `wiring.txt:2: unknown directive "plugs" (want format, fanout or an A-unit a0, a1, ...)`},
		{"unit name with junk", "a0x theta=1 +1", `wiring.txt:1: unknown directive "a0x" (want format, fanout or an A-unit a0, a1, ...)`},
		{"capital A", "A0 theta=1 +1", `wiring.txt:1: unknown directive "A0" (want format, fanout or an A-unit a0, a1, ...)`},
		{"control bytes", "\x00\xff theta=1", `wiring.txt:1: unknown directive "\x00\xff" (want format, fanout or an A-unit a0, a1, ...)`},
		{"empty", "", `wiring.txt: no A-units (want lines like "a0 theta=1 +12 -7")`},
		{"only comments", "# nothing\n\nformat 1\nfanout 40\n", `wiring.txt: no A-units (want lines like "a0 theta=1 +12 -7")`},
		{"line too long", "# ok\n# " + strings.Repeat("x", MaxLineLen) + "\na0 theta=1 +1", "wiring.txt:2: line too long (over 16384 bytes)"},
		{"too many plugs", lines("fanout 0\n", MaxPlugs/400+1, func(int) string { return allPlugs }), fmt.Sprintf("wiring.txt:%d: more than 4194304 plugs in all", MaxPlugs/400+2)},
		{"too many units", lines("fanout 0\n", MaxUnits+1, func(int) string { return "theta=1 +0" }), "wiring.txt:65538: more than 65536 A-units"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Read(strings.NewReader(tt.in), "wiring.txt")
			if err == nil {
				t.Fatalf("Read succeeded (%d A-units), want error %q", b.Len(), tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Read error\n  %s\nwant\n  %s", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestReadIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	_, err := Read(iotest.ErrReader(boom), "wiring.txt")
	if err == nil || err.Error() != "wiring.txt:1: disk on fire" || !errors.Is(err, boom) {
		t.Errorf("Read of a failing reader: %v, want wiring.txt:1: disk on fire (wrapped)", err)
	}
	_, err = Read(io.MultiReader(strings.NewReader("a0 theta=1 +1\n"), iotest.ErrReader(boom)), "wiring.txt")
	if err == nil || err.Error() != "wiring.txt:2: disk on fire" || !errors.Is(err, boom) {
		t.Errorf("Read of a reader failing after line 1: %v, want wiring.txt:2: disk on fire (wrapped)", err)
	}
}

func TestWriteToRefusesInvalidBoard(t *testing.T) {
	b := &Board{Units: []Unit{{Exc: []uint16{1}, Theta: 0}}}
	var buf bytes.Buffer
	n, err := b.WriteTo(&buf)
	want := "patchboard: theta 0 of a0 is below 1 (the unit would fire on a blank field)"
	if err == nil || err.Error() != want || n != 0 || buf.Len() != 0 {
		t.Errorf("WriteTo of an invalid board: %d, %v, wrote %d bytes; want 0, %q, nothing", n, err, buf.Len(), want)
	}
}

func TestWriteToWriteError(t *testing.T) {
	boom := errors.New("disk full")
	_, err := Identity().WriteTo(failWriter{boom})
	if err == nil || !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "patchboard: ") {
		t.Errorf("WriteTo to a failing writer: %v, want patchboard: ... disk full (wrapped)", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestValidate(t *testing.T) {
	big := &Board{Units: make([]Unit, MaxUnits+1)}
	all := make([]uint16, retina.N)
	for s := range all {
		all[s] = uint16(s)
	}
	dense := &Board{Units: make([]Unit, MaxPlugs/retina.N+1)}
	for a := range dense.Units {
		dense.Units[a] = Unit{Exc: all, Theta: 1}
	}
	for _, tt := range []struct {
		name string
		b    *Board
		want string
	}{
		{"ok", &Board{Units: []Unit{{Exc: []uint16{1, 2}, Inh: []uint16{3}, Theta: 2}}, FanOut: 1}, ""},
		{"no units", &Board{}, "patchboard: no A-units"},
		{"too many units", big, "patchboard: 65537 A-units, over the limit 65536"},
		{"too many plugs", dense, "patchboard: more than 4194304 plugs in all"},
		{"negative fan-out", &Board{Units: []Unit{{Exc: []uint16{1}, Theta: 1}}, FanOut: -3}, "patchboard: negative fan-out limit -3"},
		{"unknown S-unit", &Board{Units: []Unit{{Exc: []uint16{1}, Theta: 1}, {Exc: []uint16{1}, Inh: []uint16{65535}, Theta: 1}}}, "patchboard: unknown S-unit 65535 in a1 (S-units are 0..399)"},
		{"plugged twice", &Board{Units: []Unit{{Exc: []uint16{1}, Theta: 1}, {Exc: []uint16{8, 9}, Inh: []uint16{8}, Theta: 1}}}, "patchboard: S-unit 8 plugged twice into a1"},
		{"theta below 1", &Board{Units: []Unit{{Exc: []uint16{1}, Theta: -1}}}, "patchboard: theta -1 of a0 is below 1 (the unit would fire on a blank field)"},
		{"theta over the plugs", &Board{Units: []Unit{{Exc: []uint16{1}, Inh: []uint16{2, 3}, Theta: 2}}}, "patchboard: theta 2 of a0 is over its 1 excitatory plugs (the unit could never fire)"},
		{"fan-out over the limit", &Board{Units: []Unit{{Exc: []uint16{4}, Theta: 1}, {Exc: []uint16{5}, Inh: []uint16{4}, Theta: 1}}, FanOut: 1}, "patchboard: fan-out of S-unit 4 is 2, over the limit 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.b.Validate()
			if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzRead(f *testing.F) {
	b, err := MarkI(MarkIParams{AUnits: 5, Exc: 3, Inh: 2, Theta: 2, FanOut: 40}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
	f.Add("fanout 2\na0 theta=1 +9\na1 theta=1 -9 +8\na2 theta=1 +9")
	f.Add("# c\r\nformat 1\r\nfanout 0\r\n\ta0\ttheta=2 -5 +7 +3 -1 # a\r\na1 +8 theta=+1\r\n")
	f.Add("a0 theta=1 +400\na0 theta=x\na1 +1 -1\nformat 2\n")
	f.Add("a0 theta=01 +007 -0399\na00 theta=1 +1")
	f.Fuzz(func(t *testing.T, in string) {
		b, err := Read(strings.NewReader(in), "fuzz.txt")
		if err != nil {
			if b != nil {
				t.Fatalf("Read returned a board and an error")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "fuzz.txt") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q does not name the file or is not one line", msg)
			}
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("Read accepted an invalid board: %v", err)
		}
		roundTrip(t, b)
		var s retina.Bits
		for i := range retina.N {
			s.Set(i, (uint(len(in))*2654435761>>(i%32))&1 == 1)
		}
		active := b.Fire(&s, make([]uint64, (b.Len()+63)/64), nil)
		if want := plainFire(b, &s); !slices.Equal(active, want) {
			t.Fatalf("Fire = %v, want %v", active, want)
		}
	})
}

// TestReadByteOrderMark reads a wiring file that an editor saved with a UTF-8 byte-order mark.
func TestReadByteOrderMark(t *testing.T) {
	b, err := Read(strings.NewReader("\uFEFF# mark1 wiring\nformat 1\na0 theta=1 +3 -4\n"), "bom.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 1 || len(b.Units[0].Exc) != 1 || b.Units[0].Exc[0] != 3 {
		t.Fatalf("board %+v", b.Units)
	}
	// A mark anywhere but the start is still an error.
	if _, err := Read(strings.NewReader("format 1\n\uFEFFa0 theta=1 +3\n"), "bom.txt"); err == nil || !strings.HasPrefix(err.Error(), "bom.txt:2:") {
		t.Fatalf("byte-order mark on line 2: %v", err)
	}
}
