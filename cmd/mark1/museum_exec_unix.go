//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// execMuseum replaces mark1 with the window program (so that signals, such as a service
// manager's SIGTERM, reach it directly, and it saves before it ends). It returns only when the
// program could not be started.
func execMuseum(path string, args []string, stderr io.Writer) error {
	argv := append([]string{path}, args...)
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("running %s: %w", path, err)
	}
	return nil
}
