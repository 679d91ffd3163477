//go:build !unix

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// execMuseum runs the window program and waits for it, passing its exit status on.
func execMuseum(path string, args []string, stderr io.Writer) error {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("running %s: %w", path, err)
	}
	return nil
}
