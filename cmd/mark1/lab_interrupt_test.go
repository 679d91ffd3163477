package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/lab/demo"
	"github.com/mark1-perceptron/mark1/lab/experiment"
)

// longRuns are command lines that keep each demo and experiment busy for seconds at least:
// Ctrl-C comes in the middle of them. FILE2 and FILE12 are CSV files of samples of 2 and 12
// features.
var longRuns = map[string]string{
	"lab compare":      "--data builtin:letters --methods mark1-analog,pocket --epochs 100000 --keep-going",
	"lab novikoff":     "--problems 100000",
	"lab nonseparable": "--epochs 100000 --cards 2000",
	"lab outliers":     "--draws 10000",
	"lab flaws":        "--data builtin:ef --test none --seeds 1 --epochs 100000",
	"lab forget":       "--data gen:letters,n=3000,shift=10,font=both --test none --epochs 100000 --hours 1",
	"lab aunits":       "--data gen:squares-circles,n=300 --test none --counts 512 --epochs 100000 --seeds 1",
	"lab fields":       "--data gen:letters,n=3000,shift=10,font=both --wiring identity --epochs 100000",
	"lab trace":        "--data FILE2 --epochs 1000",
	"lab geometry":     "--data FILE2 --epochs 1000",
	"lab loss":         "--points 1000 --epochs 200",
	"lab masking":      "--n 10000 --middle 10000 --noise 10",
	"lab digits":       "--updates 100000",
	"lab fisher-lsq":   "--data FILE12",
	"lab lsq":          "--data FILE12",
	"lab circle":       "--points 1000 --units 1000 --epochs 200",

	"experiment letters":         "",
	"experiment squares-circles": "",
	"experiment square-diamond":  "",
	"experiment ef":              "",
	"experiment xe":              "",
	"experiment leftright":       "--seeds 100",
	"experiment figure4":         "",
}

// shortRuns are the demos that take well under a second whatever their flags: there is no
// long run to stop (lab/demo's TestCanceled holds them to their context).
var shortRuns = map[string]string{
	"lab regions": "at most 8 classes of 30 samples, a grid of 120 x 120",
	"lab boolean": "truth tables of at most 5 inputs; the cycles are found in a few epochs",
}

// writeSamples writes n samples of d integer features with random labels, as mark1 lab trace
// reads them.
func writeSamples(t *testing.T, path string, n, d int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	var b strings.Builder
	for range n {
		for range d {
			fmt.Fprintf(&b, "%d,", rng.IntN(200001)-100000)
		}
		b.WriteString([]string{"+1\n", "-1\n"}[rng.IntN(2)])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLabInterrupt: Ctrl-C stops a long run of every demo and every historical experiment at
// once, with exit status 130, and writes nothing.
func TestLabInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	writeSamples(t, filepath.Join(dir, "samples2.csv"), 200, 2)
	writeSamples(t, filepath.Join(dir, "samples12.csv"), 3000, 12)
	var names []string
	for _, d := range demo.All() {
		names = append(names, "lab "+d.Name)
	}
	for _, e := range experiment.Historical() {
		names = append(names, "experiment "+e.Name)
	}
	for _, name := range names {
		t.Run(strings.ReplaceAll(name, " ", "-"), func(t *testing.T) {
			if why, ok := shortRuns[name]; ok {
				t.Skip("no long run: " + why)
			}
			flags, ok := longRuns[name]
			if !ok {
				t.Fatalf("no long run of %s to stop", name)
			}
			flags = strings.NewReplacer("FILE2", filepath.Join(dir, "samples2.csv"), "FILE12", filepath.Join(dir, "samples12.csv")).Replace(flags)
			out := filepath.Join(t.TempDir(), "out")
			args := append(append(strings.Fields(name), strings.Fields(flags)...), "--out", out)
			cmd := mark1Process(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait until the run is under way (its signal handler set up): by the CPU time it
			// has used, not the wall clock, which a loaded machine stretches (a fixed 700 ms once
			// came too early); under the race detector every step takes many times the CPU (300
			// ms once came too early).
			waitCPU(t, cmd.Process.Pid, raceSlowdown*300*time.Millisecond)
			start := time.Now()
			cmd.Process.Signal(syscall.SIGINT)
			err := cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Fatalf("exit %d (%v), stderr %q", code, err, stderr.String())
			}
			if d := time.Since(start); d > raceSlowdown*5*time.Second {
				t.Fatalf("took %v to stop", d)
			}
			if want := "mark1 " + strings.Fields(name)[0] + ": interrupted by interrupt; nothing written\n"; stderr.String() != want {
				t.Fatalf("stderr %q, want %q", stderr.String(), want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("an interrupted run made its --out folder")
			}
		})
	}
}

// waitCPU waits until process pid has used cpu of processor time (user and system, from
// /proc/PID/stat), or a minute has passed.
func waitCPU(t *testing.T, pid int, cpu time.Duration) {
	t.Helper()
	const tick = 10 * time.Millisecond // USER_HZ 100, as Linux reports it
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatalf("reading the process's CPU time: %v", err)
		}
		// Fields after the command's name (in parentheses): state is the first; utime and
		// stime are the 12th and 13th.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		if time.Duration(u+s)*tick >= cpu {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the process used less than %v of CPU in a minute", cpu)
}
