//go:build museumwindow

package main

import (
	"image"
	"image/color"
	"image/draw"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/screen"
)

// letterVideo writes a Y4M video of a camera looking at a sheet with the letter on it, held
// close as the panel asks (the paper fills the picture's height; the room shows at the sides,
// outside the square the camera takes): grey paper (not white), dark grey ink (not black), the
// letter a little off centre, a little noise.
func letterVideo(t *testing.T, letter string, w, h int) string {
	t.Helper()
	set, err := builtin.Load("letters")
	if err != nil {
		t.Fatal(err)
	}
	var card image.Image
	for _, c := range set.Cards {
		if set.Classes[c.Class] == letter {
			card = c.Image
			break
		}
	}
	if card == nil {
		t.Fatalf("no card %s", letter)
	}
	var frames []*image.Gray
	for k := range 6 {
		g := image.NewGray(image.Rect(0, 0, w, h))
		draw.Draw(g, g.Bounds(), image.NewUniform(color.Gray{Y: 70}), image.Point{}, draw.Src) // the room
		paper := image.Rect((w-h)/2-w/10, 0, (w+h)/2+w/10, h)
		side := h * 8 / 10
		r := image.Rect((w-side)/2+w/40, (h-side)/2, (w-side)/2+w/40+side, (h-side)/2+side)
		cb := card.Bounds()
		for y := paper.Min.Y; y < paper.Max.Y; y++ {
			for x := paper.Min.X; x < paper.Max.X; x++ {
				l := uint8(255)
				if (image.Point{x, y}).In(r) {
					l = color.GrayModel.Convert(card.At(cb.Min.X+(x-r.Min.X)*cb.Dx()/side, cb.Min.Y+(y-r.Min.Y)*cb.Dy()/side)).(color.Gray).Y
				}
				v := 60 + int(l)*110/255 + (x*7+y*13+k*5)%9 - 4 // paper 170, ink 60
				g.SetGray(x, y, color.Gray{Y: uint8(v)})
			}
		}
		frames = append(frames, g)
	}
	path := filepath.Join(t.TempDir(), "letter-"+letter+".y4m")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := camera.WriteY4M(f, 30, frames...); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// pressKey sends a key to the museum's window once it is there (xdotool; scripts/museum-test.sh
// installs it).
func pressKey(t *testing.T, env []string, key string) {
	t.Helper()
	x, err := exec.LookPath("xdotool")
	if err != nil {
		t.Fatal("no xdotool (scripts/museum-test.sh installs it)")
	}
	// A try that cannot reach the X server is tried again (CI saw one "Can't open display"
	// from xdotool while the window on the same server drew on).
	var out []byte
	for try := 1; ; try++ {
		cmd := exec.Command(x, "search", "--sync", "--name", "Mark I Perceptron", "windowfocus", "--sync", "key", "--delay", "100", key)
		cmd.Env = append(os.Environ(), env...)
		if out, err = cmd.CombinedOutput(); err == nil {
			return
		}
		if try == 5 || !strings.Contains(string(out), "Can't open display") {
			break
		}
		t.Logf("xdotool, try %d: %v: %s", try, err, strings.TrimSpace(string(out)))
		time.Sleep(time.Second)
	}
	t.Errorf("xdotool: %v\n%s", err, out)
}

// viewRect maps a rectangle of view's picture onto the layout's picture.
func viewRect(l *screen.Layout, r image.Rectangle) image.Rectangle {
	for _, tl := range l.Tiles {
		if r.In(tl.Src) {
			s := tl.Scale()
			return image.Rect(tl.Dst.Min.X+int(float64(r.Min.X-tl.Src.Min.X)*s), tl.Dst.Min.Y+int(float64(r.Min.Y-tl.Src.Min.Y)*s),
				tl.Dst.Min.X+int(float64(r.Max.X-tl.Src.Min.X)*s), tl.Dst.Min.Y+int(float64(r.Max.Y-tl.Src.Min.Y)*s))
		}
	}
	return image.Rectangle{}
}

// TestCameraShowIt runs the real program with a recorded camera looking at a card with an E,
// presses S (SHOW IT) and checks the screenshot: the panel shows the picture, the retina the
// letter (lit S-units, more on the E's left, where its upright is), the machine an answer.
func TestCameraShowIt(t *testing.T) {
	for _, c := range []struct {
		name, orientation string
		screenSize        string
		layout            screen.Options
	}{
		{"landscape", "landscape", "", screen.Options{Camera: true, Title: "Museum of Computing"}},
		{"portrait", "portrait", "1080x1920x24", screen.Options{Camera: true, Title: "Museum of Computing", Portrait: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			video := letterVideo(t, "E", 320, 240)
			dir := t.TempDir()
			cur := filepath.Join(dir, "museum.toml")
			os.WriteFile(cur, []byte("[exhibit]\ninstitution = \"Museum of Computing\"\n[camera]\non = true\ndevice = \"file:"+video+"\"\n[screen]\norientation = \""+c.orientation+"\"\n[staff]\nstatus_addr = \"\"\n"), 0o644)
			shot := filepath.Join(dir, "camera.png")
			env := []string{}
			if c.screenSize != "" {
				env = append(env, "DISPLAY="+ownXvfb(t, c.screenSize))
			}
			cmd := exec.Command(bin, "--curator", cur, "--state-dir", "", "--attract", "0", "--fullscreen", "--screenshot", shot, "--frames", "240")
			cmd.Env = append(os.Environ(), env...)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pressKey(t, env, "s")
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			if out.Len() > 0 {
				t.Errorf("the museum printed %q", out.String())
			}
			img := readAny(t, shot)
			l := screen.New(c.layout)
			if img.Bounds().Size() != image.Pt(l.W, l.H) {
				t.Fatalf("screenshot %v, want the layout's %dx%d", img.Bounds(), l.W, l.H)
			}
			if dst := os.Getenv("MARK1_CAMERA_SHOT"); dst != "" {
				b, _ := os.ReadFile(shot)
				os.WriteFile(strings.Replace(dst, "NAME", c.name, 1), b, 0o644)
			}
			// The panel shows the camera's picture: paper and ink.
			paper, ink := color.RGBA{236, 230, 214, 255}, color.RGBA{24, 22, 20, 255}
			if p, k := near(img, l.Panel, paper, 30), near(img, l.Panel, ink, 30); p < 5000 || k < 2000 {
				t.Errorf("the camera panel shows %d paper and %d ink pixels: no picture", p, k)
			}
			// The retina shows the E: S-units lit, more on its left half (the upright).
			ret := viewRect(l, retinaRect)
			left, right := ret, ret
			left.Max.X, right.Min.X = ret.Min.X+ret.Dx()/2, ret.Min.X+ret.Dx()/2
			nl, nr := near(img, left, amber, 40), near(img, right, amber, 40)
			if nl+nr < 200 || nl < nr*6/5 {
				t.Errorf("the retina: %d amber pixels on the left half, %d on the right: want the E's lamps, more on the left", nl, nr)
			}
			// The machine answered: a letter in the answer panel.
			if n := near(img, viewRect(l, image.Rect(196, 190, 440, 300)), amber, 40); n < 100 {
				t.Errorf("the answer panel has %d amber pixels: no answer", n)
			}
		})
	}
}

func readAny(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// ownXvfb starts an X server of the given screen (WxHxD) for the test; it returns its display.
func ownXvfb(t *testing.T, size string) string {
	t.Helper()
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatal("no Xvfb (scripts/museum-test.sh installs it)")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", size, "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { x.Process.Kill(); x.Wait() })
	num := make(chan string, 1)
	go func() {
		b := make([]byte, 16)
		n, _ := r.Read(b)
		num <- strings.TrimSpace(string(b[:n]))
	}()
	select {
	case d := <-num:
		if d == "" {
			t.Fatal("Xvfb did not start")
		}
		return ":" + d
	case <-time.After(20 * time.Second):
		t.Fatal("Xvfb did not say its display")
	}
	return ""
}

// TestCameraMissingShown: a camera that is not there is a sentence in the camera's panel,
// not a crash: the program runs, and the panel shows no picture but the message (amber text
// where the picture would be).
func TestCameraMissingShown(t *testing.T) {
	dir := t.TempDir()
	shot := filepath.Join(dir, "missing.png")
	out, err := runMuseum(t, nil, "--camera", "file:"+filepath.Join(dir, "no-such-camera.y4m"), "--state-dir", "",
		"--attract", "0", "--fullscreen", "--screenshot", shot, "--frames", "60")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "missing") {
		t.Errorf("the museum did not say the camera is missing: %q", out)
	}
	img := readAny(t, shot)
	l := screen.New(screen.Options{Camera: true})
	if img.Bounds().Size() != image.Pt(l.W, l.H) {
		t.Fatalf("screenshot %v, want the layout's %dx%d", img.Bounds(), l.W, l.H)
	}
	if dst := os.Getenv("MARK1_CAMERA_SHOT"); dst != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(strings.Replace(dst, "NAME", "missing", 1), b, 0o644)
	}
	// A picture is mostly paper (tens of thousands of pixels; TestCameraShowIt); the panel's
	// light text is a few hundred near it.
	paper := color.RGBA{236, 230, 214, 255}
	if p := near(img, l.Panel, paper, 30); p > 5000 {
		t.Errorf("the panel shows %d paper pixels: a picture, with no camera", p)
	}
	if n := near(img, l.Panel, amber, 60); n < 300 {
		t.Errorf("the panel has %d amber pixels: no message", n)
	}
}

