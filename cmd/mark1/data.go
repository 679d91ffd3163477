package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/images/gen"
	"github.com/mark1-perceptron/mark1/lab/problem"
)

// loadData reads a --data argument: builtin:NAME, idx:IMAGES,LABELS, or a folder with one
// sub-folder per class, within the loader's memory budget. The set's Name is the spec.
func loadData(spec string, l *images.Loader) (*images.Set, error) {
	set, err := loadSpec(spec, l)
	if err != nil {
		return nil, err
	}
	set.Name = spec
	return set, nil
}

func loadSpec(spec string, l *images.Loader) (*images.Set, error) {
	switch {
	case spec == "":
		return nil, usageErr("--data is required (builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder)")
	case strings.HasPrefix(spec, "gen:"):
		return loadGen(spec, l)
	case strings.HasPrefix(spec, "builtin:"):
		name := strings.TrimPrefix(spec, "builtin:")
		set, err := builtin.Load(name)
		if err != nil {
			return nil, errors.New(err.Error() + nameHint("builtin:", name))
		}
		return set, nil
	case strings.HasPrefix(spec, "idx:"):
		parts := strings.Split(strings.TrimPrefix(spec, "idx:"), ",")
		if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			return nil, usageErr(fmt.Sprintf("--data %q: want idx:IMAGES,LABELS", spec))
		}
		return l.LoadIDX(parts[0], parts[1])
	default:
		if err := checkSpec(spec, false); err != nil {
			return nil, err
		}
		return l.LoadDir(spec)
	}
}

// dataKinds are the forms of a card spec, for the errors; problems adds lab compare's.
func dataKinds(problems bool) string {
	if problems {
		return "builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS, problem:NAME[,key=value...] or a folder"
	}
	return "builtin:NAME, gen:KIND[,key=value...], idx:IMAGES,LABELS or a folder"
}

// checkSpec refuses a data spec that names neither a kind of data mark1 knows nor a file or
// folder that exists, saying what it wants and suggesting the nearest spec: "bultin:ef" is
// builtin:ef mistyped, "ef" is builtin:ef without its prefix. problems says whether
// problem:NAME is a spec here (lab compare). Like any data not found, it is not a usage error
// (exit status 1).
func checkSpec(spec string, problems bool) error {
	prefixes := []string{"builtin:", "gen:", "idx:"}
	if problems {
		prefixes = append(prefixes, "problem:")
	}
	for _, p := range prefixes {
		if strings.HasPrefix(spec, p) {
			return nil
		}
	}
	if _, err := os.Stat(spec); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	var guesses []string
	if pre, rest, ok := strings.Cut(spec, ":"); ok && pre != "" {
		for _, p := range nearest(pre+":", prefixes) {
			guesses = append(guesses, p+nearName(p, rest))
		}
		return fmt.Errorf("%q: no such folder, and %q is no kind of data (want %s)%s", spec, pre+":", dataKinds(problems), didYouMean(guesses))
	}
	// A name without its prefix: a built-in set, a generated kind, a problem.
	if slices.Contains(builtin.Names(), spec) {
		guesses = append(guesses, "builtin:"+spec)
	}
	if slices.Contains(genKinds(), spec) {
		guesses = append(guesses, "gen:"+spec)
	}
	if problems && slices.Contains(problemNames(), spec) {
		guesses = append(guesses, "problem:"+spec)
	}
	return fmt.Errorf("%q: no such folder (want %s)%s", spec, dataKinds(problems), didYouMean(guesses))
}

// nearName returns, for a spec of kind prefix, name or the nearest name of that kind (the
// part before any comma for gen: and problem:, which take options).
func nearName(prefix, name string) string {
	head, tail, comma := strings.Cut(name, ",")
	var names []string
	switch prefix {
	case "builtin:":
		names = builtin.Names()
	case "gen:":
		names = genKinds()
	case "problem:":
		names = problemNames()
	}
	if slices.Contains(names, head) {
		return name
	}
	if s := nearest(head, names); len(s) > 0 {
		head = s[0]
	}
	if comma {
		return head + "," + tail
	}
	return head
}

// nameHint suggests, for an unknown name of a kind of data ("eff" for builtin:), the nearest
// known one: "; did you mean builtin:ef?", or "".
func nameHint(prefix, name string) string {
	if n := nearName(prefix, name); n != name {
		return didYouMean([]string{prefix + n})
	}
	return ""
}

func genKinds() []string {
	var out []string
	for _, k := range gen.Kinds() {
		out = append(out, k.Name)
	}
	return out
}

func problemNames() []string {
	var out []string
	for _, p := range problem.Names() {
		out = append(out, p[0])
	}
	return out
}
