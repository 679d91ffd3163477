package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	tests := []struct {
		name string
		fill func(io.Writer) error
		want string
		err  error
	}{
		{"failing writer keeps the old file", func(w io.Writer) error {
			io.WriteString(w, "half")
			return boom
		}, "old", boom},
		{"success replaces", func(w io.Writer) error {
			_, err := io.WriteString(w, "new")
			return err
		}, "new", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Write(path, 0o644, tt.fill)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Fatalf("file = %q, want %q", got, tt.want)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
			if len(left) != 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
}

func TestWriteMissingDir(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "no", "such"), 0o644, func(io.Writer) error { return nil })
	if err == nil {
		t.Fatal("want an error for a missing directory")
	}
}

func TestFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.state")
	link := filepath.Join(dir, "link.state")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.state", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link is no longer a link")
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Fatalf("target = %q, want new", got)
	}
}

func TestCleansStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.state")
	// A process id that does not run: the largest possible id is never used by a live process
	// here (pid_max is at most 4194304).
	stale := filepath.Join(dir, ".m.state.tmp-2147483646-123")
	live := filepath.Join(dir, fmt.Sprintf(".m.state.tmp-%d-456", os.Getpid()))
	other := filepath.Join(dir, ".other.state.tmp-2147483646-1")
	for _, p := range []string{stale, live, other} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(path, 0o644, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Error("the stale temporary file of a dead process is still there")
	}
	for _, p := range []string{live, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

func TestAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.state")
	err := Write(path, 0o644, func(w io.Writer) error {
		left, _ := filepath.Glob(filepath.Join(dir, ".m.state.tmp-*"))
		if len(left) != 1 {
			t.Fatalf("temporary files %v, want one", left)
		}
		Abort()
		if _, err := os.Stat(left[0]); !errors.Is(err, os.ErrNotExist) {
			t.Fatal("Abort left the temporary file")
		}
		return errors.New("stopped")
	})
	if err == nil {
		t.Fatal("want the fill error")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the target was created")
	}
}
