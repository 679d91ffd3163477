package tomlfile

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzWalk: any text is walked or refused as malformed with name:line, and every getter of
// every value gives a value or a one-line reason, never a panic.
func FuzzWalk(f *testing.F) {
	f.Add("top = 1\n[a]\nb = \"x\"\nc = [1, [2]]\n[[d]]\ne = 1e3\nf = -nan\ng = 1979-05-27\nh = {i = 1}\n")
	f.Add("\uFEFFa.b.c = 0x7fffffffffffffff\n\"k\\u0065y\" = 99999999999999999999\n")
	f.Add("x = [[[[[[[[[[[[[[[[[[[\"deep\"]]]]]]]]]]]]]]]]]]\n")
	f.Add("[rig\nmode = 1")
	f.Fuzz(func(t *testing.T, text string) {
		err := Walk([]byte(text), "f.toml", func(e Expr) error {
			if e.Kind != KeyValue {
				return nil
			}
			v := e.Value
			var errs []error
			add := func(_ any, err error) { errs = append(errs, err) }
			add(v.Str())
			add(v.Bool())
			add(v.Whole())
			add(v.Int(-3, 3))
			add(v.Number())
			add(v.Float(0, 1))
			add(v.Duration(time.Second, 0, 10))
			add(v.DurationText())
			add(v.OneOf("a", "b"))
			add(v.Strings())
			add(v.Scalar())
			for _, err := range errs {
				if err != nil && (err.Error() == "" || strings.Contains(err.Error(), "\n")) {
					t.Fatalf("%q: error %q: want one line", text, err)
				}
			}
			return nil
		})
		var se *SyntaxError
		if err != nil && (!errors.As(err, &se) || !strings.HasPrefix(err.Error(), "f.toml:")) {
			t.Fatalf("%q: error %v: want a *SyntaxError naming the file", text, err)
		}
	})
}
