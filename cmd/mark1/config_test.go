package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

// mark1 config -h lists every settable parameter with its unit and its range: the table every
// input is checked against.
func TestConfigHelpListsRanges(t *testing.T) {
	code, out, errs := mark1(t, "config", "-h")
	if code != 0 || errs != "" {
		t.Fatalf("config -h: exit %d, stderr %q", code, errs)
	}
	table, _, ok := strings.Cut(out, "\nflags:\n")
	if !ok {
		t.Fatalf("config -h: no flags section:\n%s", out)
	}
	lines := strings.Split(table, "\n")
	for _, k := range machine.Keys() {
		unit := k.Unit
		if unit == "" {
			unit = "-"
		}
		found := false
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 0 && f[0] == k.Name {
				found = true
				if !strings.Contains(l, " "+unit+" ") || !strings.HasSuffix(l, " "+k.Range.String()) {
					t.Errorf("config -h: %q, want %s's unit %q and range %q", l, k.Name, unit, k.Range)
				}
			}
		}
		if !found {
			t.Errorf("config -h does not list %s", k.Name)
		}
	}
}

// craftState writes a small machine's state to dir/name with its body edited (the checksum
// recomputed) and the header's version given, as a hostile or careless file would be.
func craftState(t *testing.T, dir, name string, version int, edit func(map[string]any)) string {
	t.Helper()
	cs, err := builtin.Load("ef")
	if err != nil {
		t.Fatal(err)
	}
	cfg := machine.Default()
	cfg.MarkI.AUnits, cfg.RUnits = 32, 2
	m, err := machine.New(cfg, cs.Classes)
	if err != nil {
		t.Fatal(err)
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
	edit(doc)
	if body, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	file := fmt.Sprintf("mark1-state %d %d %x\n%s", version, len(body), sha256.Sum256(body), body)
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every input a configuration comes from (flags, --set, configuration files, state files) is
// checked against the same table, and each refusal is one line naming the key, with file:line
// for a configuration file and the file for a state (issue 18: these were taken, and the
// machine trained to chance or failed later without a line).
func TestOneValidationForEveryInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dup := write("dup.toml", "[retina]\ngamma = 1\n\n[pots]\nrange = 8\n[retina]\nspread = 0\n")
	radius := write("radius.toml", "wiring = \"local\"\nlocal_radius = -1\n")
	far := write("far.toml", "local_radius = 100000000\n")
	sub := func(v map[string]any, key string, value any) {
		c := v["config"].(map[string]any)
		if sec, k, ok := strings.Cut(key, "."); ok {
			c[sec].(map[string]any)[k] = value
			return
		}
		c[key] = value
	}
	v2 := func(name string, edit func(map[string]any)) string {
		return craftState(t, dir, name, machine.StateVersion, edit)
	}
	slow := v2("slow.state", func(v map[string]any) { sub(v, "presentation_time_s", 1e308) })
	noisy := v2("noisy.state", func(v map[string]any) { sub(v, "retina.dark_noise", 1e308) })
	units := v2("units.state", func(v map[string]any) { sub(v, "mark_i.a_units", 64) })
	fanout := v2("fanout.state", func(v map[string]any) { sub(v, "mark_i.fanout", 39) })
	theta := v2("theta.state", func(v map[string]any) { sub(v, "mark_i.theta", 3) })
	counted := v2("counted.state", func(v map[string]any) { v["presentations"] = 5 })
	header := craftState(t, dir, "header.state", 1, func(map[string]any) {})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train", "--data", "builtin:ef", "--rotation", "1e308"}, 2, "rotation_deg: 1e+308, want -3600..3600"},
		{[]string{"train", "--data", "builtin:ef", "--blur", "-1"}, 2, "blur_cells: -1, want 0..10"},
		{[]string{"train", "--data", "builtin:ef", "--set", "retina.dark_noise=1e308"}, 2, "retina: dark_noise: 1e+308, want 0..10"},
		{[]string{"train", "--data", "builtin:ef", "--set", "retina.latch_s=1e308"}, 2, "retina: latch_s: 1e+308"},
		{[]string{"train", "--data", "builtin:ef", "--set", "retina.rise_tau_s=1e-300"}, 2, "retina: rise_tau_s: 1e-300, want 0 (off), or 0.0001..3600"},
		{[]string{"train", "--data", "builtin:ef", "--set", "presentation_time_s=1e-300"}, 2, "presentation_time_s: 1e-300, want 0.1..3600"},
		{[]string{"train", "--data", "builtin:ef", "--set", "pots.track_tau_s=1e-300"}, 2, "track_tau_s: 1e-300, want 0 (off), or 1..1e+12"},
		{[]string{"config", "--set", "local_radius=100000000"}, 2, "local_radius: 100000000, want 1..10"},
		{[]string{"config", "--set", "local_units=8001"}, 2, "local_units: 8001, want 1..8000"},
		{[]string{"config", "--config", dup}, 1, "dup.toml:6: [retina]: given twice (first on line 1)"},
		{[]string{"train", "--data", "builtin:ef", "--config", dup}, 1, "dup.toml:6: [retina]: given twice (first on line 1)"},
		{[]string{"config", "--config", radius}, 1, "radius.toml:2: local_radius: -1, want 1..10"},
		{[]string{"train", "--data", "builtin:ef", "--config", radius}, 1, "radius.toml:2: local_radius: -1, want 1..10"},
		{[]string{"train", "--data", "builtin:ef", "--config", far}, 1, "far.toml:1: local_radius: 100000000, want 1..10"},
		{[]string{"weights", "--state", slow}, 1, "slow.state: machine: presentation_time_s: 1e+308, want 0.1..3600"},
		{[]string{"eval", "--state", noisy, "--data", "builtin:ef"}, 1, "noisy.state: retina: dark_noise: 1e+308, want 0..10"},
		{[]string{"weights", "--state", units}, 1, "units.state: config: mark_i.a_units: 64, but the wiring has 32 A-units"},
		{[]string{"weights", "--state", fanout}, 1, "fanout.state: config: mark_i.fanout: 39"},
		{[]string{"weights", "--state", theta}, 1, "theta.state: config: mark_i.theta: 3, but A-unit 0 of the wiring has threshold 2"},
		{[]string{"weights", "--state", counted}, 1, "counted.state: presentations: 5 of 3 s take 15 s, but the machine's clock_s is 0"},
		{[]string{"weights", "--state", header}, 1, "header.state: config.order: a version 2 field, in a state whose header says version 1"},
	} {
		t.Run(caseName(tc.args), func(t *testing.T) {
			code, out, errs := mark1(t, tc.args...)
			line := strings.TrimSuffix(errs, "\n")
			if code != tc.code || out != "" || !strings.Contains(line, tc.want) || strings.Contains(line, "\n") {
				t.Errorf("mark1 %s: exit %d, stdout %q, stderr %q; want exit %d and one line holding %q",
					strings.Join(tc.args, " "), code, out, errs, tc.code, tc.want)
			}
		})
	}
}
