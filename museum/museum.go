// Package museum is the Mark I Perceptron's window: a full-screen machine that visitors
// watch learn and teach, in an ebiten Game kept thin. Update turns the visitor's mouse, touch
// and keys into session commands (through package console) and takes the session's latest
// frame; Draw shows what package view painted of it, written into the screen whole. The
// machine runs in its session, on its own goroutine, so training at full speed never holds a
// frame back, and a frame is always one whole presentation.
//
// This and cmd/mark1-museum are the only packages that import ebiten: on Linux a program that
// imports it panics before main when there is no display, so everything that must run
// headless (the mark1 command, the bridge, the lab, the session and the drawing) stays free
// of it.
package museum

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/mark1-perceptron/mark1/museum/audio"
	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/museum/health"
	"github.com/mark1-perceptron/mark1/museum/screen"
	// Before ebiten's user interface connects to X: it silences xgb's Xauthority notes.
	_ "github.com/mark1-perceptron/mark1/museum/internal/xgbquiet"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Options configure the window.
type Options struct {
	// Fullscreen opens the window full screen.
	Fullscreen bool
	// Kiosk is full screen with the cursor hidden when idle and closing trapped: only the key
	// chord Ctrl+Shift+Q (or ctx) ends it.
	Kiosk bool
	// AttractAfter is how long the machine must stand untouched before the attract mode
	// runs (0: a minute; negative: never).
	AttractAfter time.Duration
	// Screenshot, when not empty, is a PNG file to which the screen is written after Frames
	// frames; the window then closes.
	Screenshot string
	Frames     int
	// Stats, when not nil, receives frame timings while the window is open (the frame and
	// update rates and the painting times, every 10 s) and a summary when it closes.
	Stats io.Writer
	// Title is the window's title; "" means "Mark I Perceptron".
	Title string

	// Institution, when not empty, is shown in a title band above the machine (and in the
	// window's title).
	Institution string
	// Camera, when not nil, is the camera used as the projector: its panel is shown beside
	// the card.
	Camera *camera.Feed
	// Orientation is "auto" (""; the window's shape decides), "landscape" or "portrait";
	// Rotate turns the whole picture clockwise by 0, 90, 180 or 270 degrees.
	Orientation string
	Rotate      int
	// AttractPace and AttractText are the curator's (see console.Options).
	AttractPace float64
	AttractText string
	// Language is the language the screen opens in and returns to at the attract mode, as a
	// code ("de", "fr-CA"; "" or one the catalogue lacks: English); LargeText likewise for
	// the large-text mode.
	Language  string
	LargeText bool
	// Sound, when not nil, is the machine's sound, played through ebiten's audio; with
	// SoundAfterTouch (the browser), only from the visitor's first touch.
	Sound           *audio.Synth
	SoundAfterTouch bool
	// Monitor, when not nil, is told the exhibit's health once a second; Ctrl+Shift+S shows
	// it on the staff screen.
	Monitor *health.Monitor
	// Logger, when not nil, is told what the window does that the staff may want to know
	// (a sound device that would not open, as a warning).
	Logger *slog.Logger
	// WindowW and WindowH are the window's size when not full screen (0: two thirds of
	// view's).
	WindowW, WindowH int
}

// Game is the ebiten Game showing one session.
type Game struct {
	ctx   context.Context
	s     *session.Session
	opts  Options
	scene *view.Scene
	con   *console.Console
	frame session.Frame

	touches   []ebiten.TouchID
	chars     []rune // the characters typed this tick
	touch     ebiten.TouchID
	touching  bool
	touchAt   image.Point
	mouseAt   image.Point
	mouseSeen bool // the cursor has been seen on the screen (its first position is not a move)
	mouseDown bool
	touchEnd  time.Time
	lastMove  time.Time
	hidden    bool

	drawn    int
	lastSeq  uint64
	lastRig  uint64 // the rig's Seq at the last picture
	lastUI   view.UI
	dirty    bool
	quit     bool
	err      error
	start    time.Time
	lastDraw time.Time
	builds   []time.Duration // time to paint each frame (view)
	uploads  []time.Duration // time to paint and hand it to ebiten
	between  []time.Duration // wall time between two Draw calls
	skipped  int
	lastStat time.Time
	statFrom int

	x           extras
	touchedOnce bool
}

