package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Speed is docs/figures/speed.json: measured once, on the machine and date it names. Shared
// machines make these figures vary from run to run.
type Speed struct {
	About      string         `json:"about"`
	Machine    Host           `json:"measured_on"`
	BenchCount int            `json:"bench_count"` // go test -count
	Benchmarks []Bench        `json:"benchmarks"`
	Sklearn    []SklearnSpeed `json:"compare_sklearn"` // sklearnRuns runs, one after another
}

// Bench is one benchmark's results, one value per run.
type Bench struct {
	Package string    `json:"package"`
	Name    string    `json:"name"` // without Benchmark and the -GOMAXPROCS suffix
	Unit    string    `json:"unit"`
	Values  []float64 `json:"values"`
	Allocs  float64   `json:"allocs_per_op"` // the most of the runs
	// PerOp is the presentations of one op when the benchmark reports it (presentations/run:
	// Learning trains a fresh machine to a clean epoch in each op).
	PerOp float64 `json:"presentations_per_op,omitempty"`
}

// SklearnSpeed is what scripts/compare-sklearn.py speed measured: nanoseconds per presentation.
type SklearnSpeed struct {
	Command        string  `json:"command"`
	SklearnVersion string  `json:"sklearn_version"`
	SklearnNs      float64 `json:"sklearn_ns"`
	IdealNs        float64 `json:"ideal_ns"`
	AnalogNs       float64 `json:"analog_ns"`
	Epochs         int     `json:"sklearn_epochs"`
	Presentations  int     `json:"presentations"`
}

// benchmarks are the benchmarks the README's speed table quotes, by package, with the unit
// quoted (ns/op unless the benchmark reports per presentation).
var benchmarks = []struct {
	pkg, run string
}{
	{"./machine", "^Benchmark(Train|Learning|Converged)(Ideal|Analog)$"},
	{"./retina", "^Benchmark(Prepare28Ideal|Prepare28Analog|PrepareDigits|ExposeIdeal|ExposeAnalog)$"},
	{"./patchboard", "^BenchmarkFire$"},
}

const benchCount = 3

// sklearnRuns is how many times scripts/compare-sklearn.py speed runs; the README quotes the
// fastest of each.
const sklearnRuns = 3

var benchLine = regexp.MustCompile(`^Benchmark(\S+?)(-\d+)?\s+\d+\s+(.*)$`)

func (e *env) speed(log io.Writer) (*Speed, error) {
	sp := &Speed{
		About: "Written by go run ./internal/tools/figures -only speed (make figures): measured once, on the machine and date of " +
			"measured_on, which is shared with other jobs; the figures vary from run to run.",
		Machine:    host(),
		BenchCount: benchCount,
	}
	for _, b := range benchmarks {
		args := []string{"test", "-run", "^$", "-bench", b.run, "-benchmem", "-count", strconv.Itoa(benchCount), b.pkg}
		fmt.Fprintf(log, "figures: speed: go %s\n", strings.Join(args, " "))
		c := exec.Command("go", args...)
		c.Dir = e.root
		var stderr bytes.Buffer
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s: %v: %s%s", strings.Join(args, " "), err, out, stderr.Bytes())
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			m := benchLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			f := strings.Fields(m[3])
			vals := map[string]float64{}
			for i := 0; i+1 < len(f); i += 2 {
				if v, err := strconv.ParseFloat(f[i], 64); err == nil {
					vals[f[i+1]] = v
				}
			}
			unit := "ns/op"
			if _, ok := vals["ns/presentation"]; ok {
				unit = "ns/presentation"
			}
			i := slices.IndexFunc(sp.Benchmarks, func(x Bench) bool { return x.Package == b.pkg && x.Name == m[1] })
			if i < 0 {
				sp.Benchmarks = append(sp.Benchmarks, Bench{Package: b.pkg, Name: m[1], Unit: unit})
				i = len(sp.Benchmarks) - 1
			}
			sp.Benchmarks[i].Values = append(sp.Benchmarks[i].Values, vals[unit])
			sp.Benchmarks[i].Allocs = max(sp.Benchmarks[i].Allocs, vals["allocs/op"])
			sp.Benchmarks[i].PerOp = max(sp.Benchmarks[i].PerOp, vals["presentations/run"])
		}
	}
	args := []string{"--json", "speed"}
	for range sklearnRuns {
		var run SklearnSpeed
		run.Command = "scripts/compare-sklearn.py " + strings.Join(args, " ")
		fmt.Fprintf(log, "figures: speed: %s\n", run.Command)
		out, err := e.output("scripts/compare-sklearn.py", args...)
		if err != nil {
			return nil, err
		}
		var rep struct {
			Version       string  `json:"sklearn_version"`
			Presentations int     `json:"presentations"`
			Epochs        int     `json:"epochs"`
			Sk            float64 `json:"sklearn_ns"`
			Ideal         float64 `json:"ideal_ns"`
			Analog        float64 `json:"analog_ns"`
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			return nil, err
		}
		run.SklearnVersion, run.Presentations, run.Epochs = rep.Version, rep.Presentations, rep.Epochs
		run.SklearnNs, run.IdealNs, run.AnalogNs = rep.Sk, rep.Ideal, rep.Analog
		sp.Sklearn = append(sp.Sklearn, run)
	}
	return sp, nil
}

// bench finds a benchmark by package and name.
func (s *Speed) bench(pkg, name string) (Bench, bool) {
	for _, b := range s.Benchmarks {
		if b.Package == pkg && b.Name == name {
			return b, true
		}
	}
	return Bench{}, false
}
