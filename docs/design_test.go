package docs

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDesignLayers: the table of layers in design.md names every package of the module once,
// and none of them imports a package of a higher layer, as go list reports the imports.
func TestDesignLayers(t *testing.T) {
	data, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	layer := map[string]int{}
	for _, m := range regexp.MustCompile("(?m)^\\| ([0-9]) \\| `([^`]+)` \\|").FindAllStringSubmatch(string(data), -1) {
		if _, ok := layer[m[2]]; ok {
			t.Errorf("design.md: %s is in the table twice", m[2])
		}
		layer[m[2]], _ = strconv.Atoi(m[1])
	}
	if len(layer) == 0 {
		t.Fatal("design.md: no table of layers (rows | N | `package` | job |)")
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/mark1-perceptron/mark1/"
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], mod)
		listed = append(listed, pkg)
		t.Run(pkg, func(t *testing.T) {
			own, ok := layer[pkg]
			if !ok {
				t.Fatalf("design.md: the package %s is not in the table of layers", pkg)
			}
			for _, imp := range f[1:] {
				dep, ok := strings.CutPrefix(imp, mod)
				if !ok {
					continue
				}
				if l, ok := layer[dep]; ok && l > own {
					t.Errorf("%s (layer %d) imports %s (layer %d): an import going up", pkg, own, dep, l)
				}
			}
		})
	}
	for pkg := range layer {
		if !slices.Contains(listed, pkg) {
			t.Errorf("design.md: %s is in the table of layers, but there is no such package", pkg)
		}
	}
}

// An importRule is a dependency the layers alone do not forbid. Patterns are Go's package
// patterns: "x" is the package x, "x/..." is x and every package below it. Module packages
// are written relative to the module ("drivers/..."), others in full.
type importRule struct {
	name string   // the subtest's name
	deps []string // the dependencies it forbids
	what string   // what they are, as a failure says it
	only []string // the packages allowed them (the rule holds in every other package)
	in   []string // when set, the rule holds only in these packages (and only is unused)
	// via are packages through which the dependencies are allowed (the chain may not pass
	// through them).
	via []string
	// wasm checks the browser's build (GOOS=js GOARCH=wasm) too, besides the default one;
	// wasmOnly checks it alone.
	wasm, wasmOnly bool
}

// importRules: what make imports checks (TestImportRules).
var importRules = []importRule{
	// ebiten panics at start on Linux without a display: everything but the window must run
	// headless (the mark1 command, the bridge, the lab, and the museum's own session/, view/
	// and museum/console, tested with no display).
	{name: "ebiten", deps: []string{"github.com/hajimehoshi/ebiten/..."}, what: "ebiten (the window only)",
		only: []string{"museum", "cmd/mark1-museum"}},
	{name: "chromedp", deps: []string{"github.com/chromedp/..."}, what: "chromedp (a browser driver: test code only)"},
	{name: "periph-host", deps: []string{"periph.io/x/host/..."}, what: "periph host (the bridge only)",
		only: []string{"cmd/hwbridge"}},
	// hwapi and rig stay periph-free so that mark1 can use them.
	{name: "periph", deps: []string{"periph.io/x/conn/...", "periph.io/x/devices/..."},
		what: "periph (the rig's drivers and daemon only: hwapi and rig stay periph-free so mark1 can use them)",
		only: []string{"drivers/...", "cmd/hwbridge/..."}},
	{name: "drivers", deps: []string{"drivers/..."}, what: "the rig's drivers (the daemon's)",
		only: []string{"drivers/...", "cmd/hwbridge/..."}},
	{name: "gonum", deps: []string{"gonum.org/..."}, what: "gonum (the lab only)",
		only: []string{"lab/...", "cmd/mark1", "cmd/mark1-lab"}, wasm: true},
	// The machine's core carries neither the built-in sets nor their fonts, nor the museum.
	{name: "core", deps: []string{"golang.org/x/image/font/...", "images/builtin", "images/gen", "session/...", "view/...", "museum/..."},
		what: "the built-in sets, their fonts or the museum (the core must not carry them)",
		in:   []string{"retina", "patchboard", "potentiometer", "machine/...", "images", "knob", "internal/..."}},
	// The browser lab's wasm carries no plotting and no fonts (its page draws the figures);
	// the card sets (images/builtin, images/gen), which the lab's runs and the retina panel
	// show, draw their cards with images/internal/pen from two embedded fonts at start, and
	// those are allowed through it alone.
	{name: "browser-lab", deps: []string{"gonum.org/v1/plot/...", "golang.org/x/image/font/...", "codeberg.org/go-fonts/...", "codeberg.org/go-latex/...", "github.com/golang/freetype/...", "git.sr.ht/~sbinet/gg"},
		what: "plotting or fonts (the browser lab draws its figures in the page)",
		in:   []string{"cmd/mark1-lab", "lab/playground"}, via: []string{"images/internal/pen"}, wasm: true},
	// The browser's museum drives no rig (a bridge refuses a browser's requests): the rig's
	// link and its client stay out of its WebAssembly, which they grew by 4.5 MB (its gzip
	// past the 5 MB the museum is allowed on the wire).
	{name: "browser-museum", deps: []string{"museum/riglink", "hwapi"},
		what: "the hardware rig's link (the window's only)",
		in:   []string{"cmd/mark1-museum"}, wasmOnly: true},
}

