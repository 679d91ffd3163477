package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// State is docs/figures/state.json: the biggest machine's state file. Its size, digest and
// accuracies are the same on every run; the times and the peak memory are measured.
type State struct {
	About         string   `json:"about"`
	Bytes         int64    `json:"state_bytes"`  // the state file's size (deterministic)
	SHA256        string   `json:"state_sha256"` // its digest (deterministic)
	TrainAccuracy Result   `json:"train_accuracy"`
	EvalAccuracy  Result   `json:"eval_accuracy"`
	Machine       Host     `json:"measured_on"`
	Train         Measured `json:"train_and_save"`
	Eval          Measured `json:"load_and_evaluate"`
}

// Measured is one command's wall time and peak resident memory (the kernel's maxrss of the
// process, as /usr/bin/time -v reports it).
type Measured struct {
	Command      string  `json:"command"`
	Seconds      float64 `json:"seconds"`
	PeakRSSBytes int64   `json:"peak_rss_bytes"`
}

// Host says when and on what a measurement was made.
type Host struct {
	Date        string  `json:"date"` // UTC
	CPU         string  `json:"cpu"`
	Cores       int     `json:"cores"`
	MemoryBytes int64   `json:"memory_bytes"`
	Go          string  `json:"go"`
	LoadAverage float64 `json:"load_average"` // of the last minute, at the start
}

func host() Host {
	h := Host{Date: time.Now().UTC().Format("2006-01-02"), Cores: runtime.NumCPU(), Go: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				h.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(b), "MemTotal: %d kB", &kb); err == nil {
			h.MemoryBytes = kb << 10
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscanf(string(b), "%g", &h.LoadAverage)
	}
	return h
}

// BigArgs is the biggest machine the limits allow, trained one epoch on the letters.
var BigArgs = []string{"train", "--data", "builtin:letters", "--a-units", "65536", "--r-units", "64", "--epochs", "1", "--save", "big.state", "--json"}

// BigEvalArgs loads and evaluates it.
var BigEvalArgs = []string{"eval", "--state", "big.state", "--data", "builtin:letters", "--json"}

// measure runs mark1 with args and returns its standard output, wall time and peak memory.
func (e *env) measure(args []string) ([]byte, Measured, error) {
	m := Measured{Command: "mark1 " + strings.Join(args, " ")}
	c := e.command("mark1", args...)
	var stderr strings.Builder
	c.Stderr = &stderr
	start := time.Now()
	out, err := c.Output()
	m.Seconds = time.Since(start).Seconds()
	if err != nil {
		return nil, m, fmt.Errorf("%s: %v: %s", m.Command, err, strings.TrimSpace(stderr.String()))
	}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.PeakRSSBytes = int64(ru.Maxrss) << 10 // kilobytes on Linux
	}
	return out, m, nil
}

func (e *env) state(log io.Writer) (*State, error) {
	st := &State{
		About: "Written by go run ./internal/tools/figures -only state (make figures): the biggest machine trained, saved, " +
			"loaded and evaluated by mark1, each command in its own process. state_bytes, state_sha256 and the accuracies are the same " +
			"on every run; seconds and peak_rss_bytes (the process's maxrss) were measured once, on the machine and date of measured_on.",
		Machine: host(),
	}
	fmt.Fprintf(log, "figures: state: %s\n", "mark1 "+strings.Join(BigArgs, " "))
	out, m, err := e.measure(BigArgs)
	if err != nil {
		return nil, err
	}
	st.Train = m
	var rep struct {
		Train Result `json:"train"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, err
	}
	st.TrainAccuracy = rep.Train
	path := filepath.Join(e.dir, "big.state")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	st.Bytes, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return nil, err
	}
	st.SHA256 = hex.EncodeToString(h.Sum(nil))
	fmt.Fprintf(log, "figures: state: %d bytes, %.1f s, peak %d MiB; %s\n", st.Bytes, m.Seconds, m.PeakRSSBytes>>20, "mark1 "+strings.Join(BigEvalArgs, " "))
	out, m, err = e.measure(BigEvalArgs)
	if err != nil {
		return nil, err
	}
	st.Eval = m
	if err := json.Unmarshal(out, &st.EvalAccuracy); err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "figures: state: evaluated in %.1f s, peak %d MiB\n", m.Seconds, m.PeakRSSBytes>>20)
	return st, os.Remove(path)
}

// diff lists the deterministic figures s differs from want in.
func (s *State) diff(want *State) []string {
	var d []string
	if s.Bytes != want.Bytes || s.SHA256 != want.SHA256 {
		d = append(d, fmt.Sprintf("the biggest state: %d bytes, SHA-256 %s; want %d bytes, %s", s.Bytes, s.SHA256, want.Bytes, want.SHA256))
	}
	if s.TrainAccuracy != want.TrainAccuracy || s.EvalAccuracy != want.EvalAccuracy {
		d = append(d, fmt.Sprintf("the biggest machine's accuracy: train %v, eval %v; want %v, %v", s.TrainAccuracy, s.EvalAccuracy, want.TrainAccuracy, want.EvalAccuracy))
	}
	return d
}
