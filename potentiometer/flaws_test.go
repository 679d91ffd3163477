package potentiometer

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// set returns p with the field of JSON name key set to the JSON value raw.
func set(t *testing.T, p Params, key, raw string) Params {
	t.Helper()
	if err := json.Unmarshal([]byte(`{"`+key+`":`+raw+`}`), &p); err != nil {
		t.Fatalf("set %s = %s: %v", key, raw, err)
	}
	return p
}

// fromDefault returns p with the field of JSON name key copied from DefaultParams, as the
// machine turns a flaw on.
func fromDefault(t *testing.T, p Params, key string) Params {
	t.Helper()
	var all map[string]json.RawMessage
	b, err := json.Marshal(DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	raw, ok := all[key]
	if !ok {
		t.Fatalf("no key %q in Params", key)
	}
	return set(t, p, key, string(raw))
}

// session is what a run of the machine shows of its racks: every R-unit's sums, the decision
// (argmax of the sums, as for one-hot codes) and the final readings.
type session struct {
	sums      [][]float64
	decisions []int
	readings  [][]float64
	maxPos    float64
}

// run trains four racks of 24 pots for 3000 presentations on random labels (so corrections
// never stop), with the alpha rule (whole steps) or the gamma rule (fractional steps), then
// forces every even rack up and every odd one down for 400 presentations (a long training of
// one class, which takes weights to the stops), then trains 300 more; 3 s of machine time per
// presentation. The racks are built from one stream, as the machine builds them; the
// presentations and labels come from a stream of their own, so runs with different parameters
// see the same cards.
func run(t *testing.T, p Params, gamma bool) session {
	t.Helper()
	const racks, n, steps, forced, after = 4, 24, 3000, 400, 300
	build := rand.New(rand.NewPCG(1, 1))
	noise := rand.New(rand.NewPCG(1, 2))
	ctl := rand.New(rand.NewPCG(1, 3))
	rs := make([]*Rack, racks)
	for i := range rs {
		rs[i] = mustRack(t, n, p, build)
	}
	var s session
	var active []uint16
	for step := range steps + forced + after {
		active = randomActive(ctl, n, 0.4, active)
		class := ctl.IntN(racks)
		sums := make([]float64, racks)
		for i, r := range rs {
			sums[i] = r.Sum(active, noise)
		}
		s.sums = append(s.sums, sums)
		s.decisions = append(s.decisions, argmax(sums))
		for i, r := range rs {
			y := -1.0
			if i == class {
				y = 1
			}
			if step >= steps && step < steps+forced {
				y = float64(1 - 2*(i%2))
			} else if y*sums[i] > 0 {
				continue
			}
			if gamma {
				N, a := float64(n+1), float64(len(active)+1)
				r.Drive(active, y*(N-a)/N, -y*a/N, noise)
			} else {
				r.Drive(active, y, 0, noise)
			}
		}
		for _, r := range rs {
			r.Advance(3, noise)
		}
	}
	for _, r := range rs {
		s.readings = append(s.readings, readings(r))
		for i := range r.Len() {
			s.maxPos = max(s.maxPos, math.Abs(r.Pos(i)))
		}
	}
	return s
}

func argmax(x []float64) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// decides reports whether a and b differ in what decides: a decision, the sign of a sum (the
// learning rules' test) or a reading.
func decides(a, b session) bool {
	if !slices.Equal(a.decisions, b.decisions) {
		return true
	}
	for i := range a.sums {
		for r := range a.sums[i] {
			if (a.sums[i][r] > 0) != (b.sums[i][r] > 0) {
				return true
			}
		}
	}
	for r := range a.readings {
		if !slices.Equal(a.readings[r], b.readings[r]) {
			return true
		}
	}
	return false
}

// same reports whether a and b are identical, bit for bit: every sum and reading.
func same(a, b session) bool {
	for i := range a.sums {
		if !slices.Equal(a.sums[i], b.sums[i]) {
			return false
		}
	}
	return !decides(a, b)
}

// flawCases says, for every JSON key of Params but "ideal", whether the parameter acts alone
// from NeutralParams and, if not, what it acts with. value is the setting tried (the default
// when empty); partner lists the fields, key=value or key (from DefaultParams), it acts with;
// gammaAlone says it acts alone under the gamma rule's fractional steps.
var flawCases = []struct {
	key        string
	value      string
	alone      bool
	gammaAlone bool
	partner    []string
}{
	{key: "range", alone: true},
	{key: "resolution", gammaAlone: true, partner: []string{"motor_spread"}},
	{key: "backlash", alone: true},
	{key: "motor_spread", alone: true},
	{key: "pulse_jitter", alone: true},
	{key: "tolerance", alone: true},
	{key: "wiper_drift", alone: true},
	{key: "drift_interval_s", value: "60", partner: []string{"wiper_drift"}},
	{key: "track_drift", alone: true},
	{key: "track_tau_s", value: "100000", partner: []string{"track_drift"}},
	{key: "track_spread", value: "1", partner: []string{"track_drift"}},
	{key: "contact_noise", alone: true},
	{key: "drive", value: `"ratchet"`, gammaAlone: true, partner: []string{"pulse_jitter"}},
	{key: "teeth_per_increment", value: "2.5", partner: []string{`drive="ratchet"`}},
	{key: "ratchet_miss", partner: []string{`drive="ratchet"`}},
	{key: "ratchet_double", partner: []string{`drive="ratchet"`}},
}

// TestFlawsAlone turns every parameter on alone from NeutralParams, as the machine's --flaws
// does: a parameter that acts alone must change a decision, a sum's sign or a reading of a
// training run; one whose knob.Doc has a Note must change nothing at all alone (bit for bit)
// and something with the partner its Note names.
func TestFlawsAlone(t *testing.T) {
	neutral := NeutralParams()
	base := map[bool]session{false: run(t, neutral, false), true: run(t, neutral, true)}
	if base[false].maxPos <= DefaultParams().Range {
		t.Fatalf("the neutral run's weights reach %v, not the stops at %v: range would not be tested", base[false].maxPos, DefaultParams().Range)
	}
	with := func(p Params, key, value string) Params {
		if value == "" {
			return fromDefault(t, p, key)
		}
		return set(t, p, key, value)
	}
	docs := map[string]string{}
	for _, d := range ParamDocs() {
		docs[d.Key] = d.Note
	}
	for _, tt := range flawCases {
		t.Run(tt.key, func(t *testing.T) {
			note, ok := docs[tt.key]
			if !ok {
				t.Fatalf("no ParamDocs entry")
			}
			if tt.alone != (note == "") {
				t.Fatalf("acts alone = %v, but its Note is %q", tt.alone, note)
			}
			p := with(neutral, tt.key, tt.value)
			if p == neutral {
				t.Fatal("the setting tried is the neutral one")
			}
			alpha := run(t, p, false)
			if tt.alone {
				if !decides(alpha, base[false]) {
					t.Fatal("alone, it changes no decision, sign or reading")
				}
				return
			}
			if !same(alpha, base[false]) {
				t.Fatalf("alone with whole steps it changes the run, but its Note says %q", note)
			}
			gamma := run(t, p, true)
			if tt.gammaAlone != !same(gamma, base[true]) {
				t.Fatalf("alone under the gamma rule it changes the run = %v, want %v", !same(gamma, base[true]), tt.gammaAlone)
			}
			if tt.gammaAlone && !strings.Contains(note, "gamma") {
				t.Errorf("it acts alone under the gamma rule, but its Note %q does not say so", note)
			}
			partner := neutral
			for _, kv := range tt.partner {
				k, v, _ := strings.Cut(kv, "=")
				partner = with(partner, k, v)
				if !strings.Contains(note, strings.Trim(v, `"`)) && !strings.Contains(note, k) {
					t.Errorf("its Note %q does not name its partner %s", note, kv)
				}
			}
			if decides(run(t, with(partner, tt.key, tt.value), false), run(t, partner, false)) == false {
				t.Fatalf("with %v it changes no decision, sign or reading", tt.partner)
			}
		})
	}
	for key := range docs {
		if !slices.ContainsFunc(flawCases, func(c struct {
			key        string
			value      string
			alone      bool
			gammaAlone bool
			partner    []string
		}) bool {
			return c.key == key
		}) {
			t.Errorf("ParamDocs key %q has no case", key)
		}
	}
}

// TestCommonGainDecidesNothing shows why racks warm up differently: a warm-up common to all
// racks (track_spread 0) scales every sum alike and changes no decision, sign or reading; the
// default spread between racks does.
func TestCommonGainDecidesNothing(t *testing.T) {
	neutral := NeutralParams()
	base := run(t, neutral, false)
	common := fromDefault(t, neutral, "track_drift")
	common.TrackSpread = 0
	got := run(t, common, false)
	if same(got, base) {
		t.Fatal("a common warm-up left the sums unchanged: the test tests nothing")
	}
	if decides(got, base) {
		t.Fatal("a warm-up common to all racks changed a decision")
	}
	if !decides(run(t, fromDefault(t, neutral, "track_drift"), false), base) {
		t.Fatal("racks warming differently changed no decision")
	}
}

// TestNeutralIsIdeal drives a neutral and an ideal rack through the same Drive, Sum and Advance
// calls, with whole and with fractional steps, and wants the same readings, sums and
// positions, bit for bit, after every call.
func TestNeutralIsIdeal(t *testing.T) {
	tests := []struct {
		name  string
		steps func(rng *rand.Rand, n, a int) (on, off float64)
	}{
		{"alpha", func(rng *rand.Rand, _, _ int) (float64, float64) { return float64(2*rng.IntN(2) - 1), 0 }},
		{"integers", func(rng *rand.Rand, _, _ int) (float64, float64) {
			return float64(rng.IntN(7) - 3), float64(rng.IntN(3) - 1)
		}},
		{"gamma", func(rng *rand.Rand, n, a int) (float64, float64) {
			y := float64(2*rng.IntN(2) - 1)
			N, A := float64(n+1), float64(a+1)
			return y * (N - A) / N, -y * A / N
		}},
		{"fractions", func(rng *rand.Rand, _, _ int) (float64, float64) { return rng.Float64() - 0.5, rng.NormFloat64() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 300
			ctl := newRNG(50)
			ideal := mustRack(t, n, IdealParams(), nil)
			neutral := mustRack(t, n, NeutralParams(), nil)
			noise := newRNG(51) // must stay unused: a draw would show in the final check
			var active []uint16
			for step := range 3000 {
				active = randomActive(ctl, n, ctl.Float64(), active)
				if a, b := ideal.Sum(active, nil), neutral.Sum(active, noise); math.Float64bits(a) != math.Float64bits(b) {
					t.Fatalf("step %d: Sum ideal %v, neutral %v", step, a, b)
				}
				on, off := tt.steps(ctl, n, len(active))
				ideal.Drive(active, on, off, nil)
				neutral.Drive(active, on, off, noise)
				dt := 3 * ctl.Float64()
				ideal.Advance(dt, nil)
				neutral.Advance(dt, noise)
				ri, rn := readings(ideal), readings(neutral)
				for i := range ri {
					if math.Float64bits(ri[i]) != math.Float64bits(rn[i]) || math.Float64bits(ideal.Pos(i)) != math.Float64bits(neutral.Pos(i)) {
						t.Fatalf("step %d: pot %d: ideal %v (pos %v), neutral %v (pos %v)", step, i, ri[i], ideal.Pos(i), rn[i], neutral.Pos(i))
					}
				}
				if ideal.Gain() != neutral.Gain() || ideal.Time() != neutral.Time() {
					t.Fatalf("step %d: gain %v, %v; time %v, %v", step, ideal.Gain(), neutral.Gain(), ideal.Time(), neutral.Time())
				}
			}
			if fresh := newRNG(51); noise.Uint64() != fresh.Uint64() {
				t.Fatal("the neutral rack drew random numbers")
			}
		})
	}
}

// TestParamDocs checks that ParamDocs describes every JSON field of Params but "ideal", in
// field order, each with a model, a source and a flaw from the documented list, and that every
// field's doc comment in params.go names its default and the same source.
func TestParamDocs(t *testing.T) {
	var keys []string
	typ := reflect.TypeFor[Params]()
	for i := range typ.NumField() {
		k, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if k != "ideal" {
			keys = append(keys, k)
		}
	}
	var got []string
	flaws := map[string]bool{"end_stops": true, "resolution": true, "backlash": true, "motor_spread": true,
		"pulse_jitter": true, "tolerance": true, "wiper_drift": true, "track_drift": true, "contact_noise": true,
		"ratchet_slip": true}
	settings := map[string]bool{"drive": true, "teeth_per_increment": true}
	for _, d := range ParamDocs() {
		got = append(got, d.Key)
		if d.Models == "" || d.Source == "" {
			t.Errorf("%s: Models %q, Source %q", d.Key, d.Models, d.Source)
		}
		if settings[d.Key] != (d.Flaw == "") || (d.Flaw != "" && !flaws[d.Flaw]) {
			t.Errorf("%s: flaw %q", d.Key, d.Flaw)
		}
		if want := map[string]string{"drift_interval_s": "modelling", "drive": "historical"}[d.Key]; want != "" && d.Source != want {
			t.Errorf("%s: source %q, want %q", d.Key, d.Source, want)
		} else if want == "" && d.Source != "assumed" {
			t.Errorf("%s: source %q, want assumed", d.Key, d.Source)
		}
	}
	if !slices.Equal(got, keys) {
		t.Fatalf("ParamDocs keys\n%v\nwant the Params fields\n%v", got, keys)
	}
	// Each field's doc comment says its default and its source as ParamDocs does.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "params.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	comments := map[string]string{}
	ast.Inspect(f, func(nd ast.Node) bool {
		ts, ok := nd.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Params" {
			return true
		}
		for _, fd := range ts.Type.(*ast.StructType).Fields.List {
			tag, _ := strconv.Unquote(fd.Tag.Value)
			key, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			comments[key] = strings.Join(strings.Fields(fd.Doc.Text()), " ")
		}
		return false
	})
	def := reflect.ValueOf(DefaultParams())
	for i, d := range ParamDocs() {
		c := comments[d.Key]
		want := fmt.Sprintf("Default %v", def.Field(i).Interface())
		if d.Key == "drive" {
			want = "the default"
		}
		if !strings.Contains(c, want) {
			t.Errorf("%s: doc comment does not say %q: %s", d.Key, want, c)
		}
		if src := map[string]string{"assumed": "(assumed", "modelling": "modelling choice", "historical": "historical"}[d.Source]; !strings.Contains(c, src) {
			t.Errorf("%s: doc comment does not say %q (source %s): %s", d.Key, src, d.Source, c)
		}
	}
	// The flaws group as documented.
	want := map[string][]string{"end_stops": {"range"}, "wiper_drift": {"wiper_drift", "drift_interval_s"},
		"track_drift": {"track_drift", "track_tau_s", "track_spread"}, "ratchet_slip": {"ratchet_miss", "ratchet_double"}}
	group := map[string][]string{}
	for _, d := range ParamDocs() {
		group[d.Flaw] = append(group[d.Flaw], d.Key)
	}
	for f, keys := range want {
		if !slices.Equal(group[f], keys) {
			t.Errorf("flaw %s: %v, want %v", f, group[f], keys)
		}
	}
}
