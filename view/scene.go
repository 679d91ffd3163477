package view

import (
	"image"
	"strconv"
	"time"

	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Options tune a Scene.
type Options struct {
	// MotorSpeed is how fast a pot's motor turns its shaft, in increments (one correction
	// pulse's travel) per second of machine time; the dials' pointers turn no faster. 0 means
	// DefaultMotorSpeed.
	MotorSpeed float64
}

// DefaultMotorSpeed is a motor that turns a pot by one correction in half a second of machine
// time: within the 2 s the original left between the comparators' latch and the next card.
const DefaultMotorSpeed = 2.0

// bgKey is what the background was drawn for.
type bgKey struct {
	experiment string
	classes    int
	rUnits     int
	unused     [maxR]bool
	rng        float64
	zoom       int
	board      any
	lang       i18n.Lang
	large      bool
	rig        rigKey
}

// Scene draws the machine: Draw paints a Frame (and the visitor's UI) into a Width x Height
// *image.RGBA. It keeps what lasts from frame to frame: the background (panels, labels, dial
// faces, lamp sockets), drawn once per experiment; the fonts and sprites; and the dials'
// pointers, which turn toward the pots' readings no faster than a motor could. A Scene is
// used by one goroutine; once it has drawn a machine's first frame it does not allocate.
type Scene struct {
	img, bg *image.RGBA
	l       *layout
	opts    Options

	fTitle, fHead, fLabel, fButton, fCaption, fBig, fMid, fSmall, fTip *face
	faces                                                              [2]faceSet // usual, large

	key       bgKey
	classKeys []image.Rectangle
	zoom      int
	nR        int
	unused    [maxR]bool

	// The dials' pointers as shown, and how far each still has to turn.
	shown   [maxR][]float32
	moving  [maxR][]bool
	animSeq uint64
	animExp string
	still   bool // no pointer was turning at the last Draw
	last    time.Time
	heat    [maxR][retina.N]float32
	fed     [retina.N]uint8 // A-units each S-unit feeds

	lampOn, lampGlow, sLamp, sLampGlow, rGlow *sprite
	dialFace, dialRing, zoomFace, zoomRing    *sprite
	pointers, zoomPointers                    []*sprite

	buf, tip []byte
	ends     []int
	mbuf     []byte          // a message (msg)
	kbuf     []byte          // a rig knob's name, a gauge's scale
	gaugeGeo rigGeo          // the rig's panel as last drawn (tests)
	lbuf     []byte          // a class's label (label)
	words    words           // a sentence's pieces
	lang     i18n.Lang       // the language of the frame being drawn
	titleEnd int             // where the title bar's own words end
	helpOpen bool            // the help was drawn over the machine
	tipAt    image.Rectangle // the description's box, as last drawn (tests)

	skip string // a draw step left out (tests only: export_test.go)
}

// New returns a Scene.
func New(opts Options) (*Scene, error) {
	if opts.MotorSpeed <= 0 {
		opts.MotorSpeed = DefaultMotorSpeed
	}
	sc := &Scene{
		img:  image.NewRGBA(image.Rect(0, 0, Width, Height)),
		bg:   image.NewRGBA(image.Rect(0, 0, Width, Height)),
		l:    newLayout(),
		opts: opts,
		zoom: -1,
		buf:  make([]byte, 0, 1024),
		tip:  make([]byte, 0, 1024),
		ends: make([]int, 0, 64),
		kbuf: make([]byte, 0, 32),
	}
	var err error
	load := func(name string, size int) *face {
		if err != nil {
			return nil
		}
		var f *face
		f, err = loadFace(name, size)
		return f
	}
	for i, large := range [2]bool{false, true} {
		size := func(usual, big int) int {
			if large {
				return big
			}
			return usual
		}
		sc.faces[i] = faceSet{
			title: load("bold", 34), head: load("bold", size(15, 18)), label: load("medium", size(20, 23)),
			button: load("bold", size(24, 26)), caption: load("regular", size(31, 33)), big: load("bold", 96),
			mid: load("bold", 40), small: load("medium", size(14, 18)), tip: load("regular", size(23, 29)),
		}
	}
	if err != nil {
		return nil, err
	}
	sc.useFaces(false)
	for r := range maxR {
		sc.shown[r] = make([]float32, 0, 1024)
		sc.moving[r] = make([]bool, 0, 1024)
	}
	sc.lampOn = newSprite(5, discCov(4.6))
	sc.lampGlow = newSprite(8, glowCov(3.5, 4.5))
	sc.sLamp = newSprite(5, discCov(4.2))
	sc.sLampGlow = newSprite(9, glowCov(3, 6))
	sc.rGlow = newSprite(30, glowCov(18, 12))
	sc.dialFace = newSprite(6, discCov(4.7))
	sc.dialRing = newSprite(6, ringCov(4.7, 5.8))
	sc.zoomFace = newSprite(16, discCov(15))
	sc.zoomRing = newSprite(17, ringCov(14.5, 16.8))
	for i := range pointerSteps {
		th := pointerAngle(i)
		sc.pointers = append(sc.pointers, newSprite(6, segCov(th, 4.3, 1.8)))
	}
	for i := range zoomPointerSteps {
		th := -maxSweep + 2*maxSweep*float64(i)/float64(zoomPointerSteps-1)
		sc.zoomPointers = append(sc.zoomPointers, newSprite(16, segCov(th, 13.5, 2.6)))
	}
	return sc, nil
}

// faceSet is the scene's fonts at one text size.
type faceSet struct {
	title, head, label, button, caption, big, mid, small, tip *face
}

// useFaces sets the scene's fonts: the usual ones, or the large-text mode's (every text a
// visitor reads is 15 to 29 per cent larger; the title and the answer's big letter are large
// already).
func (sc *Scene) useFaces(large bool) {
	fs := &sc.faces[0]
	if large {
		fs = &sc.faces[1]
	}
	sc.fTitle, sc.fHead, sc.fLabel, sc.fButton, sc.fCaption = fs.title, fs.head, fs.label, fs.button, fs.caption
	sc.fBig, sc.fMid, sc.fSmall, sc.fTip = fs.big, fs.mid, fs.small, fs.tip
}

// Still reports whether nothing was moving at the last Draw: no dial's pointer was still
// turning toward its reading. A window may then keep the last picture until the frame or the
// UI changes.
func (sc *Scene) Still() bool { return sc.still }

// Image returns the image Draw paints (the same one every time).
func (sc *Scene) Image() *image.RGBA { return sc.img }

// Draw paints f as the screen shows it at wall time now, with the visitor's ui, and returns
// the image (Image). Calls with increasing now animate the dials.
func (sc *Scene) Draw(f *session.Frame, ui *UI, now time.Time) *image.RGBA {
	sc.lang = ui.Lang
	sc.useFaces(ui.LargeText)
	sc.tipAt = image.Rectangle{}
	sc.background(f, ui)
	copy(sc.img.Pix, sc.bg.Pix)
	sc.animate(f, now)
	dst := sc.img
	for i := range frameSteps {
		if st := &frameSteps[i]; st.name != sc.skip {
			st.draw(sc, dst, f, ui)
		}
	}
	return dst
}

// A drawStep paints one part of the screen. The steps are named so that the tests can leave
// each out in turn and see that something fails (export_test.go's SkipStep).
type drawStep struct {
	name string
	draw func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI)
}

