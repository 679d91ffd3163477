package machine

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// MaxConfigFile bounds the size of a configuration file ReadConfig reads.
const MaxConfigFile = 1 << 20

// WriteConfig writes c as a TOML configuration file that ReadConfig reads back to c: every
// settable key with its value, each preceded by a comment saying what it models, its unit, its
// default (Default's value) and where that default comes from, and, for an analog flaw, the
// --flaws name that turns it on alone.
func (c Config) WriteConfig(w io.Writer) error {
	bw := bufio.NewWriter(w)
	def := Default()
	fmt.Fprintln(bw, "# mark1 machine configuration (TOML).")
	fmt.Fprintln(bw, "# Read it with --config FILE; set one key with --set KEY=VALUE (KEY as below, with its")
	fmt.Fprintln(bw, "# section: retina.blur_cells); turn single flaws on with --flaws NAME,... (--flaws none is")
	fmt.Fprintln(bw, "# the ideal machine, --flaws all the default one).")
	section := ""
	keys := Keys()
	// TOML cannot go back to the top level after a section: the top-level keys come first.
	slices.SortStableFunc(keys, func(a, b Key) int {
		return cmp.Compare(strings.Count(a.Name, "."), strings.Count(b.Name, "."))
	})
	for _, k := range keys {
		sec, name := "", k.Name
		if i := strings.LastIndexByte(k.Name, '.'); i >= 0 {
			sec, name = k.Name[:i], k.Name[i+1:]
		}
		if sec != section {
			fmt.Fprintf(bw, "\n[%s]\n", sec)
			section = sec
		}
		f, _ := c.field(k.Name)
		d, _ := def.field(k.Name)
		fmt.Fprintln(bw)
		writeComment(bw, k, formatValue(d, true))
		fmt.Fprintf(bw, "%s = %s\n", name, formatValue(f, true))
	}
	return bw.Flush()
}

// writeComment writes the comment lines describing key k, wrapped at 96 columns.
func writeComment(w io.Writer, k Key, def string) {
	var b strings.Builder
	b.WriteString(strings.ToUpper(k.Models[:1]) + k.Models[1:])
	if k.Unit != "" {
		b.WriteString(". Unit: " + k.Unit)
	}
	b.WriteString(". Default " + def)
	if k.Source != "" {
		b.WriteString(" (" + k.Source + ")")
	}
	b.WriteString(".")
	if k.Flaw != "" {
		b.WriteString(" Flaw \"" + k.Flaw + "\".")
	}
	if k.Note != "" {
		b.WriteString(" " + strings.ToUpper(k.Note[:1]) + k.Note[1:])
		if !strings.HasSuffix(k.Note, ".") {
			b.WriteString(".")
		}
	}
	line := "#"
	for _, word := range strings.Fields(b.String()) {
		if len(line)+1+len(word) > 96 && line != "#" {
			fmt.Fprintln(w, line)
			line = "#"
		}
		line += " " + word
	}
	fmt.Fprintln(w, line)
}

// ReadConfig reads a TOML configuration file (as WriteConfig writes it, or any part of it)
// over base and returns the result. Keys may be given in their sections ([retina] blur_cells =
// 0.5) or dotted (retina.blur_cells = 0.5). An unknown key, a key given twice, a value of the
// wrong type or out of its range is refused with name:line and the key. A UTF-8 byte-order
// mark is skipped; at most MaxConfigFile bytes are read.
func ReadConfig(r io.Reader, name string, base Config) (Config, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxConfigFile+1))
	if err != nil {
		return base, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxConfigFile {
		return base, fmt.Errorf("%s: larger than %d bytes: not a configuration file", name, MaxConfigFile)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	c := base
	var p unstable.Parser
	p.Reset(data)
	// lineOf is the line of a byte slice of data (an error's highlight); keyLine that of a key,
	// from its raw range: a key with escapes has its Data copied out of data.
	lineOf := func(b []byte) int {
		if len(b) == 0 {
			return 0
		}
		return p.Shape(p.Range(b)).Start.Line
	}
	keyLine := func(n *unstable.Node) int {
		if n == nil {
			return 0
		}
		return p.Shape(n.Raw).Start.Line
	}
	seen := map[string]int{}
	tables := map[string]int{}   // sections given by a [header], by line
	dottedAt := map[string]int{} // sections given by dotted keys outside any [header]
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			key, first := dotted(e.Key())
			table = key
			line := keyLine(first)
			if !isSection(key) {
				return base, fmt.Errorf("%s:%d: [%s]: unknown section (want mark_i, retina or pots)", name, line, key)
			}
			if prev, ok := tables[key]; ok {
				return base, fmt.Errorf("%s:%d: [%s]: given twice (first on line %d)", name, line, key, prev)
			}
			if prev, ok := dottedAt[key]; ok {
				return base, fmt.Errorf("%s:%d: [%s]: the section was already given by dotted keys (line %d)", name, line, key, prev)
			}
			tables[key] = line
		case unstable.ArrayTable:
			key, first := dotted(e.Key())
			return base, fmt.Errorf("%s:%d: [[%s]]: arrays of tables are not part of a mark1 configuration", name, keyLine(first), key)
		case unstable.KeyValue:
			key, first := dotted(e.Key())
			line := keyLine(first)
			if table != "" {
				key = table + "." + key
			} else if sec, _, ok := strings.Cut(key, "."); ok {
				if _, ok := dottedAt[sec]; !ok {
					dottedAt[sec] = line
				}
			}
			if prev, ok := seen[key]; ok {
				return base, fmt.Errorf("%s:%d: %s: given twice (first on line %d)", name, line, key, prev)
			}
			seen[key] = line
			v, err := tomlValue(e.Value())
			if err != nil {
				return base, fmt.Errorf("%s:%d: %s: %w", name, line, key, err)
			}
			if err := c.set(key, v); err != nil {
				return base, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
	}
	if err := p.Error(); err != nil {
		line := 0
		var pe *unstable.ParserError
		if errors.As(err, &pe) {
			line = lineOf(pe.Highlight)
		}
		return base, fmt.Errorf("%s:%d: malformed TOML: %v", name, line, err)
	}
	// Each key was checked with its part as it came; the whole, whose parts depend on each
	// other, now.
	if err := c.Validate(); err != nil {
		return base, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// isSection reports whether name is a section of a Config.
func isSection(name string) bool {
	for _, s := range sections {
		if s.name == name {
			return true
		}
	}
	return false
}

// dotted joins the parts of a TOML key with dots and returns the first part's node (for its
// line).
func dotted(it unstable.Iterator) (string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		n := it.Node()
		if first == nil {
			first = n
		}
		parts = append(parts, string(n.Data))
	}
	return strings.Join(parts, "."), first
}

// tomlValue converts a scalar TOML value to int64, float64, string or bool.
func tomlValue(n *unstable.Node) (any, error) {
	s := string(n.Data)
	switch n.Kind {
	case unstable.String:
		return s, nil
	case unstable.Bool:
		return s == "true", nil
	case unstable.Integer:
		s = strings.ReplaceAll(s, "_", "")
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("integer %s is out of range", n.Data)
		}
		return v, nil
	case unstable.Float:
		s = strings.ReplaceAll(s, "_", "")
		v, err := strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64)
		if err != nil {
			return nil, fmt.Errorf("malformed number %s", n.Data)
		}
		return v, nil
	}
	return nil, fmt.Errorf("want a number, a string or true/false, not a %s", strings.ToLower(n.Kind.String()))
}
