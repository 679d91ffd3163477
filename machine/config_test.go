package machine

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"
	"github.com/mark1-perceptron/mark1/potentiometer"
	"github.com/mark1-perceptron/mark1/retina"
)

// TestConfigFileRoundTrip writes configurations as TOML and reads them back.
func TestConfigFileRoundTrip(t *testing.T) {
	flawed, err := Default().WithFlaws([]string{"blur", "backlash"})
	if err != nil {
		t.Fatal(err)
	}
	odd := Default()
	for _, kv := range []string{"seed=12345678901", "rule=gamma", "order=interleave", "retina.polarity=light",
		"retina.rotation_deg=12.5", "pots.range=inf", "mark_i.theta=3", "pots.drive=ratchet"} {
		k, v, _ := strings.Cut(kv, "=")
		if err := odd.Set(k, v); err != nil {
			t.Fatalf("Set(%s): %v", kv, err)
		}
	}
	// A seed over a TOML integer (2^63-1), as --seed and state files take it: written as text.
	bigSeed := Default()
	bigSeed.Seed = 1<<64 - 1
	for name, c := range map[string]Config{"default": Default(), "ideal": Default().Ideal(), "flaws": flawed, "odd": odd, "big seed": bigSeed} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.WriteConfig(&buf); err != nil {
				t.Fatal(err)
			}
			// Read over a different base: every key is in the file.
			base := Default()
			base.Seed, base.RUnits = 99, 3
			got, err := ReadConfig(bytes.NewReader(buf.Bytes()), "c.toml", base)
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			if !reflect.DeepEqual(got, c) {
				t.Fatalf("read back\n%+v\nwant\n%+v", got, c)
			}
			for _, line := range strings.Split(buf.String(), "\n") {
				if len(line) > 100 {
					t.Errorf("line longer than 100 columns: %q", line)
				}
			}
		})
	}
}

// TestConfigDocuments checks that every key is described: what it models, where its default
// comes from, and that physical keys have units.
func TestConfigDocuments(t *testing.T) {
	var buf bytes.Buffer
	Default().WriteConfig(&buf)
	text := buf.String()
	for _, k := range Keys() {
		if k.Models == "" || k.Source == "" {
			t.Errorf("%s: not described (%+v)", k.Name, k.Doc)
		}
		if !strings.Contains(text, "\n"+k.Doc.Key+" = ") {
			t.Errorf("%s missing from the file", k.Name)
		}
	}
	for _, want := range []string{"[retina]", "[pots]", "[mark_i]", "Flaw \"blur\"", "(historical)", "(assumed)"} {
		if !strings.Contains(text, want) {
			t.Errorf("config file lacks %q", want)
		}
	}
}

func TestReadConfigErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"unknown key", "seed = 1\n\n[retina]\nblurr = 2\n", "c.toml:4: retina.blurr: unknown key"},
		{"unknown key suggests", "blur_cells = 2\n", "c.toml:1: blur_cells: unknown key (did you mean retina.blur_cells?)"},
		{"unknown section", "[lens]\nblur = 1\n", "c.toml:1: [lens]: unknown section"},
		{"out of range", "[retina]\nblur_cells = 20\n", "c.toml:2: retina: blur_cells: 20"},
		{"wrong type", "r_units = \"eight\"\n", "c.toml:1: r_units: \"eight\" is not a whole number"},
		{"float for int", "r_units = 8.5\n", "c.toml:1: r_units: 8.5 is not a whole number"},
		{"bad name", "rule = \"delta\"\n", "c.toml:1: rule: unknown rule \"delta\""},
		{"twice", "seed = 1\nseed = 2\n", "c.toml:2: seed: given twice (first on line 1)"},
		{"twice dotted", "retina.gamma = 1\n[retina]\ngamma = 2\n", "c.toml:2: [retina]: the section was already given by dotted keys (line 1)"},
		// A section given twice (issue 18: accepted), and values that train refused later
		// without a file:line (issue 18: a local radius of 1e8 or -1).
		{"table twice", "[retina]\ngamma = 1\n\n[pots]\nrange = 8\n[retina]\nspread = 0\n", "c.toml:6: [retina]: given twice (first on line 1)"},
		{"local radius 1e8", "local_radius = 100000000\n", "c.toml:1: local_radius: 100000000, want 1..10"},
		{"local radius -1", "local_radius = -1\n", "c.toml:1: local_radius: -1, want 1..10"},
		{"dark noise 1e308", "[retina]\ndark_noise = 1e308\n", "c.toml:2: retina: dark_noise: 1e+308, want 0..10"},
		{"presentation 1e-300", "presentation_time_s = 1e-300\n", "c.toml:1: presentation_time_s: 1e-300, want 0.1..3600"},
		{"array", "seed = [1, 2]\n", "c.toml:1: seed: want a number, a string or true/false, not an array"},
		{"inline table", "[retina]\ngamma = {a = 1}\n", "c.toml:2: retina.gamma: want a number, a string or true/false, not an inline table"},
		// A float where a whole number goes: refused, saying how to write it (issue 24: "8 is
		// not a whole number").
		{"whole float for int", "r_units = 8.0\n", "c.toml:1: r_units: 8.0 is a float; write 8"},
		{"exponent for int", "[mark_i]\na_units = 5e2\n", "c.toml:2: mark_i.a_units: 5e2 is a float; write 500"},
		{"whole float for uint64", "seed = 7.0\n", "c.toml:1: seed: 7.0 is a float; write 7"},
		{"huge float for uint64", "seed = 1e30\n", "c.toml:1: seed: 1e30 is a float, and out of range for an integer"},
		{"inf for int", "r_units = inf\n", "c.toml:1: r_units: inf is not a whole number"},
		{"array table", "[[retina]]\n", "c.toml:1: [[retina]]: arrays of tables"},
		{"malformed", "seed = \n", "c.toml:1: malformed TOML"},
		{"nan", "[retina]\ngamma = nan\n", "c.toml:2: retina.gamma: NaN is not a number"},
		{"ideal key", "[pots]\nideal = true\n", "c.toml:2: pots.ideal: unknown key"},
		{"combination", "[mark_i]\ntheta = 9\n", "c.toml:2: patchboard: theta: 9, want 1..7"},
		{"escaped key", "seed = 2\n\"see\\u0064\" = 1\n", "c.toml:2: seed: given twice (first on line 1)"},
		{"escaped unknown key", "\n\"bl\\u0075r\" = 1\n", "c.toml:2: blur: unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadConfig(strings.NewReader(tt.in), "c.toml", Default())
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to start %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
		})
	}
	// A byte-order mark and dotted keys are fine; so is a whole number where a float goes.
	if c, err := ReadConfig(strings.NewReader("[retina]\nblur_cells = 1\n"), "c.toml", Default()); err != nil || c.Retina.Blur != 1 {
		t.Fatalf("an integer for a float: %v, %v", c.Retina.Blur, err)
	}
	c, err := ReadConfig(strings.NewReader("\uFEFFretina.blur_cells = 0.5 # defocus\nseed = 7\n"), "c.toml", Default())
	if err != nil || c.Retina.Blur != 0.5 || c.Seed != 7 {
		t.Fatalf("got %v, %v", c.Retina.Blur, err)
	}
	if _, err := ReadConfig(strings.NewReader(strings.Repeat("#", MaxConfigFile+1)), "big.toml", Default()); err == nil {
		t.Fatal("read a configuration file over the size limit")
	}
}

func FuzzReadConfig(f *testing.F) {
	var buf bytes.Buffer
	Default().WriteConfig(&buf)
	f.Add(buf.String())
	f.Add("[retina]\nblur_cells = 0.5\n")
	f.Add("seed = 0x10\npots.range = inf\n")
	f.Add("\"see\\u0064\" = 1\n[\"ret\\u0069na\"]\ngamma = 1\n")
	f.Fuzz(func(t *testing.T, in string) {
		c, err := ReadConfig(strings.NewReader(in), "f.toml", Default())
		if err != nil {
			return
		}
		// What reads must be valid and build a machine.
		if err := c.Validate(); err != nil {
			t.Fatalf("ReadConfig accepted an invalid configuration: %v\n%s", err, in)
		}
		var out bytes.Buffer
		if err := c.WriteConfig(&out); err != nil {
			t.Fatal(err)
		}
		again, err := ReadConfig(&out, "again.toml", Default())
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func TestSet(t *testing.T) {
	c := Default()
	for _, tt := range []struct{ key, value, want string }{
		{"seed", "-1", "seed: \"-1\" is not a whole number"},
		{"r_units", "0", "r_units: 0, want 1..64"},
		{"pots.backlash", "-1", "backlash"},
		{"retina.polarity", "sideways", "\"sideways\""},
		{"order", "random", `order: "random", want shuffle, file or interleave`},
		{"nosuch", "1", "nosuch: unknown key"},
		{"retina", "1", "retina: unknown key"},
	} {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			before := c
			err := c.Set(tt.key, tt.value)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Set(%s, %s): %v, want %q", tt.key, tt.value, err, tt.want)
			}
			if !reflect.DeepEqual(c, before) {
				t.Errorf("Set(%s, %s) failed but changed the configuration", tt.key, tt.value)
			}
		})
	}
	if err := c.Set("pots.backlash", "0.5"); err != nil || c.Pots.Backlash != 0.5 {
		t.Fatalf("Set pots.backlash: %v %v", c.Pots.Backlash, err)
	}
	if v, err := c.Value("pots.backlash"); err != nil || v != "0.5" {
		t.Fatalf("Value = %q, %v", v, err)
	}
}

