//go:build museumwindow

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/internal/devtools"
	"github.com/mark1-perceptron/mark1/museum/screen"
)

// drawnLetterVideo draws, in Go, a visitor's E in thick pen on a sheet held up to a 640x480
// camera (the sheet fills the picture's height; the room shows at the sides) and makes a
// Y4M video of it with ffmpeg, as Chromium's fake camera takes it.
func drawnLetterVideo(t *testing.T) string {
	t.Helper()
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatal("no ffmpeg (scripts/museum-test.sh installs it)")
	}
	img := image.NewGray(image.Rect(0, 0, 640, 480))
	fill := func(r image.Rectangle, v uint8) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				img.SetGray(x, y, color.Gray{Y: v})
			}
		}
	}
	fill(img.Rect, 80)                     // the room
	fill(image.Rect(60, 0, 580, 480), 225) // the sheet
	for _, r := range []image.Rectangle{   // the strokes, a little uneven, as a hand draws them
		image.Rect(210, 100, 262, 384), // the upright
		image.Rect(210, 100, 438, 148), // the top bar
		image.Rect(210, 218, 400, 264), // the middle bar
		image.Rect(210, 336, 444, 384), // the bottom bar
	} {
		fill(r, 35)
	}
	dir := t.TempDir()
	pic := filepath.Join(dir, "E.png")
	f, err := os.Create(pic)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	video := filepath.Join(dir, "E.y4m")
	out, err := exec.Command(ffmpeg, "-v", "error", "-loop", "1", "-framerate", "30", "-i", pic, "-t", "2",
		"-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", video).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	return video
}

// pageState is what globalThis.mark1State() says (state_js.go).
type pageStateT struct {
	Experiment, Mode, Kind, Answer string
	Retina                         []string
	Health                         struct {
		Camera    string  `json:"camera"`
		CameraFPS float64 `json:"camera_fps"`
	} `json:"health"`
}

