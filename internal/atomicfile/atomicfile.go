// Package atomicfile writes files so that a reader never sees a half-written one: the data goes
// to a temporary file in the same directory, is synced, and is renamed over the target.
//
// Only a regular file or a new path is written: a folder, a device node, a FIFO or a socket at
// the path is refused, naming it. A symbolic link is followed: its target (which must exist and
// be a regular file) is replaced, and the link stays a link. Temporary files are named
// ".NAME.tmp-PID-RANDOM"; the next write of the same target removes those left behind by a
// process that no longer runs (one killed in the middle of a write).
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// inflight holds the temporary files being written, for Abort.
var inflight sync.Map

// Abort removes every temporary file a Write in this process has not finished: a program that
// must exit at once (a second interrupt) calls it so that nothing is left behind. The targets
// are untouched.
func Abort() {
	inflight.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// Target returns the file Write(path) would replace: path itself, or the file a symbolic link
// at path points to. It refuses a path that exists but is not a regular file, and a dangling
// link. The error names path.
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return path, nil
	case err != nil:
		return "", err
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", fmt.Errorf("%s: symbolic link to a missing file: %w", path, unwrapPath(err))
		}
		tfi, err := os.Stat(target)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if !tfi.Mode().IsRegular() {
			return "", fmt.Errorf("%s: symbolic link to %s, %s: only a regular file or a new path is written", path, target, kind(tfi.Mode()))
		}
		return target, nil
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s: %s: only a regular file or a new path is written", path, kind(fi.Mode()))
	}
	return path, nil
}

// kind names the kind of a file that is not regular: "is a folder" and the like.
func kind(m os.FileMode) string { return "is " + regfile.Kind(m) }

// unwrapPath drops an *os.PathError's path (a temporary file's name would only confuse).
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// Write calls fill with a buffered writer on a temporary file beside path's target (see
// Target) and, if fill and every write succeed, syncs the file and renames it over the target.
// On any error the target is left as it was and the temporary file is removed. Errors name
// path, never the temporary file; an error fill returns is passed on wrapped.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) (err error) {
	target, err := Target(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Dir(target), filepath.Base(target)
	cleanStale(dir, base)
	f, err := os.CreateTemp(dir, tempPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("%s: cannot write there: %w", path, unwrapPath(err))
	}
	tmp := f.Name()
	inflight.Store(tmp, true)
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		inflight.Delete(tmp)
	}()
	bw := bufio.NewWriter(f)
	if err = fill(bw); err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	steps := []struct {
		op string
		do func() error
	}{
		{"write", bw.Flush},
		{"chmod", func() error { return f.Chmod(perm) }},
		{"sync", f.Sync},
		{"close", f.Close},
		{"rename", func() error { return os.Rename(tmp, target) }},
	}
	for _, s := range steps {
		if err = s.do(); err != nil {
			return fmt.Errorf("%s: %s: %w", path, s.op, unwrapPath(err))
		}
	}
	// Make the rename itself durable; a directory that cannot be synced is not an error.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Check reports whether Write(path) could write: path is a regular file or a new path (see
// Target) and a new file can be created beside it. It creates and removes a probe named like
// Write's temporary files, so a probe left by a killed process is cleaned up like them.
func Check(path string) error {
	target, err := Target(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(target), tempPrefix(filepath.Base(target))+"*")
	if err != nil {
		return fmt.Errorf("%s: cannot write there: %w", path, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// tempPrefix is the start of the name of this process's temporary files for base.
func tempPrefix(base string) string {
	return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-"
}

// cleanStale removes the temporary files of base in dir left by processes that no longer run.
func cleanStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + ".tmp-"
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !e.Type().IsRegular() {
			continue
		}
		pidText, _, ok := strings.Cut(name[len(prefix):], "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || alive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}
