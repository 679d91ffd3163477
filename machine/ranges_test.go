package machine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/knob"
)

// Every settable key has a documented range: a parameter added without one fails here (issue
// 18: dark noise, rotation, latch and the lags took 1e308, the presentation time 1e-300, and
// the machine trained to chance with no error).
func TestEveryKeyHasARange(t *testing.T) {
	for _, k := range Keys() {
		if k.Range.IsZero() {
			t.Errorf("%s: no documented range (knob.Doc.Range)", k.Name)
		}
		if k.Range.Names == nil && k.Range.Min > k.Range.Max {
			t.Errorf("%s: range %s is empty", k.Name, k.Range)
		}
	}
}

// partners are the settings some keys need beside them to take the ends of their range: the
// fields that depend on each other (a board's plugs, the ratchet's strokes).
var partners = map[string][]string{
	"mark_i.a_units":        {"mark_i.fanout=0"},
	"mark_i.exc":            {"mark_i.theta=1", "mark_i.inh=0", "mark_i.fanout=0"},
	"mark_i.inh":            {"mark_i.theta=1", "mark_i.exc=1", "mark_i.fanout=0"},
	"mark_i.theta":          {"mark_i.inh=0", "mark_i.fanout=0", "mark_i.exc=400"},
	"mark_i.fanout":         {"mark_i.a_units=1"},
	"pots.ratchet_miss":     {"pots.ratchet_double=0"},
	"pots.drift_interval_s": {"pots.wiper_drift=0"}, // 0: the drift off
	"pots.track_tau_s":      {"pots.track_drift=0"},
	"pots.ratchet_double":   {"pots.ratchet_miss=0"},
}

// isInt reports whether the key's field holds whole numbers.
func isInt(t *testing.T, key string) bool {
	c := Default()
	f, err := c.field(key)
	if err != nil {
		t.Fatal(err)
	}
	k := f.Kind()
	return k == reflect.Int || k == reflect.Uint64
}

// edges returns the values just inside a numeric range (its ends, or a hair within an open
// end) and just outside it.
func edges(r knob.Range, integer bool) (in, out []float64) {
	hair := func(v float64) float64 { return 1e-9 * max(1, math.Abs(v)) }
	if integer {
		in = []float64{r.Min, r.Max}
		out = []float64{r.Min - 1, r.Max + 1}
	} else {
		lo, hi := r.Min, r.Max
		if r.MinOpen {
			lo += hair(lo)
		}
		if r.MaxOpen {
			hi -= hair(hi)
		}
		in = []float64{lo, hi}
		below, above := r.Min-hair(r.Min), r.Max+hair(r.Max)
		if r.MinOpen {
			below = r.Min
		}
		if r.MaxOpen {
			above = r.Max
		}
		out = []float64{above, math.NaN(), math.Inf(-1)}
		if !(r.ZeroOK && below <= 0 && r.Min > 0) {
			out = append(out, below)
		}
		if !r.InfOK {
			out = append(out, math.Inf(1))
		}
	}
	if r.ZeroOK {
		in = append(in, 0)
		if r.Min > 0 {
			out = append(out, r.Min/2) // between 0 and the range
		}
	}
	return in, out
}

