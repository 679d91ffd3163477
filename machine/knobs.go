package machine

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/mark1-perceptron/mark1/knob"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// Every parameter of a Config has a key: its JSON name, with the section's name in front for
// the parts ("seed", "mark_i.theta", "retina.blur_cells", "pots.backlash"). Configuration files,
// the command line's --set and the state file use the same names.

// topDocs describes the top-level keys of a Config.
var topDocs = []knob.Doc{
	{Key: "seed", Models: "root of every random choice: wiring, cell and motor spreads, noise, order", Source: knob.Setting,
		Range: knob.Closed(0, math.MaxUint64)}, // every uint64: the --seed flag's and the state file's; a configuration file quotes one over 2^63-1
	{Key: "r_units", Models: "response units (R-units), each with a rack of pots (the emulator's arrangement)", Unit: "units", Source: knob.Historical,
		Range: knob.Closed(1, MaxRUnits)},
	{Key: "rule", Models: "reinforcement rule: alpha (error correction), gamma (conserving) or forced", Source: knob.Historical,
		Range: knob.Names("alpha", "gamma", "forced")},
	{Key: "coding", Models: "how classes map onto R-units: auto, onehot or binary (a code file with --coding FILE)", Source: knob.Setting,
		Range: knob.Names(CodingAuto, CodingOneHot, CodingBinary, CodingTable)},
	{Key: "wiring", Models: "plug-board: random (Mark I), identity (phi(x) = x) or local (a wiring file with --wiring FILE)", Source: knob.Setting,
		Range: knob.Names(WiringRandom, WiringIdentity, WiringLocal, WiringFile)},
	{Key: "local_units", Models: "A-units of the local wiring", Unit: "units", Source: knob.Assumed,
		Range: knob.Closed(1, patchboard.MaxLocalUnits)},
	{Key: "local_radius", Models: "radius of a local A-unit's excitatory centre", Unit: "cells", Source: knob.Assumed,
		Range: knob.Closed(1, patchboard.MaxLocalRadius)},
	{Key: "presentation_time_s", Models: "machine time of one presentation (the original's, about 3 s, comes from a secondary account without a source)", Unit: "s", Source: knob.Assumed,
		Range: knob.Closed(MinPresentation, MaxPresentation)},
	{Key: "order", Models: "order of presentation in an epoch: shuffle, file or interleave", Source: knob.Setting,
		Range: knob.Names(OrderShuffle, OrderFile, OrderInterleave)},
}

// The range of Config.PresentationTime, seconds: shorter than a tenth of a second the cells
// (rise_tau_s 0.03 s) have not seen the card when the comparators latch, and the machine sees
// nothing; longer than an hour no presentation lasted.
const (
	MinPresentation = 0.1
	MaxPresentation = 3600
)

// sections are the parts of a Config that have keys of their own, with their descriptions.
var sections = []struct {
	name string
	docs func() []knob.Doc
}{
	{"mark_i", patchboard.MarkIDocs},
	{"retina", retina.ParamDocs},
	{"pots", potentiometer.ParamDocs},
}

// unsettable keys are left out of configuration files: the code table and the wiring have files
// of their own, and a part is ideal exactly when its flaws are off (see Config.WithFlaws).
var unsettable = map[string]bool{"codes": true, "retina.ideal": true, "pots.ideal": true}

// Key describes one settable parameter of a Config.
type Key struct {
	Name string // "retina.blur_cells"
	knob.Doc
}

// Keys lists every settable key of a Config in file order, with its description.
func Keys() []Key {
	docs := map[string]knob.Doc{}
	for _, d := range topDocs {
		docs[d.Key] = d
	}
	for _, s := range sections {
		for _, d := range s.docs() {
			d.Key = s.name + "." + d.Key
			docs[d.Key] = d
		}
	}
	var keys []Key
	walkKeys(reflect.TypeOf(Config{}), "", func(name string, _ []int) {
		d := docs[name]
		d.Key = name[strings.LastIndexByte(name, '.')+1:]
		keys = append(keys, Key{Name: name, Doc: d})
	})
	return keys
}

// walkKeys calls f with the key and field index path of every settable leaf of t, in field
// order.
func walkKeys(t reflect.Type, prefix string, f func(name string, index []int)) {
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" || !sf.IsExported() {
			continue
		}
		full := prefix + name
		if unsettable[full] {
			continue
		}
		if sf.Type.Kind() == reflect.Struct && !isScalar(sf.Type) {
			walkKeys(sf.Type, full+".", func(n string, idx []int) { f(n, append([]int{i}, idx...)) })
			continue
		}
		f(full, []int{i})
	}
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// isScalar reports whether a struct type is set as one value (it reads itself from text).
func isScalar(t reflect.Type) bool { return reflect.PointerTo(t).Implements(textUnmarshaler) }

