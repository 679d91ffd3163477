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
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, what string
		want             string // the error ("" none)
	}{
		{"file", good, "", ""},
		{"link to a file", link, "an image file", ""},
		{"folder", dir, "", dir + ": a folder, not a regular file"},
		{"FIFO", fifo, "", fifo + ": a FIFO, not a regular file"},
		{"device", os.DevNull, "", os.DevNull + ": a device, not a regular file"},
		{"folder for", dir, "an image file", dir + ": a folder, not an image file"},
		{"FIFO for", fifo, "a file to read", fifo + ": a FIFO, not a file to read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := OpenFor(tc.path, tc.what)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("OpenFor(%s) = %v", tc.path, err)
				}
				f.Close()
				return
			}
			var nr *NotRegularError
			if !errors.As(err, &nr) || err.Error() != tc.want {
				t.Errorf("OpenFor(%s, %q) = %v, want %q", tc.path, tc.what, err, tc.want)
			}
			if tc.what == "" {
				if _, err := Open(tc.path); err == nil || err.Error() != tc.want {
					t.Errorf("Open(%s) = %v, want %q", tc.path, err, tc.want)
				}
			}
		})
	}
	if _, err := Open(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(none) = %v, want fs.ErrNotExist", err)
	}
	if got := (&NotRegularError{Path: "p"}).Error(); got != "p: not a regular file" {
		t.Errorf("replaced: %q", got)
	}
	if got := (&NotRegularError{Path: "p", Want: "an IDX file"}).Error(); got != "p: not an IDX file" {
		t.Errorf("replaced, for an IDX file: %q", got)
	}
	if got := Kind(fs.ModeSocket); got != "a socket" {
		t.Errorf("Kind(socket) = %q", got)
	}
	if got := Kind(fs.ModeIrregular); got != "a special file" {
		t.Errorf("Kind(irregular) = %q", got)
	}
}
