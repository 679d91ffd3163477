//go:build unix

package demo

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDataFIFO: a FIFO given as --data to the demos that read a student's samples is refused
// at once, naming it, instead of waiting for a writer (no one ever writes to this one).
func TestDataFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "samples.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"trace", "geometry", "fisher-lsq", "lsq"} {
		t.Run(name, func(t *testing.T) {
			d, _ := Find(name)
			done := make(chan error, 1)
			go func() {
				_, err := d.Run(context.Background(), config(t, d, false, "data="+fifo))
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "--data: "+fifo+": a FIFO, not a CSV file of samples") {
					t.Errorf("error %v, want the FIFO refused", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting on the FIFO after 10 s")
			}
		})
	}
}
