package i18n

import (
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// ParseTag says why a tag is refused, in one line the caller puts after the field's name.
func TestParseTag(t *testing.T) {
	for _, c := range []struct {
		name, code string
		want       Lang
		err        string // "" when spoken
	}{
		{"de-CH", "de-CH", German, ""},
		{"35 characters", "de-Latn-CH-1901-fonipa-u-co-phonebk", German, ""},
		{"36 characters", "de-Latn-CH-1901-fonipa-u-co-phonebkx", English, "36 bytes long: a language tag has at most 35 characters (BCP 47's practical limit): en, de, fr or es"},
		{"ja", "ja", English, `"ja" is not a language the exhibit speaks: en, de, fr or es`},
		{"not a tag", "english!", English, `"english!" is not a language the exhibit speaks`},
		{"a million", strings.Repeat("a", 1_000_000), English, "1000000 bytes long: a language tag has at most 35 characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseTag(c.code)
			if got != c.want || (err == nil) != (c.err == "") || err != nil && !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("ParseTag(%.40q) = %v, %v; want %v, %q", c.code, got, err, c.want, c.err)
			}
			if l, ok := Parse(c.code); l != got || ok != (err == nil) {
				t.Errorf("Parse(%.40q) = %v, %v; ParseTag says %v, %v", c.code, l, ok, got, err)
			}
		})
	}
}

// A language tag of a million characters is refused in bounded time and memory: Parse
// allocates nothing, ParseTag only its one-line error (issue 26: x/text's parser took 7 s on
// a million characters, quadratic in the tag's length). Measured in allocations and bytes,
// not in wall time.
func TestLongTagRefusedInBoundedMemory(t *testing.T) {
	for _, c := range []struct{ name, code string }{
		{"letters", strings.Repeat("a", 1_000_000)},
		{"hyphens", strings.Repeat("-", 1_000_000)},
		{"subtags", "en-" + strings.Repeat("aaaaa-", 166_666)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(10, func() {
				if _, ok := Parse(c.code); ok {
					t.Fatal("a tag of a million characters was taken")
				}
			}); n != 0 {
				t.Errorf("Parse allocates %v times on a tag of %d bytes", n, len(c.code))
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ParseTag(c.code)
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > 1024 || err == nil || len(err.Error()) > 200 {
				t.Errorf("ParseTag on a tag of %d bytes: %d bytes allocated, %v", len(c.code), n, err)
			}
		})
	}
}

// FuzzParse: any text given as a language tag is a language or refused, in one short line,
// the same by Parse and ParseTag; a tag longer than MaxTag is always refused.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"en", "de-CH", "fr-CA", "es-419", "en-GB", "ja", "", "xx-!!", "de-Latn-CH-1901-fonipa-u-co-phonebk", "en-x-" + strings.Repeat("a-", 20), "-", "en_US"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		l, ok := Parse(code)
		l2, err := ParseTag(code)
		if l != l2 || ok != (err == nil) {
			t.Fatalf("Parse = %v, %v; ParseTag = %v, %v", l, ok, l2, err)
		}
		if l >= NumLangs || !ok && l != English {
			t.Fatalf("Parse = %d, %v", l, ok)
		}
		if len(code) > MaxTag && ok {
			t.Fatalf("a tag of %d bytes taken", len(code))
		}
		if err != nil {
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") || utf8.RuneCountInString(msg) > 4*MaxTag+120 {
				t.Fatalf("message %q", msg)
			}
		}
	})
}
