// Command figures runs the commands behind the figures README.md quotes under "Measured
// figures" and writes what they give to docs/figures/. A test (figures_test.go) fails when
// README.md quotes a figure that differs from those files, and runs the deterministic commands
// again to check the files.
//
// Usage, from the repository's root (make figures runs all three parts):
//
//	go run ./internal/tools/figures [-only accuracy,state,speed] [-check] [-out docs/figures]
//
// accuracy: seeded trainings, the same to the bit on every run and machine: the MNIST digits of
// testdata/mnist (IDX files and PNG class folders, ideal and analog, 512 and 4,096 A-units,
// scikit-learn's Perceptron beside them), the learning curves, the letters tested on the second
// typeface and the built-in sets. docs/figures/accuracy.json holds every command and its
// results. The scikit-learn column needs Debian's python3-sklearn (scripts/need.sh installs it).
//
// state: the biggest machine (65,536 A-units, 64 analog R-units) trained one epoch on the letters
// and saved, then loaded and evaluated, each by mark1 in its own process: the state's size and
// SHA-256 (deterministic), and each command's wall time and peak resident memory (the kernel's
// maxrss, measured): docs/figures/state.json.
//
// speed: the hot-loop benchmarks (go test -bench, -count 3) and scripts/compare-sklearn.py
// speed, measured: docs/figures/speed.json, with the date, the CPU and the load average.
//
// -quotes runs nothing: it prints the passages of README.md that quote the files, by section, as
// the test wants them (runs of white space count as one space).
//
// -check runs the same commands and compares their deterministic figures with the files instead
// of writing them; it exits 1 on a difference. The measured figures are printed, not compared.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	only := flag.String("only", "accuracy,state,speed", "the parts to run: accuracy, state, speed")
	check := flag.Bool("check", false, "compare the deterministic figures with the files instead of writing them")
	out := flag.String("out", "docs/figures", "the folder of the figure files")
	quotes := flag.Bool("quotes", false, "run nothing: print the passages README.md must hold, made from the files")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected argument %q", flag.Arg(0)))
	}
	if *quotes {
		if err := printQuotes(*out); err != nil {
			fail(err)
		}
		return
	}
	if _, err := os.Stat("go.mod"); err != nil {
		fail(fmt.Errorf("run from the repository's root (no go.mod here)"))
	}
	root, err := os.Getwd()
	if err != nil {
		fail(err)
	}
	env, err := newEnv(root)
	if err != nil {
		fail(err)
	}
	defer env.close()
	bad := false
	for _, part := range strings.Split(*only, ",") {
		file := filepath.Join(*out, part+".json")
		var got any
		switch part {
		case "accuracy":
			acc, err := env.accuracy(allRuns(), os.Stderr)
			if err != nil {
				fail(err)
			}
			if *check {
				var want Accuracy
				if err := readJSON(file, &want); err != nil {
					fail(err)
				}
				for _, d := range acc.diff(&want) {
					fmt.Fprintf(os.Stderr, "figures: %s: %s\n", file, d)
					bad = true
				}
				continue
			}
			got = acc
		case "state":
			st, err := env.state(os.Stderr)
			if err != nil {
				fail(err)
			}
			if *check {
				var want State
				if err := readJSON(file, &want); err != nil {
					fail(err)
				}
				for _, d := range st.diff(&want) {
					fmt.Fprintf(os.Stderr, "figures: %s: %s\n", file, d)
					bad = true
				}
				continue
			}
			got = st
		case "speed":
			sp, err := env.speed(os.Stderr)
			if err != nil {
				fail(err)
			}
			if *check {
				continue
			}
			got = sp
		default:
			fail(fmt.Errorf("-only: unknown part %q (want accuracy, state or speed)", part))
		}
		if err := writeJSON(file, got); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "figures: wrote %s\n", file)
	}
	if bad {
		fmt.Fprintln(os.Stderr, "figures: the deterministic figures differ from the files (run without -check to rewrite them, then README.md)")
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "figures:", err)
	os.Exit(1)
}

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}

func writeJSON(file string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// env is where the commands run: a temporary folder holding the mark1 built from this
// repository (bin/mark1, first on PATH) and a link to the repository's testdata, so that each
// command runs as written from the repository's root, its files written beside it.
type env struct {
	root, dir string
	path      string // PATH with bin first
}

func newEnv(root string) (*env, error) {
	dir, err := os.MkdirTemp("", "mark1-figures-")
	if err != nil {
		return nil, err
	}
	e := &env{root: root, dir: dir, path: filepath.Join(dir, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "mark1"), "./cmd/mark1")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		e.close()
		return nil, fmt.Errorf("go build ./cmd/mark1: %v", err)
	}
	for _, name := range []string{"testdata", "scripts"} {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(dir, name)); err != nil {
			e.close()
			return nil, err
		}
	}
	return e, nil
}

func (e *env) close() { os.RemoveAll(e.dir) }

// command runs name with args in the folder, mark1 first on PATH, and returns its standard
// output.
func (e *env) command(name string, args ...string) *exec.Cmd {
	if name == "mark1" {
		name = filepath.Join(e.dir, "bin", "mark1")
	} else if strings.HasPrefix(name, "scripts/") {
		name = filepath.Join(e.dir, name)
	}
	c := exec.Command(name, args...)
	c.Dir = e.dir
	c.Env = append(os.Environ(), "PATH="+e.path)
	return c
}

func (e *env) output(name string, args ...string) ([]byte, error) {
	c := e.command(name, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func printQuotes(dir string) error {
	var acc Accuracy
	var st State
	var sp Speed
	for name, v := range map[string]any{"accuracy": &acc, "state": &st, "speed": &sp} {
		if err := readJSON(filepath.Join(dir, name+".json"), v); err != nil {
			return err
		}
	}
	q, err := Quotes(&acc, &st, &sp)
	if err != nil {
		return err
	}
	for _, x := range q {
		fmt.Printf("%s:\n\t%s\n", x.Section, x.Text)
	}
	return nil
}
