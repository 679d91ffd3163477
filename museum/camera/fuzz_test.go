package camera

import (
	"bytes"
	"errors"
	"image"
	"os"
	"path/filepath"
	"testing"
)

// FuzzY4M: any file given as a recorded camera opens or fails with one of the camera's
// errors, and every picture read is the size its header says.
func FuzzY4M(f *testing.F) {
	var good bytes.Buffer
	WriteY4M(&good, 30, image.NewGray(image.Rect(0, 0, 8, 6)), image.NewGray(image.Rect(0, 0, 8, 6)))
	f.Add(good.Bytes())
	f.Add([]byte("YUV4MPEG2 W4 H2 F30:1 C420jpeg\nFRAME\n0123456789ab"))
	f.Add([]byte("YUV4MPEG2 W4 H2 Cmono\nFRAME\n01234567FRAME\n"))
	f.Add([]byte("YUV4MPEG2 W-4 H99999999\n"))
	f.Add([]byte("not a video"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "v.y4m")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c := &File{Path: p, Unpaced: true}
		if err := c.Open(); err != nil {
			if !known(err) {
				t.Fatalf("Open: %v is none of the camera's errors", err)
			}
			return
		}
		defer c.Close()
		var fr Frame
		for range 3 {
			if err := c.Read(&fr); err != nil {
				if !known(err) {
					t.Fatalf("Read: %v is none of the camera's errors", err)
				}
				return
			}
			if fr.W != c.w || fr.H != c.h || len(fr.Pix) != fr.W*fr.H {
				t.Fatalf("a %dx%d picture of %d bytes from a %dx%d video", fr.W, fr.H, len(fr.Pix), c.w, c.h)
			}
		}
	})
}

// FuzzMJPEG: any bytes given as an MJPEG picture decode to a whole frame or fail with one of
// the camera's errors.
func FuzzMJPEG(f *testing.F) {
	f.Add([]byte{0xff, 0xd8, 0xff, 0xd9})
	f.Add([]byte("not a jpeg"))
	var m mjpeg
	f.Fuzz(func(t *testing.T, data []byte) {
		var fr Frame
		if err := m.decode(&fr, data); err != nil {
			if !known(err) {
				t.Fatalf("decode: %v is none of the camera's errors", err)
			}
			return
		}
		if fr.W <= 0 || fr.H <= 0 || len(fr.Pix) != fr.W*fr.H {
			t.Fatalf("a %dx%d picture of %d bytes", fr.W, fr.H, len(fr.Pix))
		}
	})
}

func known(err error) bool {
	for _, k := range []error{ErrMissing, ErrBusy, ErrUnplugged, ErrDenied, ErrNoFrame, ErrFormat, ErrFailed} {
		if errors.Is(err, k) {
			return true
		}
	}
	return false
}