// field finds the settable field of c named by key.
func (c *Config) field(key string) (reflect.Value, error) {
	var found []int
	walkKeys(reflect.TypeOf(*c), "", func(name string, index []int) {
		if name == key {
			found = index
		}
	})
	if found == nil {
		return reflect.Value{}, fmt.Errorf("%s: unknown key%s", key, suggest(key))
	}
	return reflect.ValueOf(c).Elem().FieldByIndex(found), nil
}

// suggest names the known keys that end like key, for an error message.
func suggest(key string) string {
	last := key[strings.LastIndexByte(key, '.')+1:]
	var near []string
	for _, k := range Keys() {
		if k.Doc.Key == last || strings.HasSuffix(k.Name, "."+key) {
			near = append(near, k.Name)
		}
	}
	if len(near) == 0 {
		return " (mark1 config lists the keys)"
	}
	return " (did you mean " + strings.Join(near, " or ") + "?)"
}

// Set sets the parameter named by key from its text, as a command line gives it
// (--set retina.blur_cells=0.5): numbers in Go syntax ("inf" for an infinite range), names as
// they are, booleans true or false. The part the key belongs to is checked at once, so an
// error names the key. See WithFlaws for how setting a flaw's parameter on an ideal part
// makes it analog.
func (c *Config) Set(key, text string) error {
	return c.set(key, text)
}

// set stores v (a string from the command line, or a TOML value: int64, float64, string,
// bool) into the field named by key and checks the part.
func (c *Config) set(key string, v any) error {
	f, err := c.field(key)
	if err != nil {
		return err
	}
	old := *c
	if err := store(f, v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	c.settle()
	if err := c.checkPart(key); err != nil {
		*c = old
		return err
	}
	return nil
}

// store converts v to the field's type and stores it.
func store(f reflect.Value, v any) error {
	if f.CanAddr() && f.Addr().Type().Implements(textUnmarshaler) {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%v is not a name", v)
		}
		return f.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	}
	switch f.Kind() {
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%v is not a name", v)
		}
		f.SetString(s)
	case reflect.Bool:
		switch v := v.(type) {
		case bool:
			f.SetBool(v)
		case string:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%q is not true or false", v)
			}
			f.SetBool(b)
		default:
			return fmt.Errorf("%v is not true or false", v)
		}
	case reflect.Float64:
		x, err := toFloat(v)
		if err != nil {
			return err
		}
		f.SetFloat(x)
	case reflect.Int, reflect.Uint64:
		var n int64
		var u uint64
		switch v := v.(type) {
		case int64:
			n, u = v, uint64(v)
			if f.Kind() == reflect.Uint64 && v < 0 {
				return fmt.Errorf("%d is negative, want 0 or more", v)
			}
		case string:
			var err error
			if f.Kind() == reflect.Uint64 {
				u, err = strconv.ParseUint(v, 0, 64)
				n = int64(u)
			} else {
				n, err = strconv.ParseInt(v, 0, 64)
			}
			if err != nil {
				return fmt.Errorf("%q is not a whole number", v)
			}
		default:
			return fmt.Errorf("%v is not a whole number", v)
		}
		if f.Kind() == reflect.Uint64 {
			f.SetUint(u)
			return nil
		}
		if f.OverflowInt(n) {
			return fmt.Errorf("%d is out of range", n)
		}
		f.SetInt(n)
	default:
		return fmt.Errorf("cannot be set (type %s)", f.Type())
	}
	return nil
}

// toFloat reads a number: a TOML integer or float, or text ("0.35", "1e-3", "inf").
func toFloat(v any) (float64, error) {
	var x float64
	switch v := v.(type) {
	case float64:
		x = v
	case int64:
		x = float64(v)
	case string:
		var err error
		x, err = strconv.ParseFloat(strings.TrimPrefix(v, "+"), 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", v)
		}
	default:
		return 0, fmt.Errorf("%v is not a number", v)
	}
	if math.IsNaN(x) {
		return 0, fmt.Errorf("NaN is not a number")
	}
	return x, nil
}

// checkPart validates the part of c that key belongs to.
func (c *Config) checkPart(key string) error {
	section, _, ok := strings.Cut(key, ".")
	if !ok {
		section = ""
	}
	var err error
	switch section {
	case "mark_i":
		err = c.MarkI.Validate()
	case "retina":
		err = c.Retina.Validate()
	case "pots":
		err = c.Pots.Validate()
	default:
		err = c.validate()
	}
	return err
}

// Validate checks the whole configuration: every part's parameters and the combination.
func (c Config) Validate() error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("machine: %w", err)
	}
	// The Mark I parameters are checked whatever the wiring: a state file or a configuration
	// carries them, and Set checks them so.
	if err := c.MarkI.Validate(); err != nil {
		return err
	}
	if err := c.Retina.Validate(); err != nil {
		return err
	}
	return c.Pots.Validate()
}

// Value returns the value of the parameter named by key, as text (the form Set reads).
func (c Config) Value(key string) (string, error) {
	f, err := c.field(key)
	if err != nil {
		return "", err
	}
	return formatValue(f, false), nil
}