// frameSteps paint a frame's moving parts over the background, in order.
var frameSteps = [...]drawStep{
	{"title", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawTitle(dst, f) }},
	{"caption", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawCaption(dst, f, ui) }},
	{"card", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawCard(dst, f, ui) }},
	{"answer", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawAnswer(dst, f) }},
	{"retina", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawRetina(dst, f, ui) }},
	{"zoom", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom >= 0 {
			sc.drawZoom(dst, f, ui)
		}
	}},
	{"lamps", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom < 0 {
			sc.drawLamps(dst, f, ui)
		}
	}},
	{"runits", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom < 0 {
			sc.drawRUnits(dst, f)
		}
	}},
	{"heat", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom < 0 {
			sc.drawHeat(dst, f)
		}
	}},
	{"racks", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom < 0 {
			sc.drawRacks(dst, f, ui)
		}
	}},
	{"rig", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawRig(dst, f) }},
	{"wiring", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if sc.zoom < 0 {
			sc.drawWiring(dst, f, ui)
		}
	}},
	{"controls", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawControls(dst, f, ui) }},
	{"curve", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) { sc.drawCurve(dst, f) }},
	{"highlight", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if ui.Highlight.Kind != PartNone {
			sc.drawHighlight(dst, ui)
		}
	}},
	{"focus", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if ui.Focus.Kind != PartNone && !ui.Help {
			sc.drawFocus(dst, ui)
		}
	}},
	{"help", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		sc.helpOpen = ui.Help
		if ui.Help {
			sc.drawHelp(dst)
		}
	}},
	{"tip", func(sc *Scene, dst *image.RGBA, f *session.Frame, ui *UI) {
		if ui.Hover.Kind != PartNone && !ui.Help {
			sc.drawTip(dst, f, ui)
		}
	}},
}

