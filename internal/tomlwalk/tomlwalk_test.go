package tomlwalk

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2/unstable"
)

func TestWalk(t *testing.T) {
	doc := "top = 1\n\n[a]\n\"b\\u0063\" = \"x\"\nd.e = [1, 2]\n[[f]]\ng = 1_000\nh = +2.5\ni = true\n"
	var got []string
	err := Walk([]byte(doc), "doc", func(e Expr) error {
		s := fmt.Sprintf("%d %s %s/%d", e.Line, e.Kind, e.Key, e.Parts)
		if e.Value != nil {
			v, ok, err := Scalar(e.Value)
			s += fmt.Sprintf(" %v %v %v", v, ok, err)
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 KeyValue top/1 1 true <nil>",
		"3 Table a/1",
		"4 KeyValue bc/1 x true <nil>",
		"5 KeyValue d.e/2 <nil> false <nil>",
		"6 ArrayTable f/1",
		"7 KeyValue g/1 1000 true <nil>",
		"8 KeyValue h/1 2.5 true <nil>",
		"9 KeyValue i/1 true true <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	stop := errors.New("stop")
	n := 0
	if err := Walk([]byte(doc), "doc", func(Expr) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Walk returned %v after %d calls, want fn's error after 1", err, n)
	}
	err = Walk([]byte("a = 1\nb = = 2\n"), "bad.toml", func(Expr) error { return nil })
	if err == nil || !strings.HasPrefix(err.Error(), "bad.toml:2: malformed TOML: ") {
		t.Errorf("malformed: %v", err)
	}
}

func TestScalarErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"x = 99999999999999999999", "integer 99999999999999999999 is out of range"},
	} {
		var p unstable.Parser
		p.Reset([]byte(tc.doc))
		if !p.NextExpression() {
			t.Fatal(p.Error())
		}
		_, ok, err := Scalar(p.Expression().Value())
		if !ok || err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, %v; want %q", tc.doc, ok, err, tc.want)
		}
	}
}
