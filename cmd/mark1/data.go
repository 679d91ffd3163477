package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/images/builtin"
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
