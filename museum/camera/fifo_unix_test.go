//go:build unix

package camera

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO given as a recorded camera is refused at once, not waited on (issue 26: opening it
// blocked until a writer came).
func TestFileRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "camera.y4m")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- (&File{Path: path}).Open() }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "a FIFO, not a YUV4MPEG2 video file") {
			t.Errorf("Open: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open of a FIFO still waits after 5 s")
	}
}
