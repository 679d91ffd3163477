package tomlfile

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Kind is the kind of a TOML value.
type Kind uint8

// The kinds of value.
const (
	Invalid Kind = iota // the zero Value's
	String
	Integer
	Float
	Bool
	Array
	InlineTable
	Date     // a local date, 1979-05-27
	Time     // a local time, 07:32:00
	DateTime // a date and time, local or with an offset
)

// String names the kind as an error message does: "a string", "an integer", "a number"
// (a float), "true/false", "an array", "an inline table", "a date", "a time", "a date and
// time".
func (k Kind) String() string {
	switch k {
	case String:
		return "a string"
	case Integer:
		return "an integer"
	case Float:
		return "a number"
	case Bool:
		return "true/false"
	case Array:
		return "an array"
	case InlineTable:
		return "an inline table"
	case Date:
		return "a date"
	case Time:
		return "a time"
	case DateTime:
		return "a date and time"
	}
	return "nothing"
}

// Limits on an array value, which Walk reads whole: deeper or longer, it is an array whose
// getters refuse it.
const (
	MaxDepth = 16    // arrays in arrays
	MaxElems = 65536 // elements of one array
)

// Value is a key's value as written, read by its getters.
type Value struct {
	Kind Kind
	Line int // the line of its key (0 when not known)
	// Text is a string's content (escapes resolved); a number's, a boolean's or a date's text
	// as written ("1_000", "0x2C", "8.0", "true"); "" for an array or an inline table.
	Text string
	// Elems are an array's elements, each with the array's Line.
	Elems []Value

	i   int64
	f   float64
	err error // a number out of range, an array too deep or too long
}

var kinds = map[unstable.Kind]Kind{
	unstable.String: String, unstable.Integer: Integer, unstable.Float: Float, unstable.Bool: Bool,
	unstable.Array: Array, unstable.InlineTable: InlineTable, unstable.LocalDate: Date, unstable.LocalTime: Time,
	unstable.LocalDateTime: DateTime, unstable.DateTime: DateTime,
}

// value reads the node n of a key on line.
func value(n *unstable.Node, line, depth int) Value {
	v := Value{Kind: kinds[n.Kind], Line: line, Text: string(n.Data)}
	s := strings.ReplaceAll(v.Text, "_", "")
	var err error
	switch v.Kind {
	case Integer:
		if v.i, err = strconv.ParseInt(s, 0, 64); err != nil {
			v.err = fmt.Errorf("integer %s is out of range", v.Text)
		}
	case Float:
		if strings.HasSuffix(s, "nan") {
			s = "nan" // strconv reads no sign on NaN; TOML allows one
		}
		if v.f, err = strconv.ParseFloat(strings.TrimPrefix(s, "+"), 64); err != nil {
			v.err = fmt.Errorf("malformed number %s", v.Text)
		}
	case InlineTable:
		v.Text = ""
	case Array:
		v.Text = ""
		if depth >= MaxDepth {
			v.err = fmt.Errorf("arrays nested more than %d deep", MaxDepth)
			break
		}
		for it := n.Children(); it.Next(); {
			if len(v.Elems) == MaxElems {
				v.err = fmt.Errorf("more than %d elements", MaxElems)
				break
			}
			v.Elems = append(v.Elems, value(it.Node(), line, depth+1))
		}
	}
	return v
}

// Str returns a string.
func (v Value) Str() (string, error) {
	if v.Kind != String {
		return "", fmt.Errorf("want a string in quotes, not %s", v.Kind)
	}
	return v.Text, nil
}

// Bool returns true or false.
func (v Value) Bool() (bool, error) {
	if v.Kind != Bool {
		return false, fmt.Errorf("want true or false, not %s", v.Kind)
	}
	return v.Text == "true", nil
}

