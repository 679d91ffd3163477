package view_test

import (
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// screens are the main screens, each drawn from a deterministic frame.
type screen struct {
	name  string
	frame *session.Frame
	ui    view.UI
	// then, when not nil, is drawn after frame, dt later (animation).
	then *session.Frame
	dt   time.Duration
}

func screens(t testing.TB) []screen {
	var out []screen
	// A new machine, nothing shown yet.
	fresh := newRig(t, "letters", machine.Default())
	out = append(out, screen{name: "start", frame: fresh.frame(session.None, session.Stopped, -1, -1, -1), ui: view.UI{Zoom: -1, Unit: 17}})

	// Letters in training: three epochs done, a card answered wrongly mid-epoch; the dials
	// turning toward their new readings.
	lt := newRig(t, "letters", machine.Default())
	lt.epochs(3)
	before := lt.frame(session.TrainCard, session.Training, 0, 0, 0)
	var f *session.Frame
	for k := range lt.deck.Len() {
		f = lt.train(k, k+1, 9)
		if f.Answer != f.Want && len(f.Machine.Moves) > 0 {
			break
		}
	}
	out = append(out, screen{name: "training", frame: before, then: f, dt: 200 * time.Millisecond, ui: view.UI{Zoom: -1, Unit: 17}})

	// A visitor's drawing, shown and answered, the pointer on a rack.
	sh := newRig(t, "letters", machine.Default())
	sh.epochs(6)
	var stim retina.Stimulus
	e := letterE()
	sh.m.PrepareImage(e, &stim)
	ans := sh.m.Present(&stim)
	g := sh.frame(session.Shown, session.Stopped, -1, -1, ans)
	session.Picture(g.Picture[:], e)
	out = append(out, screen{name: "drawing", frame: g, ui: view.UI{Zoom: -1, Unit: 200, HaveDrawing: true, Hover: view.Part{Kind: view.PartDial, Index: 2, Sub: 40}, HoverAt: image.Pt(1300, 400)}})

	// A zoomed rack, motors turning after a lesson.
	zb := sh.frame(session.Shown, session.Stopped, -1, -1, ans)
	want := (ans + 4) % 26
	sh.m.Train(&stim, want)
	z := sh.frame(session.Taught, session.Stopped, -1, want, ans)
	session.Picture(z.Picture[:], e)
	session.Picture(zb.Picture[:], e)
	zoom := 0
	if len(z.Machine.Moves) > 0 {
		zoom = z.Machine.Moves[0].R
	}
	out = append(out, screen{name: "zoom", frame: zb, then: z, dt: 100 * time.Millisecond, ui: view.UI{Zoom: zoom, Unit: 5, HaveDrawing: true}})

	// Shapes under test, the forced rule, one-hot coding.
	cfg := machine.Default()
	cfg.Rule = machine.Forced
	st := newRig(t, "shapes", cfg)
	st.epochs(4)
	k := 7
	a := st.m.Present(&st.deck.Stimuli[k])
	tf := st.frame(session.TestCard, session.Testing, k, st.deck.Class[k], a)
	tf.Tested, tf.TestDone, tf.TestCorrect = true, 8, 7
	tf.Speed = 10
	out = append(out, screen{name: "test", frame: tf, ui: view.UI{Zoom: -1, Unit: 300}})

	// The attract mode's narration, its subject ringed.
	a5 := lt.m.Present(&lt.deck.Stimuli[5])
	af := lt.frame(session.TrainCard, session.Training, 5, lt.deck.Class[5], a5)
	af.EpochDone = 6
	out = append(out, screen{name: "attract", frame: af, ui: view.UI{Zoom: -1, Unit: 40, Attract: true,
		Note:      "The weights are potentiometers in racks, turned by electric motors. When the answer is wrong, the motors turn the weights of the firing A-units toward the right answer: they glow amber as they turn.",
		Highlight: view.Part{Kind: view.PartRack, Index: -1}, Elapsed: 400 * time.Millisecond}})
	return out
}

func drawScreen(t testing.TB, sc *view.Scene, s screen) *image.RGBA {
	t0 := time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC)
	img := sc.Draw(s.frame, &s.ui, t0)
	if s.then != nil {
		img = sc.Draw(s.then, &s.ui, t0.Add(s.dt))
	}
	return img
}

// TestGolden draws the main screens and compares them, at half size, with the images in
// testdata/ (approximately: fonts rasterise a little differently across versions). Run with
// -update to rewrite them after a deliberate change, and look at them.
func TestGolden(t *testing.T) {
	for _, s := range screens(t) {
		t.Run(s.name, func(t *testing.T) {
			sc, err := view.New(view.Options{})
			if err != nil {
				t.Fatal(err)
			}
			img := half(drawScreen(t, sc, s))
			path := filepath.Join("testdata", s.name+".png")
			if *update {
				writePNG(t, path, img)
				return
			}
			want, err := readPNG(path)
			if err != nil {
				t.Fatalf("%v (run go test ./view -update to make it)", err)
			}
			if d, frac := compare(img, want); d > 4 || frac > 0.01 {
				out := filepath.Join(t.TempDir(), s.name+".png")
				writePNG(t, out, img)
				t.Errorf("%s: mean difference %.2f, %.2f%% of pixels differ by more than 32 (got %s)", path, d, 100*frac, out)
			}
		})
	}
}

// half shrinks img by two in each direction (box filter).
func half(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			for c := range 4 {
				s := 0
				for dy := range 2 {
					for dx := range 2 {
						s += int(img.Pix[img.PixOffset(2*x+dx, 2*y+dy)+c])
					}
				}
				out.Pix[out.PixOffset(x, y)+c] = uint8(s / 4)
			}
		}
	}
	return out
}

// compare returns the mean absolute difference per channel and the fraction of pixels with a
// channel differing by more than 32.
func compare(a *image.RGBA, b image.Image) (float64, float64) {
	if a.Bounds() != b.Bounds() {
		return math.Inf(1), 1
	}
	bb := image.NewRGBA(b.Bounds())
	draw.Draw(bb, bb.Rect, b, b.Bounds().Min, draw.Src)
	var sum, bad float64
	for i := 0; i < len(a.Pix); i += 4 {
		big := false
		for c := range 3 {
			d := math.Abs(float64(a.Pix[i+c]) - float64(bb.Pix[i+c]))
			sum += d
			big = big || d > 32
		}
		if big {
			bad++
		}
	}
	n := float64(len(a.Pix) / 4)
	return sum / (3 * n), bad / n
}

func writePNG(t testing.TB, path string, img image.Image) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func readPNG(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// TestWriteScreens writes the screens at full size to $VIEW_SCREENS (for looking at them).
func TestWriteScreens(t *testing.T) {
	dir := os.Getenv("VIEW_SCREENS")
	if dir == "" {
		t.Skip("VIEW_SCREENS not set")
	}
	for _, s := range screens(t) {
		sc, err := view.New(view.Options{})
		if err != nil {
			t.Fatal(err)
		}
		writePNG(t, filepath.Join(dir, s.name+".png"), drawScreen(t, sc, s))
	}
}
