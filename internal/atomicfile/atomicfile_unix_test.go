//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "folder")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	toFifo := filepath.Join(dir, "to-fifo")
	if err := os.Symlink(fifo, toFifo); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "missing"), dangling); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, want string }{
		{"device", "/dev/null", "/dev/null: is a device: only a regular file or a new path is written"},
		{"fifo", fifo, fifo + ": is a FIFO"},
		{"folder", sub, sub + ": is a folder"},
		{"link-to-fifo", toFifo, toFifo + ": symbolic link to " + fifo + ", is a FIFO"},
		{"dangling-link", dangling, dangling + ": symbolic link to a missing file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := false
			err := Write(tt.path, 0o644, func(io.Writer) error { called = true; return nil })
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Write(%s): %v, want %q", tt.path, err, tt.want)
			}
			if called {
				t.Errorf("Write(%s) filled a file", tt.path)
			}
		})
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

func TestErrorsNameTheTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.state")
	err := Write(path, 0o644, func(w io.Writer) error {
		return &os.PathError{Op: "write", Path: filepath.Join(dir, ".m.state.tmp-1-2"), Err: syscall.ENOSPC}
	})
	if err == nil || err.Error() != path+": write: no space left on device" || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("error %v, want it to name %s, not the temporary file", err, path)
	}
}
