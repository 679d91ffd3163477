package camera

import (
	"bytes"
	"context"
	"errors"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// allocated returns the bytes allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A recorded camera reads only a regular file, its lines within bounds, pictures the file
// holds and a frame rate within the camera's range; anything else is refused at Open, in one
// line saying why, without reading more than its bounds (issue 26: file:/dev/zero grew the
// heap to 2.4 GB in 8 s; a frame rate of 1/1,000,000 blocked the Feed).
func TestFileRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	frame := strings.Repeat("\x80", 4*2*3/2)
	for _, tc := range []struct {
		name, path string
		kind       error
		want       string
	}{
		{"device", "/dev/zero", ErrFormat, "/dev/zero: a device, not a YUV4MPEG2 video file"},
		{"folder", dir, ErrFormat, "a folder, not a YUV4MPEG2 video file"},
		{"missing", filepath.Join(dir, "none.y4m"), ErrMissing, "none.y4m"},
		{"endless header", write("long.y4m", append([]byte("YUV4MPEG2 W4 H2 X"), bytes.Repeat([]byte("x"), 8<<20)...)), ErrFormat, "no header line in its first 4096 bytes"},
		{"header of zeros", write("zeros.y4m", make([]byte, 8<<20)), ErrFormat, "no header line in its first 4096 bytes"},
		{"a millionth of a frame a second", write("slow.y4m", []byte("YUV4MPEG2 W4 H2 F1:1000000 C420jpeg\nFRAME\n"+frame)), ErrFormat, "frame rate 1:1000000: want 1 to 120 frames a second"},
		{"too fast", write("fast.y4m", []byte("YUV4MPEG2 W4 H2 F1000:1 C420jpeg\nFRAME\n"+frame)), ErrFormat, "frame rate 1000:1: want 1 to 120 frames a second"},
		{"no rate", write("norate.y4m", []byte("YUV4MPEG2 W4 H2 Fx C420jpeg\nFRAME\n"+frame)), ErrFormat, "frame rate x: want 1 to 120"},
		{"too wide", write("wide.y4m", []byte("YUV4MPEG2 W5000 H2 F30:1\n")), ErrFormat, "size 5000x2: want 1 to 4096 pixels a side"},
		{"a picture larger than the file", write("big.y4m", []byte("YUV4MPEG2 W4096 H4096 F30:1\nFRAME\n0123")), ErrFormat, "shorter than one 4096x4096 frame"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &File{Path: tc.path}
			var err error
			start := time.Now()
			n := allocated(func() { err = c.Open() })
			took := time.Since(start)
			if err == nil {
				c.Close()
			}
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Open: %v, want %v with %q in one line", err, tc.kind, tc.want)
			}
			if n > 256<<10 {
				t.Errorf("Open allocated %d bytes", n)
			}
			t.Logf("refused in %v, %d bytes allocated", took, n)
		})
	}
	for _, rate := range []string{"F1:1", "F30000:1001", "F120:1"} {
		t.Run(rate, func(t *testing.T) {
			c := &File{Path: write("ok.y4m", []byte("YUV4MPEG2 W4 H2 "+rate+" C420jpeg\nFRAME\n"+frame)), Unpaced: true}
			if err := c.Open(); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var f Frame
			if err := c.Read(&f); err != nil || f.W != 4 || f.H != 2 {
				t.Errorf("Read: %v, %dx%d", err, f.W, f.H)
			}
		})
	}
}

// Cancelling a Feed ends a recorded camera's wait for its next frame at once, not at the
// frame's time (issue 26: cancelling did not end it).
func TestFileCancelEndsTheWait(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 8, 6))
	var buf bytes.Buffer
	if err := WriteY4M(&buf, 1, g, g); err != nil { // one frame a second
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "slow.y4m")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	feed := NewFeed(&File{Path: path}, Options{Side: 8})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { feed.Run(ctx); close(done) }()
	waitFor(t, feed, "the first frame", func(seq uint64, _ Status) bool { return seq > 0 })
	start := time.Now()
	cancel()
	select {
	case <-done:
		t.Logf("the Feed ended %v after its cancelling", time.Since(start))
	case <-time.After(500 * time.Millisecond):
		t.Fatal("the Feed did not end within 500 ms of its cancelling: it waits for the next frame (1 s)")
	}
}
