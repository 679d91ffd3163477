package rig

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// The built-in rigs, simulated with hwbridge --simulate when no rig file is given: the same
// files as testdata/rig/sim-loop.toml and sim-mirror.toml (links to these), so an installed
// hwbridge runs a whole rig without the repository.
//
//go:embed sims/*.toml sims/*.wiring
var sims embed.FS

// BuiltinPrefix names a built-in rig in place of a file ("builtin:loop").
const BuiltinPrefix = "builtin:"

// Builtins returns the built-in rigs' names.
func Builtins() []string {
	entries, _ := fs.ReadDir(sims, "sims")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Builtin reads a built-in rig by name ("loop": 15 A-units and a bias on MCP4451/61 wipers read
// back by ADS1115s; "mirror": 24 servo knobs on two PCA9685 boards). Its File is
// "builtin:NAME"; a wiring file it names is read from the built-in set too.
func Builtin(name string) (*Rig, error) {
	f, err := sims.Open("sims/" + name + ".toml")
	if err != nil || strings.ContainsAny(name, "/.") {
		return nil, fmt.Errorf("%s%s: no such built-in rig (there are %s)", BuiltinPrefix, name, strings.Join(Builtins(), ", "))
	}
	defer f.Close()
	rg, err := Parse(f, BuiltinPrefix+name)
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(sims, "sims")
	if err != nil {
		return nil, err
	}
	rg.fsys = sub
	return rg, nil
}
