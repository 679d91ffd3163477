package riglink

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// SavedFile is the file in the museum's state folder that keeps the last rig a bridge
// described, so that a museum started while its bridge is down still builds a loop rig's
// machine.
const SavedFile = "bridge.json"

// saved is SavedFile's content.
type saved struct {
	Addr string     `json:"addr"`
	Info hwapi.Info `json:"info"`
}

// Save keeps info, the rig the bridge at addr described, in dir ("" keeps nothing).
func Save(dir, addr string, info hwapi.Info) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("riglink: %w", err)
	}
	b, err := json.MarshalIndent(saved{Addr: addr, Info: info}, "", "  ")
	if err != nil {
		return fmt.Errorf("riglink: %w", err)
	}
	return atomicfile.Write(filepath.Join(dir, SavedFile), 0o644, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// Load returns the rig the bridge at addr last described, as Save kept it in dir; ok is false
// when there is none (another bridge's is none). A file that is there but cannot be used
// (unreadable, not its JSON, or a description hwapi's Info.Check refuses) is an error, with
// ok false: the museum says so and waits for the bridge as if it had never seen it.
func Load(dir, addr string) (info hwapi.Info, ok bool, err error) {
	if dir == "" {
		return info, false, nil
	}
	path := filepath.Join(dir, SavedFile)
	f, err := regfile.OpenFor(path, "the bridge's saved rig")
	if errors.Is(err, fs.ErrNotExist) {
		return info, false, nil
	}
	if err != nil {
		return info, false, fmt.Errorf("riglink: %w", err)
	}
	defer f.Close()
	var s saved
	d := json.NewDecoder(io.LimitReader(f, 1<<20))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		return info, false, fmt.Errorf("riglink: %s: %w", path, err)
	}
	if s.Addr != addr {
		return info, false, nil
	}
	if err := s.Info.Check(); err != nil {
		return info, false, fmt.Errorf("riglink: %s: %w", path, err)
	}
	return s.Info, true, nil
}

// ReadToken reads a bridge's API token from a file (a copy of the bridge's own): one line, at
// most 4096 bytes, spaces around it dropped.
func ReadToken(path string) (string, error) {
	f, err := regfile.OpenFor(path, "a token file")
	if err != nil {
		return "", fmt.Errorf("riglink: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4097))
	if err != nil {
		return "", fmt.Errorf("riglink: %s: %w", path, err)
	}
	if len(b) > 4096 {
		return "", fmt.Errorf("riglink: %s: larger than 4096 bytes: not a token file", path)
	}
	return strings.TrimSpace(string(b)), nil
}
