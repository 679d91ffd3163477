package console_test

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/museum/screen"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// letterY4M writes a 320x240 Y4M video (what a V4L2 camera is asked for) of an E on a sheet,
// fps pictures a second, and returns its path.
func letterY4M(tb testing.TB, fps int) string {
	tb.Helper()
	set, err := builtin.Load("letters")
	if err != nil {
		tb.Fatal(err)
	}
	g := image.NewGray(image.Rect(0, 0, 320, 240))
	card := set.Cards[4].Image
	b := card.Bounds()
	for y := range 240 {
		for x := range 320 {
			v := uint8(90)
			if x >= 40 && x < 280 {
				r, _, _, _ := card.At(b.Min.X+(x-40)*b.Dx()/240, b.Min.Y+y*b.Dy()/240).RGBA()
				v = uint8(50 + r>>8*150/255)
			}
			g.Pix[y*320+x] = v
		}
	}
	path := filepath.Join(tb.TempDir(), "E.y4m")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := camera.WriteY4M(f, fps, g, g, g, g); err != nil {
		tb.Fatal(err)
	}
	return path
}

// stillCamera is a console.Camera whose every Latest is a new picture (the worst case for the
// window: a camera faster than the screen).
type stillCamera struct {
	pic *image.Gray
	seq uint64
}

func (c *stillCamera) Side() int { return c.pic.Rect.Dx() }
func (c *stillCamera) Latest(dst *image.Gray) (uint64, camera.Status) {
	copy(dst.Pix, c.pic.Pix)
	c.seq++
	return c.seq, camera.Status{State: camera.Live}
}

// BenchmarkCameraPath is what the camera adds to one frame of a 60 Hz window while the
// retina follows a 30-picture-a-second camera (LIVE): every other frame, the Feed's work for
// a new picture (a 320x240 frame read, then squared and its levels stretched: Square); every
// frame, the console taking the latest picture (and presenting it every 150 ms) and the
// camera panel drawing it (the worst case: a new picture each frame). The machine's answer to
// a presented picture is the session's work, on its own goroutine (BenchmarkTrainingPace).
// The panel's upload to the GPU is apart (ebiten; no window here). docs/kiosk.md quotes it.
func BenchmarkCameraPath(b *testing.B) {
	src := &camera.File{Path: letterY4M(b, 30), Unpaced: true}
	if err := src.Open(); err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	var fr camera.Frame
	square := image.NewGray(image.Rect(0, 0, camera.DefaultSide, camera.DefaultSide))
	cam := &stillCamera{pic: square}
	rec := &nullCommands{}
	sc, err := view.New(view.Options{})
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2025, 5, 1, 8, 0, 0, 0, time.UTC)
	con := console.New(rec, sc, console.Options{Start: now, Camera: cam, AttractAfter: -1})
	var f session.Frame
	f.Answer, f.Want, f.Card = -1, -1, -1
	con.Tick(now, &f)
	con.SetCameraLive(true)
	panel := screen.NewPanel(screen.PanelWidth, view.Height)
	var st screen.PanelState
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i%2 == 0 { // the Feed's goroutine: a camera picture every other window frame
			if err := src.Read(&fr); err != nil {
				b.Fatal(err)
			}
			camera.Square(square, &fr, false)
		}
		i++
		now = now.Add(time.Second / 60)
		con.Tick(now, &f)
		st.Picture, st.Seq, st.Status = con.CameraPicture()
		st.Live = con.CameraLive()
		panel.Draw(&st)
	}
	if !con.CameraLive() || rec.presents == 0 {
		b.Fatalf("the retina did not follow the camera (live %v, %d pictures presented)", con.CameraLive(), rec.presents)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/frame")
}

// nullCommands takes the console's commands and does nothing (counting the presents).
type nullCommands struct{ presents int }

func (n *nullCommands) Train() error                 { return nil }
func (n *nullCommands) Test() error                  { return nil }
func (n *nullCommands) Stop() error                  { return nil }
func (n *nullCommands) Reset() error                 { return nil }
func (n *nullCommands) SetExperiment(string) error   { return nil }
func (n *nullCommands) Teach(int) error              { return nil }
func (n *nullCommands) SetSpeed(session.Speed) error { return nil }
func (n *nullCommands) Present(image.Image) error    { n.presents++; return nil }
func (n *nullCommands) SetRule(machine.Rule) error   { return nil }

// BenchmarkTrainingPace compares, in one run, the machine's pace training at full speed with
// no camera and with a camera on: a Feed reading a 30-picture-a-second video on its own
// goroutine, and a 60 Hz window taking its pictures and drawing the panel. Each iteration is
// half a second without the camera, then half a second with it, each from a new machine; it reports both rates (cards
// a second) and their ratio (1: the camera costs the training nothing). Run it with
// -benchtime=10x.
func BenchmarkTrainingPace(b *testing.B) {
	s, err := session.New(session.Options{Sets: builtin.Load, Experiments: []string{"letters"}, Speed: session.Max})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	// Each half starts from a new machine, training (a machine that converges stops).
	fresh := func() {
		if err := s.Reset(); err != nil {
			b.Fatal(err)
		}
		if err := s.Train(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	count := func() uint64 {
		var f session.Frame
		s.Snapshot(&f)
		return f.Machine.Count
	}
	video := letterY4M(b, 30)
	var off, on time.Duration
	var nOff, nOn uint64
	for b.Loop() {
		// Without the camera.
		fresh()
		c0, t0 := count(), time.Now()
		time.Sleep(500 * time.Millisecond)
		nOff += count() - c0
		off += time.Since(t0)

		// With it: the Feed, and a window's frames taking its pictures.
		fctx, fcancel := context.WithCancel(ctx)
		feed := camera.NewFeed(&camera.File{Path: video}, camera.Options{})
		go feed.Run(fctx)
		fresh()
		var frames atomic.Int64
		stop := make(chan struct{})
		windowDone := make(chan struct{})
		go func() {
			defer close(windowDone)
			panel := screen.NewPanel(screen.PanelWidth, view.Height)
			pic := image.NewGray(image.Rect(0, 0, feed.Side(), feed.Side()))
			var st screen.PanelState
			tick := time.NewTicker(time.Second / 60)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				st.Seq, st.Status = feed.Latest(pic)
				st.Picture = pic
				panel.Draw(&st)
				frames.Add(1)
			}
		}()
		c0, t0 = count(), time.Now()
		time.Sleep(500 * time.Millisecond)
		nOn += count() - c0
		on += time.Since(t0)
		close(stop)
		<-windowDone
		fcancel()
		if feed.Status().Frames == 0 || frames.Load() == 0 {
			b.Fatalf("the camera gave %d pictures, the window drew %d frames", feed.Status().Frames, frames.Load())
		}
	}
	rOff, rOn := float64(nOff)/off.Seconds(), float64(nOn)/on.Seconds()
	b.ReportMetric(rOff, "cards/s-off")
	b.ReportMetric(rOn, "cards/s-camera")
	b.ReportMetric(rOn/rOff, "ratio")
}
