package camera

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// letterFrame is a camera picture of a dark bar on grey paper (paper 150, ink 40) in the centre
// square, and a black band outside it (which the crop must drop).
func letterFrame(w, h int) *Frame {
	f := &Frame{}
	f.Resize(w, h)
	sq := min(w, h)
	ox := (w - sq) / 2
	for y := range h {
		for x := range w {
			v := uint8(150)
			if x < ox || x >= ox+sq {
				v = 0 // outside the square
			} else if lx := (x - ox) * 20 / sq; lx >= 4 && lx < 8 && y*20/h >= 3 && y*20/h < 17 {
				v = 40 // a vertical bar, left of centre
			}
			f.Pix[y*w+x] = v
		}
	}
	return f
}

func TestSquareCropsAndStretches(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 60, 60))
	Square(g, letterFrame(640, 480), false)
	// The paper is white and the ink black, as on a card; the black band outside the centre
	// square is gone (the corners are paper).
	if v := g.GrayAt(0, 0).Y; v != 255 {
		t.Errorf("corner (paper) = %d, want 255", v)
	}
	if v := g.GrayAt(59, 30).Y; v != 255 {
		t.Errorf("right edge (paper, the band cropped away) = %d, want 255", v)
	}
	if v := g.GrayAt(18, 30).Y; v != 0 {
		t.Errorf("the bar = %d, want 0", v)
	}
	// Mirrored: the bar is on the right.
	Square(g, letterFrame(640, 480), true)
	if v := g.GrayAt(59-18, 30).Y; v != 0 {
		t.Errorf("mirrored bar = %d, want 0", v)
	}
	if v := g.GrayAt(18, 30).Y; v != 255 {
		t.Errorf("mirrored: the bar's old place = %d, want 255", v)
	}
}

func TestSquareKeepsNoiseFlat(t *testing.T) {
	f := &Frame{}
	f.Resize(320, 240)
	for i := range f.Pix {
		f.Pix[i] = uint8(126 + (i*7919)%5) // a blank sheet: 126..130
	}
	g := image.NewGray(image.Rect(0, 0, 120, 120))
	Square(g, f, false)
	lo, hi := 255, 0
	for _, v := range g.Pix {
		lo, hi = min(lo, int(v)), max(hi, int(v))
	}
	if hi-lo > 4*MaxGain+2 {
		t.Errorf("a blank sheet's levels span %d..%d after stretching: noise made into a figure", lo, hi)
	}
}

func TestY4MRoundTrip(t *testing.T) {
	a, b := image.NewGray(image.Rect(0, 0, 64, 48)), image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = uint8(i), uint8(255-i%256)
	}
	path := filepath.Join(t.TempDir(), "v.y4m")
	var buf bytes.Buffer
	if err := WriteY4M(&buf, 30, a, b); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, buf.Bytes(), 0o644)
	c := &File{Path: path, Unpaced: true}
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var f Frame
	for i, want := range []*image.Gray{a, b, a, b} { // it loops
		if err := c.Read(&f); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if f.W != 64 || f.H != 48 || !bytes.Equal(f.Pix, want.Pix) {
			t.Fatalf("frame %d differs from what was written", i)
		}
	}
	missing := &File{Path: filepath.Join(t.TempDir(), "none.y4m")}
	if err := missing.Open(); !errors.Is(err, ErrMissing) {
		t.Errorf("a missing file: %v, want ErrMissing", err)
	}
}

func TestYUYV(t *testing.T) {
	buf := []byte{10, 1, 20, 2, 30, 3, 40, 4} // 4x1
	var f Frame
	if err := yuyv(&f, buf, 4, 1); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(f.Pix, []byte{10, 20, 30, 40}) {
		t.Errorf("luminance %v", f.Pix)
	}
	if err := yuyv(&f, buf[:6], 4, 1); !errors.Is(err, ErrFormat) {
		t.Errorf("a short frame: %v", err)
	}
}

