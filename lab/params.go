package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/lab/learn"
)

// Kind is what a parameter holds.
type Kind int

const (
	// Int is a whole number within Min..Max.
	Int Kind = iota
	// Uint is a whole number of at least 0 (a seed), at least Min when Want says why.
	Uint
	// Float is a number, within its range when Want is set.
	Float
	// String is text.
	String
	// Bool is true or false (a flag given alone is true).
	Bool
	// Floats are numbers separated by commas, each within the range when Want is set.
	Floats
	// Points are samples X1,...,LABEL, one per setting, in the order given (repeatable).
	Points
	// Cards is a card spec (builtin:NAME, gen:KIND,..., on mark1 also idx:IMAGES,LABELS or a
	// folder; with Problems, also problem:NAME,...), which the host loads (Values.SetData).
	// "none" or "" is no cards.
	Cards
)

// Param is one parameter of a run: a flag of mark1's, a URL parameter of the browser lab's.
type Param struct {
	Name string
	Kind Kind
	// Default is the value with none given, as it would be typed ("" for none).
	Default string
	// Help says what it sets, for -h.
	Help string
	// Min and Max bound an Int (always), a Uint (Min only) and a Float or each of Floats (when
	// Want is set); MinOpen and MaxOpen leave the ends out.
	Min, Max         float64
	MinOpen, MaxOpen bool
	// Want ends the refusal of a value outside the range: "--NAME VALUE: WANT" (for an Int,
	// "want Min..Max" by default).
	Want string
	// Whole asks each of Floats to be a whole number (refused with Want).
	Whole bool
	// Choices are the values a String may take (others refused with Want: "--NAME "VALUE":
	// WANT").
	Choices []string
	// Required says that Cards must name cards: the host refuses "".
	Required bool
	// Problems lets Cards be a problem of features too (problem:NAME,...).
	Problems bool
	// DefaultWith names the parameter whose default this one's goes with: when that one is
	// given, this one is "" unless given too (the test cards that go with the default cards).
	DefaultWith string
	// QuickSets says that the quick run sets it itself: with Config.Quick it is refused.
	QuickSets bool
}

// Values are the values of a run's parameters: those given (Set), the defaults of the others,
// and the data the host loaded for Cards parameters (SetData). A Values is shared by its
// copies.
type Values struct {
	params []Param
	given  map[string]any
	data   map[string]any
}

// NewValues returns the values of params, each at its default.
func NewValues(params []Param) Values {
	return Values{params: params, given: map[string]any{}, data: map[string]any{}}
}

// Params returns the parameters the values are of.
func (v Values) Params() []Param { return v.params }

func (v Values) param(name string) Param {
	for _, p := range v.params {
		if p.Name == name {
			return p
		}
	}
	panic(fmt.Sprintf("lab: no parameter %q", name))
}

// parse reads text as a value of p's kind (a Points value is one sample; Floats stay text,
// read by Check).
func (p Param) parse(text string) (any, error) {
	switch p.Kind {
	case Int:
		n, err := strconv.ParseInt(text, 0, strconv.IntSize)
		if err != nil {
			return nil, ParamErrorf("--%s %q: want a whole number", p.Name, text)
		}
		return int(n), nil
	case Uint:
		n, err := strconv.ParseUint(text, 0, 64)
		if err != nil {
			return nil, ParamErrorf("--%s %q: want a whole number, 0 or more", p.Name, text)
		}
		return n, nil
	case Float:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, ParamErrorf("--%s %q: want a number", p.Name, text)
		}
		return f, nil
	case Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, ParamErrorf("--%s %q: want true or false", p.Name, text)
		}
		return b, nil
	}
	return text, nil
}

// Set gives the parameter name the value text, as typed; a Points parameter takes one sample
// more each time. It refuses text that is not of the parameter's kind (Check refuses a value
// out of its range).
func (v Values) Set(name, text string) error {
	p := v.param(name)
	x, err := p.parse(text)
	if err != nil {
		return err
	}
	if p.Kind == Points {
		old, _ := v.given[name].([]string)
		x = append(old, text)
	}
	v.given[name] = x
	return nil
}

// Given reports whether the parameter name was given (Set).
func (v Values) Given(name string) bool {
	v.param(name)
	_, ok := v.given[name]
	return ok
}

