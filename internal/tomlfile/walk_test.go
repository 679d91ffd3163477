package tomlfile

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestWalk(t *testing.T) {
	doc := "\uFEFFtop = 1\n\n[a]\n\"b\\u0063\" = \"x\"\nd.e = [1, 2]\n[[f]]\ng = 1_000\nh = +2.5\ni = true\nj = {k = 1}\nl = 1979-05-27\n"
	var got []string
	err := Walk([]byte(doc), "doc", func(e Expr) error {
		s := fmt.Sprintf("%d %s %s/%d", e.Line, e.Kind, e.Key, e.Parts)
		if e.Kind == KeyValue {
			v, err := e.Value.Scalar()
			s += fmt.Sprintf(" %v %v (%s, line %d)", v, err, e.Value.Kind, e.Value.Line)
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 KeyValue top/1 1 <nil> (an integer, line 1)",
		"3 Table a/1",
		"4 KeyValue bc/1 x <nil> (a string, line 4)",
		"5 KeyValue d.e/2 <nil> want a number, a string or true/false, not an array (an array, line 5)",
		"6 ArrayTable f/1",
		"7 KeyValue g/1 1000 <nil> (an integer, line 7)",
		"8 KeyValue h/1 2.5 <nil> (a number, line 8)",
		"9 KeyValue i/1 true <nil> (true/false, line 9)",
		"10 KeyValue j/1 <nil> want a number, a string or true/false, not an inline table (an inline table, line 10)",
		"11 KeyValue l/1 <nil> want a number, a string or true/false, not a date (a date, line 11)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	stop := errors.New("stop")
	n := 0
	if err := Walk([]byte(doc), "doc", func(Expr) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Walk returned %v after %d calls, want fn's error after 1", err, n)
	}
	n = 0
	err = Walk([]byte("a = 1\nb = = 2\n"), "bad.toml", func(Expr) error { n++; return nil })
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 2 || !strings.HasPrefix(err.Error(), "bad.toml:2: malformed TOML: ") || n != 1 {
		t.Errorf("malformed: %v after %d calls", err, n)
	}
}

func TestReadAll(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    io.Reader
		want string // the text, or the error
	}{
		{"small", strings.NewReader("a = 1\n"), "a = 1\n"},
		{"at the limit", strings.NewReader("0123456789"), "0123456789"},
		{"over", strings.NewReader("0123456789a"), "f.toml: larger than 10 bytes: not a rig file"},
		{"read error", iotest.ErrReader(errors.New("disk on fire")), "f.toml: disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadAll(tc.r, "f.toml", 10, "a rig file")
			got := string(b)
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("ReadAll = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestErrorAndLines(t *testing.T) {
	cause := errors.New("want true or false, not a string")
	for _, tc := range []struct {
		name string
		err  *Error
		want string
	}{
		{"where", &Error{"m.toml", 7, "sound.on", cause}, "m.toml:7: sound.on: want true or false, not a string"},
		{"nowhere", &Error{"m.toml", 1, "", cause}, "m.toml:1: want true or false, not a string"},
		{"Errorf", Errorf("rig.toml", 3, "[rig] retries", "%w (really)", cause), "rig.toml:3: [rig] retries: want true or false, not a string (really)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err.Error() != tc.want || !errors.Is(tc.err, cause) {
				t.Errorf("%q (wraps the cause: %v), want %q", tc.err, errors.Is(tc.err, cause), tc.want)
			}
		})
	}
	l := Lines{}
	if err := l.Add("a", 3); err != nil {
		t.Fatal(err)
	}
	if err := l.Add("b", 4); err != nil {
		t.Fatal(err)
	}
	if err := l.Add("a", 5); err == nil || err.Error() != "given twice (first on line 3)" || l["a"] != 3 {
		t.Errorf("a again: %v, first line %d", err, l["a"])
	}
}