// TestMJPEGWithoutHuffmanTables decodes a JPEG whose Huffman tables were taken out, as most
// USB cameras send their MJPEG frames.
func TestMJPEGWithoutHuffmanTables(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 64, 48))
	for i := range src.Pix {
		src.Pix[i] = uint8(i % 200)
	}
	var out bytes.Buffer
	jpeg.Encode(&out, src, &jpeg.Options{Quality: 95})
	b := out.Bytes()
	var stripped []byte
	for i := 2; ; {
		n := 2 + (int(b[i+2])<<8 | int(b[i+3]))
		if b[i+1] == 0xDA {
			stripped = append(append(stripped, b[:2]...), b[2:i]...)
			stripped = append(stripped, b[i:]...)
			break
		}
		if b[i+1] == 0xC4 {
			b = append(b[:i:i], b[i+n:]...)
			continue
		}
		i += n
	}
	if hasDHT(stripped) {
		t.Fatal("the tables are still there")
	}
	if _, err := jpeg.Decode(bytes.NewReader(stripped)); err == nil {
		t.Fatal("image/jpeg decodes a JPEG without Huffman tables: the fix is not needed")
	}
	var m mjpeg
	var f Frame
	if err := m.decode(&f, stripped); err != nil {
		t.Fatal(err)
	}
	if f.W != 64 || f.H != 48 {
		t.Fatalf("size %dx%d", f.W, f.H)
	}
	for i, v := range f.Pix {
		if d := int(v) - int(src.Pix[i]); d < -12 || d > 12 {
			t.Fatalf("pixel %d: %d, want about %d", i, v, src.Pix[i])
		}
	}
}

// script is a Source that fails or gives frames as told.
type script struct {
	mu     sync.Mutex
	opens  []error // the errors of successive Opens (nil: it opens); then it opens
	reads  []error // the errors of successive Reads (nil: a frame)
	frame  *Frame
	closed int
}

func (s *script) Name() string { return "script" }
func (s *script) Open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.opens) == 0 {
		return nil
	}
	err := s.opens[0]
	s.opens = s.opens[1:]
	return err
}
func (s *script) Read(dst *Frame) error {
	time.Sleep(time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reads) > 0 {
		err := s.reads[0]
		s.reads = s.reads[1:]
		if err != nil {
			return err
		}
	}
	dst.Resize(s.frame.W, s.frame.H)
	copy(dst.Pix, s.frame.Pix)
	return nil
}
func (s *script) Close() error { s.mu.Lock(); s.closed++; s.mu.Unlock(); return nil }

// waitFor waits (a minute at most: a condition, not a time, is tested) until the feed's status
// satisfies ok.
func waitFor(t *testing.T, f *Feed, what string, ok func(uint64, Status) bool) Status {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if seq, st := f.Latest(nil); ok(seq, st) {
			return st
		}
		time.Sleep(time.Millisecond)
	}
	seq, st := f.Latest(nil)
	t.Fatalf("never %s: at picture %d, %+v", what, seq, st)
	return st
}

// TestFeedStates: missing, then busy, then live; unplugged mid-session, then live again when
// it comes back. Each state has a message for the screen; none stops the feed.
func TestFeedStates(t *testing.T) {
	src := &script{
		opens: []error{describe("x", ErrMissing, nil), describe("x", ErrBusy, nil)},
		reads: []error{nil, nil, nil, describe("x", ErrUnplugged, errors.New("ENODEV"))},
		frame: letterFrame(160, 120),
	}
	feed := NewFeed(src, Options{Retry: time.Millisecond, Side: 40})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { feed.Run(ctx); close(done) }()
	st := waitFor(t, feed, "missing or later", func(_ uint64, st Status) bool { return st.Reopens >= 1 })
	if st.State == Starting {
		t.Errorf("state %v after a failed open", st.State)
	}
	first := waitFor(t, feed, "live", func(seq uint64, st Status) bool { return st.State == Live && seq >= 1 })
	if first.Message() != "" {
		t.Errorf("live has a message: %q", first.Message())
	}
	waitFor(t, feed, "unplugged", func(_ uint64, st Status) bool { return st.State == Unplugged || st.Reopens >= 3 })
	seq0, _ := feed.Latest(nil)
	st = waitFor(t, feed, "live again after the replug", func(seq uint64, st Status) bool { return st.State == Live && seq > seq0+2 })
	cancel()
	<-done
	if st.Frames < 4 {
		t.Errorf("%d frames", st.Frames)
	}
	src.mu.Lock()
	if src.closed < 2 {
		t.Errorf("the source was closed %d times (after the unplug and at the end), want 2", src.closed)
	}
	src.mu.Unlock()
	g := image.NewGray(image.Rect(0, 0, 40, 40))
	feed.Latest(g)
	if g.GrayAt(12, 20).Y != 0 || g.GrayAt(39, 0).Y != 255 {
		t.Errorf("the latest picture is not the letter frame squared: bar %d, corner %d", g.GrayAt(12, 20).Y, g.GrayAt(39, 0).Y)
	}
}

