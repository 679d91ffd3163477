package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Accuracy is docs/figures/accuracy.json: every command of the accuracy figures and what it
// gave. Seeded, so the same on every run.
type Accuracy struct {
	About          string `json:"about"`
	SklearnVersion string `json:"sklearn_version"` // scikit-learn's version in the sklearn runs
	Runs           []Run  `json:"runs"`
}

// Run is one command and its figures.
type Run struct {
	ID      string `json:"id"`
	Command string `json:"command"` // as typed from the repository's root, mark1 on PATH
	// Train runs: the mistakes of each epoch, whether the last had no correction, the
	// accuracy on the training and test cards.
	Mistakes  []int   `json:"mistakes,omitempty"`
	Converged bool    `json:"converged,omitempty"`
	Train     *Result `json:"train,omitempty"`
	Test      *Result `json:"test,omitempty"`
	// Eval runs: the accuracy mark1 eval reports.
	Eval *Result `json:"eval,omitempty"`
	// Sklearn runs: scikit-learn's epochs (n_iter_); Train and Test are its accuracy.
	SklearnEpochs int `json:"sklearn_epochs,omitempty"`
}

// Result is an accuracy: correct answers out of cards.
type Result struct {
	Cards   int `json:"cards"`
	Correct int `json:"correct"`
}

// spec is a command to run: mark1 (train, eval, cards export), scripts/compare-sklearn.py, rm,
// or cut (the first N digits of an IDX pair, written by this tool).
type spec struct {
	id    string
	name  string
	args  []string
	needs []string // ids of runs that must finish first
}

const (
	idxTrain = "idx:testdata/mnist/train8000-images.idx.gz,testdata/mnist/train8000-labels.idx.gz"
	idxTest  = "idx:testdata/mnist/test2000-images.idx.gz,testdata/mnist/test2000-labels.idx.gz"
	pngTrain = "png-train"
	pngTest  = "png-test"
)

var digits = []string{"--r-units", "10", "--coding", "onehot"}

// BuiltinSets are the built-in sets of the table "Accuracy, analog against ideal", trained with
// the default options for 60 epochs at most.
var BuiltinSets = []string{"letters", "shapes", "squares-circles", "square-diamond", "leftright", "ef", "xe"}

// Letters2Seeds are the seeds of the letters tested on the second typeface.
var Letters2Seeds = []int{1, 2, 3, 4, 5}

func join(parts ...[]string) []string {
	var a []string
	for _, p := range parts {
		a = append(a, p...)
	}
	return a
}