// matchPattern reports whether the package path matches the Go package pattern pat ("x" or
// "x/...").
func matchPattern(pat, path string) bool {
	if base, ok := strings.CutSuffix(pat, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pat
}

func matchAny(pats []string, path string) bool {
	return slices.ContainsFunc(pats, func(p string) bool { return matchPattern(p, path) })
}

// TestImportRules: no package of the module depends, directly or through others, on what
// importRules forbid it (as go list -deps reports the non-test imports of the default build,
// linux/amd64 with cgo); a failure names the chain of imports that leads there. It is make
// imports.
func TestImportRules(t *testing.T) {
	graph, own := importGraph(t)
	var wasmGraph map[string][]string
	for _, r := range importRules {
		t.Run(r.name, func(t *testing.T) {
			// A pattern that names no package is a rule that has gone stale.
			for _, p := range slices.Concat(r.only, r.in) {
				if !slices.ContainsFunc(own, func(pkg string) bool { return matchPattern(p, pkg) }) {
					t.Errorf("the rule names %s, which matches no package of the module", p)
				}
			}
			graphs, builds := []map[string][]string{graph}, []string{""}
			if r.wasm || r.wasmOnly {
				if wasmGraph == nil {
					wasmGraph, _ = importGraph(t, "GOOS=js", "GOARCH=wasm")
				}
				graphs, builds = append(graphs, wasmGraph), append(builds, " (GOOS=js GOARCH=wasm)")
			}
			if r.wasmOnly {
				graphs, builds = graphs[1:], builds[1:]
			}
			for i, imports := range graphs {
				for _, pkg := range own {
					if r.in != nil && !matchAny(r.in, pkg) || r.in == nil && matchAny(r.only, pkg) {
						continue
					}
					if chain := importChain(imports, pkg, r.deps, r.via); chain != nil {
						build := builds[i]
						t.Errorf("%s must not depend on %s%s: %s", pkg, r.what, build, strings.Join(chain, " -> "))
					}
				}
			}
		})
	}
}

// importGraph returns each package's imports, as go list -deps reports the non-test imports
// of the module's packages built with env (none: linux/amd64 with cgo, the default), and the
// module's packages. Module packages are named relative to the module, the rest in full.
func importGraph(t *testing.T, env ...string) (map[string][]string, []string) {
	t.Helper()
	const mod = "github.com/mark1-perceptron/mark1"
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s go list -deps: %v", strings.Join(env, " "), err)
	}
	name := func(path string) string {
		if path == mod {
			return "."
		}
		if rel, ok := strings.CutPrefix(path, mod+"/"); ok {
			return rel
		}
		return path
	}
	imports := map[string][]string{}
	var own []string // the module's packages
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := name(f[0])
		for _, imp := range f[1:] {
			imports[pkg] = append(imports[pkg], name(imp))
		}
		if pkg != f[0] {
			own = append(own, pkg)
		}
	}
	slices.Sort(own)
	return imports, own
}

// importChain returns the shortest chain of imports from pkg to a package matching one of
// deps (pkg first) that does not pass through a package matching one of via, or nil when
// there is none.
func importChain(imports map[string][]string, pkg string, deps, via []string) []string {
	from := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, imp := range imports[p] {
			if _, seen := from[imp]; seen {
				continue
			}
			from[imp] = p
			if matchAny(via, imp) {
				continue
			}
			if matchAny(deps, imp) {
				chain := []string{imp}
				for q := p; q != ""; q = from[q] {
					chain = append(chain, q)
				}
				slices.Reverse(chain)
				return chain
			}
			queue = append(queue, imp)
		}
	}
	return nil
}
