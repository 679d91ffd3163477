//go:build js

package main

import (
	"context"
	"log/slog"

	"github.com/mark1-perceptron/mark1/machine"
)

// setupRig in the browser attaches no rig: main says so and never calls it (a bridge refuses a
// browser's requests); it is here so that main reads the same in both builds.
func setupRig(_ context.Context, _ *slog.Logger, _, _, stateDir string, cfg machine.Config, offered []string, experiment string) exhibitRig {
	return exhibitRig{cfg: cfg, offered: offered, experiment: experiment, stateDir: stateDir}
}
