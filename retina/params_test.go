package retina

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/knob"
)

// jsonKeys returns the JSON names of Params' fields in field order, and each one's index.
func jsonKeys() ([]string, map[string]int) {
	typ := reflect.TypeFor[Params]()
	var keys []string
	index := map[string]int{}
	for i := range typ.NumField() {
		k := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		keys = append(keys, k)
		index[k] = i
	}
	return keys, index
}

func TestParamDocsKeys(t *testing.T) {
	keys, _ := jsonKeys()
	docs := ParamDocs()
	want := keys[:len(keys)-1]
	if keys[len(keys)-1] != "ideal" {
		t.Fatalf("last field %q, want ideal", keys[len(keys)-1])
	}
	if len(docs) != len(want) {
		t.Fatalf("%d docs, want %d (one per field but ideal)", len(docs), len(want))
	}
	flaws := map[string]bool{"": true, "blur": true, "gamma": true, "spread": true, "lag": true, "dark_noise": true}
	sources := map[string]bool{knob.Historical: true, knob.Assumed: true, knob.Setting: true, knob.Modelling: true}
	for i, d := range docs {
		if d.Key != want[i] {
			t.Errorf("doc %d: key %q, want %q (field order)", i, d.Key, want[i])
		}
		if d.Models == "" || !sources[d.Source] || !flaws[d.Flaw] {
			t.Errorf("%s: incomplete or unknown description %+v", d.Key, d)
		}
	}
}

// TestParamDocsMatchComments checks ParamDocs against the field comments in params.go: each
// comment gives the unit (when there is one), the default and the source in the same words,
// names the flaw, and says what a parameter with a Note acts only with.
func TestParamDocsMatchComments(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "params.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	comments := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Params" {
			return true
		}
		for _, fld := range ts.Type.(*ast.StructType).Fields.List {
			tag := reflect.StructTag(strings.Trim(fld.Tag.Value, "`")).Get("json")
			comments[tag] = fld.Doc.Text()
		}
		return false
	})
	word := map[string]string{knob.Historical: "Historical", knob.Assumed: "Assumed", knob.Setting: "Setting", knob.Modelling: "Modelling"}
	for _, d := range ParamDocs() {
		c, ok := comments[d.Key]
		if !ok || c == "" {
			t.Errorf("%s: no field comment", d.Key)
			continue
		}
		c = strings.Join(strings.Fields(c), " ")
		if !strings.Contains(c, "Default") {
			t.Errorf("%s: the comment does not give the default", d.Key)
		}
		if d.Unit != "" && !strings.Contains(c, "Unit:") {
			t.Errorf("%s: the comment does not give the unit (%s)", d.Key, d.Unit)
		}
		if !strings.Contains(c, word[d.Source]) {
			t.Errorf("%s: source %s, but the comment does not say %q", d.Key, d.Source, word[d.Source])
		}
		if flaw := `Flaw "` + d.Flaw + `"`; (d.Flaw != "") != strings.Contains(c, `Flaw "`) || d.Flaw != "" && !strings.Contains(c, flaw) {
			t.Errorf("%s: flaw %q, but the comment says %q", d.Key, d.Flaw, c)
		}
		if (d.Note != "") != strings.Contains(c, "acts only with") {
			t.Errorf("%s: note %q, but the comment says %q", d.Key, d.Note, c)
		}
	}
}

// digitStates presents the cards to a retina of parameters p (3 s each, in order, with dark
// noise) and returns the S-states.
func digitStates(t *testing.T, p Params, cards []image.Image) []Bits {
	t.Helper()
	r := newRetina(t, p, 1)
	noise := rand.New(rand.NewPCG(5, 6))
	out := make([]Bits, len(cards))
	var s Stimulus
	for k, img := range cards {
		r.Prepare(img, &s)
		r.Expose(&s, 3, noise, &out[k])
	}
	return out
}

// setKey sets the field of p with JSON name key to v (a float64 or a Polarity).
func setKey(p *Params, key string, v any) {
	_, index := jsonKeys()
	reflect.ValueOf(p).Elem().Field(index[key]).Set(reflect.ValueOf(v))
}

