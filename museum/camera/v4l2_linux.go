//go:build linux

package camera

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blackjack/webcam"
	"golang.org/x/sys/unix"
)

// The V4L2 pixel formats read: YUYV (4:2:2, luminance in every other byte) and MJPEG.
const (
	pixYUYV  = webcam.PixelFormat(0x56595559) // 'YUYV'
	pixMJPEG = webcam.PixelFormat(0x47504A4D) // 'MJPG'
)

// V4L2 is a Linux camera (a USB webcam: UVC) read through Video4Linux2 with
// github.com/blackjack/webcam, in YUYV or MJPEG, whichever it offers (YUYV first: it costs
// nothing to decode), at the size it offers nearest Width x Height.
type V4L2 struct {
	// Device is the camera's device file ("/dev/video0"), or "" or "auto": the first that
	// opens and offers YUYV or MJPEG.
	Device        string
	Width, Height int // wanted size (0: 320 x 240: the square is 240 pixels, 12 a retina cell)

	cam    *webcam.Webcam
	dev    string
	format webcam.PixelFormat
	w, h   int
	mj     mjpeg
}

// Name implements Source.
func (c *V4L2) Name() string {
	if c.Device == "" || c.Device == "auto" {
		if c.dev != "" {
			return c.dev + " (auto)"
		}
		return "auto"
	}
	return c.Device
}

// Open implements Source.
func (c *V4L2) Open() error {
	if c.Device != "" && c.Device != "auto" {
		return c.open(c.Device)
	}
	devs, _ := filepath.Glob("/dev/video*")
	sort.Strings(devs)
	if len(devs) == 0 {
		return describe("auto", ErrMissing, errors.New("no /dev/video* device"))
	}
	var first error
	for _, d := range devs {
		err := c.open(d)
		if err == nil {
			return nil
		}
		if first == nil || errors.Is(first, ErrFormat) {
			first = err
		}
	}
	return first
}

// classify turns an errno into the states the screen explains.
func classify(dev string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENODEV), errors.Is(err, unix.ENXIO):
		return describe(dev, ErrMissing, err)
	case errors.Is(err, unix.EBUSY), err != nil && strings.Contains(strings.ToLower(err.Error()), "busy"):
		return describe(dev, ErrBusy, err)
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM):
		return describe(dev, ErrFailed, fmt.Errorf("%v (the museum's user must be in group video)", err))
	}
	return describe(dev, ErrFailed, err)
}

func (c *V4L2) open(dev string) error {
	cam, err := webcam.Open(dev)
	if err != nil {
		return classify(dev, err)
	}
	wantW, wantH := c.Width, c.Height
	if wantW <= 0 || wantH <= 0 {
		wantW, wantH = 320, 240
	}
	formats := cam.GetSupportedFormats()
	var format webcam.PixelFormat
	for _, f := range []webcam.PixelFormat{pixYUYV, pixMJPEG} {
		if _, ok := formats[f]; ok {
			format = f
			break
		}
	}
	if format == 0 {
		cam.Close()
		return fmt.Errorf("%w: %s offers neither YUYV nor MJPEG", ErrFormat, dev)
	}
	w, h := nearestSize(cam.GetSupportedFrameSizes(format), wantW, wantH)
	got, _, _, err := cam.SetImageFormat(format, uint32(w), uint32(h))
	if err != nil || got != format {
		cam.Close()
		if err == nil {
			err = errors.New("the format was refused")
		}
		return classify(dev, err)
	}
	cam.SetBufferCount(4)
	if err := cam.StartStreaming(); err != nil {
		cam.Close()
		return classify(dev, err)
	}
	c.cam, c.dev, c.format, c.w, c.h = cam, dev, format, w, h
	return nil
}

// nearestSize returns the offered size nearest w x h in area (w x h itself when a stepwise
// range holds it).
func nearestSize(sizes []webcam.FrameSize, w, h int) (int, int) {
	bw, bh, best := w, h, -1
	for _, s := range sizes {
		cw := min(max(w, int(s.MinWidth)), int(s.MaxWidth))
		ch := min(max(h, int(s.MinHeight)), int(s.MaxHeight))
		if s.StepWidth > 0 {
			cw -= (cw - int(s.MinWidth)) % int(s.StepWidth)
		}
		if s.StepHeight > 0 {
			ch -= (ch - int(s.MinHeight)) % int(s.StepHeight)
		}
		d := cw*ch - w*h
		if d < 0 {
			d = -d
		}
		if best < 0 || d < best {
			bw, bh, best = cw, ch, d
		}
	}
	return bw, bh
}

// Read implements Source.
func (c *V4L2) Read(dst *Frame) error {
	if c.cam == nil {
		return describe(c.Name(), ErrFailed, errors.New("not open"))
	}
	err := c.cam.WaitForFrame(1)
	var timeout *webcam.Timeout
	switch {
	case errors.As(err, &timeout), errors.Is(err, unix.EINTR):
		return ErrNoFrame
	case err != nil:
		return describe(c.dev, ErrUnplugged, err)
	}
	buf, index, err := c.cam.GetFrame()
	if errors.Is(err, unix.EAGAIN) {
		return ErrNoFrame
	}
	if err != nil {
		return describe(c.dev, ErrUnplugged, err)
	}
	defer c.cam.ReleaseFrame(index)
	if c.format == pixYUYV {
		return yuyv(dst, buf, c.w, c.h)
	}
	return c.mj.decode(dst, buf)
}

// Close implements Source.
func (c *V4L2) Close() error {
	if c.cam == nil {
		return nil
	}
	err := c.cam.Close()
	c.cam = nil
	return err
}
