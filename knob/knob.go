// Package knob describes the settable parameters of the machine's parts: what each models, its
// unit, where its default comes from and when it acts. The retina and potentiometer packages
// describe their parameters with it; the machine turns the descriptions into commented
// configuration files and the --flaws switches of the command line.
package knob

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Where a parameter's default comes from.
const (
	Historical = "historical" // from the surviving record of the Mark I
	Assumed    = "assumed"    // the record is silent: a plausible choice, documented
	Setting    = "setting"    // an experiment's choice (placement, polarity), not a property of the machine
	Modelling  = "modelling"  // a choice of the simulation (a batch interval), not a physical figure
)

// Doc describes one parameter.
type Doc struct {
	// Key is the parameter's JSON name within its section, as state and configuration files
	// spell it ("blur_cells").
	Key string
	// Models says in a phrase what the parameter models.
	Models string
	// Unit is the parameter's unit ("cells", "s", "increments"), or "" for a pure number or a
	// name.
	Unit string
	// Source is where the default comes from: Historical, Assumed, Setting or Modelling.
	Source string
	// Flaw names the analog flaw the parameter belongs to ("blur", "backlash"), or "" when it
	// is not a flaw. Turning a flaw on sets every parameter of that flaw to its default.
	Flaw string
	// Note says when the parameter acts: empty when it acts alone, otherwise what it acts only
	// with ("acts only with spread, dark_noise or the lags").
	Note string
	// Range is the values the parameter may take: every parameter has one, and every input
	// (flags, --set, configuration and state files) is checked against it.
	Range Range
}

// Range is a parameter's documented range: a number from Min to Max (either end left out when
// MinOpen or MaxOpen; +Inf too when InfOK), or one of Names.
type Range struct {
	Min, Max         float64
	MinOpen, MaxOpen bool
	InfOK            bool     // +Inf is allowed (no limit), beside Min..Max
	ZeroOK           bool     // 0 is allowed (the effect off), beside Min..Max
	Names            []string // for a parameter that is a name: the names it may be
}

// Closed returns the range min..max, both ends included.
func Closed(min, max float64) Range { return Range{Min: min, Max: max} }

// Names returns the range of a parameter that is one of names.
func Names(names ...string) Range { return Range{Names: names} }

// IsZero reports whether r is the zero Range: no range given.
func (r Range) IsZero() bool {
	return r.Min == 0 && r.Max == 0 && !r.MinOpen && !r.MaxOpen && !r.InfOK && !r.ZeroOK && r.Names == nil
}

// Contains reports whether the number v is in the range.
func (r Range) Contains(v float64) bool {
	switch {
	case r.Names != nil || math.IsNaN(v):
		return false
	case math.IsInf(v, 1) && r.InfOK, v == 0 && r.ZeroOK:
		return true
	case v < r.Min || v > r.Max, r.MinOpen && v == r.Min, r.MaxOpen && v == r.Max:
		return false
	}
	return true
}

// ContainsName reports whether the name s is in the range.
func (r Range) ContainsName(s string) bool { return slices.Contains(r.Names, s) }

// String writes the range for a message or a table: "0..10", "more than 0, at most 10",
// "0..1e+06 or +Inf", "alpha, gamma or forced".
func (r Range) String() string {
	if r.Names != nil {
		switch len(r.Names) {
		case 0:
			return "(no name)"
		case 1:
			return r.Names[0]
		}
		return strings.Join(r.Names[:len(r.Names)-1], ", ") + " or " + r.Names[len(r.Names)-1]
	}
	var s string
	if r.ZeroOK {
		s = "0 (off), or "
	}
	lo, hi := num(r.Min), num(r.Max)
	switch {
	case r.MinOpen && r.MaxOpen:
		s += fmt.Sprintf("more than %s, less than %s", lo, hi)
	case r.MinOpen:
		s += fmt.Sprintf("more than %s, at most %s", lo, hi)
	case r.MaxOpen:
		s += fmt.Sprintf("%s or more, less than %s", lo, hi)
	default:
		s += fmt.Sprintf("%s..%s", lo, hi)
	}
	if r.InfOK {
		s += " or +Inf"
	}
	return s
}

// num writes a bound: %g, but the top of a uint64 (2^64 as a float64, the whole of a seed's
// type) as 2^64-1.
func num(v float64) string {
	if v == math.MaxUint64 {
		return "2^64-1"
	}
	return fmt.Sprintf("%g", v)
}

// Check returns an error "KEY: VALUE, want RANGE" when v is not in the range.
func (r Range) Check(key string, v float64) error {
	if r.Contains(v) {
		return nil
	}
	return fmt.Errorf("%s: %v, want %s", key, v, r)
}

// CheckStruct checks every field of the struct v (a value or a pointer) that docs describe, by
// its JSON name: numbers against their Range, strings (and types that write themselves as text)
// against their Range's Names. It returns the first field out of range, "KEY: VALUE, want
// RANGE". Fields docs do not describe, and docs without a range, are not checked. Whole numbers
// are compared as float64: exactly, for bounds within +-2^53 and for a bound at a type's top.
func CheckStruct(v any, docs []Doc) error {
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("knob: CheckStruct of a %s", rv.Kind())
	}
	byKey := make(map[string]Range, len(docs))
	for _, d := range docs {
		byKey[d.Key] = d.Range
	}
	t := rv.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		r, ok := byKey[name]
		if !ok || r.IsZero() {
			continue
		}
		f := rv.Field(i)
		if r.Names != nil {
			s, ok := textOf(f)
			switch {
			case !ok: // a value with no name (an enumeration out of its range)
				return fmt.Errorf("%s: %v, want %s", name, f.Interface(), r)
			case !r.ContainsName(s):
				return fmt.Errorf("%s: %q, want %s", name, s, r)
			}
			continue
		}
		if x, ok := numberOf(f); ok && !r.Contains(x) {
			return fmt.Errorf("%s: %v, want %s", name, f.Interface(), r) // integers as integers
		}
	}
	return nil
}

// numberOf returns a numeric field's value as a float64.
func numberOf(f reflect.Value) (float64, bool) {
	switch f.Kind() {
	case reflect.Float32, reflect.Float64:
		return f.Float(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(f.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(f.Uint()), true
	}
	return 0, false
}

// textOf returns a string field, or the text a field writes itself as; false when it cannot
// write itself (a value out of its type's range).
func textOf(f reflect.Value) (string, bool) {
	if m, ok := f.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		return string(b), err == nil
	}
	return f.String(), f.Kind() == reflect.String
}