// TestFlaws checks --flaws: none is the ideal machine, all the default one, and one flaw turns
// on exactly its own parameters.
func TestFlaws(t *testing.T) {
	d := Default()
	none, err := d.WithFlaws([]string{"none"})
	if err != nil || !reflect.DeepEqual(none, d.Ideal()) {
		t.Fatalf("--flaws none = %+v, %v; want Ideal()", none, err)
	}
	all, err := d.WithFlaws([]string{"all"})
	if err != nil || !reflect.DeepEqual(all, d) {
		t.Fatalf("--flaws all = %+v, %v; want Default()", all, err)
	}
	if _, err := d.WithFlaws([]string{"blurr"}); err == nil || !strings.Contains(err.Error(), "unknown flaw \"blurr\"") {
		t.Fatalf("unknown flaw: %v", err)
	}
	flaws := Flaws()
	if len(flaws) < 10 {
		t.Fatalf("only %d flaws", len(flaws))
	}
	for _, f := range flaws {
		t.Run(f.Name, func(t *testing.T) {
			c, err := d.WithFlaws([]string{f.Name})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("--flaws %s: invalid configuration: %v", f.Name, err)
			}
			for _, k := range Keys() {
				got, err := c.Value(k.Name)
				if err != nil {
					t.Fatal(err)
				}
				var want string
				switch {
				case contains(f.Keys, k.Name) || k.Flaw == "":
					want, err = d.Value(k.Name) // the flaw's own keys and the settings keep their values
				default:
					want, err = d.Ideal().Value(k.Name)
				}
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("--flaws %s: %s = %s, want %s", f.Name, k.Name, got, want)
				}
			}
			part := c.Retina.Ideal
			if f.Part == "pots" {
				part = c.Pots.Ideal
			}
			if part {
				t.Errorf("--flaws %s: the %s are ideal", f.Name, f.Part)
			}
		})
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestSettle checks that a part is ideal exactly when nothing differs from its neutral model.
func TestSettle(t *testing.T) {
	c := Default().Ideal()
	if err := c.Set("retina.blur_cells", "0.5"); err != nil {
		t.Fatal(err)
	}
	if c.Retina.Ideal || c.Retina.Blur != 0.5 || !c.Pots.Ideal {
		t.Fatalf("blur on an ideal machine: retina %+v, pots ideal %v", c.Retina, c.Pots.Ideal)
	}
	if err := c.Set("retina.blur_cells", "0"); err != nil {
		t.Fatal(err)
	}
	if !c.Retina.Ideal {
		t.Fatalf("blur back to 0: the retina is not ideal again: %+v", c.Retina)
	}
	if err := c.Set("retina.scale", "0.5"); err != nil || !c.Retina.Ideal {
		t.Fatalf("placement on the ideal retina: %+v %v", c.Retina, err)
	}
	if err := c.Set("pots.backlash", "0.3"); err != nil || c.Pots.Ideal {
		t.Fatalf("backlash on ideal pots: %+v %v", c.Pots, err)
	}
	if r := idealRetina(retina.DefaultParams()); r != neutralIdealRetina(r) && !r.Ideal {
		t.Fatal("the ideal retina is not its neutral model")
	}
	p := potentiometer.IdealParams()
	p.Ideal = false
	if p != potentiometer.NeutralParams() {
		t.Fatalf("IdealParams without Ideal = %+v, want NeutralParams %+v", p, potentiometer.NeutralParams())
	}
}

