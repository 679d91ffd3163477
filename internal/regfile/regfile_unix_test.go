//go:build unix

package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{good, link} {
		f, err := Open(p)
		if err != nil {
			t.Fatalf("Open(%s): %v", p, err)
		}
		f.Close()
	}
	if _, err := Open(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(none) = %v, want fs.ErrNotExist", err)
	}
	want := map[string]string{dir: dir + ": a folder, not a regular file"}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	want[fifo] = fifo + ": a FIFO, not a regular file"
	want[os.DevNull] = os.DevNull + ": a device, not a regular file"
	for p, w := range want {
		_, err := Open(p)
		var nr *NotRegularError
		if !errors.As(err, &nr) || err.Error() != w {
			t.Errorf("Open(%s) = %v, want %q", p, err, w)
		}
	}
	if got := (&NotRegularError{Path: "p"}).Error(); got != "p: not a regular file" {
		t.Errorf("replaced: %q", got)
	}
	if got := Kind(fs.ModeSocket); got != "a socket" {
		t.Errorf("Kind(socket) = %q", got)
	}
	if got := Kind(fs.ModeIrregular); got != "a special file" {
		t.Errorf("Kind(irregular) = %q", got)
	}
}