// value returns the parameter's value: as given, else its default ("" when the parameter its
// default goes with was given).
func (v Values) value(name string) any {
	p := v.param(name)
	if x, ok := v.given[name]; ok {
		return x
	}
	if p.Kind == Points {
		return []string(nil)
	}
	def := p.Default
	if p.DefaultWith != "" && v.Given(p.DefaultWith) {
		def = ""
	}
	if def == "" && p.Kind != String && p.Kind != Floats && p.Kind != Cards {
		def = "0"
		if p.Kind == Bool {
			def = "false"
		}
	}
	x, err := p.parse(def)
	if err != nil {
		panic(fmt.Sprintf("lab: the default of --%s: %v", name, err))
	}
	return x
}

// Int returns an Int parameter's value.
func (v Values) Int(name string) int { return v.value(name).(int) }

// Uint returns a Uint parameter's value.
func (v Values) Uint(name string) uint64 { return v.value(name).(uint64) }

// Float returns a Float parameter's value.
func (v Values) Float(name string) float64 { return v.value(name).(float64) }

// String returns a String or Cards parameter's value, or the text of a Floats one.
func (v Values) String(name string) string { return v.value(name).(string) }

// Bool returns a Bool parameter's value.
func (v Values) Bool(name string) bool { return v.value(name).(bool) }

// Points returns a Points parameter's samples, in the order given.
func (v Values) Points(name string) []string { return v.value(name).([]string) }

// Floats returns a Floats parameter's numbers (after Check, which refuses text that is not).
func (v Values) Floats(name string) []float64 {
	fs, err := v.param(name).floats(v.String(name))
	if err != nil {
		panic(fmt.Sprintf("lab: unchecked --%s: %v", name, err))
	}
	return fs
}

// floats reads numbers separated by commas.
func (p Param) floats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || x != x {
			return nil, ParamErrorf("--%s %q: want numbers separated by commas", p.Name, s)
		}
		out = append(out, x)
	}
	if len(out) == 0 {
		return nil, ParamErrorf("--%s: want at least one number", p.Name)
	}
	return out, nil
}

// SetData gives a Cards parameter the data the host loaded for its spec: an *images.Set, or
// for a parameter with Problems a *learn.Data (nil: no cards).
func (v Values) SetData(name string, data any) {
	if p := v.param(name); p.Kind != Cards {
		panic(fmt.Sprintf("lab: --%s holds no cards", name))
	}
	v.data[name] = data
}

// Cards returns the cards the host loaded for a Cards parameter, or nil (none, or a problem).
func (v Values) Cards(name string) *images.Set {
	s, _ := v.data[name].(*images.Set)
	return s
}

// Problem returns the problem of features the host loaded for a Cards parameter with
// Problems, or nil.
func (v Values) Problem(name string) *learn.Data {
	d, _ := v.data[name].(*learn.Data)
	return d
}

// within reports whether x lies in p's range.
func (p Param) within(x float64) bool {
	lo := x >= p.Min
	if p.MinOpen {
		lo = x > p.Min
	}
	hi := x <= p.Max
	if p.MaxOpen {
		hi = x < p.Max
	}
	return lo && hi
}

// Check refuses, in the order of the parameters, the first value out of its range or, for
// Floats, not of its form. (The host refuses Cards it cannot load, or none for Required.)
func (v Values) Check() error {
	for _, p := range v.params {
		switch p.Kind {
		case Int:
			want := p.Want
			if want == "" {
				want = fmt.Sprintf("want %d..%d", int(p.Min), int(p.Max))
			}
			if x := v.Int(p.Name); !p.within(float64(x)) {
				return ParamErrorf("--%s %d: %s", p.Name, x, want)
			}
		case Uint:
			if x := v.Uint(p.Name); p.Want != "" && float64(x) < p.Min {
				return ParamErrorf("--%s %d: %s", p.Name, x, p.Want)
			}
		case String:
			if x := v.String(p.Name); p.Choices != nil && !slices.Contains(p.Choices, x) {
				return ParamErrorf("--%s %q: %s", p.Name, x, p.Want)
			}
		case Float:
			if x := v.Float(p.Name); p.Want != "" && !p.within(x) {
				return ParamErrorf("--%s %v: %s", p.Name, x, p.Want)
			}
		case Floats:
			fs, err := p.floats(v.String(p.Name))
			if err != nil {
				return err
			}
			for _, x := range fs {
				if p.Want != "" && (!p.within(x) || p.Whole && x != math.Trunc(x)) {
					return ParamErrorf("--%s %v: %s", p.Name, x, p.Want)
				}
			}
		}
	}
	return nil
}
