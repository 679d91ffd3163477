package curator

import (
	"strings"
	"testing"
)

// A language tag longer than BCP 47's practical limit is refused in one short line naming the
// key, and the exhibit keeps English (issue 26: a million characters took 7 s to parse, and
// the problem quoted them all).
func TestLanguageTagBounded(t *testing.T) {
	for _, tc := range []struct {
		name, code, want string
	}{
		{"36 characters", "de-Latn-CH-1901-fonipa-u-co-phonebkx", "m.toml:2: exhibit.language: 36 bytes long: a language tag has at most 35 characters"},
		{"a million", strings.Repeat("a", 1_000_000), "m.toml:2: exhibit.language: 1000000 bytes long: a language tag has at most 35 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse([]byte("[exhibit]\nlanguage = \""+tc.code+"\"\n"), "m.toml")
			if c.Language != "en" || len(c.Problems) != 1 || !strings.HasPrefix(c.Problems[0], tc.want) || len(c.Problems[0]) > 300 {
				p := strings.Join(c.Problems, "; ")
				if len(p) > 300 {
					p = p[:300] + "..."
				}
				t.Errorf("language %.20q, problems %q; want %q", c.Language, p, tc.want)
			}
		})
	}
}
