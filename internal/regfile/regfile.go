// Package regfile opens a file a user names for reading only when it is a regular file
// (following symbolic links): a FIFO would make the reader wait for ever, a device would never
// end, a folder is not a file to read. It looks before it opens, so that a FIFO is refused
// rather than waited on, and again after, in case the path was replaced in between. What the
// reader then reads is its own budget: Open only opens.
package regfile

import (
	"io/fs"
	"os"
)

// Kind names the kind of a file that is not regular: "a folder", "a FIFO", "a socket",
// "a device" or "a special file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// NotRegularError is Open's error for a path that is not a regular file.
type NotRegularError struct {
	Path string
	// Mode is the file's mode when Open looked before opening; zero when the path was a
	// regular file then and had been replaced by something else when opened.
	Mode fs.FileMode
	// Want is what the reader wanted, as OpenFor was told ("an image file"); "" is "a
	// regular file".
	Want string
}

// Error names the path and, when known, its kind: "PATH: a FIFO, not a regular file", or
// "PATH: not a regular file" when the path was replaced between looking and opening (with
// Want in place of "a regular file" when given).
func (e *NotRegularError) Error() string {
	want := e.Want
	if want == "" {
		want = "a regular file"
	}
	if e.Mode == 0 {
		return e.Path + ": not " + want
	}
	return e.Path + ": " + Kind(e.Mode) + ", not " + want
}

// Open opens path for reading if it is a regular file (following symbolic links). Its errors
// are os's (an *fs.PathError: fs.ErrNotExist and the like) or a *NotRegularError.
func Open(path string) (*os.File, error) { return OpenFor(path, "") }

// OpenFor opens path as Open does, for a reader of what ("an image file", "a file to read"),
// which a refusal names: "PATH: a FIFO, not an image file".
func OpenFor(path, what string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode(), Want: what}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() { // replaced in between
		f.Close()
		return nil, &NotRegularError{Path: path, Want: what}
	}
	return f, nil
}