// allRuns lists the commands behind the accuracy figures.
func allRuns() []spec {
	var s []spec
	modes := []struct{ name, flag string }{{"ideal", "--ideal"}, {"analog", ""}}
	flags := func(f string) []string {
		if f == "" {
			return nil
		}
		return []string{f}
	}
	// MNIST, IDX files: 8,000 training and 2,000 test digits.
	for _, m := range modes {
		s = append(s, spec{id: "mnist-idx-" + m.name, name: "mark1", args: join(
			[]string{"train", "--data", idxTrain, "--test", idxTest}, digits, flags(m.flag),
			[]string{"--save", "idx-" + m.name + ".state", "--json"})})
	}
	s = append(s, spec{id: "mnist-idx-sklearn", name: "scripts/compare-sklearn.py", needs: []string{"mnist-idx-ideal"},
		args: []string{"--json", "accuracy", "--state", "idx-ideal.state", idxTrain, idxTest}})
	s = append(s, spec{id: "mnist-idx-4096-analog", name: "mark1", args: join(
		[]string{"train", "--data", idxTrain, "--test", idxTest}, digits, []string{"--a-units", "4096", "--json"})})
	// MNIST, PNG class folders: the first 3,000 training digits and the 2,000 test digits.
	s = append(s,
		spec{id: "mnist-png-cut", name: "cut", args: []string{"3000", "testdata/mnist/train8000", "train3000"}},
		spec{id: "mnist-png-export-train", name: "mark1", needs: []string{"mnist-png-cut"},
			args: []string{"cards", "export", "--data", "idx:train3000-images.idx.gz,train3000-labels.idx.gz", "--out", pngTrain}},
		spec{id: "mnist-png-export-test", name: "mark1", args: []string{"cards", "export", "--data", idxTest, "--out", pngTest}},
		// Without cards.txt the folders are plain class folders, read class by class as a
		// user's are (mark1 reads an exported folder back in the set's order).
		spec{id: "mnist-png-plain", name: "rm", needs: []string{"mnist-png-export-train", "mnist-png-export-test"},
			args: []string{pngTrain + "/cards.txt", pngTest + "/cards.txt"}})
	for _, m := range modes {
		s = append(s, spec{id: "mnist-png-" + m.name, name: "mark1", needs: []string{"mnist-png-plain"},
			args: join([]string{"train", "--data", pngTrain, "--test", pngTest}, digits, flags(m.flag),
				[]string{"--save", "png-" + m.name + ".state", "--json"})})
	}
	for _, m := range modes {
		s = append(s, spec{id: "mnist-png-" + m.name + "-eval", name: "mark1", needs: []string{"mnist-png-" + m.name},
			args: []string{"eval", "--state", "png-" + m.name + ".state", "--data", pngTest, "--json"}})
	}
	s = append(s, spec{id: "mnist-png-sklearn", name: "scripts/compare-sklearn.py", needs: []string{"mnist-png-ideal"},
		args: []string{"--json", "accuracy", "--state", "png-ideal.state", pngTrain, pngTest}})
	// Learning curves on the letters.
	for _, m := range modes {
		s = append(s, spec{id: "letters-curve-" + m.name, name: "mark1", args: join(
			[]string{"train", "--data", "builtin:letters", "--r-units", "26", "--epochs", "60"}, flags(m.flag), []string{"--json"})})
	}
	// The letters trained on one typeface, tested on the second.
	for _, seed := range Letters2Seeds {
		for _, m := range modes {
			s = append(s, spec{id: fmt.Sprintf("letters2-seed%d-%s", seed, m.name), name: "mark1", args: join(
				[]string{"train", "--data", "builtin:letters", "--r-units", "26", "--epochs", "60", "--test", "builtin:letters2",
					"--seed", strconv.Itoa(seed)}, flags(m.flag), []string{"--json"})})
		}
	}
	// The built-in sets with the default options.
	for _, set := range BuiltinSets {
		for _, m := range modes {
			s = append(s, spec{id: "builtin-" + set + "-" + m.name, name: "mark1", args: join(
				[]string{"train", "--data", "builtin:" + set, "--epochs", "60"}, flags(m.flag), []string{"--json"})})
		}
	}
	return s
}

func (s spec) command() string {
	if s.name == "cut" {
		return fmt.Sprintf("the first %s digits of %s-images.idx.gz and -labels.idx.gz, written by this tool as %s-images.idx.gz and %s-labels.idx.gz",
			s.args[0], s.args[1], s.args[2], s.args[2])
	}
	return s.name + " " + strings.Join(s.args, " ")
}

func (s spec) sklearn() bool { return s.name == "scripts/compare-sklearn.py" }

// sklearnVersion is the version of Debian's scikit-learn, or "" when it cannot be imported.
func (e *env) sklearnVersion() string {
	out, err := e.output("/usr/bin/python3", "-c", "import numpy, sklearn; print(sklearn.__version__)")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// accuracy runs the specs, two at a time (or as many as there are cores), and returns their
// figures in the specs' order. A spec waits for the ones it needs.
func (e *env) accuracy(specs []spec, log io.Writer) (*Accuracy, error) {
	acc := &Accuracy{
		About: "Written by go run ./internal/tools/figures -only accuracy (make figures): seeded runs, the same on every run. " +
			"Each command runs from the repository's root with mark1 on PATH; the sklearn runs also need Debian's python3-sklearn.",
		Runs: make([]Run, len(specs)),
	}
	for _, s := range specs {
		if s.sklearn() {
			if acc.SklearnVersion = e.sklearnVersion(); acc.SklearnVersion == "" {
				return nil, fmt.Errorf("scikit-learn cannot be imported by /usr/bin/python3: bash scripts/need.sh python3-sklearn")
			}
			break
		}
	}
	done := map[string]chan struct{}{}
	for _, s := range specs {
		done[s.id] = make(chan struct{})
	}
	errs := make([]error, len(specs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	for range min(runtime.NumCPU(), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s := specs[i]
				for _, n := range s.needs {
					if ch, ok := done[n]; ok {
						<-ch
					}
				}
				start := time.Now()
				acc.Runs[i], errs[i] = e.run(s)
				close(done[s.id])
				mu.Lock()
				finished++
				fmt.Fprintf(log, "figures: %d/%d %s (%.1f s)\n", finished, len(specs), s.id, time.Since(start).Seconds())
				mu.Unlock()
			}
		}()
	}
	for i := range specs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %v", specs[i].id, err)
		}
	}
	return acc, nil
}

