// Package camera is the museum's camera as a projector: a Source of pictures (a V4L2 webcam
// on Linux, the page's camera in a browser, a recorded Y4M file for tests and rehearsals) and
// a Feed that reads it on its own goroutine, turns each picture into what the card holder
// takes (the centre square, averaged down, its levels stretched like a printed card's: see
// Square) and keeps the latest for the window, which never waits for the camera. A camera that
// is missing, busy or unplugged is a State with a plain message for the screen, never a
// crash: the Feed tries again every few seconds, so plugging it back in brings the picture
// back by itself.
//
// It has no window and no ebiten: the tests feed it recorded frames.
package camera

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"sync"
	"time"
)

// Frame is one camera picture's luminance, row by row (Stride W).
type Frame struct {
	W, H int
	Pix  []uint8
}

// Resize makes f w x h, reusing Pix when it is large enough.
func (f *Frame) Resize(w, h int) {
	f.W, f.H = w, h
	if cap(f.Pix) < w*h {
		f.Pix = make([]uint8, w*h)
	}
	f.Pix = f.Pix[:w*h]
}

// Source is a camera. Open starts it; Read waits for the next picture (at most about a
// second: ErrNoFrame when none came) and writes its luminance into dst, reusing dst.Pix; Close
// stops it. The Feed calls them from one goroutine, Close after a failed Read too.
type Source interface {
	Open() error
	Read(dst *Frame) error
	Close() error
	// Name says which camera it is, for the staff ("/dev/video0").
	Name() string
}

// contextReader is a Source whose wait for a picture ends with a context (File): a Feed reads
// it so, and its end ends the wait.
type contextReader interface {
	ReadContext(ctx context.Context, dst *Frame) error
}

// The errors a Source returns for the states the screen explains (wrapped, with details).
var (
	ErrMissing   = errors.New("camera: no such camera")
	ErrBusy      = errors.New("camera: in use by another program")
	ErrUnplugged = errors.New("camera: unplugged")
	ErrDenied    = errors.New("camera: not allowed")
	ErrNoFrame   = errors.New("camera: no picture came")
	ErrFormat    = errors.New("camera: no usable picture format")
	ErrFailed    = errors.New("camera: failed")
)

// State is what the camera is doing.
type State int

// The states.
const (
	Off       State = iota // no camera configured
	Starting               // being opened
	Live                   // pictures coming
	Missing                // no camera there
	Busy                   // another program has it
	Unplugged              // it went away while in use
	Denied                 // the browser's visitor or settings refused it
	Failed                 // any other trouble
)

var stateNames = [...]string{"off", "starting", "live", "missing", "busy", "unplugged", "denied", "failed"}

// String returns the state's name ("live").
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state?"
}

// Status is the camera's state, for the screen and the staff.
type Status struct {
	State   State
	Name    string    // the camera
	Err     string    // the last error, "" when live
	Since   time.Time // when the state began
	Frames  uint64    // pictures taken since the start
	FPS     float64   // pictures a second over the last second or so
	Reopens int       // times the camera was opened again after a failure
}

// Message is one or two plain sentences for the screen, "" when the camera is live or off.
func (s Status) Message() string {
	switch s.State {
	case Starting:
		return "Starting the camera…"
	case Missing:
		return "No camera is plugged in. Plug it in: its picture comes back by itself."
	case Busy:
		return "Another program is using the camera. Close it: the picture comes back by itself."
	case Unplugged:
		return "The camera was unplugged. Plug it back in: its picture comes back by itself."
	case Denied:
		return "This browser was not allowed to use the camera."
	case Failed:
		return "The camera does not work. The staff screen says why."
	}
	return ""
}

// stateOf classifies a Source's error.
func stateOf(err error) State {
	switch {
	case errors.Is(err, ErrMissing):
		return Missing
	case errors.Is(err, ErrBusy):
		return Busy
	case errors.Is(err, ErrUnplugged):
		return Unplugged
	case errors.Is(err, ErrDenied):
		return Denied
	}
	return Failed
}

// Options tune a Feed.
type Options struct {
	// Side is the side of the square picture the Feed keeps (0: DefaultSide).
	Side int
	// Mirror flips the picture left to right (a camera looking through a mirror).
	Mirror bool
	// Retry is how long the Feed waits before opening a camera that failed again (0: 2 s).
	Retry time.Duration
	// Logger, when not nil, is told of every change of state: to off, starting or live as
	// Info, to the others (missing, busy, unplugged, denied, failed) as a warning.
	Logger *slog.Logger
}

// DefaultSide is the side of the Feed's square picture: 6 pixels per retina cell.
const DefaultSide = 120

