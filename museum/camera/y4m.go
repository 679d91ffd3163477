package camera

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mark1-perceptron/mark1/internal/regfile"
)

// File is a recorded camera: a YUV4MPEG2 (.y4m) file, played in a loop at its frame rate
// (as fast as read when Unpaced). ffmpeg writes one from any video or picture:
//
//	ffmpeg -loop 1 -i letter.png -t 2 -pix_fmt yuv420p letter.y4m
//
// The tests, the soak and rehearsals without a camera use it; the curator's file names it as
// camera device "file:PATH". Only the luminance is read (any chroma layout: 420, 422, 444,
// mono).
//
// Only a regular file is read (a FIFO would block, a device never end), its lines are read
// within MaxY4MLine bytes, its pictures are at most MaxY4MSide on a side and must fit in the
// file, and its frame rate must be within MinY4MRate..MaxY4MRate frames a second, the
// camera's range: so Open and every Read end, and a Feed's cancelling ends a paced wait at
// once (ReadContext).
type File struct {
	Path    string
	Unpaced bool

	f      *os.File
	r      *bufio.Reader
	w, h   int
	chroma int   // bytes of chroma after each luminance plane
	start  int64 // offset of the first frame
	pos    int64
	period time.Duration
	next   time.Time
}

// The bounds of what File reads.
const (
	// MaxY4MLine bounds a header or FRAME line, in bytes.
	MaxY4MLine = 4096
	// MaxY4MSide bounds a picture's width and height, in pixels (the curator's camera.width
	// and camera.height bounds).
	MaxY4MSide = 4096
	// MinY4MRate and MaxY4MRate bound the frame rate, in frames a second: a Source gives a
	// picture at least about every second, and no camera a museum has gives more than 120.
	MinY4MRate, MaxY4MRate = 1, 120
)

// Name implements Source.
func (c *File) Name() string { return "file:" + c.Path }

// Open implements Source: it reads the header.
func (c *File) Open() error {
	f, err := regfile.OpenFor(c.Path, "a YUV4MPEG2 video file")
	var nr *regfile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return describe(c.Name(), ErrMissing, err)
	case errors.As(err, &nr):
		return fmt.Errorf("%w: %v", ErrFormat, err)
	case err != nil:
		return describe(c.Name(), ErrFailed, err)
	}
	if err := c.header(f); err != nil {
		f.Close()
		return err
	}
	c.f = f
	c.pos = c.start
	c.next = time.Now()
	return nil
}

// header reads and checks f's header line; the reader is left at the first frame.
func (c *File) header(f *os.File) error {
	c.r = bufio.NewReaderSize(f, 1<<16)
	raw, err := c.r.ReadSlice('\n') // within the buffer's 64 KiB
	if errors.Is(err, bufio.ErrBufferFull) || len(raw) > MaxY4MLine {
		return fmt.Errorf("%w: %s: no header line in its first %d bytes: not a YUV4MPEG2 file", ErrFormat, c.Path, MaxY4MLine)
	}
	line := string(raw)
	if err != nil || !strings.HasPrefix(line, "YUV4MPEG2 ") {
		return fmt.Errorf("%w: %s: not a YUV4MPEG2 file", ErrFormat, c.Path)
	}
	c.w, c.h, c.period = 0, 0, time.Second/30
	cs := "420"
	for _, tok := range strings.Fields(line)[1:] {
		switch tok[0] {
		case 'W':
			c.w, _ = strconv.Atoi(tok[1:])
		case 'H':
			c.h, _ = strconv.Atoi(tok[1:])
		case 'C':
			cs = tok[1:]
		case 'F':
			n, d, _ := strings.Cut(tok[1:], ":")
			fn, e1 := strconv.Atoi(n)
			fd, e2 := strconv.Atoi(d)
			if e1 != nil || e2 != nil || fn <= 0 || fd <= 0 || float64(fn) < MinY4MRate*float64(fd) || float64(fn) > MaxY4MRate*float64(fd) {
				return fmt.Errorf("%w: %s: frame rate %.20s: want %d to %d frames a second (F30:1, F30000:1001)", ErrFormat, c.Path, tok[1:], MinY4MRate, MaxY4MRate)
			}
			c.period = time.Duration(float64(time.Second) * float64(fd) / float64(fn))
		}
	}
	if c.w <= 0 || c.h <= 0 || c.w > MaxY4MSide || c.h > MaxY4MSide {
		return fmt.Errorf("%w: %s: size %dx%d: want 1 to %d pixels a side", ErrFormat, c.Path, c.w, c.h, MaxY4MSide)
	}
	cw, ch := (c.w+1)/2, (c.h+1)/2
	switch {
	case strings.HasPrefix(cs, "420"):
		c.chroma = 2 * cw * ch
	case strings.HasPrefix(cs, "422"):
		c.chroma = 2 * cw * c.h
	case strings.HasPrefix(cs, "444"):
		c.chroma = 2 * c.w * c.h
	case strings.HasPrefix(cs, "mono"):
		c.chroma = 0
	default:
		return fmt.Errorf("%w: %s: colour space %.20s", ErrFormat, c.Path, cs)
	}
	c.start = int64(len(line))
	// A picture is only allocated when the file holds one: a header cannot ask for more
	// memory than the file's size.
	if fi, err := f.Stat(); err != nil || fi.Size()-c.start < int64(len("FRAME\n")+c.w*c.h+c.chroma) {
		return fmt.Errorf("%w: %s: shorter than one %dx%d frame", ErrFormat, c.Path, c.w, c.h)
	}
	return nil
}

