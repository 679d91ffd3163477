package atomicfile

import (
	"errors"
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
