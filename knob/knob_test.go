package knob

import (
	"math"
	"strings"
	"testing"
)

func TestRangeContains(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	cases := []struct {
		name string
		r    Range
		in   []float64
		out  []float64
	}{
		{"closed", Closed(0, 10), []float64{0, 5, 10}, []float64{-1e-300, 10.000000001, nan, inf, -inf}},
		{"open below", Range{Min: 0, Max: 10, MinOpen: true}, []float64{1e-300, 10}, []float64{0, -1, 11, nan}},
		{"open above", Range{Min: 0, Max: 1, MaxOpen: true}, []float64{0, 0.999999}, []float64{1, -0.1, nan}},
		{"open both", Range{Min: -1, Max: 1, MinOpen: true, MaxOpen: true}, []float64{-0.99, 0, 0.99}, []float64{-1, 1}},
		{"+Inf allowed", Range{Min: 0, Max: 1e6, MinOpen: true, InfOK: true}, []float64{1, 1e6, inf}, []float64{0, 1e6 + 1, -inf, nan}},
		{"0 allowed", Range{Min: 1, Max: 1e12, ZeroOK: true}, []float64{0, 1, 1e12}, []float64{0.5, 1e-300, -1, 1e13, inf, nan}},
		{"names hold no number", Names("a", "b"), nil, []float64{0, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range tc.in {
				if !tc.r.Contains(v) {
					t.Errorf("%s does not contain %v", tc.r, v)
				}
				if err := tc.r.Check("k", v); err != nil {
					t.Errorf("Check(%v): %v", v, err)
				}
			}
			for _, v := range tc.out {
				if tc.r.Contains(v) {
					t.Errorf("%s contains %v", tc.r, v)
				}
				if err := tc.r.Check("k", v); err == nil || !strings.HasPrefix(err.Error(), "k: ") {
					t.Errorf("Check(%v): %v, want an error naming k", v, err)
				}
			}
		})
	}
}

func TestRangeString(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Range
		want string
	}{
		{"closed", Closed(0, 10), "0..10"},
		{"open-below", Range{Min: 0, Max: 10, MinOpen: true}, "more than 0, at most 10"},
		{"open-above", Range{Min: 0, Max: 1, MaxOpen: true}, "0 or more, less than 1"},
		{"open-both", Range{Min: -1, Max: 1, MinOpen: true, MaxOpen: true}, "more than -1, less than 1"},
		{"inf-ok", Range{Min: 0, Max: 1e6, MinOpen: true, InfOK: true}, "more than 0, at most 1e+06 or +Inf"},
		{"zero-ok", Range{Min: 1, Max: 1e12, ZeroOK: true}, "0 (off), or 1..1e+12"},
		{"max=MaxUint64", Closed(0, math.MaxUint64), "0..2^64-1"},
		{"names", Names("alpha", "gamma", "forced"), "alpha, gamma or forced"},
		{"one-name", Names("dark"), "dark"},
		{"zero", Range{}, "0..0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.String(); got != tc.want {
				t.Errorf("%#v: %q, want %q", tc.r, got, tc.want)
			}
		})
	}
}

func TestRangeIsZero(t *testing.T) {
	if !(Range{}).IsZero() {
		t.Error("the zero Range is not IsZero")
	}
	for _, tc := range []struct {
		name string
		r    Range
	}{
		{"closed", Closed(0, 1)},
		{"zero-ok", Range{ZeroOK: true}},
		{"inf-ok", Range{InfOK: true}},
		{"min-open", Range{MinOpen: true}},
		{"names", Names("a")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.IsZero() {
				t.Errorf("%#v is IsZero", tc.r)
			}
		})
	}
}

// name is a type that writes itself as text, as an enumeration does.
type name int

func (n name) MarshalText() ([]byte, error) {
	switch n {
	case 0:
		return []byte("zero"), nil
	case 1:
		return []byte("one"), nil
	}
	return nil, errNoName
}

var errNoName = errorString("no name")

type errorString string

func (e errorString) Error() string { return string(e) }

type params struct {
	F     float64 `json:"f"`
	I     int     `json:"i"`
	U     uint64  `json:"u,omitempty"`
	S     string  `json:"s"`
	N     name    `json:"n"`
	Free  float64 `json:"free"`  // no doc: not checked
	Blank float64 `json:"blank"` // a doc without a range: not checked
}

var paramDocs = []Doc{
	{Key: "f", Range: Range{Min: 0, Max: 1, MaxOpen: true}},
	{Key: "i", Range: Closed(1, 64)},
	{Key: "u", Range: Closed(0, math.MaxUint64)},
	{Key: "s", Range: Names("x", "y")},
	{Key: "n", Range: Names("zero", "one")},
	{Key: "blank"},
}

func TestCheckStruct(t *testing.T) {
	good := params{F: 0.5, I: 8, U: math.MaxUint64, S: "x", N: 1, Free: math.Inf(1), Blank: math.NaN()}
	for _, tc := range []struct {
		name string
		v    any
	}{{"value", good}, {"pointer", &good}} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckStruct(tc.v, paramDocs); err != nil {
				t.Errorf("%+v: %v", tc.v, err)
			}
		})
	}
	for _, tc := range []struct {
		name string
		edit func(*params)
		want string
	}{
		{"f=1", func(p *params) { p.F = 1 }, "f: 1, want 0 or more, less than 1"},
		{"f=NaN", func(p *params) { p.F = math.NaN() }, "f: NaN, want 0 or more, less than 1"},
		{"i=0", func(p *params) { p.I = 0 }, "i: 0, want 1..64"},
		{"i=65", func(p *params) { p.I = 65 }, "i: 65, want 1..64"},
		{"i=MaxInt", func(p *params) { p.I = math.MaxInt }, "i: 9223372036854775807, want 1..64"},
		{"s=z", func(p *params) { p.S = "z" }, `s: "z", want x or y`},
		{"n=7", func(p *params) { p.N = 7 }, "n: 7, want zero or one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := good
			tc.edit(&p)
			err := CheckStruct(p, paramDocs)
			if err == nil || err.Error() != tc.want {
				t.Errorf("%+v: %v, want %q", p, err, tc.want)
			}
		})
	}
	if err := CheckStruct(3, paramDocs); err == nil {
		t.Error("CheckStruct of an int: no error")
	}
}
