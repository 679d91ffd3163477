package camera

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"
)

// File is a recorded camera: a YUV4MPEG2 (.y4m) file, played in a loop at its frame rate
// (as fast as read when Unpaced). ffmpeg writes one from any video or picture:
//
//	ffmpeg -loop 1 -i letter.png -t 2 -pix_fmt yuv420p letter.y4m
//
// The tests, the soak and rehearsals without a camera use it; the curator's file names it as
// camera device "file:PATH". Only the luminance is read (any chroma layout: 420, 422, 444,
// mono).
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

// Name implements Source.
func (c *File) Name() string { return "file:" + c.Path }

// Open implements Source: it reads the header.
func (c *File) Open() error {
	f, err := os.Open(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return describe(c.Name(), ErrMissing, err)
	}
	if err != nil {
		return describe(c.Name(), ErrFailed, err)
	}
	c.f, c.r = f, bufio.NewReaderSize(f, 1<<16)
	line, err := c.r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "YUV4MPEG2 ") {
		f.Close()
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
			if n, d, ok := strings.Cut(tok[1:], ":"); ok {
				fn, e1 := strconv.Atoi(n)
				fd, e2 := strconv.Atoi(d)
				if e1 == nil && e2 == nil && fn > 0 && fd > 0 {
					c.period = time.Duration(float64(time.Second) * float64(fd) / float64(fn))
				}
			}
		}
	}
	if c.w <= 0 || c.h <= 0 || c.w > 1<<14 || c.h > 1<<14 {
		f.Close()
		return fmt.Errorf("%w: %s: size %dx%d", ErrFormat, c.Path, c.w, c.h)
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
		f.Close()
		return fmt.Errorf("%w: %s: colour space %s", ErrFormat, c.Path, cs)
	}
	c.start = int64(len(line))
	c.pos = c.start
	c.next = time.Now()
	return nil
}

// Read implements Source: the next frame, from the first again after the last.
func (c *File) Read(dst *Frame) error {
	if c.f == nil {
		return describe(c.Name(), ErrFailed, errors.New("not open"))
	}
	if !c.Unpaced {
		if d := time.Until(c.next); d > 0 {
			time.Sleep(d)
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
