package console_test

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/view"
)

// fakeCamera hands the console a picture and a state, as a camera.Feed does.
type fakeCamera struct {
	pic    *image.Gray
	seq    uint64
	status camera.Status
}

func (f *fakeCamera) Side() int { return 40 }
func (f *fakeCamera) Latest(dst *image.Gray) (uint64, camera.Status) {
	if dst != nil && f.pic != nil {
		copy(dst.Pix, f.pic.Pix)
	}
	return f.seq, f.status
}

func newCameraDesk(t *testing.T, cam *fakeCamera) *desk {
	d := newDesk(t, "letters")
	d.c = console.New(d.rec, d.sc, console.Options{Start: d.now, Camera: cam})
	d.frame()
	return d
}

func barPicture(v uint8) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 40, 40))
	for i := range g.Pix {
		g.Pix[i] = 255
		if x := i % 40; x >= 10 && x < 16 {
			g.Pix[i] = v
		}
	}
	return g
}

// TestShowIt: SHOW IT (or S) stops the machine and presents the camera's picture; the class
// keys then teach it.
func TestShowIt(t *testing.T) {
	cam := &fakeCamera{pic: barPicture(0), seq: 5, status: camera.Status{State: camera.Live}}
	d := newCameraDesk(t, cam)
	d.c.ShowIt()
	if got := d.rec.take(); got != "stop; present" {
		t.Fatalf("SHOW IT gave %q, want stop; present", got)
	}
	if img := d.rec.imgs[len(d.rec.imgs)-1]; img.GrayAt(12, 20).Y != 0 || img.GrayAt(30, 20).Y != 255 {
		t.Errorf("the picture presented is not the camera's")
	}
	if !d.c.UI.HaveDrawing {
		t.Error("after SHOW IT the class keys do not teach")
	}
	d.frame()
	d.tap(d.find(view.PartClass, 4))
	if got := d.rec.take(); got != "teach 4" {
		t.Errorf("a class key after SHOW IT: %q, want teach 4", got)
	}
	// The key S does the same.
	cam.seq++
	d.c.Key(console.KeyS, false)
	if got := d.rec.take(); got != "stop; present" {
		t.Errorf("S gave %q", got)
	}
	// Nothing new is presented until SHOW IT again: the picture stays in the holder.
	cam.seq++
	d.wait(2 * time.Second)
	if got := d.rec.take(); got != "" {
		t.Errorf("after SHOW IT the console went on with %q", got)
	}
}

// TestCameraLive: LIVE presents each new picture, about every 150 ms, until a touch on the
// machine ends it.
func TestCameraLive(t *testing.T) {
	cam := &fakeCamera{pic: barPicture(0), seq: 1, status: camera.Status{State: camera.Live}}
	d := newCameraDesk(t, cam)
	d.c.SetCameraLive(true)
	if !d.c.CameraLive() {
		t.Fatal("not live")
	}
	d.rec.take()
	n := 0
	for range 60 { // a second of frames at 60 Hz, a new picture at 30 Hz
		d.now = d.now.Add(time.Second / 60)
		cam.seq++
		d.c.Tick(d.now, d.f)
		n += strings.Count(d.rec.take(), "present")
	}
	if n < 5 || n > 8 {
		t.Errorf("%d presentations in a second live, want about 7 (one every 150 ms)", n)
	}
	// No new picture, no presentation.
	d.wait(time.Second)
	if got := d.rec.take(); got != "" {
		t.Errorf("the same picture presented again: %q", got)
	}
	d.tap(d.find(view.PartButton, int(view.ButtonTrain)))
	if d.c.CameraLive() {
		t.Error("still live after TRAIN")
	}
	cam.seq++
	d.rec.take()
	d.wait(time.Second)
	if got := d.rec.take(); got != "" {
		t.Errorf("after TRAIN the camera still presents: %q", got)
	}
}

// TestCameraMissing: SHOW IT without a picture tells the visitor why and presents nothing.
func TestCameraMissing(t *testing.T) {
	cam := &fakeCamera{status: camera.Status{State: camera.Unplugged}}
	d := newCameraDesk(t, cam)
	d.c.ShowIt()
	if got := d.rec.take(); got != "" {
		t.Errorf("SHOW IT without a camera: %q", got)
	}
	if !strings.Contains(d.c.UI.Note, "unplugged") {
		t.Errorf("the note %q does not say the camera is unplugged", d.c.UI.Note)
	}
	d.c.SetCameraLive(true)
	if d.c.CameraLive() {
		t.Error("live without a camera")
	}
}

// TestAttractPaceAndText: the curator's own scene opens each round, and the scenes last
// AttractPace times as long.
func TestAttractPaceAndText(t *testing.T) {
	d := newDesk(t, "letters")
	d.c = console.New(d.rec, d.sc, console.Options{Start: d.now, AttractAfter: 20 * time.Second, AttractPace: 2, AttractText: "Welcome to the Museum of Computing."})
	d.frame()
	d.wait(21 * time.Second)
	if !d.c.Attracting() || d.c.UI.Note != "Welcome to the Museum of Computing." {
		t.Fatalf("the attract mode opens with %q", d.c.UI.Note)
	}
	d.wait(15 * time.Second) // the curator's scene: 9 s at pace 2 is 18 s
	if d.c.UI.Note != "Welcome to the Museum of Computing." {
		t.Errorf("the curator's scene ended before 18 s: %q", d.c.UI.Note)
	}
	d.wait(4 * time.Second)
	first := d.c.UI.Note
	if !strings.Contains(first, "Rosenblatt") {
		t.Fatalf("after the curator's scene: %q, want the narration's first scene", first)
	}
	d.wait(15 * time.Second) // the first scene: 9 s at pace 2
	if d.c.UI.Note != first {
		t.Errorf("at pace 2 the first scene (9 s) ended before 18 s")
	}
	d.wait(4 * time.Second)
	if d.c.UI.Note == first {
		t.Errorf("the first scene did not end after 18 s")
	}
}
