package gen

import (
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that its errors start with "gen: ", and that a
// spec it accepts is valid and written back by String to the same spec.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"squares-circles", "squares-circles,n=10000,seed=1,fill=outline", "square-diamond,size=17-25",
		"ef,font=mono", "letters,n=26", "leftright,size=13", "connected,stroke=3.5", "xe,size=.5-",
		"ef,n=1,n=2", "ef,,", "ef,size=1..2", "connected,seed=18446744073709551616",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Parse(text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gen: ") {
				t.Fatalf("Parse(%q): error %q without the gen: prefix", text, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse(%q) = %+v, which does not validate: %v", text, s, err)
		}
		back, err := Parse(s.String())
		if err != nil || back != s {
			t.Fatalf("Parse(%q) = %+v; Parse(%q) = %+v, %v", text, s, s.String(), back, err)
		}
	})
}