// run runs one spec and reads its figures.
func (e *env) run(s spec) (Run, error) {
	r := Run{ID: s.id, Command: s.command()}
	switch s.name {
	case "cut":
		n, _ := strconv.Atoi(s.args[0])
		return r, cutIDX(filepath.Join(e.root, s.args[1]), filepath.Join(e.dir, s.args[2]), n)
	case "rm":
		for _, f := range s.args {
			if err := os.Remove(filepath.Join(e.dir, f)); err != nil {
				return r, err
			}
		}
		return r, nil
	}
	out, err := e.output(s.name, s.args...)
	if err != nil {
		return r, err
	}
	switch {
	case s.sklearn():
		var rep struct {
			Sklearn struct {
				Epochs int    `json:"epochs"`
				Train  Result `json:"train"`
				Test   Result `json:"test"`
			} `json:"sklearn"`
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			return r, err
		}
		r.SklearnEpochs, r.Train, r.Test = rep.Sklearn.Epochs, &rep.Sklearn.Train, &rep.Sklearn.Test
	case s.args[0] == "train":
		var rep struct {
			Epochs []struct {
				Mistakes int `json:"mistakes"`
			} `json:"epochs"`
			Converged bool    `json:"converged"`
			Train     *Result `json:"train"`
			Test      *Result `json:"test"`
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			return r, err
		}
		for _, ep := range rep.Epochs {
			r.Mistakes = append(r.Mistakes, ep.Mistakes)
		}
		r.Converged, r.Train, r.Test = rep.Converged, rep.Train, rep.Test
	case s.args[0] == "eval":
		r.Eval = new(Result)
		if err := json.Unmarshal(out, r.Eval); err != nil {
			return r, err
		}
	}
	return r, nil
}

// cutIDX writes the first n images and labels of from-images.idx.gz and from-labels.idx.gz as
// to-images.idx.gz and to-labels.idx.gz (gzip, header time 0).
func cutIDX(from, to string, n int) error {
	for _, part := range []struct {
		suffix string
		header int // bytes before the first item
		item   int // bytes of one item, after the header's dimensions
	}{{"-images.idx.gz", 16, 0}, {"-labels.idx.gz", 8, 1}} {
		f, err := os.Open(from + part.suffix)
		if err != nil {
			return err
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return err
		}
		b, err := io.ReadAll(z)
		f.Close()
		if err != nil {
			return err
		}
		if len(b) < part.header {
			return fmt.Errorf("%s%s: short", from, part.suffix)
		}
		item := part.item
		if item == 0 {
			item = int(binary.BigEndian.Uint32(b[8:12]) * binary.BigEndian.Uint32(b[12:16]))
		}
		if int(binary.BigEndian.Uint32(b[4:8])) < n || len(b) < part.header+n*item {
			return fmt.Errorf("%s%s: fewer than %d items", from, part.suffix, n)
		}
		out := append([]byte(nil), b[:part.header+n*item]...)
		binary.BigEndian.PutUint32(out[4:8], uint32(n))
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(out)
		if err := w.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(to+part.suffix, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// run finds a run by id.
func (a *Accuracy) run(id string) (Run, bool) {
	for _, r := range a.Runs {
		if r.ID == id {
			return r, true
		}
	}
	return Run{}, false
}

// diff lists the runs of want whose figures a differs in (runs a did not make are skipped).
func (a *Accuracy) diff(want *Accuracy) []string {
	var d []string
	for _, w := range want.Runs {
		g, ok := a.run(w.ID)
		if !ok {
			continue
		}
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if !bytes.Equal(gb, wb) {
			d = append(d, fmt.Sprintf("%s: got %s, want %s", w.ID, gb, wb))
		}
	}
	return d
}
