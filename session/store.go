package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/images"
	"github.com/mark1-perceptron/mark1/internal/atomicfile"
	"github.com/mark1-perceptron/mark1/machine"
)

// stateFile is the session's own state in Options.Dir, beside one NAME.state per experiment.
const stateFile = "session.json"

// maxStateFile bounds session.json.
const maxStateFile = 4 << 20

// savedSession is session.json.
type savedSession struct {
	Version     int               `json:"version"`
	Experiment  string            `json:"experiment"`
	Mode        string            `json:"mode"`
	Speed       string            `json:"speed"` // a number, or "max"
	Saved       time.Time         `json:"saved"`
	Experiments map[string]*track `json:"experiments"`
	speed       Speed
}

// StatePath returns the file in which a session with state folder dir keeps the machine of
// experiment name.
func StatePath(dir, name string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	return filepath.Join(dir, safe+".state")
}

// save writes the machine and session.json to Options.Dir; a failure is kept as the frames'
// problem and logged.
func (s *Session) save() error {
	if s.opts.Dir == "" {
		return nil
	}
	s.lastSave = s.clock.Now()
	if err := os.MkdirAll(s.opts.Dir, 0o755); err != nil {
		err = fmt.Errorf("session: %w", err)
		s.fail(err)
		return err
	}
	if err := s.m.Save(StatePath(s.opts.Dir, s.exp.name)); err != nil {
		err = fmt.Errorf("session: saving: %w", err)
		s.fail(err)
		return err
	}
	s.saved, s.dirty = s.m.Presentations(), false
	st := savedSession{
		Version:     1,
		Experiment:  s.exp.name,
		Mode:        s.mode.String(),
		Speed:       speedText(s.speed),
		Saved:       s.lastSave.UTC().Truncate(time.Second),
		Experiments: s.tracks,
	}
	body, err := json.MarshalIndent(&st, "", "\t")
	if err == nil {
		err = atomicfile.Write(filepath.Join(s.opts.Dir, stateFile), 0o644, func(w io.Writer) error {
			_, err := w.Write(append(body, '\n'))
			return err
		})
	}
	if err != nil {
		err = fmt.Errorf("session: saving: %w", err)
		s.fail(err)
		return err
	}
	return nil
}

// saveIfDue saves when SaveEvery has passed since the last save and the machine changed.
func (s *Session) saveIfDue() {
	if s.opts.Dir == "" || s.saveEvery < 0 || s.clock.Now().Sub(s.lastSave) < s.saveEvery {
		return
	}
	if s.m.Presentations() == s.saved && !s.dirty {
		s.lastSave = s.clock.Now()
		return
	}
	_ = s.save()
}

func speedText(v Speed) string {
	if v.IsMax() {
		return "max"
	}
	return strconv.FormatFloat(float64(v), 'g', -1, 64)
}

func parseSpeed(t string) (Speed, error) {
	if t == "max" {
		return Max, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, err
	}
	return Speed(v), checkSpeed(Speed(v))
}

// resume reads session.json from Options.Dir. It returns nil when there is none or it cannot
// be used (a problem then says why).
func (s *Session) resume() *savedSession {
	if s.opts.Dir == "" {
		return nil
	}
	path := filepath.Join(s.opts.Dir, stateFile)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		s.fail(fmt.Errorf("session: resuming: %w", err))
		return nil
	}
	defer f.Close()
	var st savedSession
	dec := json.NewDecoder(io.LimitReader(f, maxStateFile))
	dec.DisallowUnknownFields()
	err = dec.Decode(&st)
	if err == nil && st.Version != 1 {
		err = fmt.Errorf("version %d, want 1", st.Version)
	}
	if err == nil {
		st.speed, err = parseSpeed(st.Speed)
	}
	if err == nil {
		for name, t := range st.Experiments {
			if err = t.check(); err != nil {
				err = fmt.Errorf("experiment %q: %w", name, err)
				break
			}
		}
	}
	if err != nil {
		s.fail(fmt.Errorf("session: resuming: %s: %w", path, err))
		return nil
	}
	for name, t := range st.Experiments {
		s.tracks[name] = t
	}
	st.Speed = ""
	return &st
}

// check refuses a track that the session could not have written.
func (t *track) check() error {
	switch {
	case t == nil:
		return errors.New("null")
	case t.Epoch < 0 || t.HistoryFirst < 0 || len(t.History) > MaxHistory:
		return errors.New("epochs out of range")
	case t.TestDone < 0 || t.TestCorrect < 0 || t.TestCorrect > t.TestDone:
		return errors.New("test counts out of range")
	case slices.ContainsFunc(t.History, func(n int) bool { return n < 0 }):
		return errors.New("negative mistakes")
	}
	return nil
}

// load reads experiment name's saved machine, or returns nil (with a problem when a state
// was there but could not be used; a state that did not load is moved aside to NAME.state.bad).
func (s *Session) load(name string, set *images.Set) *machine.Machine {
	if s.opts.Dir == "" {
		return nil
	}
	path := StatePath(s.opts.Dir, name)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	m, err := machine.Load(path)
	if err == nil && !slices.Equal(m.Classes(), set.Classes) {
		err = fmt.Errorf("%s: classes %v, want %v", path, m.Classes(), set.Classes)
	}
	if err != nil {
		s.fail(fmt.Errorf("session: resuming %q, starting a new machine: %w", name, err))
		if rerr := os.Rename(path, path+".bad"); rerr != nil {
			s.logger.Warn(fmt.Sprintf("session: %v", rerr))
		}
		return nil
	}
	s.logger.Info(fmt.Sprintf("resumed %q from %s: %d presentations", name, path, m.Presentations()))
	return m
}
