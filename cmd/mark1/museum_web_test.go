package main

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// TestBrowser loads the museum's browser build (made by scripts/web-build.sh) from mark1 web's
// handler into headless Chromium, lets it run, takes a screenshot and checks that the machine
// is drawn: the title and the control panel as the view draws them, lamps lit where a card
// was shown; when the build has the lab, it checks that the lab starts there too (browserLab). It runs when MARK1_BROWSER_TEST=1 (scripts/museum-test.sh sets it, after building
// the browser version); MARK1_WEB_DIR names the build (default ../../web/dist).
func TestBrowser(t *testing.T) {
	if os.Getenv("MARK1_BROWSER_TEST") != "1" {
		t.Skip("MARK1_BROWSER_TEST is not 1 (scripts/museum-test.sh runs this test)")
	}
	dir := os.Getenv("MARK1_WEB_DIR")
	if dir == "" {
		dir = "../../web/dist"
	}
	h, err := webHandler(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	shot := filepath.Join(t.TempDir(), "browser.png")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--enable-unsafe-swiftshader", // WebGL in software, which headless Chromium no longer falls back to unasked
		"--user-data-dir="+t.TempDir(), "--hide-scrollbars",
		"--screenshot="+shot, "--window-size=1920,1080", "--virtual-time-budget=20000", srv.URL+"/?attract=0")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	t.Logf("chromium took %v", time.Since(start).Round(time.Millisecond))
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds().Dx() != view.Width || got.Bounds().Dy() != view.Height {
		t.Fatalf("screenshot %v, want %dx%d", got.Bounds(), view.Width, view.Height)
	}
	if dst := os.Getenv("MARK1_BROWSER_SHOT"); dst != "" {
		if b, err := os.ReadFile(shot); err == nil {
			os.WriteFile(dst, b, 0o644)
		}
	}

	// The lab, when the build has one, starts under mark1 web's headers.
	if _, err := os.Stat(filepath.Join(dir, "lab", "index.html")); err == nil {
		t.Run("lab", func(t *testing.T) { browserLab(t, chromium, srv.URL) })
	}

	// What the view draws of a new letters machine in training: its title and control panel
	// do not depend on the cards shown.
	set, err := builtin.Load("letters")
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(machine.Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	fr := &session.Frame{Seq: 1, Experiment: "letters", Classes: m.Classes(), Codes: m.Codes(), Board: m.Board(), Range: 64,
		Cards: len(set.Cards), Mode: session.Training, Speed: session.Historical, Answer: -1, Want: -1, Card: -1}
	m.Snapshot(&fr.Machine, true)
	sc, err := view.New(view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := sc.Draw(fr, &view.UI{Zoom: -1}, time.Now())
	for _, c := range []struct {
		name string
		r    image.Rectangle
	}{
		{"the title", image.Rect(0, 0, 740, 58)},
		{"the control panel", image.Rect(16, 836, 1380, 1076)},
		{"the racks' labels", image.Rect(916, 170, 1904, 196)},
	} {
		if d := meanDiff(got, want, c.r); d > 8 {
			t.Errorf("%s differs from the view's drawing by %.1f on average (want at most 8)", c.name, d)
		}
	}
	// The machine ran: lamps lit on the A-unit panel and on the retina.
	amber := color.RGBA{255, 178, 64, 255}
	if n := count(got, image.Rect(476, 200, 908, 420), amber); n < 50 {
		t.Errorf("%d amber pixels among the A-unit lamps: no A-unit fired", n)
	}
	if n := count(got, image.Rect(34, 392, 434, 792), amber); n < 50 {
		t.Errorf("%d amber pixels on the retina: no S-unit is on", n)
	}
}

// meanDiff is the mean absolute difference of the colour channels of a and b over r.
func meanDiff(a, b image.Image, r image.Rectangle) float64 {
	var sum float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			sum += math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
		}
	}
	return sum / 257 / 3 / float64(r.Dx()*r.Dy())
}

// count returns the pixels of img in r within 40 of c in every channel.
func count(img image.Image, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if math.Abs(float64(cr>>8)-float64(c.R)) <= 40 && math.Abs(float64(cg>>8)-float64(c.G)) <= 40 && math.Abs(float64(cb>>8)-float64(c.B)) <= 40 {
				n++
			}
		}
	}
	return n
}
