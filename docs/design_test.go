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
		own, ok := layer[pkg]
		if !ok {
			t.Errorf("design.md: the package %s is not in the table of layers", pkg)
			continue
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
	}
	for pkg := range layer {
		if !slices.Contains(listed, pkg) {
			t.Errorf("design.md: %s is in the table of layers, but there is no such package", pkg)
		}
	}
}
