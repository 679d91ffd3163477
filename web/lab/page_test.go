package labpage

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/internal/devtools"
)

// The page's browser tests need Chromium, a WebAssembly build of the lab and a mark1 to hold
// the page to; scripts/lab-page-test.sh runs them with MARK1_BROWSER_TEST=1. Where the page
// comes from:
//
//	MARK1_LAB_DIR   a built folder (make web's web/dist/lab): served as it is
//	MARK1_LAB_WASM  a built mark1-lab.wasm, served beside this folder's page
//	MARK1_LAB_STUB  1: testdata/stub.js stands in for the wasm (its numbers are not the lab's:
//	                the tests that compare with mark1 are skipped)
//	(none)          ./cmd/mark1-lab built for GOOS=js GOARCH=wasm
//
// MARK1_BIN is a mark1 to hold the page to (default: ./cmd/mark1, built).
// MARK1_LAB_SHOTS=DIR writes the screenshots of TestScreenshots into DIR (docs/images).

var fixture struct {
	once  sync.Once
	err   error
	tmp   string
	dir   string // the page's folder, as served
	mark1 string // a mark1 binary
	srv   *httptest.Server
	stub  string // the stand-in's source, when MARK1_LAB_STUB=1
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixture.srv != nil {
		fixture.srv.Close()
	}
	if fixture.tmp != "" {
		os.RemoveAll(fixture.tmp)
	}
	os.Exit(code)
}

func stubbed() bool { return os.Getenv("MARK1_LAB_STUB") == "1" }

// moduleRoot is the repository's root (this package is web/lab).
func moduleRoot() string {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	return root
}

func goCmd(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot()
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// setup builds (once) what the browser tests need and serves the page on loopback.
func setup(t *testing.T) {
	t.Helper()
	if os.Getenv("MARK1_BROWSER_TEST") != "1" {
		t.Skip("MARK1_BROWSER_TEST is not 1 (scripts/lab-page-test.sh runs the page in headless Chromium)")
	}
	fixture.once.Do(func() { fixture.err = build() })
	if fixture.err != nil {
		t.Fatal(fixture.err)
	}
}

func build() error {
	tmp, err := os.MkdirTemp("", "mark1-labpage-")
	if err != nil {
		return err
	}
	fixture.tmp = tmp
	fixture.mark1 = os.Getenv("MARK1_BIN")
	if fixture.mark1 == "" {
		fixture.mark1 = filepath.Join(tmp, "mark1")
		if out, err := goCmd(nil, "build", "-o", fixture.mark1, "./cmd/mark1").CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/mark1: %v\n%s", err, out)
		}
	}
	fixture.dir = os.Getenv("MARK1_LAB_DIR")
	if fixture.dir == "" {
		fixture.dir = filepath.Join(tmp, "lab")
		if err := copyPage(fixture.dir); err != nil {
			return err
		}
		switch wasm := os.Getenv("MARK1_LAB_WASM"); {
		case stubbed():
			src, err := os.ReadFile(filepath.Join("testdata", "stub.js"))
			if err != nil {
				return err
			}
			fixture.stub = string(src)
		case wasm != "":
			if err := copyFile(wasm, filepath.Join(fixture.dir, "mark1-lab.wasm")); err != nil {
				return err
			}
		default:
			if _, err := os.Stat(filepath.Join(moduleRoot(), "cmd", "mark1-lab")); err != nil {
				return fmt.Errorf("no ./cmd/mark1-lab to build the page's wasm from (MARK1_LAB_STUB=1 tests the page against its stand-in): %w", err)
			}
			out, err := goCmd([]string{"GOOS=js", "GOARCH=wasm"}, "build", "-o", filepath.Join(fixture.dir, "mark1-lab.wasm"), "./cmd/mark1-lab").CombinedOutput()
			if err != nil {
				return fmt.Errorf("GOOS=js GOARCH=wasm go build ./cmd/mark1-lab: %v\n%s", err, out)
			}
		}
		if err := copyWasmExec(fixture.dir); err != nil {
			return err
		}
	}
	fixture.srv = httptest.NewServer(labHandler(fixture.dir))
	return nil
}

// labHandler serves dir at /lab/, as mark1 web serves the lab.
func labHandler(dir string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/lab/", http.StripPrefix("/lab/", http.FileServer(http.Dir(dir))))
	return mux
}