// rName is R-unit r's name, R0 to R7, as mark1's other commands, the lab and the rig's pot
// names (R0.A17) call it.
func rName(r int) string { return "R" + strconv.Itoa(r) }

// unusedR reports which R-units no class's code trains.
func unusedR(f *session.Frame, dst *[maxR]bool) {
	for r := range maxR {
		dst[r] = true
		for _, code := range f.Codes {
			if r < len(code) && code[r] != 0 {
				dst[r] = false
			}
		}
	}
}

// background redraws the background when the experiment, the machine's shape or the zoom
// changed.
func (sc *Scene) background(f *session.Frame, ui *UI) {
	k := bgKey{experiment: f.Experiment, classes: len(f.Classes), rUnits: min(len(f.Machine.Pots), maxR), rng: f.Range, zoom: ui.Zoom, board: f.Board,
		lang: ui.Lang, large: ui.LargeText, rig: rigKey{f.Rig.Attached, f.Rig.Loop, f.Rig.AllKnobs}}
	if k.zoom >= k.rUnits {
		k.zoom = -1
	}
	unusedR(f, &k.unused)
	if k == sc.key && sc.bg.Pix[3] != 0 {
		return
	}
	sc.key, sc.zoom, sc.nR, sc.unused = k, k.zoom, k.rUnits, k.unused
	sc.classKeys = sc.l.classKeys(len(f.Classes), sc.classKeys)
	if f.Board != nil {
		clear(sc.fed[:])
		for _, u := range f.Board.Units {
			for _, s := range u.Exc {
				sc.fed[s]++
			}
			for _, s := range u.Inh {
				sc.fed[s]++
			}
		}
	}
	sc.drawBackground(f)
}

// panel paints a panel's body and edge.
func panel(dst *image.RGBA, r image.Rectangle) {
	roundRect(dst, r, 10, colPanel)
	frameRect(dst, r, 10, 1, colPanelEdge)
}

// drawBackground paints what stays while the experiment, the machine's shape and the zoom
// do: the panels, their labels, the dial faces and the lamp sockets.
func (sc *Scene) drawBackground(f *session.Frame) {
	fill(sc.bg, sc.bg.Rect, colBackground)
	for i := range bgSteps {
		if st := &bgSteps[i]; st.name != sc.skip {
			st.draw(sc, sc.bg, f)
		}
	}
}

// A bgStep paints one part of the background.
type bgStep struct {
	name string
	draw func(sc *Scene, dst *image.RGBA, f *session.Frame)
}

// bgSteps paint the background, in order.
var bgSteps = [...]bgStep{
	{"bg.title", (*Scene).bgTitle},
	{"bg.card", (*Scene).bgCard},
	{"bg.retina", (*Scene).bgRetina},
	{"bg.lamps", (*Scene).bgLamps},
	{"bg.unit", (*Scene).bgUnit},
	{"bg.runits", (*Scene).bgRUnits},
	{"bg.heat", (*Scene).bgHeat},
	{"bg.racks", (*Scene).bgRacks},
	{"bg.rig", (*Scene).bgRig},
	{"bg.controls", (*Scene).bgControls},
	{"bg.curve", (*Scene).bgCurve},
	{"bg.headings", (*Scene).bgHeadings},
}