// New returns the Game for session s; ctx ends it.
func New(ctx context.Context, s *session.Session, opts Options) (*Game, error) {
	sc, err := view.New(view.Options{})
	if err != nil {
		return nil, err
	}
	g := &Game{ctx: ctx, s: s, opts: opts, scene: sc, dirty: true, start: time.Now()}
	lang, _ := i18n.Parse(opts.Language)
	copts := console.Options{AttractAfter: opts.AttractAfter, AttractPace: opts.AttractPace, AttractText: opts.AttractText,
		Lang: lang, LargeText: opts.LargeText}
	if opts.Camera != nil {
		copts.Camera = opts.Camera
	}
	g.con = console.New(s, sc, copts)
	g.x.synth = opts.Sound
	s.Snapshot(&g.frame)
	return g, nil
}

// Run opens the window and runs the Game until ctx is done, the window is closed (not in a
// kiosk) or the quit chord is pressed. It must be called from the main goroutine.
func Run(ctx context.Context, s *session.Session, opts Options) error {
	g, err := New(ctx, s, opts)
	if err != nil {
		return err
	}
	title := opts.Title
	if title == "" {
		title = "Mark I Perceptron"
		if opts.Institution != "" {
			title += " · " + opts.Institution
		}
	}
	ebiten.SetWindowTitle(title)
	w, h := opts.WindowW, opts.WindowH
	if w <= 0 || h <= 0 {
		w, h = view.Width*2/3, view.Height*2/3
	}
	ebiten.SetWindowSize(w, h)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetRunnableOnUnfocused(true)
	if opts.Fullscreen || opts.Kiosk {
		ebiten.SetFullscreen(true)
	}
	if opts.Kiosk {
		ebiten.SetWindowClosingHandled(true)
	}
	if err := ebiten.RunGame(g); err != nil {
		return fmt.Errorf("museum: %w", err)
	}
	g.report()
	return g.err
}

// Layout implements ebiten.Game: the screen is the layout's picture (view.Width x
// view.Height when it is view's alone), scaled to the window.
func (g *Game) Layout(w, h int) (int, int) { return g.relayout(w, h).Size() }

// Update implements ebiten.Game: input becomes commands, and the latest frame is taken.
func (g *Game) Update() error {
	if g.quit || g.ctx.Err() != nil {
		return ebiten.Termination
	}
	if ebiten.IsWindowBeingClosed() && !g.opts.Kiosk {
		return ebiten.Termination
	}
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl)
	if ctrl && ebiten.IsKeyPressed(ebiten.KeyShift) && inpututil.IsKeyJustPressed(ebiten.KeyQ) {
		return ebiten.Termination
	}
	if ctrl && ebiten.IsKeyPressed(ebiten.KeyShift) && inpututil.IsKeyJustPressed(ebiten.KeyS) {
		g.toggleStaff()
	}
	if !g.opts.Kiosk {
		if ctrl && inpututil.IsKeyJustPressed(ebiten.KeyQ) {
			return ebiten.Termination
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyF11) {
			ebiten.SetFullscreen(!ebiten.IsFullscreen())
		}
	}
	now := time.Now()
	g.s.Snapshot(&g.frame)
	g.input(now)
	g.con.Tick(now, &g.frame)
	g.sound(now)
	g.healthTick(now)
	if g.opts.Kiosk {
		g.cursor(now)
	}
	if g.opts.Stats != nil && now.Sub(g.lastStat) >= 10*time.Second {
		if !g.lastStat.IsZero() {
			fmt.Fprintf(g.opts.Stats, "museum: %.1f FPS, %.1f TPS; paint (view) over the last %d frames: %s\n",
				ebiten.ActualFPS(), ebiten.ActualTPS(), len(g.builds)-g.statFrom, summary(g.builds[g.statFrom:]))
		}
		g.lastStat, g.statFrom = now, len(g.builds)
	}
	return nil
}

