package labpage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// languages are the museum's four (view/i18n), in the page's order.
var languages = []string{"en", "de", "fr", "es"}

func readTable(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile("i18n.json")
	if err != nil {
		t.Fatal(err)
	}
	var table map[string]map[string]string
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatalf("i18n.json: %v", err)
	}
	return table
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// TestI18nLanguages: every key of i18n.json has its text in all four languages, and no other,
// each with the English text's {placeholders}.
func TestI18nLanguages(t *testing.T) {
	table := readTable(t)
	if len(table) == 0 {
		t.Fatal("i18n.json is empty")
	}
	for key, texts := range table {
		t.Run(key, func(t *testing.T) {
			for lang := range texts {
				if !slices.Contains(languages, lang) {
					t.Errorf("%q: a language the page does not offer: %q", key, lang)
				}
			}
			want := placeholders(texts["en"])
			for _, lang := range languages {
				s := strings.TrimSpace(texts[lang])
				if s == "" {
					t.Errorf("%q has no %s text", key, lang)
					continue
				}
				if got := placeholders(s); !slices.Equal(got, want) {
					t.Errorf("%q in %s fills %v, in English %v", key, lang, got, want)
				}
			}
		})
	}
}

// usedKeys finds the keys the page asks for: the data-i18n attributes of index.html, and in
// the modules the keys given to t() (also as either side of a choice, t(c ? "a" : "b")), the
// presets' names and the states' keys.
func usedKeys(t *testing.T) (used map[string]string, text string) {
	t.Helper()
	used = map[string]string{}
	html, err := os.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`data-i18n(?:-label|-title)?="(\w+)"`).FindAllStringSubmatch(string(html), -1) {
		used[m[1]] = "index.html"
	}
	files, err := filepath.Glob("*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules: %v", err)
	}
	all := string(html)
	calls := []*regexp.Regexp{
		regexp.MustCompile(`\bt\(\s*"(\w+)"`),
		regexp.MustCompile(`\bt\([^"()]*\?\s*"(\w+)"\s*:\s*"(\w+)"`),
		regexp.MustCompile(`\bname: "(preset\w+)"`),
		regexp.MustCompile(`\b\w+: "(status[A-Z]\w+)"`),
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all += string(src)
		for _, re := range calls {
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				for _, k := range m[1:] {
					if k != "" {
						used[k] = f
					}
				}
			}
		}
	}
	return used, all
}

// TestI18nKeys: every key the page asks for is in i18n.json (else the page would show the key
// itself), and every key of i18n.json is asked for somewhere (no stale words).
func TestI18nKeys(t *testing.T) {
	table := readTable(t)
	used, text := usedKeys(t)
	if len(used) < 50 {
		t.Fatalf("found only %d keys in the page: is the search broken?", len(used))
	}
	for k, where := range used {
		if _, ok := table[k]; !ok {
			t.Errorf("%s asks for %q, which i18n.json does not have", where, k)
		}
	}
	for k := range table {
		if _, ok := used[k]; !ok && !strings.Contains(text, `"`+k+`"`) {
			t.Errorf("i18n.json has %q, which the page never asks for", k)
		}
	}
}