// Feed reads a Source on its own goroutine (Run) and keeps its latest square picture.
type Feed struct {
	src  Source
	opts Options

	mu     sync.Mutex
	front  *image.Gray
	seq    uint64
	status Status

	// Run's own.
	frame  Frame
	back   *image.Gray
	lastAt time.Time
}

// NewFeed returns a Feed of src; Run starts it. A nil src is a Feed that is Off.
func NewFeed(src Source, opts Options) *Feed {
	if opts.Side <= 0 {
		opts.Side = DefaultSide
	}
	if opts.Retry <= 0 {
		opts.Retry = 2 * time.Second
	}
	r := image.Rect(0, 0, opts.Side, opts.Side)
	f := &Feed{src: src, opts: opts, front: image.NewGray(r), back: image.NewGray(r)}
	f.status.Since = time.Now()
	if src != nil {
		f.status.Name, f.status.State = src.Name(), Starting
	}
	return f
}

// Side returns the side of the Feed's pictures.
func (f *Feed) Side() int { return f.opts.Side }

// Latest copies the latest picture into dst (when not nil: Side x Side, else nothing is
// copied) and returns its number (0 before the first) and the camera's status. It never waits
// for the camera and never allocates.
func (f *Feed) Latest(dst *image.Gray) (uint64, Status) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if dst != nil && len(dst.Pix) == len(f.front.Pix) {
		copy(dst.Pix, f.front.Pix)
	}
	return f.seq, f.status
}

// Status returns the camera's status.
func (f *Feed) Status() Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

func (f *Feed) setState(st State, err error) {
	f.mu.Lock()
	old := f.status.State
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	changed := old != st || f.status.Err != msg
	if old != st {
		f.status.Since = time.Now()
	}
	f.status.State, f.status.Err = st, msg
	if st != Live {
		f.status.FPS = 0
	}
	f.mu.Unlock()
	if changed && f.opts.Logger != nil {
		level := slog.LevelWarn
		if st == Off || st == Starting || st == Live {
			level = slog.LevelInfo
		}
		line := fmt.Sprintf("camera %s: %s", f.status.Name, st)
		if err != nil {
			line += ": " + err.Error()
		}
		f.opts.Logger.Log(context.Background(), level, line, "state", st.String())
	}
}

// Run reads the camera until ctx is done: it opens it, takes its pictures, and when it fails
// (missing, busy, unplugged) says so in the status and opens it again every Options.Retry.
// It returns when ctx is done, the camera closed.
func (f *Feed) Run(ctx context.Context) {
	if f.src == nil {
		return
	}
	opened := false
	for ctx.Err() == nil {
		if !opened {
			if err := f.src.Open(); err != nil {
				f.setState(stateOf(err), err)
				if !sleep(ctx, f.opts.Retry) {
					return
				}
				f.mu.Lock()
				f.status.Reopens++
				f.mu.Unlock()
				continue
			}
			opened = true
		}
		var err error
		if cr, ok := f.src.(contextReader); ok {
			err = cr.ReadContext(ctx, &f.frame)
		} else {
			err = f.src.Read(&f.frame)
		}
		if errors.Is(err, ErrNoFrame) {
			continue
		}
		if err != nil {
			f.src.Close()
			opened = false
			st := stateOf(err)
			if st == Failed || st == Missing {
				// A camera that stops answering in use went away, as far as the visitor can tell.
				st = Unplugged
			}
			f.setState(st, err)
			if !sleep(ctx, f.opts.Retry) {
				return
			}
			continue
		}
		f.publish()
	}
	if opened {
		f.src.Close()
	}
}

// publish makes the frame just read the latest picture.
func (f *Feed) publish() {
	Square(f.back, &f.frame, f.opts.Mirror)
	now := time.Now()
	f.mu.Lock()
	f.front, f.back = f.back, f.front
	f.seq++
	s := &f.status
	s.Frames++
	if s.State != Live {
		s.State, s.Err, s.Since = Live, "", now
		defer func() {
			if f.opts.Logger != nil {
				f.opts.Logger.Info(fmt.Sprintf("camera %s: live", s.Name), "state", Live.String())
			}
		}()
	}
	// The rate, smoothed over about a second.
	if dt := now.Sub(f.lastAt).Seconds(); !f.lastAt.IsZero() && dt > 0 {
		a := min(1, dt)
		s.FPS = float64((1-a)*s.FPS) + a/dt
	}
	f.lastAt = now
	f.mu.Unlock()
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// describe wraps err with the camera's name.
func describe(name string, kind, err error) error {
	if err == nil {
		return kind
	}
	return fmt.Errorf("%w: %s: %v", kind, name, err)
}
