package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Where the calibration is kept: beside a rig file that can be written beside, else in the
// state directory (--state-dir, else $STATE_DIRECTORY), a built-in rig's in the state directory,
// a simulation's only in a --state-dir; else in memory, saying so.
func TestCalFiles(t *testing.T) {
	dir, state, env := t.TempDir(), t.TempDir(), t.TempDir()
	rigFile := filepath.Join(dir, "rig.toml")
	blocked := filepath.Join(t.TempDir(), "blocked.toml")
	if err := os.Mkdir(blocked+".cal", 0o755); err != nil { // a folder where the file would go
		t.Fatal(err)
	}
	t.Setenv("STATE_DIRECTORY", "")
	for _, tc := range []struct {
		name     string
		rf       rigFlags
		envState string
		write    string
		note     string
	}{
		{"beside", rigFlags{rig: rigFile}, "", rigFile + ".cal", "calibration kept in " + rigFile + ".cal"},
		{"beside, with a state directory", rigFlags{rig: rigFile, stateDir: state}, "", rigFile + ".cal", ""},
		{"blocked: the flag's state directory", rigFlags{rig: blocked, stateDir: state}, env, filepath.Join(state, "blocked.toml.cal"), ""},
		{"blocked: systemd's", rigFlags{rig: blocked}, env + ":/elsewhere", filepath.Join(env, "blocked.toml.cal"), ""},
		{"blocked, nowhere", rigFlags{rig: blocked}, "", "", "calibration kept in memory only (" + blocked + ".cal: "},
		{"built in", rigFlags{rig: "builtin:loop"}, env, filepath.Join(env, "builtin-loop.cal"), ""},
		{"built in, nowhere", rigFlags{rig: "builtin:loop"}, "", "", "no state directory is given: give --state-dir DIR, or StateDirectory= in the systemd unit"},
		{"simulated", rigFlags{rig: rigFile, simulate: true}, env, "", "a simulated rig's is stored only with --state-dir DIR"},
		{"simulated, --state-dir", rigFlags{rig: rigFile, simulate: true, stateDir: state}, env, filepath.Join(state, "rig.toml.sim.cal"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("STATE_DIRECTORY", tc.envState)
			write, _, note := tc.rf.calFiles()
			if write != tc.write || !strings.Contains(note, tc.note) {
				t.Errorf("%s: %q, %q; want %q, a note with %q", tc.name, write, note, tc.write, tc.note)
			}
		})
	}
	// A calibration beside the rig file that cannot be replaced is read still (written by
	// hwbridge calibrate as root, say), with the state directory's.
	if os.Geteuid() != 0 {
		ro := t.TempDir()
		roRig := filepath.Join(ro, "rig.toml")
		if err := os.WriteFile(roRig+".cal", []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(ro, 0o755)
		rf := rigFlags{rig: roRig, stateDir: state}
		if write, read, _ := rf.calFiles(); write != filepath.Join(state, "rig.toml.cal") || len(read) != 1 || read[0] != roRig+".cal" {
			t.Errorf("read-only beside: write %q, read %q", write, read)
		}
	}
}

// hwbridge calibrate sweeps whatever is stored; serve and run only when told (--recalibrate).
func TestRecalibrateDefault(t *testing.T) {
	for name, want := range map[string]bool{"calibrate": true, "serve": false, "run": false} {
		t.Run(name, func(t *testing.T) {
			fs := flag.NewFlagSet("hwbridge "+name, flag.ContinueOnError)
			var rf rigFlags
			rf.register(fs)
			if rf.recalibrate != want {
				t.Errorf("hwbridge %s: --recalibrate defaults to %v", name, rf.recalibrate)
			}
		})
	}
}

// A simulated rig opened twice with a --state-dir: the first start sweeps and stores, the second
// reads the ends back and sweeps nothing; hwbridge calibrate sweeps again.
func TestCalibrationAcrossStarts(t *testing.T) {
	state := t.TempDir()
	open := func(rf rigFlags) string {
		t.Helper()
		var logs bytes.Buffer
		hw, _, err := rf.open(textLogger(&logs), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if err := hw.Shutdown(time.Second); err != nil {
			t.Fatal(err)
		}
		return logs.String()
	}
	file := filepath.Join(state, "builtin-loop.sim.cal")
	rf := rigFlags{rig: "builtin:loop", simulate: true, seed: 3, noise: 0.5e-3, stateDir: state}
	if l := open(rf); !strings.Contains(l, "calibration kept in "+file) || !strings.Contains(l, "0 from "+file+", 16 swept; saved to "+file) {
		t.Errorf("first start: %s", l)
	}
	if l := open(rf); !strings.Contains(l, "16 from "+file+", 0 swept") {
		t.Errorf("second start: %s", l)
	}
	rf.recalibrate = true
	if l := open(rf); !strings.Contains(l, "0 from "+file+", 16 swept; saved to "+file) {
		t.Errorf("recalibrating: %s", l)
	}
}