// formatValue writes a field's value as text, or as a TOML literal.
func formatValue(f reflect.Value, toml bool) string {
	if m, ok := f.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		if err != nil {
			return fmt.Sprint(f.Interface())
		}
		if toml {
			return strconv.Quote(string(b))
		}
		return string(b)
	}
	switch f.Kind() {
	case reflect.String:
		if toml {
			return strconv.Quote(f.String())
		}
		return f.String()
	case reflect.Uint64:
		// A TOML integer is an int64: a larger seed is written as text, which Set reads.
		if toml && f.Uint() > math.MaxInt64 {
			return strconv.Quote(strconv.FormatUint(f.Uint(), 10))
		}
	case reflect.Float64:
		x := f.Float()
		switch {
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		case toml && x == math.Trunc(x) && math.Abs(x) < 1e15:
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(f.Interface())
}

// A flaw is an analog imperfection that can be turned on alone: the parameters of its part
// that carry the same knob.Doc Flaw name.
type Flaw struct {
	Name   string   // "blur", "backlash"
	Part   string   // "retina" or "pots"
	Keys   []string // the parameters it sets, "retina.blur_cells"
	Models string   // what its first parameter models
}

// Flaws lists the analog flaws of the retina and the pots, in parameter order.
func Flaws() []Flaw {
	var flaws []Flaw
	for _, s := range sections[1:] {
		for _, d := range s.docs() {
			if d.Flaw == "" {
				continue
			}
			key := s.name + "." + d.Key
			i := slices.IndexFunc(flaws, func(f Flaw) bool { return f.Name == d.Flaw })
			if i < 0 {
				flaws = append(flaws, Flaw{Name: d.Flaw, Part: s.name, Models: d.Models})
				i = len(flaws) - 1
			}
			flaws[i].Keys = append(flaws[i].Keys, key)
		}
	}
	return flaws
}

// WithFlaws returns c with only the named flaws on: every parameter of a flaw not named takes
// its neutral value (no effect), the parameters of the named flaws keep their values in c, and
// the settings (placement, lamp, drive, ...) are kept. "none" turns every flaw off (the ideal
// machine, like Ideal), "all" keeps every flaw as c has it. A part with no flaw on becomes
// ideal: the exact, faster model that gives the same results as its neutral analog model.
func (c Config) WithFlaws(names []string) (Config, error) {
	all := Flaws()
	on := map[string]bool{}
	for _, n := range names {
		switch n {
		case "none":
			continue
		case "all":
			for _, f := range all {
				on[f.Name] = true
			}
			continue
		}
		if !slices.ContainsFunc(all, func(f Flaw) bool { return f.Name == n }) {
			var known []string
			for _, f := range all {
				known = append(known, f.Name)
			}
			return c, fmt.Errorf("machine: unknown flaw %q (want none, all or some of %s)", n, strings.Join(known, ", "))
		}
		on[n] = true
	}
	neutral := c
	neutral.Retina = neutralRetina(c.Retina)
	neutral.Pots = potentiometer.NeutralParams()
	out := c
	out.Retina.Ideal, out.Pots.Ideal = false, false
	if c.Retina.Ideal {
		out.Retina = neutral.Retina // an ideal part has no flaw values to keep
	}
	if c.Pots.Ideal {
		out.Pots = neutral.Pots
	}
	for _, f := range all {
		if on[f.Name] {
			continue
		}
		for _, key := range f.Keys {
			dst, _ := out.field(key)
			src, _ := neutral.field(key)
			dst.Set(src)
		}
	}
	out.settle()
	return out, nil
}

// neutralRetina is the analog retina with every flaw off and p's settings.
func neutralRetina(p retina.Params) retina.Params {
	n := retina.NeutralParams()
	for _, d := range retina.ParamDocs() {
		if d.Flaw != "" {
			continue
		}
		var pc, nc Config
		pc.Retina, nc.Retina = p, n
		dst, _ := nc.field("retina." + d.Key)
		src, _ := pc.field("retina." + d.Key)
		dst.Set(src)
		n = nc.Retina
	}
	return n
}

// settle makes each part ideal exactly when none of its flaws is on and nothing the ideal
// model ignores differs from the neutral model: the ideal retina honours only the placement,
// the surround and the polarity; the ideal pots honour nothing. Results do not change: the
// ideal models give exactly the results of the neutral ones.
func (c *Config) settle() {
	r := c.Retina
	r.Ideal = false
	if r == neutralIdealRetina(r) {
		c.Retina = idealRetina(r)
	} else {
		c.Retina = r
	}
	p := c.Pots
	p.Ideal = false
	if p == potentiometer.NeutralParams() {
		c.Pots = potentiometer.IdealParams()
	} else {
		c.Pots = p
	}
}

// neutralIdealRetina is the neutral analog retina with what the ideal retina honours taken
// from p.
func neutralIdealRetina(p retina.Params) retina.Params {
	n := retina.NeutralParams()
	n.Scale, n.OffsetX, n.OffsetY, n.Rotation = p.Scale, p.OffsetX, p.OffsetY, p.Rotation
	n.Surround, n.Polarity = p.Surround, p.Polarity
	return n
}
