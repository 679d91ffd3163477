// Package console is the museum's desk: it turns a visitor's pointer, touch and keys into
// session commands and keeps the visitor's side of the screen (view.UI): what is chosen,
// pointed at, pressed and drawn. It also runs the attract mode, a narrated historical
// demonstration that starts when nobody has touched the machine for a while and ends at the
// next touch. It has no window and no ebiten: the museum's Game feeds it events, and the
// tests drive it directly.
package console

import (
	"image"
	"image/color"
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Commands are the session commands the console gives (a *session.Session has them).
type Commands interface {
	Train() error
	Test() error
	Stop() error
	Reset() error
	SetExperiment(name string) error
	Present(img image.Image) error
	Teach(class int) error
	SetSpeed(v session.Speed) error
	SetRule(r machine.Rule) error
}

// Screen tells where things are on the screen (a *view.Scene does).
type Screen interface {
	HitTest(p image.Point) view.Part
	RetinaRect() image.Rectangle
	// Controls appends the controls to dst[:0] in the order Tab visits them.
	Controls(dst []view.Part) []view.Part
}

// Key is a key the console understands.
type Key int

// The keys.
const (
	KeyNone   Key = iota
	KeySpace      // train, or stop when training
	KeyT          // test
	KeyR          // reset (twice)
	KeyC          // clear the drawing
	KeyLeft       // the previous A-unit's wiring
	KeyRight      // the next A-unit's wiring
	KeyEscape     // close the zoomed rack
	Key1          // speeds 1..5
	Key2
	Key3
	Key4
	Key5
	KeyS     // show the camera's picture to the machine
	KeyL     // the next language
	KeyPlus  // large text
	KeyMinus // the usual text
	KeyH     // the help, open or closed (also ?)
	KeyTab   // the next control (the keyboard's focus)
	KeyBackTab
	KeyEnter // press the control in focus; with none, show the camera's picture
)

// Options tune a Console.
type Options struct {
	// AttractAfter is how long nobody must touch the machine before the attract mode starts;
	// 0 means DefaultAttractAfter, a negative value never.
	AttractAfter time.Duration
	// Start is the console's clock at its start (the time of the first Tick if zero).
	Start time.Time
	// Camera, when not nil, is the camera used as the projector (see ShowIt).
	Camera Camera
	// AttractPace multiplies the time each scene of the attract mode stays (0: 1).
	AttractPace float64
	// AttractText, when not empty, is the curator's own scene, shown first in each round.
	AttractText string
	// Lang is the language the screen speaks at the start and returns to when the attract
	// mode starts; LargeText likewise for the large-text mode.
	Lang      i18n.Lang
	LargeText bool
}

// DefaultAttractAfter is a minute.
const DefaultAttractAfter = time.Minute

// Timings of the visitor's side.
const (
	presentEvery = 150 * time.Millisecond // a drawing is shown to the machine this often while drawn
	tipFor       = 7 * time.Second        // a tapped part's description stays this long
	noteFor      = 6 * time.Second        // a hint stays this long
	resetWithin  = 4 * time.Second        // the second RESET must come this soon
)

// CanvasSide is the side of the visitor's drawing, in pixels (3 per retina cell).
const CanvasSide = 60

// Console is the visitor's desk. Its methods are called by one goroutine (the window's).
type Console struct {
	// UI is what Draw shows of the visitor's side.
	UI view.UI

	cmd    Commands
	screen Screen
	opts   Options

	start      time.Time
	now        time.Time
	lastInput  time.Time
	canvas     *image.Gray
	drawing    bool
	inked      bool // the canvas changed since it was last shown to the machine
	lastPoint  image.Point
	lastShown  time.Time
	down       view.Part
	tipUntil   time.Time
	noteUntil  time.Time
	resetArmed time.Time
	attract    *attract
	nUnits     int
	nClasses   int
	frameKind  session.Kind
	frameMode  session.Mode
	frameSeq   uint64
	unitChosen time.Time // when the visitor last chose an A-unit
	cam        cameraDesk
	controls   []view.Part // the screen's controls, in Tab's order
}

// unitFollows is how long an A-unit the visitor chose stays shown; after it, the plug-board
// shows the wiring of an A-unit that fires on the card in the holder.
const unitFollows = 2 * time.Minute

// New returns a console that gives its commands to cmd and finds parts with screen.
func New(cmd Commands, screen Screen, opts Options) *Console {
	if opts.AttractAfter == 0 {
		opts.AttractAfter = DefaultAttractAfter
	}
	c := &Console{cmd: cmd, screen: screen, opts: opts, canvas: image.NewGray(image.Rect(0, 0, CanvasSide, CanvasSide)), nUnits: 512}
	c.UI.Zoom = -1
	c.UI.Unit = 0
	c.UI.Lang, c.UI.LargeText = opts.Lang, opts.LargeText
	c.clearCanvas()
	if opts.Camera != nil {
		side := opts.Camera.Side()
		c.cam = cameraDesk{src: opts.Camera, pic: image.NewGray(image.Rect(0, 0, side, side))}
	}
	if !(opts.AttractPace > 0) {
		c.opts.AttractPace = 1
	}
	if !opts.Start.IsZero() {
		c.start, c.now, c.lastInput = opts.Start, opts.Start, opts.Start
	}
	return c
}

func (c *Console) clearCanvas() {
	for i := range c.canvas.Pix {
		c.canvas.Pix[i] = 255
	}
}

// Attracting reports whether the attract mode runs.
func (c *Console) Attracting() bool { return c.attract != nil }

// Idle returns how long nobody has touched the machine.
func (c *Console) Idle() time.Duration { return c.now.Sub(c.lastInput) }

// touched notes input; it returns false when the input only ended the attract mode (and must
// not act).
func (c *Console) touched() bool {
	c.lastInput = c.now
	if c.attract != nil {
		c.stopAttract()
		return false
	}
	return true
}

// Tick advances the console's clock to now and follows f, the latest frame: it shows the
// drawing to the machine while it is drawn, ends tips and notes, and runs the attract mode.
// Call it once per frame, before drawing.
func (c *Console) Tick(now time.Time, f *session.Frame) {
	if c.start.IsZero() {
		c.start, c.lastInput = now, now
	}
	c.now = now
	c.UI.Elapsed = now.Sub(c.start)
	c.frameKind, c.frameMode = f.Kind, f.Mode
	if f.Board != nil {
		c.nUnits = f.Board.Len()
	}
	c.nClasses = len(f.Classes)
	if c.UI.Unit >= c.nUnits {
		c.UI.Unit = 0
	}
	if c.UI.Zoom >= len(f.Machine.Pots) {
		c.UI.Zoom = -1
	}
	if f.Seq != c.frameSeq {
		c.frameSeq = f.Seq
		if c.unitChosen.IsZero() || now.Sub(c.unitChosen) > unitFollows {
			c.followFiring(f)
		}
	}
	if c.drawing && c.inked && now.Sub(c.lastShown) >= presentEvery {
		c.present()
	}
	c.tickCamera()
	if !c.tipUntil.IsZero() && now.After(c.tipUntil) {
		c.UI.Hover, c.tipUntil = view.Part{}, time.Time{}
	}
	if c.attract == nil && !c.noteUntil.IsZero() && now.After(c.noteUntil) {
		c.UI.Note, c.noteUntil = "", time.Time{}
	}
	if c.attract == nil && c.opts.AttractAfter > 0 && now.Sub(c.lastInput) >= c.opts.AttractAfter && !c.drawing {
		c.startAttract(f)
	}
	if c.attract != nil {
		c.attract.tick(c, f)
	}
}

// say shows message m, in the screen's language, in place of the caption for a while.
func (c *Console) say(m i18n.Msg, args ...i18n.Arg) { c.note(c.UI.Lang.S(m, args...)) }

// note shows a hint in place of the caption for a while.
func (c *Console) note(text string) {
	c.UI.Note, c.noteUntil = text, c.now.Add(noteFor)
}

// Hover is the mouse moving with no button down: the part under it is described.
func (c *Console) Hover(p image.Point) {
	if c.drawing {
		c.stroke(p)
		return
	}
	part := c.screen.HitTest(p)
	if part != c.UI.Hover || p != c.UI.HoverAt {
		if c.tipUntil.IsZero() || part.Kind != view.PartNone {
			c.UI.Hover, c.UI.HoverAt, c.tipUntil = part, p, time.Time{}
		}
	}
	if !describable(part) {
		c.UI.Hover = view.Part{}
	}
}

// MouseMoved notes that the mouse moved (it wakes the machine from the attract mode like a
// touch, without acting).
func (c *Console) MouseMoved() {
	c.lastInput = c.now
}

// describable reports whether a part has a description worth showing under the pointer
// (controls describe themselves when pointed at, not pressed).
func describable(p view.Part) bool {
	return p.Kind != view.PartNone && p.Kind != view.PartCaption
}

// Down is a press (mouse button or touch) at p.
func (c *Console) Down(p image.Point, touch bool) {
	if !c.touched() {
		c.down = view.Part{}
		return
	}
	c.UI.Focus = view.Part{} // the pointer takes over from the keyboard
	if c.UI.Help {
		// The help closes at the first touch anywhere.
		c.UI.Help, c.down = false, view.Part{}
		return
	}
	part := c.screen.HitTest(p)
	c.down = part
	c.cam.live = false // a touch on the machine hands it back from the camera
	if part.Kind == view.PartCell && part.Index >= 0 {
		c.beginDrawing(p)
		return
	}
	if isControl(part) {
		c.UI.Pressed = part
	}
}

// Move is the pointer moving with the button (or finger) down.
func (c *Console) Move(p image.Point) {
	c.lastInput = c.now
	if c.drawing {
		c.stroke(p)
	}
}

// Up is the release of a press at p: a control acts when released on the part it was
// pressed on.
func (c *Console) Up(p image.Point, touch bool) {
	c.lastInput = c.now
	c.UI.Pressed = view.Part{}
	if c.drawing {
		c.stroke(p)
		c.endDrawing()
		return
	}
	part := c.screen.HitTest(p)
	if part != c.down || part.Kind == view.PartNone {
		c.down = view.Part{}
		return
	}
	c.down = view.Part{}
	c.act(part, p, touch)
}

// isControl reports whether a part is pressed like a button.
func isControl(p view.Part) bool {
	switch p.Kind {
	case view.PartButton, view.PartRule, view.PartSpeed, view.PartExperiment, view.PartClass, view.PartClear,
		view.PartUnitPrev, view.PartUnitNext, view.PartZoomClose, view.PartLanguage, view.PartLargeText, view.PartHelp:
		return true
	}
	return false
}

// act carries out a tap on part.
func (c *Console) act(part view.Part, at image.Point, touch bool) {
	switch part.Kind {
	case view.PartButton:
		switch view.Button(part.Index) {
		case view.ButtonTrain:
			c.UI.HaveDrawing = false
			c.cmd.Train()
		case view.ButtonTest:
			c.UI.HaveDrawing = false
			c.cmd.Test()
		case view.ButtonStop:
			c.cmd.Stop()
		case view.ButtonReset:
			if !c.resetArmed.IsZero() && c.now.Sub(c.resetArmed) <= resetWithin {
				c.resetArmed = time.Time{}
				c.UI.HaveDrawing = false
				c.cmd.Reset()
				c.say(i18n.NoteReset)
			} else {
				c.resetArmed = c.now
				c.say(i18n.NoteResetArmed)
			}
		}
		return
	case view.PartRule:
		c.cmd.SetRule(machine.Rule(part.Index))
		return
	case view.PartSpeed:
		if part.Index >= 0 && part.Index < view.NumSpeeds {
			c.cmd.SetSpeed(view.SpeedAt(part.Index))
		}
		return
	case view.PartExperiment:
		if part.Index >= 0 && part.Index < view.NumExperiments {
			e := view.ExperimentAt(part.Index)
			c.UI.HaveDrawing, c.UI.Zoom = false, -1
			c.cmd.SetExperiment(e.Name)
			c.cmd.Train()
			c.say(e.AboutMsg)
		}
		return
	case view.PartClass:
		c.teach(part.Index)
		return
	case view.PartClear:
		c.clearDrawing()
		return
	case view.PartUnitPrev:
		c.UI.Unit, c.unitChosen = (c.UI.Unit+c.nUnits-1)%c.nUnits, c.now
		return
	case view.PartUnitNext:
		c.UI.Unit, c.unitChosen = (c.UI.Unit+1)%c.nUnits, c.now
		return
	case view.PartZoomClose:
		c.UI.Zoom = -1
		return
	case view.PartLanguage:
		c.UI.Lang = c.UI.Lang.Next()
		c.say(i18n.NoteLanguage)
		return
	case view.PartLargeText:
		c.setLarge(!c.UI.LargeText)
		return
	case view.PartHelp:
		c.UI.Help = !c.UI.Help && part.Index == 0
		c.UI.Hover, c.tipUntil = view.Part{}, time.Time{}
		return
	case view.PartLamp:
		if part.Index >= 0 && part.Index < c.nUnits {
			c.UI.Unit, c.unitChosen = part.Index, c.now
		}
	case view.PartRack:
		if c.UI.Zoom < 0 {
			c.UI.Zoom = part.Index
		}
	case view.PartDial:
		if c.UI.Zoom < 0 {
			c.UI.Zoom = part.Index
		} else if part.Sub < c.nUnits {
			c.UI.Unit, c.unitChosen = part.Sub, c.now
		}
	}
	// Any other part: show what it is (a touch has no hover).
	if touch || describable(part) {
		c.UI.Hover, c.UI.HoverAt, c.tipUntil = part, at, c.now.Add(tipFor)
	}
}

// teach teaches the picture in the holder as class i.
func (c *Console) teach(i int) {
	if i < 0 || i >= c.nClasses {
		return
	}
	canTeachCard := c.frameMode == session.Stopped && c.frameKind != session.None
	if !c.UI.HaveDrawing && !canTeachCard {
		c.say(i18n.NoteDrawFirst)
		return
	}
	c.cmd.Teach(i)
}

// Key is a key pressed.
func (c *Console) Key(k Key, training bool) {
	if !c.touched() {
		return
	}
	if k != KeyS && k != KeyEnter {
		c.cam.live = false
	}
	if c.UI.Help && k != KeyH {
		c.UI.Help = false // any key closes the help (Escape, say), and does only that
		return
	}
	switch k {
	case KeySpace:
		if training {
			c.cmd.Stop()
		} else {
			c.UI.HaveDrawing = false
			c.cmd.Train()
		}
	case KeyT:
		c.act(view.Part{Kind: view.PartButton, Index: int(view.ButtonTest)}, image.Point{}, false)
	case KeyR:
		c.act(view.Part{Kind: view.PartButton, Index: int(view.ButtonReset)}, image.Point{}, false)
	case KeyC:
		c.clearDrawing()
	case KeyLeft:
		c.act(view.Part{Kind: view.PartUnitPrev}, image.Point{}, false)
	case KeyRight:
		c.act(view.Part{Kind: view.PartUnitNext}, image.Point{}, false)
	case KeyEscape:
		c.UI.Zoom = -1
		c.UI.Hover, c.tipUntil = view.Part{}, time.Time{}
		c.UI.Focus = view.Part{}
	case KeyL:
		c.act(view.Part{Kind: view.PartLanguage}, image.Point{}, false)
	case KeyPlus:
		c.setLarge(true)
	case KeyMinus:
		c.setLarge(false)
	case KeyH:
		c.UI.Help = !c.UI.Help
	case KeyTab, KeyBackTab:
		c.moveFocus(k == KeyTab)
	case KeyEnter:
		if c.UI.Focus.Kind != view.PartNone {
			c.press(c.UI.Focus)
		} else {
			c.showIt()
		}
	case Key1, Key2, Key3, Key4, Key5:
		c.act(view.Part{Kind: view.PartSpeed, Index: int(k - Key1)}, image.Point{}, false)
	case KeyS:
		c.showIt()
	}
}

// setLarge turns the large-text mode on or off, and says so.
func (c *Console) setLarge(on bool) {
	c.UI.LargeText = on
	if on {
		c.say(i18n.NoteLargeText)
	} else {
		c.say(i18n.NoteNormalText)
	}
}

// moveFocus moves the keyboard's focus to the next control (or the previous), in the
// screen's order, from the first (or the last) when none has it.
func (c *Console) moveFocus(forward bool) {
	c.controls = c.screen.Controls(c.controls)
	n := len(c.controls)
	if n == 0 {
		return
	}
	i := -1
	for j, p := range c.controls {
		if p == c.UI.Focus {
			i = j
		}
	}
	switch {
	case i < 0 && forward:
		i = 0
	case i < 0:
		i = n - 1
	case forward:
		i = (i + 1) % n
	default:
		i = (i + n - 1) % n
	}
	c.UI.Focus = c.controls[i]
}

// press acts on a control as a tap would (from the keyboard), and shows what it is.
func (c *Console) press(p view.Part) {
	if p.Kind == view.PartRule {
		c.cmd.SetRule(machine.Rule(p.Index))
		return
	}
	c.act(p, image.Point{}, false)
}

func (c *Console) clearDrawing() {
	c.clearCanvas()
	c.UI.HaveDrawing, c.UI.Drawing = false, nil
}

// beginDrawing starts a stroke on the retina: a new drawing, or more of the one in the holder.
func (c *Console) beginDrawing(p image.Point) {
	if !c.UI.HaveDrawing {
		c.clearCanvas()
	}
	c.drawing = true
	c.UI.Drawing = c.canvas
	c.UI.Hover = view.Part{}
	c.lastPoint = c.canvasPoint(p)
	c.ink(c.lastPoint, c.lastPoint)
	c.cmd.Stop()
}

func (c *Console) endDrawing() {
	c.drawing = false
	c.UI.Drawing = nil
	c.UI.HaveDrawing = true
	c.present()
}

// present shows the canvas to the machine.
func (c *Console) present() {
	c.cmd.Present(c.canvas)
	c.lastShown, c.inked = c.now, false
}

// canvasPoint maps a screen point to the canvas, in 1/16 pixels.
func (c *Console) canvasPoint(p image.Point) image.Point {
	r := c.screen.RetinaRect()
	return image.Pt((p.X-r.Min.X)*CanvasSide*16/r.Dx(), (p.Y-r.Min.Y)*CanvasSide*16/r.Dy())
}

func (c *Console) stroke(p image.Point) {
	q := c.canvasPoint(p)
	c.ink(c.lastPoint, q)
	c.lastPoint = q
}

// brush is the pen's radius in canvas pixels: strokes about two retina cells wide.
const brush = 3.4

// ink draws a stroke from a to b (1/16 canvas pixels) with a round pen.
func (c *Console) ink(a, b image.Point) {
	// Each quotient rounded on its own: no fused multiply-add (see scripts/check-fma.sh).
	ax, ay := float64(float64(a.X)/16), float64(float64(a.Y)/16)
	bx, by := float64(float64(b.X)/16), float64(float64(b.Y)/16)
	x0, x1 := int(math.Floor(min(ax, bx)-brush-1)), int(math.Ceil(max(ax, bx)+brush+1))
	y0, y1 := int(math.Floor(min(ay, by)-brush-1)), int(math.Ceil(max(ay, by)+brush+1))
	dx, dy := bx-ax, by-ay
	l2 := float64(dx*dx) + float64(dy*dy)
	for y := max(0, y0); y < min(CanvasSide, y1); y++ {
		for x := max(0, x0); x < min(CanvasSide, x1); x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			t := 0.0
			if l2 > 0 {
				t = min(1, max(0, (float64((px-ax)*dx)+float64((py-ay)*dy))/l2))
			}
			d := math.Hypot(px-(ax+float64(t*dx)), py-(ay+float64(t*dy)))
			cov := min(1, max(0, brush-d+0.5))
			if cov > 0 {
				v := uint8(255 * (1 - cov))
				if old := c.canvas.GrayAt(x, y).Y; v < old {
					c.canvas.SetGray(x, y, color.Gray{Y: v})
					c.inked = true
				}
			}
		}
	}
}
