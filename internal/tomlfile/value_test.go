package tomlfile

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// valueOf reads the value of the document "x = text".
func valueOf(t *testing.T, text string) Value {
	t.Helper()
	var v Value
	if err := Walk([]byte("x = "+text+"\n"), "v.toml", func(e Expr) error { v = e.Value; return nil }); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestGetters reads values with every getter: what each gives, or why not, in one line.
func TestGetters(t *testing.T) {
	getters := map[string]func(Value) (any, error){
		"Str":          func(v Value) (any, error) { return v.Str() },
		"Bool":         func(v Value) (any, error) { return v.Bool() },
		"Whole":        func(v Value) (any, error) { return v.Whole() },
		"Int":          func(v Value) (any, error) { return v.Int(0, 16) },
		"Number":       func(v Value) (any, error) { return v.Number() },
		"Float":        func(v Value) (any, error) { return v.Float(1, 200) },
		"Duration":     func(v Value) (any, error) { return v.Duration(time.Millisecond, 0, 1000) },
		"DurationText": func(v Value) (any, error) { return v.DurationText() },
		"OneOf":        func(v Value) (any, error) { return v.OneOf("auto", "landscape", "portrait") },
		"OneOf2":       func(v Value) (any, error) { return v.OneOf("mirror", "loop") },
		"Strings":      func(v Value) (any, error) { return v.Strings() },
		"Scalar":       func(v Value) (any, error) { return v.Scalar() },
	}
	for _, tc := range []struct {
		getter, text string
		want         string // the value as %v prints it, or the error
	}{
		{"Str", `"a\tb"`, "a\tb"},
		{"Str", "3", "want a string in quotes, not an integer"},
		{"Str", "[]", "want a string in quotes, not an array"},
		{"Bool", "true", "true"},
		{"Bool", "false", "false"},
		{"Bool", `"yes"`, "want true or false, not a string"},
		{"Bool", "1.5", "want true or false, not a number"},
		{"Whole", "-44", "-44"},
		{"Whole", "0x2C", "44"},
		{"Whole", "1_000", "1000"},
		{"Whole", "0b101", "5"},
		{"Whole", "99999999999999999999", "integer 99999999999999999999 is out of range"},
		{"Whole", "8.0", "8.0 is a float; write 8"},
		{"Whole", "1e3", "1e3 is a float; write 1000"},
		{"Whole", "-0.0", "-0.0 is a float; write 0"},
		{"Whole", "8.5", "8.5 is not a whole number"},
		{"Whole", "inf", "inf is not a whole number"},
		{"Whole", "nan", "nan is not a whole number"},
		{"Whole", "1e30", "1e30 is a float, and out of range for an integer"},
		{"Whole", `"8"`, "want a whole number, not a string"},
		{"Whole", "1979-05-27T07:32:00Z", "want a whole number, not a date and time"},
		{"Int", "16", "16"},
		{"Int", "17", "17 out of range 0..16"},
		{"Int", "-1", "-1 out of range 0..16"},
		{"Int", "2.0", "2.0 is a float; write 2"},
		{"Number", "3", "3"},
		{"Number", "+2.5", "2.5"},
		{"Number", "-inf", "-Inf"},
		{"Number", "-nan", "NaN"},
		{"Number", "+nan", "NaN"},
		{"Number", "true", "want a number, not true/false"},
		{"Float", "200", "200"},
		{"Float", "1000", "1000 out of range 1..200"},
		{"Float", "nan", "NaN out of range 1..200"},
		{"Float", `"fast"`, "want a number, not a string"},
		{"Duration", "2.5", "2.5ms"},
		{"Duration", "1001", "1001 out of range 0..1000"},
		{"DurationText", `"1m30s"`, "1m30s"},
		{"DurationText", `"-1s"`, `"-1s" is not a duration of 0 or more ("90s", "5m", "1h")`},
		{"DurationText", "90", `want a duration in quotes ("90s", "5m"), not an integer`},
		{"OneOf", `"portrait"`, "portrait"},
		{"OneOf", `"sideways"`, `"sideways": want auto, landscape or portrait`},
		{"OneOf2", `"both"`, `"both": want mirror or loop`},
		{"OneOf2", "1", "want a string in quotes, not an integer"},
		{"Strings", `["a", "b"]`, "[a b]"},
		{"Strings", "[]", "[]"},
		{"Strings", `"a"`, "want an array of strings, not a string"},
		{"Strings", `["a", 1]`, "want an array of strings, not of an integer"},
		{"Strings", `[["a"]]`, "want an array of strings, not of an array"},
		{"Strings", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "want an array of strings, not of an array"},
		{"Scalar", `"x"`, "x"},
		{"Scalar", "7", "7"},
		{"Scalar", "7.5", "7.5"},
		{"Scalar", "false", "false"},
		{"Scalar", "{a = 1}", "want a number, a string or true/false, not an inline table"},
		{"Scalar", "07:32:00", "want a number, a string or true/false, not a time"},
	} {
		t.Run(tc.getter+" "+tc.text, func(t *testing.T) {
			x, err := getters[tc.getter](valueOf(t, tc.text))
			got := fmt.Sprint(x)
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("%s(%s) = %q, want %q", tc.getter, tc.text, got, tc.want)
			}
		})
	}
}

// TestArrayLimits: an array deeper than MaxDepth or longer than MaxElems is read, and refused
// by its getters.
func TestArrayLimits(t *testing.T) {
	deep := valueOf(t, strings.Repeat("[", MaxDepth+1)+strings.Repeat("]", MaxDepth+1))
	for range MaxDepth {
		deep = deep.Elems[0]
	}
	if _, err := deep.Strings(); err == nil || err.Error() != "arrays nested more than 16 deep" {
		t.Errorf("an array %d deep: %v", MaxDepth+1, err)
	}
	long := valueOf(t, "["+strings.Repeat(`"a", `, MaxElems+1)+"]")
	if _, err := long.Strings(); err == nil || err.Error() != "more than 65536 elements" || len(long.Elems) != MaxElems {
		t.Errorf("an array of %d: %v (%d elements)", MaxElems+1, err, len(long.Elems))
	}
	if v := valueOf(t, "["+strings.Repeat(`"a", `, MaxElems)+"]"); len(v.Elems) != MaxElems {
		t.Errorf("an array of %d: %d elements", MaxElems, len(v.Elems))
	}
	if Kind(99).String() != "nothing" || (Value{}).Kind.String() != "nothing" {
		t.Error("the zero Value's kind")
	}
}
