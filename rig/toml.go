package rig

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/tomlwalk"
	"github.com/pelletier/go-toml/v2/unstable"
)

// value is one TOML value with its line.
type value struct {
	line int
	kind unstable.Kind
	s    string
	i    int64
	f    float64
	b    bool
	arr  []value
}

func (v value) describe() string {
	switch v.kind {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a number"
	case unstable.Bool:
		return "true/false"
	case unstable.Array:
		return "an array"
	}
	return strings.ToLower(v.kind.String())
}

// table is one section of the file: [name] or one [[name]] element.
type table struct {
	name  string
	array bool // [[name]]
	index int  // which element of an array table
	line  int
	keys  map[string]value
	order []string
	used  map[string]bool
}

func (t *table) title() string {
	if t.array {
		return fmt.Sprintf("[[%s]] #%d", t.name, t.index+1)
	}
	return "[" + t.name + "]"
}

// parseTOML reads the document's sections. Only the shapes a rig file uses are accepted:
// [section] and [[section]] with one-part names from the known lists, keys with scalar values
// or arrays of scalars.
func parseTOML(data []byte, name string) ([]*table, error) {
	var tables []*table
	seen := map[string]*table{}
	count := map[string]int{}
	var cur *table
	err := tomlwalk.Walk(data, name, func(e tomlwalk.Expr) error {
		key, ln := e.Key, e.Line
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			if e.Parts != 1 {
				return fmt.Errorf("%s:%d: [%s]: nested sections are not part of a rig file", name, ln, key)
			}
			array := e.Kind == unstable.ArrayTable
			switch {
			case arraySections[key] && !array:
				return fmt.Errorf("%s:%d: [%s]: write [[%s]] (a rig may have several)", name, ln, key, key)
			case singleSections[key] && array:
				return fmt.Errorf("%s:%d: [[%s]]: write [%s] (a rig has one)", name, ln, key, key)
			case !arraySections[key] && !singleSections[key]:
				return fmt.Errorf("%s:%d: [%s]: unknown section (want %s)", name, ln, key, sectionList())
			case !array && seen[key] != nil:
				return fmt.Errorf("%s:%d: [%s]: given twice (first on line %d)", name, ln, key, seen[key].line)
			}
			cur = &table{name: key, array: array, index: count[key], line: ln, keys: map[string]value{}, used: map[string]bool{}}
			count[key]++
			if len(tables) >= maxTables {
				return fmt.Errorf("%s:%d: more than %d sections", name, ln, maxTables)
			}
			seen[key] = cur
			tables = append(tables, cur)
		case unstable.KeyValue:
			if cur == nil {
				return fmt.Errorf("%s:%d: %s: outside any section (start with [rig])", name, ln, key)
			}
			if e.Parts != 1 {
				return fmt.Errorf("%s:%d: %s %s: dotted keys are not part of a rig file", name, ln, cur.title(), key)
			}
			if prev, ok := cur.keys[key]; ok {
				return fmt.Errorf("%s:%d: %s %s: given twice (first on line %d)", name, ln, cur.title(), key, prev.line)
			}
			v, err := convert(e.Value, 0)
			if err != nil {
				return fmt.Errorf("%s:%d: %s %s: %w", name, ln, cur.title(), key, err)
			}
			v.line = ln
			cur.keys[key] = v
			cur.order = append(cur.order, key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tables, nil
}

const maxTables = 10000

func convert(n *unstable.Node, depth int) (value, error) {
	v := value{kind: n.Kind}
	if n.Kind == unstable.Array {
		if depth > 0 {
			return v, errors.New("nested arrays are not part of a rig file")
		}
		it := n.Children()
		for it.Next() {
			if len(v.arr) >= 1024 {
				return v, errors.New("more than 1024 elements")
			}
			e, err := convert(it.Node(), depth+1)
			if err != nil {
				return v, err
			}
			v.arr = append(v.arr, e)
		}
		return v, nil
	}
	x, ok, err := tomlwalk.Scalar(n)
	switch x := x.(type) {
	case string:
		v.s = x
	case bool:
		v.b = x
	case int64:
		v.i = x
	case float64:
		v.f = x
	}
	if !ok {
		return v, fmt.Errorf("want a string, a number, true/false or an array, not a %s", strings.ToLower(n.Kind.String()))
	}
	return v, err
}

// fields reads one table's keys into Go values, remembering the first error.
type fields struct {
	file string
	t    *table
	err  error
}

func (f *fields) fail(key string, line int, format string, a ...any) {
	if f.err == nil {
		if line == 0 {
			line = f.t.line
		}
		f.err = fmt.Errorf("%s:%d: %s %s: %s", f.file, line, f.t.title(), key, fmt.Sprintf(format, a...))
	}
}

func (f *fields) get(key string, required bool) (value, bool) {
	f.t.used[key] = true
	v, ok := f.t.keys[key]
	if !ok && required {
		f.fail(key, f.t.line, "missing")
	}
	return v, ok
}

func (f *fields) line(key string) int {
	if v, ok := f.t.keys[key]; ok {
		return v.line
	}
	return f.t.line
}

func (f *fields) str(key string, dst *string, required bool) {
	v, ok := f.get(key, required)
	if !ok {
		return
	}
	if v.kind != unstable.String {
		f.fail(key, v.line, "want a string, not %s", v.describe())
		return
	}
	if len(v.s) > 256 {
		f.fail(key, v.line, "longer than 256 bytes")
		return
	}
	*dst = v.s
}

func (f *fields) oneOf(key string, dst *string, choices ...string) {
	var s string
	v, ok := f.get(key, false)
	if !ok {
		return
	}
	f.str(key, &s, false)
	for _, c := range choices {
		if s == c {
			*dst = s
			return
		}
	}
	if f.err == nil {
		f.fail(key, v.line, "%q: want %s", s, strings.Join(choices, " or "))
	}
}

func (f *fields) int(key string, dst *int, lo, hi int64, required bool) {
	v, ok := f.get(key, required)
	if !ok {
		return
	}
	if v.kind != unstable.Integer {
		f.fail(key, v.line, "want an integer, not %s", v.describe())
		return
	}
	if v.i < lo || v.i > hi {
		f.fail(key, v.line, "%d out of range %d..%d", v.i, lo, hi)
		return
	}
	*dst = int(v.i)
}

func (f *fields) addr(key string, dst *uint16, lo, hi uint16) {
	v, ok := f.get(key, true)
	if !ok {
		return
	}
	if v.kind != unstable.Integer {
		f.fail(key, v.line, "want an integer (0x%02x), not %s", lo, v.describe())
		return
	}
	if v.i < int64(lo) || v.i > int64(hi) {
		hint := ""
		if v.i >= 2*int64(lo) && v.i <= 2*int64(hi)+1 {
			hint = fmt.Sprintf(" (0x%02x is the 8-bit form of 0x%02x)", v.i, v.i>>1)
		}
		f.fail(key, v.line, "0x%02x out of range 0x%02x-0x%02x%s", v.i, lo, hi, hint)
		return
	}
	*dst = uint16(v.i)
}

func (f *fields) float(key string, dst *float64, lo, hi float64) {
	v, ok := f.get(key, false)
	if !ok {
		return
	}
	var x float64
	switch v.kind {
	case unstable.Integer:
		x = float64(v.i)
	case unstable.Float:
		x = v.f
	default:
		f.fail(key, v.line, "want a number, not %s", v.describe())
		return
	}
	if !(x >= lo && x <= hi) { // NaN fails too
		f.fail(key, v.line, "%g out of range %g..%g", x, lo, hi)
		return
	}
	*dst = x
}

// dur reads a duration given as a number of units (a key named ..._ms or ..._us).
func (f *fields) dur(key string, dst *time.Duration, unit time.Duration, lo, hi float64) {
	x := float64(*dst) / float64(unit)
	f.float(key, &x, lo, hi)
	*dst = time.Duration(x * float64(unit))
}

func (f *fields) bool(key string, dst *bool) {
	v, ok := f.get(key, false)
	if !ok {
		return
	}
	if v.kind != unstable.Bool {
		f.fail(key, v.line, "want true or false, not %s", v.describe())
		return
	}
	*dst = v.b
}

func (f *fields) strs(key string, dst *[]string) {
	v, ok := f.get(key, false)
	if !ok {
		return
	}
	if v.kind != unstable.Array {
		f.fail(key, v.line, "want an array of strings, not %s", v.describe())
		return
	}
	for _, e := range v.arr {
		if e.kind != unstable.String {
			f.fail(key, v.line, "want an array of strings, not of %s", e.describe())
			return
		}
		*dst = append(*dst, e.s)
	}
}

// done reports the first key no one asked for.
func (f *fields) done() error {
	if f.err != nil {
		return f.err
	}
	for _, k := range f.t.order {
		if !f.t.used[k] {
			f.fail(k, f.t.keys[k].line, "unknown key (want %s)", strings.Join(knownKeys[f.t.name], ", "))
			break
		}
	}
	return f.err
}