// TestReadV1 loads the version 1 state files of the earlier mark1 kept in testdata: they must
// keep loading, evaluate, train and save in the current format.
func TestReadV1(t *testing.T) {
	set := loadSet(t, "ef")
	for _, name := range []string{"v1-ideal.state", "v1-analog.state"} {
		t.Run(name, func(t *testing.T) {
			m, err := Load("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			if m.Config().Order != OrderFile || m.AUnits() != 64 || m.RUnits() != 2 {
				t.Fatalf("order %q, %d A-units, %d R-units", m.Config().Order, m.AUnits(), m.RUnits())
			}
			d, err := m.Prepare(set)
			if err != nil {
				t.Fatal(err)
			}
			// The earlier mark1 evaluated these files at 85.0% (ideal) and 81.7% (analog); the
			// retina's optics are exact now, so allow a few cards either way.
			if res := m.Evaluate(d); res.Accuracy < 0.7 {
				t.Fatalf("accuracy %v after loading", res.Accuracy)
			}
			m.Epoch(d, nil)
			var buf bytes.Buffer
			if err := m.WriteState(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(buf.String(), "mark1-state 2 ") {
				t.Fatal("not written in the current format")
			}
			if _, err := ReadState(&buf, "again"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCodeFileLabels reads code files with labels that have spaces (quoted) and a byte-order
// mark, and writes them back.
func TestCodeFileLabels(t *testing.T) {
	classes := []string{"my class", "other", `say "hi"`}
	in := "\uFEFF# codes\n\"my class\" 10 # spaces\nother 01\n\"say \\\"hi\\\"\" 11\n"
	codes, err := ReadCodes(strings.NewReader(in), "c.codes", classes, 2)
	if err != nil {
		t.Fatal(err)
	}
	if codes[0][0] != 1 || codes[0][1] != -1 || codes[2][1] != 1 {
		t.Fatalf("codes %v", codes)
	}
	var buf bytes.Buffer
	if err := WriteCodes(&buf, classes, codes); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\"my class\" 10\n") {
		t.Fatalf("written:\n%s", buf.String())
	}
	again, err := ReadCodes(&buf, "again", classes, 2)
	if err != nil || !reflect.DeepEqual(again, codes) {
		t.Fatalf("round trip: %v %v", again, err)
	}
	if _, err := ReadCodes(strings.NewReader("my class 10\n"), "c.codes", classes, 2); err == nil || !strings.Contains(err.Error(), "quote a label with spaces") {
		t.Fatalf("unquoted label with a space: %v", err)
	}
}

// TestGoldenStateFile compares the state file of a small machine, trained on real digits,
// with testdata/v2-*.state: a change of the format shows here (run with -update after an
// intended change, and keep the old files loading).
func TestGoldenStateFile(t *testing.T) {
	train := loadIDX(t, "train")
	train.Cards = train.Cards[:100]
	for _, ideal := range []bool{true, false} {
		t.Run(fmt.Sprintf("ideal=%t", ideal), func(t *testing.T) {
			cfg := digitsConfig(ideal)
			cfg.MarkI.AUnits, cfg.MarkI.FanOut = 48, 40
			m, d := newMachine(t, cfg, train)
			m.Epoch(d, nil)
			var buf bytes.Buffer
			if err := m.WriteState(&buf); err != nil {
				t.Fatal(err)
			}
			name := "testdata/v2-analog.state"
			if ideal {
				name = "testdata/v2-ideal.state"
			}
			if !golden.Bytes(t, name, buf.Bytes()) {
				t.Fatalf("%s: the state file format or the model changed (keep the old files loading)", name)
			}
			if _, err := Load(name); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestSetRule switches the rule of a built machine: forced training moves pots on a card the
// machine already answers right, error correction does not.
func TestSetRule(t *testing.T) {
	set := loadSet(t, "ef")
	m, d := newMachine(t, Default().Ideal(), set)
	for e := 0; e < 50 && m.Epoch(d, nil).Corrections > 0; e++ {
	}
	if _, moved := m.Train(&d.Stimuli[0], d.Class[0]); moved != 0 {
		t.Fatalf("alpha corrected a learned card")
	}
	if err := m.SetRule(Forced); err != nil {
		t.Fatal(err)
	}
	if _, moved := m.Train(&d.Stimuli[0], d.Class[0]); moved == 0 {
		t.Fatalf("forced training moved nothing")
	}
	if m.Config().Rule != Forced || m.SetRule(Rule(9)) == nil {
		t.Fatal("rule not switched, or a bad rule accepted")
	}
}

// TestClone checks that a clone is the saved-and-loaded machine: the same state file, and the
// same epochs after.
func TestClone(t *testing.T) {
	set := loadSet(t, "ef")
	for name, cfg := range map[string]Config{"default": Default(), "ideal": Default().Ideal()} {
		t.Run(name, func(t *testing.T) {
			m, d := newMachine(t, cfg, set)
			m.Epoch(d, nil)
			c, err := m.Clone()
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			m.WriteState(&a)
			c.WriteState(&b)
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("the clone's state differs")
			}
			for range 2 {
				if x, y := m.Epoch(d, nil), c.Epoch(d, nil); x != y {
					t.Fatalf("after cloning: %+v and %+v", x, y)
				}
			}
			if m.Board() == c.Board() {
				t.Fatal("the clone shares the board's scratch space")
			}
		})
	}
}

func BenchmarkClone(b *testing.B) {
	set := loadSet(b, "ef")
	m, d := newMachine(b, Default(), set)
	m.Epoch(d, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Clone(); err != nil {
			b.Fatal(err)
		}
	}
}
