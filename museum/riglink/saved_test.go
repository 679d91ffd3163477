package riglink_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/museum/riglink"
)

// loopInfo is a small loop rig's description, as a bridge's /v1/info gives it.
func loopInfo() hwapi.Info {
	i := hwapi.Info{Version: hwapi.Version, Boot: "b1", Rig: "builtin:loop", Mode: "loop", UpdateHz: 20,
		Tolerance: 0.5, Machine: &hwapi.Machine{AUnits: 2, RUnits: 1, Rule: "error-correction", Wiring: "random"}}
	for a := -1; a < 2; a++ {
		i.Pots = append(i.Pots, hwapi.PotInfo{R: 0, A: a, Range: 8})
	}
	return i
}

func TestSavedRig(t *testing.T) {
	dir := t.TempDir()
	if _, ok, err := riglink.Load(dir, "pi:8707"); ok || err != nil {
		t.Fatalf("no file: ok %v, err %v; want none and no error", ok, err)
	}
	if err := riglink.Save(dir, "pi:8707", loopInfo()); err != nil {
		t.Fatal(err)
	}
	info, ok, err := riglink.Load(dir, "pi:8707")
	if !ok || err != nil || info.Mode != "loop" || info.Machine.AUnits != 2 || len(info.Pots) != 3 {
		t.Fatalf("Load = %+v, %v, %v; want the loop rig saved", info, ok, err)
	}
	if _, ok, err := riglink.Load(dir, "other:8707"); ok || err != nil {
		t.Fatalf("another bridge's: ok %v, err %v; want none and no error", ok, err)
	}
	path := filepath.Join(dir, riglink.SavedFile)
	for _, c := range []struct{ name, body, want string }{
		{"not JSON", "{\"addr\": \"pi:8707\", ", "unexpected EOF"},
		{"unknown field", `{"addr": "pi:8707", "info": {}, "x": 1}`, `unknown field "x"`},
		{"a huge machine", strings.Replace(saved(t, dir), `"a_units": 2`, `"a_units": 1000000000`, 1), "machine.a_units: 1000000000 out of range"},
		{"a pot missing", strings.Replace(saved(t, dir), `"a": 1,`, `"a": 7,`, 1), "no pot for R0.A1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, ok, err := riglink.Load(dir, "pi:8707")
			if ok || err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Load: ok %v, err %v; want an error naming %s and %q", ok, err, path, c.want)
			}
		})
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := riglink.Load(dir, "pi:8707"); ok || err == nil || !strings.Contains(err.Error(), "a folder, not the bridge's saved rig") {
		t.Fatalf("a folder as %s: ok %v, err %v; want an error", riglink.SavedFile, ok, err)
	}
}

// saved is the file Save writes for loopInfo (written again in dir).
func saved(t *testing.T, dir string) string {
	t.Helper()
	if err := riglink.Save(dir, "pi:8707", loopInfo()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, riglink.SavedFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzLoad: whatever bridge.json holds, Load neither panics nor returns a rig that hwapi would
// refuse from a bridge, and a loop rig it returns builds its machine's configuration.
func FuzzLoad(f *testing.F) {
	dir := f.TempDir()
	if err := riglink.Save(dir, "pi:8707", loopInfo()); err != nil {
		f.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, riglink.SavedFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"addr":"pi:8707","info":{"mode":"mirror"}}`))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, riglink.SavedFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		info, ok, err := riglink.Load(dir, "pi:8707")
		if ok != (err == nil && info.Mode != "") {
			t.Fatalf("ok %v with err %v and mode %q", ok, err, info.Mode)
		}
		if !ok {
			return
		}
		if err := info.Check(); err != nil {
			t.Fatalf("Load returned a rig hwapi refuses: %v", err)
		}
		if info.Mode == "loop" {
			if cfg, err := hwapi.LoopConfig(info.Machine); err == nil {
				_ = cfg.Validate()
			}
		}
	})
}
