package lab

import (
	"strings"
	"testing"
)

// FuzzParseMethods checks that a method list never panics the parser, that its errors start
// with "lab: ", and that what it accepts names methods that parse again alone.
func FuzzParseMethods(f *testing.F) {
	for _, s := range []string{"perceptron", "pocket/ovo,lsq", "mark1,mark1-analog,mark1+backlash", "fisher/kdisc", "a/b/c", ",,", "mark1+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		ms, err := ParseMethods(list)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "lab: ") {
				t.Fatalf("error %q without the prefix", err)
			}
			return
		}
		for _, m := range ms {
			again, err := ParseMethod(m.Name)
			if err != nil || again != m {
				t.Fatalf("%q parsed as %+v, alone as %+v, %v", m.Name, m, again, err)
			}
		}
	})
}