// isE reports whether the lit cells of a retina (rows of # and .) make an E: within the lit
// cells' bounding box, the left quarter lit in nearly every row (the upright), and the right
// half lit in exactly three runs of rows (the bars) with dark rows between them.
func isE(rows []string) (bool, string) {
	x0, y0, x1, y1 := 99, 99, -1, -1
	for y, row := range rows {
		for x, c := range row {
			if c == '#' {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	if x1 < 0 || x1-x0 < 5 || y1-y0 < 8 {
		return false, "too few cells lit"
	}
	upright, runs, in := 0, 0, false
	for y := y0; y <= y1; y++ {
		left := strings.Contains(rows[y][x0:x0+(x1-x0+1)/4], "#")
		if left {
			upright++
		}
		right := strings.Contains(rows[y][x0+(x1-x0+1)/2:x1+1], "#")
		if right && !in {
			runs++
		}
		in = right
	}
	if upright < (y1-y0+1)*9/10 {
		return false, "no upright on the left"
	}
	if runs != 3 {
		return false, "not three bars"
	}
	return true, ""
}

// TestBrowserCamera loads the browser build in headless Chromium with a fake camera playing a
// drawn E (--use-fake-device-for-media-stream --use-file-for-fake-video-capture), waits for the
// camera to be live, presses S (SHOW IT) as a key typed on the page, and reads the machine's
// state from the page: the retina shows the E and the machine answered it. The screenshot must
// show the camera's picture in its panel beside the machine. scripts/museum-test.sh runs it
// (MARK1_BROWSER_TEST=1, MARK1_WEB_DIR the build); MARK1_CAMERA_SHOT keeps the screenshot.
func TestBrowserCamera(t *testing.T) {
	if os.Getenv("MARK1_BROWSER_TEST") != "1" {
		t.Skip("MARK1_BROWSER_TEST is not 1 (scripts/museum-test.sh runs this test)")
	}
	web := os.Getenv("MARK1_WEB_DIR")
	if web == "" {
		web = "../../web/dist"
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	video := drawnLetterVideo(t)

	// The page is served by mark1 web, as a museum would.
	srv := exec.Command(filepath.Join(filepath.Dir(bin), "mark1"), "web", "--dir", web, "--addr", "127.0.0.1:0")
	stdout, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("mark1 web: %v", err)
	}
	url := regexp.MustCompile(`http://[^ ]+`).FindString(line)
	if url == "" {
		t.Fatalf("mark1 web said %q", line)
	}
	url = strings.TrimSuffix(url, "/") + "/?camera&attract=0"

	d := devtools.Start(t, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--hide-scrollbars", "--window-size=1920,1080",
		"--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
		"--use-file-for-fake-video-capture="+video, url)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	state := func() pageStateT {
		t.Helper()
		s, err := d.Eval(ctx, `typeof mark1State === "function" ? mark1State() : ""`)
		if err != nil {
			t.Fatal(err)
		}
		var st pageStateT
		if s != "" {
			if err := json.Unmarshal([]byte(s), &st); err != nil {
				t.Fatalf("mark1State: %v: %s", err, s)
			}
		}
		return st
	}
	waitFor := func(what string, ok func(pageStateT) bool) pageStateT {
		t.Helper()
		for {
			st := state()
			if ok(st) {
				return st
			}
			if ctx.Err() != nil {
				page, _ := d.Eval(context.Background(), `JSON.stringify(globalThis.mark1Camera || null) + " " + document.body.innerText`)
				t.Fatalf("never %s: %+v (page: %s)", what, st, page)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	before := waitFor("the camera live", func(st pageStateT) bool { return st.Health.Camera == "live" && st.Health.CameraFPS > 5 })
	if before.Kind == "shown" {
		t.Fatalf("a picture was shown before SHOW IT: %+v", before)
	}
	// S typed on the page (ebiten's canvas has the focus).
	for _, typ := range []string{"keyDown", "keyUp"} {
		if err := d.Page("Input.dispatchKeyEvent", map[string]any{"type": typ, "key": "s", "code": "KeyS",
			"windowsVirtualKeyCode": 83, "nativeVirtualKeyCode": 83}, nil); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	after := waitFor("the picture shown", func(st pageStateT) bool { return st.Kind == "shown" && st.Mode == "stopped" })
	t.Logf("after SHOW IT: the machine answered %q; the retina:\n%s", after.Answer, strings.Join(after.Retina, "\n"))
	if ok, why := isE(after.Retina); !ok {
		t.Errorf("the retina does not show the E (%s)", why)
	}
	if after.Answer == "" {
		t.Errorf("the machine did not answer")
	}

	// The screenshot: the camera's panel beside the machine shows the sheet, paper and ink.
	time.Sleep(time.Second)
	var shot struct {
		Data string `json:"data"`
	}
	if err := d.Page("Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		t.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	if dst := os.Getenv("MARK1_CAMERA_SHOT"); dst != "" {
		os.WriteFile(strings.Replace(dst, "NAME", "browser", 1), b, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	l := screen.New(screen.Options{Camera: true})
	sc := min(float64(img.Bounds().Dx())/float64(l.W), float64(img.Bounds().Dy())/float64(l.H))
	ox, oy := (float64(img.Bounds().Dx())-sc*float64(l.W))/2, (float64(img.Bounds().Dy())-sc*float64(l.H))/2
	panel := image.Rect(int(ox+sc*float64(l.Panel.Min.X)), int(oy+sc*float64(l.Panel.Min.Y)),
		int(ox+sc*float64(l.Panel.Max.X)), int(oy+sc*float64(l.Panel.Max.Y)))
	paper, ink := color.RGBA{236, 230, 214, 255}, color.RGBA{24, 22, 20, 255}
	area := panel.Dx() * panel.Dy()
	if p, k := near(img, panel, paper, 30), near(img, panel, ink, 30); p < area/20 || k < area/80 {
		t.Errorf("the camera panel %v shows %d paper and %d ink pixels of %d: no picture", panel, p, k, area)
	}
}
