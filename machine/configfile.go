package machine

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/internal/tomlfile"
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
// wrong type (a float such as 8.0 for a whole number included) or out of its range is refused
// with name:line and the key. A UTF-8 byte-order mark is skipped; at most MaxConfigFile bytes
// are read.
func ReadConfig(r io.Reader, name string, base Config) (Config, error) {
	data, err := tomlfile.ReadAll(r, name, MaxConfigFile, "a configuration file")
	if err != nil {
		return base, err
	}
	c := base
	seen := tomlfile.Lines{}     // keys, by their full names
	tables := tomlfile.Lines{}   // sections given by a [header]
	dottedAt := map[string]int{} // sections given by dotted keys outside any [header]
	table := ""
	err = tomlfile.Walk(data, name, func(e tomlfile.Expr) error {
		key, line := e.Key, e.Line
		switch e.Kind {
		case tomlfile.Table:
			table = key
			where := "[" + key + "]"
			if !isSection(key) {
				return tomlfile.Errorf(name, line, where, "unknown section (want mark_i, retina or pots)")
			}
			if err := tables.Add(key, line); err != nil {
				return tomlfile.Errorf(name, line, where, "%w", err)
			}
			if prev, ok := dottedAt[key]; ok {
				return tomlfile.Errorf(name, line, where, "the section was already given by dotted keys (line %d)", prev)
			}
		case tomlfile.ArrayTable:
			return tomlfile.Errorf(name, line, "[["+key+"]]", "arrays of tables are not part of a mark1 configuration")
		case tomlfile.KeyValue:
			if table != "" {
				key = table + "." + key
			} else if sec, _, ok := strings.Cut(key, "."); ok {
				if _, ok := dottedAt[sec]; !ok {
					dottedAt[sec] = line
				}
			}
			if err := seen.Add(key, line); err != nil {
				return tomlfile.Errorf(name, line, key, "%w", err)
			}
			v, err := e.Value.Scalar()
			if err == nil && e.Value.Kind == tomlfile.Float && c.wantsWhole(key) {
				_, err = e.Value.Whole() // "8.0 is a float; write 8", "8.5 is not a whole number"
			}
			if err != nil {
				return tomlfile.Errorf(name, line, key, "%w", err)
			}
			if err := c.set(key, v); err != nil {
				return tomlfile.Errorf(name, line, "", "%w", err)
			}
		}
		return nil
	})
	if err != nil {
		return base, err
	}
	// Each key was checked with its part as it came; the whole, whose parts depend on each
	// other, now.
	if err := c.Validate(); err != nil {
		return base, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// wantsWhole reports whether key names a whole-number setting (an int or a uint64 that does
// not read itself from text), which a TOML float does not set.
func (c *Config) wantsWhole(key string) bool {
	f, err := c.field(key)
	if err != nil || f.CanAddr() && f.Addr().Type().Implements(textUnmarshaler) {
		return false
	}
	return f.Kind() == reflect.Int || f.Kind() == reflect.Uint64
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