// input feeds the mouse, the first finger and the keys to the console.
func (g *Game) input(now time.Time) {
	x, y := ebiten.CursorPosition()
	p := image.Pt(x, y)
	sw, sh := view.Width, view.Height
	if g.x.layout != nil {
		sw, sh = g.x.layout.Size()
	}
	onScreen := p.In(image.Rect(0, 0, sw, sh))
	if !g.mouseSeen && onScreen {
		// A browser reports a position before the pointer has been anywhere.
		g.mouseAt, g.mouseSeen = p, true
	}
	// A browser follows a touch with mouse events of its own: they are not a second press.
	fromTouch := g.touching || now.Sub(g.touchEnd) < time.Second
	if p != g.mouseAt && g.mouseSeen && onScreen && !fromTouch {
		g.mouseAt, g.lastMove = p, now
		g.con.MouseMoved()
		if where, q := g.place(p); where == screen.OnMachine && !g.x.staffOpen {
			if g.mouseDown {
				g.con.Move(q)
			} else if !g.touching {
				g.con.Hover(q)
			}
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) && !fromTouch {
		g.mouseDown = true
		g.press(p, false)
	}
	if g.mouseDown && inpututil.IsMouseButtonJustReleased(ebiten.MouseButtonLeft) {
		g.mouseDown = false
		g.release(p, false)
	}

	// Touch: the first finger down draws and presses; others are ignored until it lifts.
	if !g.touching {
		g.touches = inpututil.AppendJustPressedTouchIDs(g.touches[:0])
		if len(g.touches) > 0 {
			g.touch, g.touching = g.touches[0], true
			g.touchAt = image.Pt(ebiten.TouchPosition(g.touch))
			g.press(g.touchAt, true)
		}
	} else if inpututil.IsTouchJustReleased(g.touch) {
		g.touching, g.touchEnd = false, now
		g.release(g.touchAt, true)
	} else {
		q := image.Pt(ebiten.TouchPosition(g.touch))
		if q != g.touchAt {
			g.touchAt = q
			if where, v := g.place(q); where == screen.OnMachine && !g.x.staffOpen {
				g.con.Move(v)
			}
		}
	}

	if g.x.staffOpen || ebiten.IsKeyPressed(ebiten.KeyControl) {
		return
	}
	shift := ebiten.IsKeyPressed(ebiten.KeyShift)
	for _, k := range keys {
		if inpututil.IsKeyJustPressed(k.key) {
			to := k.to
			if to == console.KeyTab && shift {
				to = console.KeyBackTab
			}
			g.touchedOnce = true
			g.con.Key(to, g.frame.Mode == session.Training)
		}
	}
	// +, - and ? are characters, where each keyboard has them: a German or Spanish keyboard's
	// + and - are not the US keyboard's = and - keys (ebiten's keys are the US positions),
	// and its ? is on the US - key. So these come from the characters typed.
	g.chars = ebiten.AppendInputChars(g.chars[:0])
	for _, r := range g.chars {
		if to, ok := charKey(r); ok {
			g.touchedOnce = true
			g.con.Key(to, g.frame.Mode == session.Training)
		}
	}
}

// charKey is the console's key for a character typed: + (and =, + unshifted on a US
// keyboard) for large text, - (and the minus sign) for the usual text, ? (and /) for the
// help. The numeric keypad's + and - type the same characters.
func charKey(r rune) (console.Key, bool) {
	switch r {
	case '+', '=':
		return console.KeyPlus, true
	case '-', '−':
		return console.KeyMinus, true
	case '?', '/':
		return console.KeyH, true
	}
	return 0, false
}

// press is a mouse button or a finger going down at the screen's point p.
func (g *Game) press(p image.Point, touch bool) {
	g.touchedOnce = true
	if g.x.staffOpen {
		return
	}
	switch where, q := g.place(p); where {
	case screen.OnMachine:
		g.con.Down(q, touch)
	case screen.OnPanel:
		g.panelTap(q, true)
	default:
		g.con.MouseMoved()
	}
}

// release is the end of a press at the screen's point p.
func (g *Game) release(p image.Point, touch bool) {
	if g.x.staffOpen {
		g.staffAct(g.staffPart(p))
		return
	}
	switch where, q := g.place(p); where {
	case screen.OnMachine:
		g.con.Up(q, touch)
	case screen.OnPanel:
		g.panelTap(q, false)
	default:
		g.con.Up(image.Pt(-1, -1), touch)
	}
}

var keys = []struct {
	key ebiten.Key
	to  console.Key
}{
	{ebiten.KeySpace, console.KeySpace}, {ebiten.KeyT, console.KeyT}, {ebiten.KeyR, console.KeyR},
	{ebiten.KeyC, console.KeyC}, {ebiten.KeyArrowLeft, console.KeyLeft}, {ebiten.KeyArrowRight, console.KeyRight},
	{ebiten.KeyEscape, console.KeyEscape}, {ebiten.Key1, console.Key1}, {ebiten.Key2, console.Key2},
	{ebiten.Key3, console.Key3}, {ebiten.Key4, console.Key4}, {ebiten.Key5, console.Key5},
	{ebiten.KeyS, console.KeyS}, {ebiten.KeyEnter, console.KeyEnter}, {ebiten.KeyNumpadEnter, console.KeyEnter},
	{ebiten.KeyL, console.KeyL}, {ebiten.KeyH, console.KeyH}, {ebiten.KeyTab, console.KeyTab},
	// +, - and ?: charKey, from the characters typed.
}

// cursor hides the mouse cursor when it has not moved for a few seconds (kiosk).
func (g *Game) cursor(now time.Time) {
	idle := now.Sub(g.lastMove) > 3*time.Second
	if idle != g.hidden {
		g.hidden = idle
		if idle {
			ebiten.SetCursorMode(ebiten.CursorModeHidden)
		} else {
			ebiten.SetCursorMode(ebiten.CursorModeVisible)
		}
	}
}

// Draw implements ebiten.Game: it paints the frame with package view and writes it into the
// screen in one piece. When nothing moves and nothing changed, the screen keeps its pixels.
func (g *Game) Draw(screen *ebiten.Image) {
	now := time.Now()
	if !g.lastDraw.IsZero() {
		g.between = appendCapped(g.between, now.Sub(g.lastDraw))
	}
	g.lastDraw = now
	ui := g.con.UI
	ui.Elapsed = 0
	moving := !g.scene.Still() || g.con.UI.Highlight.Kind != view.PartNone || g.con.UI.Drawing != nil
	plain := g.x.layout == nil || g.x.layout.Plain() && !g.x.staffOpen
	panels := !plain && g.updatePanels(now)
	viewChanged := g.dirty || moving || g.frame.Seq != g.lastSeq || g.frame.Rig.Seq != g.lastRig || ui != g.lastUI || g.opts.Screenshot != ""
	if !viewChanged && !panels {
		g.skipped++
		return
	}
	g.dirty, g.lastSeq, g.lastRig, g.lastUI = false, g.frame.Seq, g.frame.Rig.Seq, ui
	img := g.scene.Image()
	if viewChanged {
		img = g.scene.Draw(&g.frame, &g.con.UI, now)
	}
	built := time.Since(now)
	if plain {
		screen.WritePixels(img.Pix)
	} else {
		g.drawComposed(screen, img, viewChanged)
	}
	g.builds = appendCapped(g.builds, built)
	g.uploads = appendCapped(g.uploads, time.Since(now))
	g.drawn++
	if g.opts.Screenshot != "" && g.drawn >= max(1, g.opts.Frames) && !g.quit {
		g.err = screenshot(screen, g.opts.Screenshot)
		g.quit = true
	}
}

// maxSamples bounds the timings kept (the latest are dropped beyond it).
const maxSamples = 1 << 16

func appendCapped(s []time.Duration, d time.Duration) []time.Duration {
	if len(s) >= maxSamples {
		return s
	}
	return append(s, d)
}

// screenshot writes what the screen shows to a PNG file.
func screenshot(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("museum: screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("museum: screenshot: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("museum: screenshot: %w", err)
	}
	return nil
}

// report writes the frame timings to Options.Stats.
func (g *Game) report() {
	if g.opts.Stats == nil {
		return
	}
	secs := time.Since(g.start).Seconds()
	fmt.Fprintf(g.opts.Stats, "frames: %d painted, %d unchanged (skipped) in %.1f s; ebiten: %.1f FPS, %.1f TPS\n",
		g.drawn, g.skipped, secs, ebiten.ActualFPS(), ebiten.ActualTPS())
	fmt.Fprintf(g.opts.Stats, "paint (view): %s\n", summary(g.builds))
	fmt.Fprintf(g.opts.Stats, "paint and upload: %s\n", summary(g.uploads))
	fmt.Fprintf(g.opts.Stats, "between frames: %s\n", summary(g.between))
}

// summary returns the mean, median, 99th percentile and maximum of ds.
func summary(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no samples"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	q := func(p float64) time.Duration { return s[min(len(s)-1, int(p*float64(len(s))))] }
	return fmt.Sprintf("%d samples, mean %.2f ms, median %.2f ms, p99 %.2f ms, max %.2f ms",
		len(s), ms(sum/time.Duration(len(s))), ms(q(0.5)), ms(q(0.99)), ms(s[len(s)-1]))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
