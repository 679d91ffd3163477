package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
)

// TestMain lets the test binary stand in for mark1: with MARK1_MAIN=1 in its environment it
// runs the command line it is given, so the tests below can start, signal and kill a real
// process.
func TestMain(m *testing.M) {
	if os.Getenv("MARK1_MAIN") == "1" {
		main()
		return
	}
	if os.Getenv("MARK1_PEAK") == "1" {
		measurePeak()
		return
	}
	os.Exit(m.Run())
}

// mark1Process returns a mark1 process (the test binary in mark1's place).
func mark1Process(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "MARK1_MAIN=1")
	cmd.Dir = dir
	return cmd
}

// digits is the training data of the process tests, as a --data spec.
func digits(t *testing.T) string {
	abs, err := filepath.Abs("../../testdata/mnist")
	if err != nil {
		t.Fatal(err)
	}
	return "idx:" + abs + "/train-images.idx.gz," + abs + "/train-labels.idx.gz"
}

// TestBadInputCorpus runs every case of testdata/bad/cases.txt.
func TestBadInputCorpus(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 3 {
			t.Fatalf("cases.txt:%d: want EXIT, ARGS and TEXT separated by tabs", line)
		}
		n++
		t.Run(fields[1], func(t *testing.T) {
			code, out, errs := mark1(t, strings.Fields(fields[1])...)
			if want := fields[0]; fmt.Sprint(code) != want {
				t.Errorf("exit %d, want %s (stderr %q)", code, want, errs)
			}
			if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, fields[2]) {
				t.Errorf("stderr %q, want one line holding %q", errs, fields[2])
			}
			if strings.Contains(out, "epoch") {
				t.Errorf("trained before refusing: %q", out)
			}
		})
	}
	if n < 30 {
		t.Fatalf("only %d cases", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.state")); err == nil {
		t.Error("a refused command wrote x.state")
	}
}

// startTraining starts a long training run that saves to state, and waits until it has
// finished its first epochs.
func startTraining(t *testing.T, dir, state string, extra ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	args := append([]string{"train", "--data", digits(t), "--r-units", "10", "--coding", "onehot",
		"--epochs", "100000", "--keep-going", "--save", state}, extra...)
	cmd := mark1Process(t, dir, args...)
	var stdout, stderr bytes.Buffer
	pr, pw := io.Pipe()
	cmd.Stdout = io.MultiWriter(&stdout, pw)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "epoch   2:") {
				started <- true
			}
		}
	}()
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("training did not reach its second epoch: %s", stderr.String())
	}
	t.Cleanup(func() { pw.Close() })
	return cmd, &stdout, &stderr
}

// TestInterruptSaves stops training with each stop signal: the work is saved, one line says
// so, the exit status is 128 plus the signal's number, and the saved machine trains on.
func TestInterruptSaves(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "m.state")
			cmd, _, stderr := startTraining(t, dir, state)
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Fatalf("exit %v, want %d; stderr %q", err, 128+int(sig), stderr.String())
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "interrupted by "+sig.String()) || !strings.Contains(msg, "saved "+state) {
				t.Fatalf("stderr %q, want one line saying it was interrupted and saved", msg)
			}
			m, err := machine.Load(state)
			if err != nil {
				t.Fatal(err)
			}
			if m.Presentations() < 1200 {
				t.Fatalf("saved machine has %d presentations, want the epochs it trained", m.Presentations())
			}
			if code, _, errs := mark1(t, "train", "--state", state, "--data", digits(t), "--epochs", "1", "--save", state); code != 0 {
				t.Fatalf("the interrupted machine does not train on: %s", errs)
			}
			leftovers(t, dir)
		})
	}
}

// leftovers fails if a temporary file is left in dir.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestSecondInterrupt sends a second Ctrl-C hard on the first: mark1 stops at once, and
// leaves no temporary file and no half-written state file (either none or one that loads).
func TestSecondInterrupt(t *testing.T) {
	for i := range 3 {
		t.Run(fmt.Sprintf("gap=%dms", i*20), func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "m.state")
			// A big machine, so that saving takes a while and the second signal may come during it.
			cmd, _, stderr := startTraining(t, dir, state, "--a-units", "8192")
			cmd.Process.Signal(syscall.SIGINT)
			time.Sleep(time.Duration(i*20) * time.Millisecond)
			cmd.Process.Signal(syscall.SIGINT)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("exit %v, want 130; stderr %q", err, stderr.String())
			}
			if _, err := os.Stat(state); err == nil {
				if _, err := machine.Load(state); err != nil {
					t.Fatalf("half-written state file: %v", err)
				}
			}
			leftovers(t, dir)
		})
	}
}