func text(v float64, integer bool) string {
	if integer && v >= math.MaxUint64 { // 2^64 as a float64: the seed's top, 2^64-1
		return strconv.FormatUint(math.MaxUint64, 10)
	}
	if integer {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// configFor returns Default with key's partners set, for the ends of key's range.
func configFor(t *testing.T, key string) Config {
	c := Default()
	for _, p := range partners[key] {
		k, v, _ := strings.Cut(p, "=")
		if err := c.Set(k, v); err != nil {
			t.Fatalf("%s: partner %s: %v", key, p, err)
		}
	}
	return c
}

// Every row of the table, through every input: --set (and the flags, which set keys the same
// way), a configuration file, and a state file. A value at each end of the range is taken; a
// value just outside, NaN and infinities are refused with an error naming the key.
func TestEveryRangeIsEnforced(t *testing.T) {
	for _, k := range Keys() {
		r := k.Range
		if r.Names != nil {
			c := Default()
			if err := c.Set(k.Name, "bogus"); err == nil || !strings.Contains(err.Error(), k.Doc.Key) {
				t.Errorf("%s = bogus: %v, want an error naming %s", k.Name, err, k.Doc.Key)
			}
			for _, n := range r.Names {
				if n == CodingTable || n == WiringFile {
					continue // they need a code table or a board: set by a file, not a key
				}
				c := Default()
				if err := c.Set(k.Name, n); err != nil {
					t.Errorf("%s = %s: %v", k.Name, n, err)
				}
			}
			continue
		}
		integer := isInt(t, k.Name)
		in, out := edges(r, integer)
		for _, v := range in {
			c := configFor(t, k.Name)
			if err := c.Set(k.Name, text(v, integer)); err != nil {
				t.Errorf("--set %s=%s (in %s): %v", k.Name, text(v, integer), r, err)
				continue
			}
			if err := c.Validate(); err != nil {
				t.Errorf("%s=%s (in %s): Validate: %v", k.Name, text(v, integer), r, err)
			}
			cf := fmt.Sprintf("%s = %s\n", tomlKey(k.Name), tomlNumber(v, integer))
			if _, err := ReadConfig(strings.NewReader(cf), "c.toml", configFor(t, k.Name)); err != nil {
				t.Errorf("config file %q: %v", cf, err)
			}
		}
		if k.Name == "seed" {
			continue // a uint64: every whole number of its type is a seed
		}
		for _, v := range out {
			c := configFor(t, k.Name)
			err := c.Set(k.Name, text(v, integer))
			if err == nil {
				err = c.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), k.Doc.Key) || strings.Contains(err.Error(), "\n") {
				t.Errorf("--set %s=%s (outside %s): %v, want an error naming %s", k.Name, text(v, integer), r, err, k.Doc.Key)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue // not in TOML or JSON numbers
			}
			cf := fmt.Sprintf("%s = %s\n", tomlKey(k.Name), tomlNumber(v, integer))
			if _, err := ReadConfig(strings.NewReader(cf), "c.toml", configFor(t, k.Name)); err == nil || !strings.Contains(err.Error(), "c.toml:") || !strings.Contains(err.Error(), k.Doc.Key) {
				t.Errorf("config file %q: %v, want c.toml:LINE naming %s", cf, err, k.Doc.Key)
			}
			if err := loadWith(t, k.Name, v, integer); err == nil || !strings.Contains(err.Error(), k.Doc.Key) {
				t.Errorf("state file with %s = %v: %v, want an error naming %s", k.Name, v, err, k.Doc.Key)
			}
		}
	}
}

// tomlKey writes a key as a configuration file spells it: a dotted key for a section's.
func tomlKey(name string) string { return name }

func tomlNumber(v float64, integer bool) string {
	if integer && v > math.MaxInt64 {
		return strconv.Quote(text(v, true)) // over a TOML integer: the seed, as text
	}
	if integer {
		return text(v, true)
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// loadWith saves a machine (built from the key's partners), puts v into the state's config
// at key, and loads it again.
func loadWith(t *testing.T, key string, v float64, integer bool) error {
	t.Helper()
	cs, err := builtin.Load("ef")
	if err != nil {
		t.Fatal(err)
	}
	cfg := configFor(t, key)
	cfg.MarkI.AUnits, cfg.MarkI.FanOut = 64, 0 // small and quick
	if key == "mark_i.fanout" {
		cfg.MarkI.AUnits = 1
	}
	m, err := New(cfg, cs.Classes)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	var buf bytes.Buffer
	if err := m.WriteState(&buf); err != nil {
		t.Fatal(err)
	}
	_, body, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	at := doc["config"].(map[string]any)
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		at = at[p].(map[string]any)
	}
	if integer {
		at[parts[len(parts)-1]] = int64(v)
	} else {
		at[parts[len(parts)-1]] = v
	}
	nb, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadState(strings.NewReader(withHeader(nb)), "s.state")
	return err
}

// A seed is any uint64, as the --seed flag takes it: a machine built with the largest saves and
// loads again (the range once stopped at 2^63-1 and refused such a state, while 2^63+1 passed
// through the float comparison).
func TestTopSeedLoads(t *testing.T) {
	cs, err := builtin.Load("ef")
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1<<63 - 1, 1 << 63, 1<<63 + 1, 1<<64 - 1} {
		cfg := Default()
		cfg.Seed, cfg.MarkI.AUnits = seed, 64
		if err := cfg.Validate(); err != nil {
			t.Errorf("seed %d: %v", seed, err)
			continue
		}
		m, err := New(cfg, cs.Classes)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var buf bytes.Buffer
		if err := m.WriteState(&buf); err != nil {
			t.Fatal(err)
		}
		l, err := ReadState(&buf, "s.state")
		if err != nil {
			t.Errorf("seed %d: %v", seed, err)
			continue
		}
		if got := l.Config().Seed; got != seed {
			t.Errorf("seed %d loaded as %d", seed, got)
		}
	}
}