// TestCameraUnplugReplug runs the real program on a recorded camera, takes the recording away
// in the middle of the session (the file emptied: its reads fail, as an unplugged camera's
// do) and puts it back: the program says the camera was unplugged, goes on, and the picture
// comes back by itself; SIGTERM then ends it cleanly.
func TestCameraUnplugReplug(t *testing.T) {
	video := letterVideo(t, "E", 320, 240)
	orig, err := os.ReadFile(video)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cmd := exec.Command(bin, "--camera", "file:"+video, "--state-dir", state, "--attract", "0")
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	logFile := filepath.Join(state, "museum.log")
	waitLog := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(3 * time.Minute)
		for time.Now().Before(deadline) {
			b, _ := os.ReadFile(logFile)
			if strings.Count(string(b), what) >= n {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		b, _ := os.ReadFile(logFile)
		t.Fatalf("the log never said %q %d times:\n%s\n%s", what, n, b, out.String())
	}
	waitLog(": live", 1)
	if err := os.WriteFile(video, nil, 0o644); err != nil { // unplugged
		t.Fatal(err)
	}
	waitLog(": unplugged", 1)
	if err := os.WriteFile(video, orig, 0o644); err != nil { // plugged back in
		t.Fatal(err)
	}
	waitLog(": live", 2)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after the replug and SIGTERM: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "unplugged") {
		t.Errorf("standard error did not tell of the unplugged camera: %q", out.String())
	}
}

// syncBuffer is a strings.Builder safe for a process's two output streams.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
