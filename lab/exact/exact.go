// Package exact holds the exact numbers of the lab's hand-checkable demonstrations: rationals
// (math/big.Rat) read from what a student types, and written back as a textbook writes them:
// an integer as an integer (3, not 3.0), a terminating fraction as a decimal (0.5), any other
// as a fraction (1/3). Vectors of them, their dot products, and the exact solution of a small
// linear system.
//
// The perceptron's rules add and multiply the samples; on samples and weights written as
// integers or decimals, every number they produce is exact here, so that a trace can be
// checked line by line against a worked example.
package exact

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// Limits on a number as typed, so that a line of a file cannot ask for a number of a million
// digits. Every number Format writes of a number Parse accepts is within them.
const (
	MaxDigits   = 400  // digits of the number's numerator and of its denominator in lowest terms
	MaxExponent = 100  // |k| of an exponent e±k
	maxText     = 1000 // characters of the number as written
)

var (
	decimalRE  = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$`)
	fractionRE = regexp.MustCompile(`^([+-]?[0-9]+)/([0-9]+)$`)
)

// Parse reads a number: an integer (-3, +2), a decimal (0.5, .5, -1.25, 2.5e-3) or a fraction
// (1/3, -7/2). Spaces around it are ignored. Nothing else is a number here: no hexadecimal,
// no infinity, no "1/0".
func Parse(s string) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	if len(s) > maxText {
		return nil, fmt.Errorf("%.20q...: more than %d characters", s, maxText)
	}
	r, err := parse(s)
	if err != nil {
		return nil, err
	}
	if r.Num().BitLen() > maxBits || r.Denom().BitLen() > maxBits {
		return nil, fmt.Errorf("%.20q...: more than %d digits", s, MaxDigits)
	}
	return r, nil
}

// maxBits is the bit length of 10^MaxDigits, less one: a number of at most that many bits has
// at most MaxDigits digits.
const maxBits = MaxDigits * 3321 / 1000

func parse(s string) (*big.Rat, error) {
	if m := fractionRE.FindStringSubmatch(s); m != nil {
		var num, den big.Int
		num.SetString(m[1], 10)
		den.SetString(m[2], 10)
		if den.Sign() == 0 {
			return nil, fmt.Errorf("%q: a fraction over 0", s)
		}
		return new(big.Rat).SetFrac(&num, &den), nil
	}
	m := decimalRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("%q is not a number (want an integer, a decimal such as 0.5, or a fraction such as 1/3)", s)
	}
	if m[3] != "" {
		e, err := strconv.Atoi(strings.TrimLeft(m[3][1:], "+"))
		if err != nil || e > MaxExponent || e < -MaxExponent {
			return nil, fmt.Errorf("%q: an exponent beyond ±%d", s, MaxExponent)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a number", s)
	}
	return r, nil
}

// maxPlaces is the most decimal places Format writes; a terminating fraction that needs more
// is written as a fraction.
const maxPlaces = 24

// Format writes r exactly: as an integer when it is whole, as a decimal when its denominator
// has no prime factor but 2 and 5 (and it needs at most 24 places), else as a fraction a/b in
// lowest terms.
func Format(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if p, ok := places(r.Denom()); ok {
		return r.FloatString(p)
	}
	return r.String()
}

// places returns the decimal places 1/d needs, when d = 2^a 5^b: max(a, b).
func places(d *big.Int) (int, bool) {
	var q, m big.Int
	q.Set(d)
	a, b := 0, 0
	two, five := big.NewInt(2), big.NewInt(5)
	for {
		if q.QuoRem(&q, two, &m); m.Sign() != 0 {
			q.Mul(&q, two).Add(&q, &m)
			break
		}
		a++
	}
	for {
		if q.QuoRem(&q, five, &m); m.Sign() != 0 {
			q.Mul(&q, five).Add(&q, &m)
			break
		}
		b++
	}
	p := max(a, b)
	return p, q.Cmp(big.NewInt(1)) == 0 && p <= maxPlaces
}

// Float returns r's nearest float64 (for plots and distances, never for the rules).
func Float(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// Int returns the rational n.
func Int(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }

// Vec is a vector of exact numbers.
type Vec []*big.Rat

// Zeros returns a vector of n zeros.
func Zeros(n int) Vec {
	v := make(Vec, n)
	for i := range v {
		v[i] = new(big.Rat)
	}
	return v
}

// Ints returns the vector of the integers.
func Ints(xs ...int64) Vec {
	v := make(Vec, len(xs))
	for i, x := range xs {
		v[i] = Int(x)
	}
	return v
}

// Clone returns a copy of v that shares no number with it.
func (v Vec) Clone() Vec {
	c := make(Vec, len(v))
	for i, x := range v {
		c[i] = new(big.Rat).Set(x)
	}
	return c
}

// Dot returns v.w (the shorter length counts; callers give equal lengths).
func (v Vec) Dot(w Vec) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for i := range min(len(v), len(w)) {
		s.Add(s, t.Mul(v[i], w[i]))
	}
	return s
}

// AddScaled sets v to v + a x, in place.
func (v Vec) AddScaled(a *big.Rat, x Vec) {
	t := new(big.Rat)
	for i := range v {
		v[i].Add(v[i], t.Mul(a, x[i]))
	}
}

// Equal reports whether v and w hold the same numbers.
func (v Vec) Equal(w Vec) bool {
	if len(v) != len(w) {
		return false
	}
	for i := range v {
		if v[i].Cmp(w[i]) != 0 {
			return false
		}
	}
	return true
}

// Floats returns v's nearest float64s.
func (v Vec) Floats() []float64 {
	f := make([]float64, len(v))
	for i, x := range v {
		f[i] = Float(x)
	}
	return f
}

// String writes v as (a, b, c), each number as Format writes it.
func (v Vec) String() string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = Format(x)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// Strings returns each number as Format writes it (for JSON: exact, unlike a float).
func (v Vec) Strings() []string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = Format(x)
	}
	return parts
}

// ParseVec reads numbers separated by commas ("0, 0.5, -1/3").
func ParseVec(s string) (Vec, error) {
	var v Vec
	for i, f := range strings.Split(s, ",") {
		r, err := Parse(f)
		if err != nil {
			return nil, fmt.Errorf("number %d: %w", i+1, err)
		}
		v = append(v, r)
	}
	return v, nil
}

// ErrSingular is Solve's error for a matrix without an inverse.
var ErrSingular = errors.New("exact: the matrix is singular")

// Solve returns x with a x = b, a square and invertible, by Gaussian elimination in exact
// arithmetic (a and b are left as they were).
func Solve(a []Vec, b Vec) (Vec, error) {
	n := len(a)
	if len(b) != n {
		return nil, fmt.Errorf("exact: %d rows and %d right-hand sides", n, len(b))
	}
	m := make([]Vec, n)
	for i := range a {
		if len(a[i]) != n {
			return nil, fmt.Errorf("exact: row %d has %d numbers, want %d", i, len(a[i]), n)
		}
		m[i] = append(a[i].Clone(), new(big.Rat).Set(b[i]))
	}
	t := new(big.Rat)
	for c := range n {
		p := -1
		for r := c; r < n; r++ {
			if m[r][c].Sign() != 0 {
				p = r
				break
			}
		}
		if p < 0 {
			return nil, ErrSingular
		}
		m[c], m[p] = m[p], m[c]
		for r := range n {
			if r == c || m[r][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(m[r][c], m[c][c])
			for k := c; k <= n; k++ {
				m[r][k].Sub(m[r][k], t.Mul(f, m[c][k]))
			}
		}
	}
	x := make(Vec, n)
	for i := range n {
		x[i] = new(big.Rat).Quo(m[i][n], m[i][i])
	}
	return x, nil
}