// TestKillDuringSave kills mark1 (SIGKILL: nothing can be cleaned up) in the middle of saving a
// big machine, once its temporary file is there: the state file is always either the old one
// or absent, never half-written, and the next save removes the temporary files the killed ones
// left.
func TestKillDuringSave(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "big.state")
	rng := rand.New(rand.NewPCG(1, 2))
	killedMidSave := 0
	var before []byte
	for range 5 {
		cmd := mark1Process(t, dir, "train", "--data", "builtin:ef", "--epochs", "1", "--a-units", "16384", "--r-units", "16", "--save", state)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
	wait:
		for {
			select {
			case <-exited:
				break wait
			default:
			}
			if tmp, _ := filepath.Glob(filepath.Join(dir, ".big.state.tmp-*")); len(tmp) > 0 && size(tmp[0]) > 1<<20 {
				time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
				cmd.Process.Kill()
				killedMidSave++
				break
			}
			time.Sleep(time.Millisecond)
		}
		<-exited
		if _, err := os.Stat(state); err == nil {
			now, _ := os.ReadFile(state)
			if _, err := machine.Load(state); err != nil {
				t.Fatalf("after a kill: half-written state file: %v", err)
			}
			if before != nil && !bytes.Equal(now, before) && killedMidSave > 0 {
				// A save that completed before the kill replaced it whole: that is fine too.
				t.Logf("the state file was replaced whole")
			}
			before = now
		}
	}
	if killedMidSave == 0 {
		t.Fatal("no kill landed during a save: the test proved nothing")
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, ".big.state.tmp-*"))
	t.Logf("%d kills during a save left %d temporary files", killedMidSave, len(tmp))
	if code, _, errs := mark1(t, "train", "--data", "builtin:ef", "--epochs", "1", "--a-units", "64", "--save", state); code != 0 {
		t.Fatal(errs)
	}
	leftovers(t, dir)
	if _, err := machine.Load(state); err != nil {
		t.Fatal(err)
	}
}

func size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// measurePeak runs mark1 with its own arguments and reports the child's peak resident memory
// as the last line of standard output ("peak-kib N"). It runs in a small process of its own: a
// child's peak includes the memory of the process it was started from, until it execs.
func measurePeak() {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), "MARK1_MAIN=1", "MARK1_PEAK=")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	fmt.Printf("peak-kib %d\n", cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	os.Exit(code)
}

// peakMiB runs mark1 with args and returns its exit status, standard error and peak resident
// memory in MiB.
func peakMiB(t *testing.T, dir string, args ...string) (int, string, float64) {
	t.Helper()
	cmd := mark1Process(t, dir, args...)
	cmd.Env = append(cmd.Env, "MARK1_MAIN=", "MARK1_PEAK=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	if time.Since(start) > 60*time.Second {
		t.Fatalf("mark1 %s took %v", strings.Join(args, " "), time.Since(start))
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var kib float64
	if _, err := fmt.Sscanf(lines[len(lines)-1], "peak-kib %g", &kib); err != nil {
		t.Fatalf("no peak reported: %q", stdout.String())
	}
	return code, stderr.String(), kib / 1024
}

// TestMemoryBounded hands mark1 inputs that once took gigabytes, and checks it refuses them
// within a stated budget of peak memory: 100 MiB for inputs refused from their headers, and
// the --max-data-mb budget plus 100 MiB for a folder of big images.
func TestMemoryBounded(t *testing.T) {
	dir := t.TempDir()
	bad, err := filepath.Abs("../../testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	// A big regular file with no header line, given as a state file.
	noHeader := filepath.Join(dir, "zeros.state")
	if err := os.WriteFile(noHeader, make([]byte, 64<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	// 24 PNG images of 4096x4096 16-bit RGBA (128 MiB each decoded, a few KB on disk).
	folder := filepath.Join(dir, "photos", "a")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	img := bigPNG(t)
	for i := range 24 {
		if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("%02d.png", i)), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		args   []string
		want   string
		budget float64 // MiB
	}{
		{"no header line", []string{"weights", "--state", noHeader}, "not a mark1 state file", 100},
		{"gzip bomb", []string{"train", "--data", "idx:" + bad + "/bomb-images.idx.gz," + bad + "/bomb-labels.idx"}, "over the memory budget", 100},
		{"big images", []string{"train", "--data", filepath.Dir(folder), "--max-data-mb", "512"}, "over the memory budget", 512 + 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, errs, peak := peakMiB(t, dir, tc.args...)
			if code != 1 || !strings.Contains(errs, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", code, errs, tc.want)
			}
			t.Logf("peak %.0f MiB (budget %.0f)", peak, tc.budget)
			if peak > tc.budget {
				t.Fatalf("peak memory %.0f MiB, over the budget of %.0f MiB", peak, tc.budget)
			}
		})
	}
}

// TestFIFONeverWaits names FIFOs where mark1 expects files: each is refused at once.
func TestFIFONeverWaits(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	classDir := filepath.Join(dir, "cards", "a")
	if err := os.MkdirAll(classDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(classDir, "y.png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"weights", "--state", fifo},
		{"train", "--data", filepath.Join(dir, "cards")},
		{"train", "--data", "idx:" + fifo + "," + fifo},
		{"train", "--data", "builtin:ef", "--config", fifo},
		{"train", "--data", "builtin:ef", "--wiring", fifo},
		{"train", "--data", "builtin:ef", "--save", fifo},
	} {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir+string(filepath.Separator), ""), func(t *testing.T) {
			cmd := mark1Process(t, dir, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
				if !strings.Contains(stderr.String(), "FIFO") {
					t.Errorf("mark1 %s: stderr %q, want it to name a FIFO", strings.Join(args, " "), stderr.String())
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Errorf("mark1 %s waits on a FIFO", strings.Join(args, " "))
			}
		})
	}
}

// bigPNG encodes a 4096x4096 16-bit RGBA image of one colour: a few KB of PNG that decodes to
// 128 MiB.
func bigPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA64(image.Rect(0, 0, 4096, 4096))
	for i := 0; i < len(img.Pix); i += 8 {
		img.Pix[i], img.Pix[i+6], img.Pix[i+7] = 0x80, 0xff, 0xff
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
