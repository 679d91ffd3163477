//go:build js

package camera

import (
	"errors"
	"syscall/js"
	"time"
)

// Browser is the page's camera: web/index.html asks for it (getUserMedia) when the page's
// address has ?camera, keeps it in a hidden video element, and hands over its centre square,
// Side pixels a side, when asked (globalThis.mark1Camera). The browser does the cropping and
// scaling; Square then stretches the levels.
type Browser struct {
	Side int // 0: DefaultSide

	rgba []byte
	last time.Time
}

// Name implements Source.
func (c *Browser) Name() string { return "browser" }

func (c *Browser) page() (js.Value, error) {
	cam := js.Global().Get("mark1Camera")
	if cam.IsUndefined() || cam.IsNull() {
		return cam, describe("browser", ErrMissing, errors.New("the page has no camera (add ?camera to its address)"))
	}
	switch st, msg := cam.Get("state").String(), cam.Get("error").String(); st {
	case "live":
		return cam, nil
	case "starting":
		return cam, ErrNoFrame
	case "denied":
		return cam, describe("browser", ErrDenied, errors.New(msg))
	case "missing":
		return cam, describe("browser", ErrMissing, errors.New(msg))
	case "busy":
		return cam, describe("browser", ErrBusy, errors.New(msg))
	case "unplugged":
		return cam, describe("browser", ErrUnplugged, errors.New(msg))
	default:
		return cam, describe("browser", ErrFailed, errors.New(msg))
	}
}

// Open implements Source: the page's camera must be live.
func (c *Browser) Open() error {
	_, err := c.page()
	if errors.Is(err, ErrNoFrame) {
		// Still asking: not an error the visitor needs to read; the Feed asks again soon.
		return describe("browser", ErrFailed, errors.New("starting"))
	}
	return err
}

// Read implements Source: about 30 pictures a second.
func (c *Browser) Read(dst *Frame) error {
	if d := time.Until(c.last.Add(time.Second / 30)); d > 0 {
		time.Sleep(d)
	}
	c.last = time.Now()
	cam, err := c.page()
	if err != nil {
		return err
	}
	side := c.Side
	if side <= 0 {
		side = DefaultSide
	}
	data := cam.Call("grab", side)
	if data.IsNull() || data.IsUndefined() {
		return ErrNoFrame
	}
	if cap(c.rgba) < 4*side*side {
		c.rgba = make([]byte, 4*side*side)
	}
	c.rgba = c.rgba[:4*side*side]
	if js.CopyBytesToGo(c.rgba, data) != len(c.rgba) {
		return ErrNoFrame
	}
	dst.Resize(side, side)
	for i := range dst.Pix {
		p := c.rgba[4*i : 4*i+3]
		dst.Pix[i] = uint8((19595*uint32(p[0]) + 38470*uint32(p[1]) + 7471*uint32(p[2]) + 1<<15) >> 16)
	}
	return nil
}

// Close implements Source.
func (c *Browser) Close() error { return nil }
