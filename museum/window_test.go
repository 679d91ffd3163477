//go:build museumwindow

// The window's tests need a display (scripts/museum-test.sh runs them under Xvfb with
// -tags museumwindow); without the tag this package has no tests, so "go test ./..." never
// links ebiten.

package museum

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/session"
)

// TestWindowShowsWholeFrames runs the Game (ebiten allows one per process) on a session
// training at full speed, takes a screenshot through ebiten after 90 frames, and checks that
// the screen is, pixel for pixel, the picture the view painted last: the window shows whole
// frames, each one presentation.
func TestWindowShowsWholeFrames(t *testing.T) {
	s, err := session.New(session.Options{Sets: builtin.Load, Experiment: "letters", Speed: session.Max})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	s.Train()
	shot := filepath.Join(t.TempDir(), "window.png")
	var stats bytes.Buffer
	g, err := New(context.Background(), s, Options{Screenshot: shot, Frames: 90, Stats: &stats})
	if err != nil {
		t.Fatal(err)
	}
	ebiten.SetWindowSize(960, 540)
	ebiten.SetScreenClearedEveryFrame(false)
	start := time.Now()
	if err := ebiten.RunGame(g); err != nil {
		t.Fatal(err)
	}
	g.report()
	t.Logf("%d frames in %v\n%s", g.drawn, time.Since(start).Round(time.Millisecond), stats.String())
	if g.err != nil {
		t.Fatal(g.err)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	want := g.scene.Image()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("screen %v, painted %v", got.Bounds(), want.Bounds())
	}
	rgba, ok := got.(*image.RGBA)
	if !ok {
		nrgba, ok := got.(*image.NRGBA)
		if !ok {
			t.Fatalf("screenshot decoded as %T", got)
		}
		rgba = &image.RGBA{Pix: nrgba.Pix, Stride: nrgba.Stride, Rect: nrgba.Rect}
	}
	if !bytes.Equal(rgba.Pix, want.Pix) {
		diff := 0
		for i := range want.Pix {
			if rgba.Pix[i] != want.Pix[i] {
				diff++
			}
		}
		t.Errorf("the screen differs from the painted frame in %d of %d bytes", diff, len(want.Pix))
	}
	if g.frame.Machine.Count < 100 {
		t.Errorf("only %d presentations while the window ran at full speed", g.frame.Machine.Count)
	}
}