// Whole returns an integer. A float is refused even when it is whole, since the file means
// an integer there: "8.0 is a float; write 8", "8.5 is not a whole number".
func (v Value) Whole() (int64, error) {
	switch v.Kind {
	case Integer:
		return v.i, v.err
	case Float:
		switch {
		case v.err != nil:
			return 0, v.err
		case v.f != math.Trunc(v.f) || math.IsInf(v.f, 0):
			return 0, fmt.Errorf("%s is not a whole number", v.Text)
		case math.Abs(v.f) >= 1<<63:
			return 0, fmt.Errorf("%s is a float, and out of range for an integer", v.Text)
		}
		return 0, fmt.Errorf("%s is a float; write %d", v.Text, int64(v.f))
	}
	return 0, fmt.Errorf("want a whole number, not %s", v.Kind)
}

// Int returns an integer from lo to hi: "1000 out of range 0..16" otherwise.
func (v Value) Int(lo, hi int64) (int64, error) {
	n, err := v.Whole()
	if err == nil && (n < lo || n > hi) {
		err = fmt.Errorf("%d out of range %d..%d", n, lo, hi)
	}
	return n, err
}

// Number returns an integer or a float as a float64 (NaN and the infinities included).
func (v Value) Number() (float64, error) {
	switch v.Kind {
	case Integer:
		return float64(v.i), v.err
	case Float:
		return v.f, v.err
	}
	return 0, fmt.Errorf("want a number, not %s", v.Kind)
}

// Float returns a number from lo to hi: "1000 out of range 1..200" otherwise (NaN too).
func (v Value) Float(lo, hi float64) (float64, error) {
	x, err := v.Number()
	if err == nil && !(x >= lo && x <= hi) {
		err = fmt.Errorf("%g out of range %g..%g", x, lo, hi)
	}
	return x, err
}

// Duration returns a duration written as a number of units (watchdog_ms = 500: unit
// time.Millisecond), the number from lo to hi as Float takes it.
func (v Value) Duration(unit time.Duration, lo, hi float64) (time.Duration, error) {
	x, err := v.Float(lo, hi)
	if err != nil {
		return 0, err
	}
	return time.Duration(x * float64(unit)), nil
}

// DurationText returns a duration written as Go writes one, in quotes ("90s", "5m", "1h30m"),
// of 0 or more.
func (v Value) DurationText() (time.Duration, error) {
	if v.Kind != String {
		return 0, fmt.Errorf("want a duration in quotes (\"90s\", \"5m\"), not %s", v.Kind)
	}
	d, err := time.ParseDuration(v.Text)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not a duration of 0 or more (\"90s\", \"5m\", \"1h\")", v.Text)
	}
	return d, nil
}

// OneOf returns a string that is one of choices: "\"both\": want mirror or loop" otherwise.
func (v Value) OneOf(choices ...string) (string, error) {
	s, err := v.Str()
	if err == nil && !slices.Contains(choices, s) {
		err = fmt.Errorf("%q: want %s", s, orList(choices))
	}
	return s, err
}

// orList joins names as a sentence does: "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Strings returns an array of strings.
func (v Value) Strings() ([]string, error) {
	if v.Kind != Array {
		return nil, fmt.Errorf("want an array of strings, not %s", v.Kind)
	}
	if v.err != nil {
		return nil, v.err
	}
	out := make([]string, 0, len(v.Elems))
	for _, e := range v.Elems {
		if e.Kind != String {
			return nil, fmt.Errorf("want an array of strings, not of %s", e.Kind)
		}
		out = append(out, e.Text)
	}
	return out, nil
}

// Scalar returns a string, true or false, an integer or a float as a string, a bool, an int64
// or a float64, for a reader that converts each key's value by the type of the setting it
// goes to.
func (v Value) Scalar() (any, error) {
	switch v.Kind {
	case String:
		return v.Text, nil
	case Bool:
		return v.Text == "true", nil
	case Integer:
		return v.i, v.err
	case Float:
		return v.f, v.err
	}
	return nil, fmt.Errorf("want a number, a string or true/false, not %s", v.Kind)
}
