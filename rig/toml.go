package rig

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/tomlfile"
)

// table is one section of the file: [name] or one [[name]] element.
type table struct {
	name  string
	array bool // [[name]]
	index int  // which element of an array table
	line  int
	keys  map[string]tomlfile.Value
	lines tomlfile.Lines // where each key is
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
	singles := tomlfile.Lines{}
	count := map[string]int{}
	var cur *table
	err := tomlfile.Walk(data, name, func(e tomlfile.Expr) error {
		key, ln := e.Key, e.Line
		switch e.Kind {
		case tomlfile.Table, tomlfile.ArrayTable:
			array := e.Kind == tomlfile.ArrayTable
			header := "[" + key + "]"
			if array {
				header = "[" + header + "]"
			}
			switch {
			case e.Parts != 1:
				return tomlfile.Errorf(name, ln, header, "nested sections are not part of a rig file")
			case arraySections[key] && !array:
				return tomlfile.Errorf(name, ln, header, "write [[%s]] (a rig may have several)", key)
			case singleSections[key] && array:
				return tomlfile.Errorf(name, ln, header, "write [%s] (a rig has one)", key)
			case !arraySections[key] && !singleSections[key]:
				return tomlfile.Errorf(name, ln, header, "unknown section (want %s)", sectionList())
			}
			if !array {
				if err := singles.Add(key, ln); err != nil {
					return tomlfile.Errorf(name, ln, header, "%w", err)
				}
			}
			if len(tables) >= maxTables {
				return tomlfile.Errorf(name, ln, "", "more than %d sections", maxTables)
			}
			cur = &table{name: key, array: array, index: count[key], line: ln,
				keys: map[string]tomlfile.Value{}, lines: tomlfile.Lines{}, used: map[string]bool{}}
			count[key]++
			tables = append(tables, cur)
		case tomlfile.KeyValue:
			if cur == nil {
				return tomlfile.Errorf(name, ln, key, "outside any section (start with [rig])")
			}
			where := cur.title() + " " + key
			if e.Parts != 1 {
				return tomlfile.Errorf(name, ln, where, "dotted keys are not part of a rig file")
			}
			if err := cur.lines.Add(key, ln); err != nil {
				return tomlfile.Errorf(name, ln, where, "%w", err)
			}
			if err := rigValue(e.Value); err != nil {
				return tomlfile.Errorf(name, ln, where, "%w", err)
			}
			cur.keys[key] = e.Value
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

// maxElems bounds an array of a rig file (the panel's lists have at most 64 names).
const maxElems = 1024

// rigValue refuses a value of a kind no key of a rig file takes.
func rigValue(v tomlfile.Value) error {
	switch v.Kind {
	case tomlfile.String, tomlfile.Integer, tomlfile.Float, tomlfile.Bool:
		return nil
	case tomlfile.Array:
		if len(v.Elems) > maxElems {
			return fmt.Errorf("more than %d elements", maxElems)
		}
		for _, e := range v.Elems {
			if e.Kind == tomlfile.Array {
				return errors.New("nested arrays are not part of a rig file")
			}
			if err := rigValue(e); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("want a string, a number, true/false or an array, not %s", v.Kind)
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
		f.err = tomlfile.Errorf(f.file, line, f.t.title()+" "+key, format, a...)
	}
}

func (f *fields) get(key string, required bool) (tomlfile.Value, bool) {
	f.t.used[key] = true
	v, ok := f.t.keys[key]
	if !ok && required {
		f.fail(key, f.t.line, "missing")
	}
	return v, ok
}

func (f *fields) line(key string) int {
	if v, ok := f.t.keys[key]; ok {
		return v.Line
	}
	return f.t.line
}

// read stores in *dst what conv makes of key's value, when the key is given; when conv
// cannot, its reason is the error.
func read[T any](f *fields, key string, dst *T, required bool, conv func(tomlfile.Value) (T, error)) {
	v, ok := f.get(key, required)
	if !ok {
		return
	}
	x, err := conv(v)
	if err != nil {
		f.fail(key, v.Line, "%w", err)
		return
	}
	*dst = x
}

func (f *fields) str(key string, dst *string, required bool) {
	read(f, key, dst, required, func(v tomlfile.Value) (string, error) {
		s, err := v.Str()
		if err == nil && len(s) > 256 {
			err = errors.New("longer than 256 bytes")
		}
		return s, err
	})
}

func (f *fields) oneOf(key string, dst *string, choices ...string) {
	read(f, key, dst, false, func(v tomlfile.Value) (string, error) { return v.OneOf(choices...) })
}

func (f *fields) int(key string, dst *int, lo, hi int64, required bool) {
	read(f, key, dst, required, func(v tomlfile.Value) (int, error) {
		n, err := v.Int(lo, hi)
		return int(n), err
	})
}

// addr reads a chip's 7-bit I2C address, naming the 7-bit form of an address given in the
// 8-bit form some datasheets use.
func (f *fields) addr(key string, dst *uint16, lo, hi uint16) {
	read(f, key, dst, true, func(v tomlfile.Value) (uint16, error) {
		n, err := v.Whole()
		switch {
		case err != nil && v.Kind != tomlfile.Integer && v.Kind != tomlfile.Float:
			return 0, fmt.Errorf("want a whole number (0x%02x), not %s", lo, v.Kind)
		case err != nil:
			return 0, err
		case n < int64(lo) || n > int64(hi):
			hint := ""
			if n >= 2*int64(lo) && n <= 2*int64(hi)+1 {
				hint = fmt.Sprintf(" (0x%02x is the 8-bit form of 0x%02x)", n, n>>1)
			}
			return 0, fmt.Errorf("0x%02x out of range 0x%02x-0x%02x%s", n, lo, hi, hint)
		}
		return uint16(n), nil
	})
}

func (f *fields) float(key string, dst *float64, lo, hi float64) {
	read(f, key, dst, false, func(v tomlfile.Value) (float64, error) { return v.Float(lo, hi) })
}

// dur reads a duration given as a number of units (a key named ..._ms or ..._us).
func (f *fields) dur(key string, dst *time.Duration, unit time.Duration, lo, hi float64) {
	read(f, key, dst, false, func(v tomlfile.Value) (time.Duration, error) { return v.Duration(unit, lo, hi) })
}

func (f *fields) bool(key string, dst *bool) {
	read(f, key, dst, false, tomlfile.Value.Bool)
}

func (f *fields) strs(key string, dst *[]string) {
	read(f, key, dst, false, tomlfile.Value.Strings)
}

// done reports the first key no one asked for.
func (f *fields) done() error {
	if f.err != nil {
		return f.err
	}
	for _, k := range f.t.order {
		if !f.t.used[k] {
			f.fail(k, f.t.keys[k].Line, "unknown key (want %s)", strings.Join(knownKeys[f.t.name], ", "))
			break
		}
	}
	return f.err
}