// bgHeadings paints the panels' headings (those the zoomed rack covers left out).
func (sc *Scene) bgHeadings(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	for _, t := range l.panelTitles {
		if sc.zoom >= 0 && t.at.X > l.zoom.Min.X && t.at.Y < l.controls.Min.Y {
			continue
		}
		m := sc.heading(t.text, f)
		text(dst, fit(m, t.w, sc.fHead, sc.faces[0].head), t.at.X, t.at.Y, m, colHeading)
	}
}

// The Mark I's size, which the panels' headings name: a machine of another (a loop rig's) is
// named by its own numbers.
const (
	markIAUnits = 512
	markIRUnits = maxR
)

// aUnits returns how many A-units f's machine has.
func aUnits(f *session.Frame) int {
	if f.Board != nil {
		return f.Board.Len()
	}
	if len(f.Machine.Pots) > 0 {
		return len(f.Machine.Pots[0]) - 1
	}
	return markIAUnits
}

// heading writes a panel's heading: the Mark I's words, or, for a machine of another size,
// the same words with its numbers.
func (sc *Scene) heading(m i18n.Msg, f *session.Frame) []byte {
	a, r := aUnits(f), len(f.Machine.Pots)
	if r == 0 {
		r = markIRUnits
	}
	switch {
	case m == i18n.PanelAUnits && a != markIAUnits:
		return sc.msg(i18n.PanelAUnitsN, i18n.Int(a))
	case m == i18n.PanelRUnits && r != markIRUnits:
		return sc.msg(i18n.PanelRUnitsN, i18n.Int(r))
	case m == i18n.PanelWeights && (a != markIAUnits || r != markIRUnits):
		return sc.msg(i18n.PanelWeightsN, i18n.Int(r), i18n.Int(a))
	}
	return sc.msg(m)
}

// animate turns the shown pointers toward the frame's pot readings at the motors' speed.
func (sc *Scene) animate(f *session.Frame, now time.Time) {
	pots := f.Machine.Pots
	nR := min(len(pots), maxR)
	jump := f.Experiment != sc.animExp || f.Seq < sc.animSeq || sc.last.IsZero() || f.Speed.IsMax()
	// A machine that has just been built or loaded starts from its readings.
	if nR > 0 && len(sc.shown[0]) != len(pots[0]) {
		jump = true
	}
	dt := now.Sub(sc.last).Seconds()
	if dt < 0 || dt > 1 {
		dt = 1
	}
	sc.last = now
	sc.animExp, sc.animSeq = f.Experiment, f.Seq
	step := float32(sc.opts.MotorSpeed * float64(f.Speed) * dt)
	still := true
	for r := range nR {
		if len(sc.shown[r]) != len(pots[r]) {
			sc.shown[r] = sc.shown[r][:0]
			sc.moving[r] = sc.moving[r][:0]
			for range pots[r] {
				sc.shown[r] = append(sc.shown[r], 0)
				sc.moving[r] = append(sc.moving[r], false)
			}
		}
		sh, mv := sc.shown[r], sc.moving[r]
		for p, v := range pots[r] {
			t := float32(v)
			d := t - sh[p]
			switch {
			case jump || d == 0:
				sh[p], mv[p] = t, false
			case d > step:
				sh[p] += step
				mv[p], still = true, false
			case d < -step:
				sh[p] -= step
				mv[p], still = true, false
			default:
				sh[p], mv[p] = t, false
			}
		}
	}
	sc.still = still
	// What each R-unit has learned: its weights carried back through the plug-board.
	if f.Board == nil {
		return
	}
	for r := range nR {
		h := &sc.heat[r]
		clear(h[:])
		sh := sc.shown[r]
		for a, u := range f.Board.Units {
			w := sh[a]
			if w == 0 {
				continue
			}
			for _, s := range u.Exc {
				h[s] += w
			}
			for _, s := range u.Inh {
				h[s] -= w
			}
		}
	}
}