// copyWasmExec copies the Go toolchain's wasm_exec.js (the one that matches the wasm it
// builds) into dir.
func copyWasmExec(dir string) error {
	out, err := goCmd(nil, "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	js := filepath.Join(root, "lib", "wasm", "wasm_exec.js")
	if _, err := os.Stat(js); err != nil {
		js = filepath.Join(root, "misc", "wasm", "wasm_exec.js") // Go before 1.24
	}
	return copyFile(js, filepath.Join(dir, "wasm_exec.js"))
}

// copyPage copies the page's files (not its tests, not testdata) into dir.
func copyPage(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, ".go") {
			continue
		}
		if err := copyFile(name, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// page is a Chromium with the lab's page open.
type page struct {
	*devtools.Browser
	t   *testing.T
	ctx context.Context
}

// newPage starts a Chromium of w x h CSS pixels (the stand-in loaded before the page's own
// scripts when stubbed).
func newPage(t *testing.T, w, h int) *page {
	t.Helper()
	setup(t)
	chromium, err := devtools.Chromium()
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{}, devtools.Headless...), "--user-data-dir="+t.TempDir(),
		fmt.Sprintf("--window-size=%d,%d", w, h), "about:blank")
	b := devtools.Start(t, chromium, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	if err := b.Size(w, h); err != nil {
		t.Fatal(err)
	}
	if fixture.stub != "" {
		if err := b.BeforeLoad(fixture.stub); err != nil {
			t.Fatal(err)
		}
	}
	return &page{Browser: b, t: t, ctx: ctx}
}

// open loads the page at query ("?demo=...") and waits until it has drawn (or failed: the
// test fails with the page's one-line error).
func (p *page) open(query string) {
	p.t.Helper()
	if err := p.Open(p.ctx, fixture.srv.URL+"/lab/"+query); err != nil {
		p.t.Fatal(err)
	}
	if err := p.WaitFor(p.ctx, `document.body.dataset.ready === "1" || document.body.dataset.failed`); err != nil {
		p.t.Fatal(err)
	}
	if failed := p.eval(`document.body.dataset.failed || ""`); failed != "" {
		p.t.Fatalf("the page did not start: %s", failed)
	}
}

func (p *page) eval(expr string) string {
	p.t.Helper()
	s, err := p.Eval(p.ctx, expr)
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return s
}

func (p *page) json(expr string, out any) {
	p.t.Helper()
	if err := p.EvalJSON(p.ctx, expr, out); err != nil {
		p.t.Fatal(err)
	}
}

func (p *page) waitFor(expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := p.WaitFor(ctx, expr); err != nil {
		p.t.Fatal(err)
	}
}

// linkSoon returns the page's link (location.search) once ok holds of it, or as it is after
// 5 s: the page writes its link at most every 400 ms while it changes (a drag, a stroke).
func (p *page) linkSoon(ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		link := p.eval(`location.search`)
		if ok(link) || time.Now().After(deadline) {
			return link
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// table is a table as the page shows it or as mark1 --json writes it.
type table struct {
	Name    string     `json:"name"`
	Title   string     `json:"title"`
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// traceRows are the rows of the plane's trace table, as text.
func (p *page) traceRows() [][]string {
	var rows [][]string
	p.json(`[...document.querySelectorAll("#trace tbody tr")].map((r) => [...r.cells].map((c) => c.textContent))`, &rows)
	return rows
}

// demoTables are the report's tables the demonstrations' panel shows.
func (p *page) demoTables() []table {
	var tabs []table
	p.json(`[...document.querySelectorAll("#demo-report table[data-table]")].map((t) => ({name: t.dataset.table,
		title: t.caption ? t.caption.textContent : "", columns: [...t.tHead.rows[0].cells].map((c) => c.textContent),
		rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent))}))`, &tabs)
	return tabs
}

// mark1Tables runs mark1 with args and --json and returns its report's tables.
func mark1Tables(t *testing.T, args ...string) []table {
	t.Helper()
	cmd := exec.Command(fixture.mark1, append(args, "--json")...)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("mark1 %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	var r struct {
		Tables []table `json:"tables"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("mark1 %s --json: %v", strings.Join(args, " "), err)
	}
	return r.Tables
}

// mark1Trace is the table of presentations of mark1 lab trace with args.
func mark1Trace(t *testing.T, args ...string) [][]string {
	t.Helper()
	for _, tb := range mark1Tables(t, append([]string{"lab", "trace"}, args...)...) {
		if tb.Name == "trace" {
			return tb.Rows
		}
	}
	t.Fatalf("mark1 lab trace %s: no trace table", strings.Join(args, " "))
	return nil
}