// Read implements Source: the next frame, from the first again after the last.
func (c *File) Read(dst *Frame) error { return c.ReadContext(context.Background(), dst) }

// ReadContext is Read, whose wait for the frame's time (at most a second: the frame rate is
// at least MinY4MRate) ends when ctx does: ErrNoFrame then. A Feed calls it.
func (c *File) ReadContext(ctx context.Context, dst *Frame) error {
	if c.f == nil {
		return describe(c.Name(), ErrFailed, errors.New("not open"))
	}
	if !c.Unpaced {
		if d := time.Until(c.next); d > 0 && !sleep(ctx, d) {
			return fmt.Errorf("%w: %s: %w", ErrNoFrame, c.Path, ctx.Err())
		}
		c.next = c.next.Add(c.period)
		if time.Since(c.next) > time.Second {
			c.next = time.Now()
		}
	}
	for tries := 0; ; tries++ {
		line, err := c.r.ReadSlice('\n')
		if err == io.EOF && tries == 0 {
			if _, err := c.f.Seek(c.start, io.SeekStart); err != nil {
				return describe(c.Name(), ErrFailed, err)
			}
			c.r.Reset(c.f)
			c.pos = c.start
			continue
		}
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > MaxY4MLine {
			return fmt.Errorf("%w: %s: a frame's line longer than %d bytes", ErrFormat, c.Path, MaxY4MLine)
		}
		if err != nil {
			return describe(c.Name(), ErrUnplugged, err)
		}
		if !bytes.HasPrefix(line, []byte("FRAME")) {
			return fmt.Errorf("%w: %s: a frame does not start with FRAME", ErrFormat, c.Path)
		}
		break
	}
	dst.Resize(c.w, c.h)
	if _, err := io.ReadFull(c.r, dst.Pix); err != nil {
		return describe(c.Name(), ErrUnplugged, err)
	}
	if _, err := c.r.Discard(c.chroma); err != nil {
		return describe(c.Name(), ErrUnplugged, err)
	}
	return nil
}

// Close implements Source.
func (c *File) Close() error {
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}

// WriteY4M writes frames as a YUV4MPEG2 video of fps frames a second, 4:2:0 with neutral
// chroma (what Chromium's fake camera and File read). Every frame must have the first one's
// size, which must be even.
func WriteY4M(w io.Writer, fps int, frames ...*image.Gray) error {
	if len(frames) == 0 {
		return errors.New("camera: WriteY4M: no frames")
	}
	b := frames[0].Rect
	if b.Dx()%2 != 0 || b.Dy()%2 != 0 {
		return fmt.Errorf("camera: WriteY4M: size %dx%d, want even sides", b.Dx(), b.Dy())
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n", b.Dx(), b.Dy(), fps)
	chroma := make([]byte, b.Dx()*b.Dy()/2)
	for i := range chroma {
		chroma[i] = 128
	}
	for _, g := range frames {
		if g.Rect.Size() != b.Size() {
			return errors.New("camera: WriteY4M: frames of different sizes")
		}
		bw.WriteString("FRAME\n")
		for y := g.Rect.Min.Y; y < g.Rect.Max.Y; y++ {
			bw.Write(g.Pix[g.PixOffset(g.Rect.Min.X, y):][:b.Dx()])
		}
		bw.Write(chroma)
	}
	return bw.Flush()
}
