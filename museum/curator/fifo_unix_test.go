//go:build unix

package curator

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO given as the curator's file is refused at once, not waited on (issue 26).
func TestReadRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "museum.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan Config, 1)
	go func() { done <- Read(path) }()
	select {
	case c := <-done:
		want := path + ": a FIFO, not a curator's file (every setting is at its default)"
		if len(c.Problems) != 1 || c.Problems[0] != want {
			t.Errorf("problems %q, want %q", c.Problems, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read of a FIFO still waits after 5 s")
	}
}
