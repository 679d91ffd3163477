package exact

import (
	"math/big"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"3", "3"}, {"+3", "3"}, {"-0", "0"}, {"3.0", "3"}, {"0.5", "0.5"}, {".5", "0.5"}, {"-.5", "-0.5"},
		{"1/3", "1/3"}, {"-2/6", "-1/3"}, {"4/2", "2"}, {"1/8", "0.125"}, {"2.5e-3", "0.0025"}, {"1e3", "1000"},
		{" 7/5 ", "1.4"}, {"010/3", "10/3"}, {"1/1024", "0.0009765625"},
	} {
		t.Run(c.in, func(t *testing.T) {
			r, err := Parse(c.in)
			if err != nil {
				t.Errorf("%q: %v", c.in, err)
				return
			}
			if got := Format(r); got != c.out {
				t.Errorf("%q: %s, want %s", c.in, got, c.out)
			}
		})
	}
	for _, bad := range []string{"", "x", "1/0", "1/-3", "0x10", "Inf", "NaN", "1e101", "1,5", "1 2", "--1", "1/2/3",
		"1" + strings.Repeat("0", 401), "1/1" + strings.Repeat("0", 401), "1e-100" + strings.Repeat("0", 1000)} {
		t.Run(bad, func(t *testing.T) {
			if r, err := Parse(bad); err == nil {
				t.Errorf("%q: %v, want an error", bad, r)
			}
		})
	}
	// 1/3^... : a fraction whose decimal would not end.
	if got := Format(big.NewRat(1, 3*1024)); got != "1/3072" {
		t.Errorf("1/3072: %s", got)
	}
	// A terminating fraction beyond 24 places stays a fraction.
	r := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 30))
	if got := Format(r); got != "1/1073741824" {
		t.Errorf("2^-30: %s", got)
	}
}

func TestVec(t *testing.T) {
	v, err := ParseVec("1, 1/2, -3")
	if err != nil {
		t.Fatal(err)
	}
	w := Ints(2, 4, 1)
	if d := Format(v.Dot(w)); d != "1" { // 2 + 2 - 3
		t.Errorf("dot %s", d)
	}
	c := v.Clone()
	c.AddScaled(big.NewRat(-1, 2), w) // (1-1, 1/2-2, -3-1/2)
	if c.String() != "(0, -1.5, -3.5)" || v.String() != "(1, 0.5, -3)" {
		t.Errorf("%s, %s", c, v)
	}
	if _, err := ParseVec("1,,2"); err == nil || !strings.Contains(err.Error(), "number 2") {
		t.Errorf("%v", err)
	}
}

func TestSolve(t *testing.T) {
	// 2x + y = 3, x + 3y = 5: x = 4/5, y = 7/5.
	x, err := Solve([]Vec{Ints(2, 1), Ints(1, 3)}, Ints(3, 5))
	if err != nil || x.String() != "(0.8, 1.4)" {
		t.Errorf("%v, %v", x, err)
	}
	// A zero pivot first: rows swapped.
	x, err = Solve([]Vec{Ints(0, 1), Ints(1, 0)}, Ints(2, 3))
	if err != nil || x.String() != "(3, 2)" {
		t.Errorf("%v, %v", x, err)
	}
	if _, err := Solve([]Vec{Ints(1, 2), Ints(2, 4)}, Ints(1, 1)); err != ErrSingular {
		t.Errorf("singular: %v", err)
	}
}

// FuzzParse: any text is a number or an error, never a panic, and a number written by Format
// is the same number (read by math/big, without Parse's limits on length).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"3", "-.5", "1/3", "2.5e-3", "1e100", "0x1", "1/0", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: a message of several lines: %v", s, err)
			}
			return
		}
		back, ok := new(big.Rat).SetString(Format(r))
		if !ok || back.Cmp(r) != 0 {
			t.Fatalf("%q: %s reads back as %v", s, Format(r), back)
		}
	})
}