// TestFlawsAct turns each parameter on from NeutralParams by itself, on real cards: a flaw at
// its default, a setting at a value away from the neutral one. A parameter with an empty Note
// must change some S-state alone; one with a Note must change none alone, and some when turned
// on together with the partner its Note names.
func TestFlawsAct(t *testing.T) {
	all := realCards(t)
	cards := append(all[:400:400], all[len(all)-200:]...) // MNIST and optdigits
	neutral, def := NeutralParams(), DefaultParams()
	// Values for the settings whose default is the neutral value.
	on := map[string]any{
		"scale": 0.8, "offset_x_cells": 1.5, "offset_y_cells": -1.5, "rotation_deg": 10.0,
		"lamp": 1.3, "surround": 0.3, "polarity": DarkFigure, "latch_s": 0.1, "threshold": 0.4,
	}
	// The partner each noted parameter acts with.
	partner := map[string]func(*Params){
		"gamma":      func(p *Params) { p.Spread = def.Spread },
		"rise_tau_s": func(p *Params) { p.Latch = 0.1 },
		"latch_s":    func(p *Params) { p.DecayTau = def.DecayTau },
		"surround":   func(p *Params) { p.Scale = 0.8 },
	}
	_, index := jsonKeys()
	count := func(a, b []Bits) int {
		n := 0
		for k := range a {
			for w := range a[k] {
				n += bits.OnesCount64(a[k][w] ^ b[k][w])
			}
		}
		return n
	}
	base := digitStates(t, neutral, cards)
	for _, d := range ParamDocs() {
		t.Run(d.Key, func(t *testing.T) {
			v, ok := on[d.Key]
			if !ok {
				v = reflect.ValueOf(def).Field(index[d.Key]).Interface()
				if v == reflect.ValueOf(neutral).Field(index[d.Key]).Interface() {
					t.Fatalf("%s: default equals the neutral value and no test value is given", d.Key)
				}
			}
			alone := neutral
			setKey(&alone, d.Key, v)
			changed := count(base, digitStates(t, alone, cards))
			if d.Note == "" {
				if changed == 0 {
					t.Errorf("%s = %v alone changes no S-state on %d real cards, but its doc has no Note", d.Key, v, len(cards))
				}
				t.Logf("%s = %v alone: %d S-states differ", d.Key, v, changed)
				return
			}
			if changed != 0 {
				t.Errorf("%s = %v alone changes %d S-states, but its Note says %q", d.Key, v, changed, d.Note)
			}
			f, ok := partner[d.Key]
			if !ok {
				t.Errorf("%s: noted (%q), but the test knows no partner", d.Key, d.Note)
				return
			}
			with := neutral
			f(&with)
			both := with
			setKey(&both, d.Key, v)
			n := count(digitStates(t, with, cards), digitStates(t, both, cards))
			if n == 0 {
				t.Errorf("%s = %v changes no S-state even with its partner (%q)", d.Key, v, d.Note)
			}
			t.Logf("%s = %v: alone no S-state differs; with its partner %d differ", d.Key, v, n)
		})
	}
}

// The cells' lags are 0 (instant) or a time a photocell could have (issue 18: 1e-300 s and
// 1e308 s were taken, and the machine trained to chance).
func TestLagRange(t *testing.T) {
	for _, tc := range []struct {
		tau float64
		ok  bool
	}{
		{0, true}, {minTau, true}, {0.03, true}, {maxTime, true},
		{1e-300, false}, {minTau * 0.99, false}, {maxTime * 1.01, false}, {1e308, false}, {-1, false}, {math.NaN(), false}, {math.Inf(1), false},
	} {
		for _, f := range []struct {
			key string
			set func(*Params, float64)
		}{
			{"rise_tau_s", func(p *Params, v float64) { p.RiseTau = v }},
			{"decay_tau_s", func(p *Params, v float64) { p.DecayTau = v }},
		} {
			t.Run(fmt.Sprintf("%s=%v", f.key, tc.tau), func(t *testing.T) {
				p := DefaultParams()
				f.set(&p, tc.tau)
				err := p.Validate()
				if tc.ok && err != nil {
					t.Errorf("%s %v: %v", f.key, tc.tau, err)
				}
				if !tc.ok && (err == nil || !strings.HasPrefix(err.Error(), "retina: "+f.key+": ")) {
					t.Errorf("%s %v: %v, want an error naming %s", f.key, tc.tau, err, f.key)
				}
			})
		}
	}
}