func TestStateMessages(t *testing.T) {
	for _, c := range []struct {
		err  error
		want State
	}{
		{describe("d", ErrMissing, nil), Missing},
		{describe("d", ErrBusy, errors.New("EBUSY")), Busy},
		{describe("d", ErrUnplugged, nil), Unplugged},
		{describe("d", ErrDenied, nil), Denied},
		{errors.New("odd"), Failed},
	} {
		t.Run(c.want.String(), func(t *testing.T) {
			st := stateOf(c.err)
			if st != c.want {
				t.Errorf("%v: state %v, want %v", c.err, st, c.want)
			}
			if (Status{State: st}).Message() == "" {
				t.Errorf("%v: no message for the screen", st)
			}
		})
	}
}

func TestLatestDoesNotAllocate(t *testing.T) {
	feed := NewFeed(nil, Options{})
	g := image.NewGray(image.Rect(0, 0, DefaultSide, DefaultSide))
	if n := testing.AllocsPerRun(100, func() { feed.Latest(g) }); n != 0 {
		t.Errorf("Latest: %v allocations", n)
	}
	f := letterFrame(640, 480)
	if n := testing.AllocsPerRun(20, func() { Square(g, f, false) }); n != 0 {
		t.Errorf("Square: %v allocations", n)
	}
	buf := make([]byte, 640*480*2)
	var fr Frame
	if n := testing.AllocsPerRun(20, func() { yuyv(&fr, buf, 640, 480) }); n != 0 {
		t.Errorf("yuyv: %v allocations", n)
	}
}

// BenchmarkCameraFrameYUYV is the work one camera picture costs on the Feed's goroutine: a
// YUYV frame's luminance, then the square, at the size a V4L2 camera is asked for (320x240)
// and at 640x480.
func BenchmarkCameraFrameYUYV(b *testing.B) {
	b.Run("320x240", func(b *testing.B) { benchYUYV(b, 320, 240) })
	b.Run("640x480", func(b *testing.B) { benchYUYV(b, 640, 480) })
}

func benchYUYV(b *testing.B, w, h int) {
	f := letterFrame(w, h)
	buf := make([]byte, w*h*2)
	for i, v := range f.Pix {
		buf[2*i] = v
	}
	g := image.NewGray(image.Rect(0, 0, DefaultSide, DefaultSide))
	var fr Frame
	b.ReportAllocs()
	for b.Loop() {
		yuyv(&fr, buf, w, h)
		Square(g, &fr, false)
	}
}

// BenchmarkCameraFrameMJPEG is the same for an MJPEG frame.
func BenchmarkCameraFrameMJPEG(b *testing.B) {
	b.Run("320x240", func(b *testing.B) { benchMJPEG(b, 320, 240) })
	b.Run("640x480", func(b *testing.B) { benchMJPEG(b, 640, 480) })
}

func benchMJPEG(b *testing.B, w, h int) {
	f := letterFrame(w, h)
	var out bytes.Buffer
	jpeg.Encode(&out, image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio422), nil)
	out.Reset()
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	for i, v := range f.Pix {
		rgba.Pix[4*i], rgba.Pix[4*i+1], rgba.Pix[4*i+2], rgba.Pix[4*i+3] = v, v, v, 255
	}
	jpeg.Encode(&out, rgba, nil) // colour, as a camera sends
	g := image.NewGray(image.Rect(0, 0, DefaultSide, DefaultSide))
	var m mjpeg
	var fr Frame
	b.ReportAllocs()
	for b.Loop() {
		if err := m.decode(&fr, out.Bytes()); err != nil {
			b.Fatal(err)
		}
		Square(g, &fr, false)
	}
}
