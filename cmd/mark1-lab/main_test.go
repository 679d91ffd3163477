package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/lab/playground"
)

// goJS runs the go tool for js/wasm.
func goJS(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestBuildJS: the browser's build builds and vets (also with the tests' call).
func TestBuildJS(t *testing.T) {
	goJS(t, "vet", ".")
	goJS(t, "vet", "-tags", "mark1labtest", ".")
	goJS(t, "build", "-o", filepath.Join(t.TempDir(), "lab.wasm"), ".")
}

// TestNotABrowser: built for this platform, the command says where it runs and exits 2.
func TestNotABrowser(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mark1-lab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || stderr.String() != "mark1-lab runs in a browser: make web builds it into web/dist/lab/\n" {
		t.Errorf("exit %v, stderr %q", err, stderr.String())
	}
}

// TestWasmCalls runs the wasm in node as the page runs it: the calls return parsed JSON,
// refusals and a Go panic are thrown as Errors with a one-line message, and the binding works
// on after a panic. Skipped without node.
func TestWasmCalls(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node to run the wasm in")
	}
	wasm := filepath.Join(t.TempDir(), "lab.wasm")
	goJS(t, "build", "-tags", "mark1labtest", "-o", wasm, ".")
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	cmd := exec.Command(node, "testdata/calls.js", wasm)
	api, err := filepath.Abs("../../web/lab/api.js")
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "WASM_EXEC="+filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"), "LAB_API="+api)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := map[string]json.RawMessage{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			What string          `json:"what"`
			V    json.RawMessage `json:"v"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		got[line.What] = line.V
	}
	for what, want := range map[string]string{
		"demos":       `{"ok":["compare","novikoff",`,
		"run":         `"command":"mark1 lab trace --bias first --init -5,0,1 --point 5,7,+1 --point 2,6,-1"`,
		"refused":     `{"threw":"--colour: mark1 lab trace has no such parameter","isError":true}`,
		"missing":     `{"threw":"mark1lab.run: argument 1 (name) missing","isError":true}`,
		"panic":       `{"threw":"mark1lab.panicForTest: runtime error: index out of range [1] with length 1","isError":true}`,
		"after":       fmt.Sprintf(`{"ok":%d}`, len(playground.Demos())), // the calls go on after a panic
		"session":     `{"ok":1}`,
		"runToEnd":    `{"ok":{"rows":[["1","1","--point 1","(1, 5, 7)","+1","2","2","yes","(-5, 0, 1)"],["2","1","--point 2","(1, 2, 6)","-1","1","-1","no","(-6, -2, -5)"],`,
		"add":         `{"ok":3}`,
		"badAdd":      `{"threw":"point 4: \"x\" is not a number (want an integer, a decimal such as 0.5, or a fraction such as 1/3)","isError":true}`,
		"csv":         `{"ok":"x1,x2,label\n5,7,+1\n2,6,-1\n0.5,3,-1\n"}`,
		"set":         `{"ok":"running"}`,
		"solve":       `{"ok":"solved"}`,
		"close":       `{"threw":"mark1lab.state: no session 1 (closed, or never opened)","isError":true}`,
		"retina":      `{"ok":2}`,
		"retinaState": `{"ok":["builtin:ef/0",["E","F"],400,512,true]}`,
		"retinaTrain": `{"ok":[true,"mark1 train --data builtin:ef --seed 2 --ideal --epochs 3"]}`,
		"retinaDraw":  `{"ok":20}`,
		"retinaTeach": `{"threw":"teach: class 7: want 0..1 (E, F)","isError":true}`,
	} {
		if !strings.Contains(string(got[what]), want) {
			t.Errorf("%s: %s, want %s", what, got[what], want)
		}
	}
}
