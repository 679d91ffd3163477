package main

import (
	"context"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
)

// rigLink is the exhibit's link to a hardware rig: museum/riglink's Link in the window (rig.go);
// the browser's museum has none (a bridge refuses a browser's requests), and leaves riglink,
// hwapi and their HTTP client out of its WebAssembly.
type rigLink interface {
	session.RigSource
	Attach(m *machine.Machine) error
	Hold() <-chan struct{}
	Run(ctx context.Context)
}

// exhibitRig is what a bridge changes in the museum: the link (nil: none), and on a loop rig
// the machine built (the rig's), the experiments it can learn, the one opened and the state
// folder (a loop machine's states are kept apart from the emulated machine's: stateDir/loop).
type exhibitRig struct {
	link       rigLink
	cfg        machine.Config
	offered    []string
	experiment string
	stateDir   string
}
