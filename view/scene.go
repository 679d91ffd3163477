package view

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
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

// The dials sweep +-maxSweep radians from straight up for +-Range increments.
const (
	maxSweep         = 135 * math.Pi / 180
	pointerSteps     = 91  // every 3 degrees
	zoomPointerSteps = 271 // every degree
)

func pointerAngle(i int) float64 {
	return -maxSweep + 2*maxSweep*float64(i)/float64(pointerSteps-1)
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
		lang: ui.Lang, large: ui.LargeText}
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
	{"bg.controls", (*Scene).bgControls},
	{"bg.curve", (*Scene).bgCurve},
	{"bg.headings", (*Scene).bgHeadings},
}

func (sc *Scene) bgTitle(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	fill(dst, l.title, colTitleBar)
	fill(dst, image.Rect(0, l.title.Max.Y-1, Width, l.title.Max.Y), colPanelEdge)
	x := text(dst, sc.fTitle, 24, 44, sc.msg(i18n.TitleName), colText)
	// The title bar's words keep their size in the large text: they are large already.
	sc.titleEnd = text(dst, sc.faces[0].label, x+20, 43, sc.msg(i18n.TitleMaker), colTextDim)
	sc.accessButtons(dst)
}

// accessButtons paints the visitor's own controls: the languages (every code shown, the one
// spoken lit, so that a visitor finds their own whatever the screen speaks), large text (lit
// when on) and help.
func (sc *Scene) accessButtons(dst *image.RGBA) {
	l := sc.l
	sc.button(dst, l.lang, nil, sc.fLabel)
	fl := sc.faces[0].label // the codes keep their size: four must fit
	// The codes, evenly across the button; the language spoken in amber, underlined.
	n := int(i18n.NumLangs)
	step := (l.lang.Dx() - 16) / n
	for i := range n {
		lg := i18n.Lang(i)
		code := sc.msgCode(lg)
		cx := l.lang.Min.X + 8 + step*i + step/2
		col := colTextDim
		if lg == sc.lang {
			col = colAmber
			w := width(fl, code)
			fill(dst, rect(cx-w/2, l.lang.Max.Y-9, w, 3), colAmber)
		}
		textCentred(dst, fl, cx, l.lang.Min.Y+l.lang.Dy()/2+fl.ascent*7/20, code, col)
	}
	sc.button(dst, l.large, largeLabel, sc.fButton)
	if sc.key.large {
		sc.litButton(dst, l.large, largeLabel, sc.fButton, false)
	}
	sc.button(dst, l.help, helpLabel, sc.fButton)
}

// msgCode writes l's code in capitals ("DE") into the message buffer.
func (sc *Scene) msgCode(l i18n.Lang) []byte {
	sc.mbuf = append(sc.mbuf[:0], l.Code()...)
	for i, c := range sc.mbuf {
		if c >= 'a' && c <= 'z' {
			sc.mbuf[i] = c - 'a' + 'A'
		}
	}
	return sc.mbuf
}

// bgCard paints the card holder and the answer's panel.
func (sc *Scene) bgCard(dst *image.RGBA, f *session.Frame) {
	panel(dst, image.Rect(16, 172-8, 452, 172+180))
	fill(dst, sc.l.card.Inset(-4), colPanelEdge)
}

func (sc *Scene) bgRetina(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.retinaPanel)
	fill(dst, l.retina.Inset(-3), colPanelEdge)
	for s := range retina.N {
		fill(dst, sc.l.cellRect(s).Inset(1), colCellDark)
	}
}

func (sc *Scene) bgLamps(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.lampPanel)
	lamps := 0
	if f.Board != nil {
		lamps = f.Board.Len()
	}
	for a := range min(lamps, lampCols*16) {
		c := l.lampCentre(a)
		sc.lampOn.draw(dst, c.X, c.Y, colAmberDim)
	}
}

// bgUnit paints the plug-board's panel and its arrows.
func (sc *Scene) bgUnit(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.unitPanel)
	sc.button(dst, l.unitPrev, arrowPrev, sc.fButton)
	sc.button(dst, l.unitNext, arrowNext, sc.fButton)
}

func (sc *Scene) bgRUnits(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.rPanel)
	for r := range maxR {
		b := l.rLamp[r]
		cx, cy := float64(b.Min.X+b.Dx()/2), float64(b.Min.Y+20)
		disc(dst, cx, cy, 19, colPanelEdge)
		disc(dst, cx, cy, 16, colGreenDim)
		label := rName(r)
		col := colTextDim
		if r >= sc.nR || sc.unused[r] {
			col = colTextUnused
			disc(dst, cx, cy, 16, colDialFace)
		}
		textCentred(dst, sc.fLabel, b.Min.X+b.Dx()/2, b.Min.Y+62, label, col)
	}
}

func (sc *Scene) bgHeat(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.heatPanel)
	for r := range sc.nR {
		h := l.heat[r]
		fill(dst, h.Inset(-2), colPanelEdge)
		fill(dst, h, colHeatZero)
		col := colTextDim
		if sc.unused[r] {
			col = colTextUnused
		}
		text(dst, sc.fSmall, h.Min.X-24, h.Min.Y+14, rName(r), col)
	}
	// Legend of the heat maps.
	// Right-aligned in the panel: a bright red square marked + and the word for on, a dark
	// blue one marked − and the word for off.
	on, off := sc.msg(i18n.HeatOn), []byte(nil)
	wOn := width(sc.fSmall, on)
	off = sc.msg(i18n.HeatOff)
	wOff := width(sc.fSmall, off)
	sq := sc.fSmall.ascent
	hy := l.heatPanel.Min.Y + 22
	hx := l.heatPanel.Max.X - 12 - (sq + 4 + wOn + 14 + sq + 4 + wOff)
	sc.legendSquare(dst, rect(hx, hy-sq+1, sq, sq), colRed, true)
	text(dst, sc.fSmall, hx+sq+4, hy, sc.msg(i18n.HeatOn), colTextDim)
	hx += sq + 4 + wOn + 14
	sc.legendSquare(dst, rect(hx, hy-sq+1, sq, sq), colBlue, false)
	text(dst, sc.fSmall, hx+sq+4, hy, sc.msg(i18n.HeatOff), colTextDim)
}

// legendSquare paints a colour's square in a legend, marked + or − in the panel's colour, so
// that the sign is read by shape as well as by colour.
func (sc *Scene) legendSquare(dst *image.RGBA, r image.Rectangle, c color.RGBA, plus bool) {
	fill(dst, r, c)
	cx, cy, h := r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2, r.Dx()/2-2
	fill(dst, image.Rect(cx-h, cy-1, cx+h, cy+1), colPanel)
	if plus {
		fill(dst, image.Rect(cx-1, cy-h, cx+1, cy+h), colPanel)
	}
}

// bgRacks paints the racks' dial faces, or the zoomed rack's.
func (sc *Scene) bgRacks(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	if sc.zoom >= 0 {
		sc.drawZoomBackground(dst, f)
		return
	}
	panel(dst, l.rackPanel)
	for r := range sc.nR {
		rk := l.rack[r]
		col := colHeading
		if sc.unused[r] {
			col = colTextUnused
		}
		base := rk.Min.Y + sc.fSmall.ascent - 1
		x := text(dst, sc.fSmall, rk.Min.X, base, sc.msg(i18n.RackName, i18n.Str(rName(r))), col)
		if sc.unused[r] {
			m := sc.msg(i18n.RackUnused)
			textRight(dst, fit(m, rk.Max.X-x-10, sc.fSmall, sc.faces[0].small), rk.Max.X-2, base, m, colTextUnused)
		}
		for p := range min(len(f.Machine.Pots[r]), dialCols*dialRows) {
			c := l.dialCentre(r, p)
			face := colDialFace
			if p == len(f.Machine.Pots[r])-1 {
				face = colBiasFace
			}
			sc.dialRing.draw(dst, c.X, c.Y, colDialRim)
			sc.dialFace.draw(dst, c.X, c.Y, face)
			if !math.IsInf(f.Range, 1) {
				// End stops: a red mark at each end of the sweep.
				for _, s := range [2]float64{-1, 1} {
					x := float64(c.X) + 0.5 + float64(5*math.Sin(s*maxSweep))
					y := float64(c.Y) + 0.5 - float64(5*math.Cos(s*maxSweep))
					disc(dst, x, y, 1, colStop)
				}
			}
		}
	}
}

func (sc *Scene) bgControls(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.controls)
	for i := range numButtons {
		sc.button(dst, l.buttons[i], sc.msg(buttonLabels[i]), sc.fButton)
	}
	m := sc.msg(i18n.PanelRule)
	text(dst, fit(m, l.ruleLabel.Dx(), sc.fHead, sc.faces[0].head), l.ruleLabel.Min.X, l.ruleLabel.Min.Y+16, m, colHeading)
	sc.button(dst, l.rules[0], sc.msg(ruleLabels[0]), sc.fLabel)
	sc.button(dst, l.rules[1], sc.msg(ruleLabels[1]), sc.fLabel)
	m = sc.msg(i18n.PanelSpeed)
	text(dst, fit(m, l.speedLabel.Dx(), sc.fHead, sc.faces[0].head, sc.faces[0].small), l.speedLabel.Min.X, l.speedLabel.Min.Y+16, m, colHeading)
	for i, r := range l.speeds {
		sc.button(dst, r, sc.speedLabel(i), sc.fButton)
	}
	for i, r := range l.exps {
		sc.button(dst, r, sc.msg(Experiments[i].TitleMsg), sc.fLabel)
	}
	m = sc.msg(i18n.PanelTeach)
	text(dst, fit(m, l.teachPanel.Dx(), sc.fHead, sc.faces[0].head, sc.faces[0].small), l.teachPanel.Min.X, l.teachPanel.Min.Y+6, m, colHeading)
	for i, r := range sc.classKeys {
		label := sc.label(f, i)
		sc.button(dst, r, label, sc.classFace(label, r))
	}
	sc.button(dst, l.clear, sc.msg(i18n.ButtonClear), sc.fLabel)
}

func (sc *Scene) bgCurve(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	panel(dst, l.curve)
	m := sc.msg(i18n.PanelCurve)
	text(dst, fit(m, l.curve.Dx()-24, sc.fHead, sc.faces[0].head, sc.faces[0].small), l.curve.Min.X+12, l.curve.Min.Y+22, m, colHeading)
	fill(dst, image.Rect(l.curvePlot.Min.X, l.curvePlot.Max.Y, l.curvePlot.Max.X, l.curvePlot.Max.Y+1), colTextFaint)
	fill(dst, image.Rect(l.curvePlot.Min.X-1, l.curvePlot.Min.Y, l.curvePlot.Min.X, l.curvePlot.Max.Y), colTextFaint)
}

// bgHeadings paints the panels' headings (those the zoomed rack covers left out).
func (sc *Scene) bgHeadings(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	for _, t := range l.panelTitles {
		if sc.zoom >= 0 && t.at.X > l.zoom.Min.X && t.at.Y < l.controls.Min.Y {
			continue
		}
		m := sc.msg(t.text)
		text(dst, fit(m, t.w, sc.fHead, sc.faces[0].head), t.at.X, t.at.Y, m, colHeading)
	}
}

// button paints a push button's body and label (unlit).
func (sc *Scene) button(dst *image.RGBA, r image.Rectangle, label []byte, f *face) {
	roundRect(dst, r.Add(image.Pt(0, 3)), 8, colShadow)
	roundRect(dst, r, 8, colButton)
	frameRect(dst, r, 8, 1.2, colButtonEdge)
	f = sc.buttonFace(label, r, f)
	textCentred(dst, f, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2+f.ascent*7/20, label, colTextDim)
}

// buttonFace is the face a button's label is set in: f, or the usual size of the labels, or
// the small face, the first in which the label fits the button.
func (sc *Scene) buttonFace(label []byte, r image.Rectangle, f *face) *face {
	return fit(label, r.Dx()-12, f, sc.faces[0].label, sc.faces[0].small)
}

// litButton lights a button: amber glass and a bright label.
func (sc *Scene) litButton(dst *image.RGBA, r image.Rectangle, label []byte, f *face, pressed bool) {
	// The unlit label is painted over first: the lit one stands on the glass alone.
	roundRect(dst, r, 8, colButton)
	frameRect(dst, r, 8, 1.2, colButtonEdge)
	blendRect(dst, r.Inset(3), colButtonLit)
	if pressed {
		blendRect(dst, r.Inset(3), color.RGBA{255, 255, 255, 40})
	}
	f = sc.buttonFace(label, r, f)
	textCentred(dst, f, r.Min.X+r.Dx()/2, r.Min.Y+r.Dy()/2+f.ascent*7/20, label, colAmber)
}

func (sc *Scene) drawZoomBackground(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	r := sc.zoom
	panel(dst, l.zoom)
	x := text(dst, sc.fMid, l.zoom.Min.X+16, l.zoom.Min.Y+44, sc.msg(i18n.RackName, i18n.Str(rName(r))), colText)
	// What the rack holds, between its name and CLOSE: one line, or two smaller.
	x = max(x+24, l.zoom.Min.X+230)
	about, room := sc.msg(i18n.ZoomAbout), l.zoomClose.Min.X-16-x
	if f := sc.fLabel; width(f, about) <= room {
		text(dst, f, x, l.zoom.Min.Y+42, about, colTextDim)
	} else {
		f = sc.faces[0].small
		if sc.key.large {
			f = sc.fSmall
		}
		sc.ends, _ = paragraph(dst, f, x, l.zoom.Min.Y+30, room, f.height+2, 2, about, colTextDim, sc.ends)
	}
	sc.button(dst, l.zoomClose, sc.msg(i18n.ButtonClose), sc.fButton)
	for p := range min(len(f.Machine.Pots[r]), zoomCols*zoomRows) {
		c := l.zoomCentre(p)
		face := colDialFace
		if p == len(f.Machine.Pots[r])-1 {
			face = colBiasFace
		}
		sc.zoomRing.draw(dst, c.X, c.Y, colDialRim)
		sc.zoomFace.draw(dst, c.X, c.Y, face)
		fx, fy := float64(c.X)+0.5, float64(c.Y)+0.5
		// Scale: ticks every quarter of the sweep, the zero at the top.
		for i := -4; i <= 4; i++ {
			th := maxSweep * float64(i) / 4
			sx, sy := math.Sin(th), -math.Cos(th)
			col := colTextFaint
			if i == 0 {
				col = colTextDim
			}
			line(dst, fx+float64(12*sx), fy+float64(12*sy), fx+float64(15*sx), fy+float64(15*sy), 1, col)
		}
		if !math.IsInf(f.Range, 1) {
			for _, s := range [2]float64{-1, 1} {
				th := s * maxSweep
				line(dst, fx+float64(10*math.Sin(th)), fy-float64(10*math.Cos(th)), fx+float64(16.5*math.Sin(th)), fy-float64(16.5*math.Cos(th)), 2.4, colStop)
			}
		}
	}
	h := l.zoomHeat
	text(dst, sc.fHead, h.Min.X, h.Min.Y-14, sc.msg(i18n.ZoomLearned, i18n.Str(rName(r))), colHeading)
	// What the map shows, below it (under the motors and the bias), wrapped to the panel.
	sc.ends, _ = paragraph(dst, sc.fSmall, h.Min.X, h.Max.Y+112, l.zoom.Max.X-16-h.Min.X, sc.fSmall.height+2, 3,
		sc.msg(i18n.ZoomLearnedSub), colTextDim, sc.ends)
	fill(dst, h.Inset(-3), colPanelEdge)
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

// appendDuration appends a machine time in lang: "45 s", "12 min", "3 h 05 min", "4 days 3 h".
func appendDuration(b []byte, lang i18n.Lang, s float64) []byte {
	switch {
	case s < 60:
		return lang.Append(b, i18n.DurSeconds, i18n.Int(int(s)))
	case s < 3600:
		return lang.Append(b, i18n.DurMinutes, i18n.Int(int(s/60)))
	case s < 48*3600:
		return lang.Append(b, i18n.DurHoursMinutes, i18n.Int(int(s/3600)), i18n.Pad2(int(s/60)%60))
	}
	return lang.Append(b, i18n.DurDaysHours, i18n.Int(int(s/86400)), i18n.Int(int(s/3600)%24))
}

func (sc *Scene) drawTitle(dst *image.RGBA, f *session.Frame) {
	lang := sc.lang
	b := appendTitle(sc.buf[:0], lang, f)
	fb := sc.faces[0].button
	x := text(dst, fb, max(820, sc.titleEnd+40), 42, b, colAmber)
	// Mode lamp.
	var lamp color.RGBA
	var mode i18n.Msg
	switch f.Mode {
	case session.Training:
		lamp, mode = colGreen, i18n.ModeTraining
	case session.Testing:
		lamp, mode = colBlue, i18n.ModeTesting
	default:
		lamp, mode = colTextFaint, i18n.ModeStopped
	}
	x += 40
	disc(dst, float64(x+9), 31, 9, lamp)
	b = lang.Append(b[:0], mode)
	x = text(dst, fb, x+26, 42, b, colText)
	// Two lines, right-aligned against the visitor's own controls.
	b = b[:0]
	if f.Mode == session.Testing || f.Kind == session.TestCard && f.Tested {
		b = lang.Append(b, i18n.StatusTestCard, i18n.Int(f.TestDone), i18n.Int(f.Cards))
	} else {
		b = lang.Append(b, i18n.StatusEpochCard, i18n.Int(f.Epoch+1), i18n.Int(f.EpochDone), i18n.Int(f.Cards))
	}
	right := sc.l.lang.Min.X - 16
	room := right - x - 24
	textRight(dst, fit(b, room, sc.fSmall, sc.faces[0].small), right, 26, b, colTextDim)
	sc.words.pot = appendDuration(sc.words.pot[:0], lang, f.Machine.Clock)
	b = lang.Append(b[:0], i18n.StatusTotals, i18n.Int(int(f.Machine.Count)), i18n.Bytes(sc.words.pot))
	textRight(dst, fit(b, room, sc.fSmall, sc.faces[0].small), right, 26+sc.faces[0].small.height+2, b, colTextDim)
	sc.buf = b
}

// captionLines is how many lines the caption shows.
const captionLines = 2

func (sc *Scene) drawCaption(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	if ui.Note != "" {
		sc.ends, _ = paragraph(dst, sc.fCaption, l.caption.Min.X+8, l.caption.Min.Y+34, l.caption.Dx()-16, 42, captionLines, ui.Note, colHighlight, sc.ends)
	} else {
		sc.buf = sc.words.caption(sc.buf[:0], sc.lang, f)
		sc.ends, _ = paragraph(dst, sc.fCaption, l.caption.Min.X+8, l.caption.Min.Y+34, l.caption.Dx()-16, 42, captionLines, sc.buf, colText, sc.ends)
	}
}

// drawCard shows the card in the holder, or the visitor's drawing as it is being made.
func (sc *Scene) drawCard(dst *image.RGBA, f *session.Frame, ui *UI) {
	r := sc.l.card
	if ui.Drawing != nil {
		drawGray(dst, r, ui.Drawing)
		return
	}
	for y := range r.Dy() {
		py := y * session.PictureSide / r.Dy()
		i := dst.PixOffset(r.Min.X, r.Min.Y+y)
		row := f.Picture[py*session.PictureSide : (py+1)*session.PictureSide]
		for x := range r.Dx() {
			v := float64(row[x*session.PictureSide/r.Dx()]) / 255
			c := lerp(colInk, colPaper, v)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c.R, c.G, c.B, 255
			i += 4
		}
	}
}

// drawGray scales g into r (nearest pixel), as paper and ink.
func drawGray(dst *image.RGBA, r image.Rectangle, g *image.Gray) {
	b := g.Bounds()
	for y := range r.Dy() {
		py := b.Min.Y + y*b.Dy()/r.Dy()
		i := dst.PixOffset(r.Min.X, r.Min.Y+y)
		for x := range r.Dx() {
			px := b.Min.X + x*b.Dx()/r.Dx()
			v := float64(g.Pix[g.PixOffset(px, py)]) / 255
			c := lerp(colInk, colPaper, v)
			dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c.R, c.G, c.B, 255
			i += 4
		}
	}
}

func (sc *Scene) drawAnswer(dst *image.RGBA, f *session.Frame) {
	a := sc.l.answer
	text(dst, sc.fHead, a.Min.X, a.Min.Y+10, sc.msg(i18n.PanelAnswer), colHeading)
	if f.Answer < 0 || f.Answer >= len(f.Classes) {
		text(dst, sc.fMid, a.Min.X, a.Min.Y+96, "–", colTextUnused)
		return
	}
	label := sc.label(f, f.Answer)
	fnt := sc.fBig
	if width(fnt, label) > a.Dx()-10 {
		fnt = sc.fMid
	}
	col := colAmber
	text(dst, fnt, a.Min.X, a.Min.Y+24+fnt.ascent*3/4+4, label, col)
	if f.Want < 0 || f.Want >= len(f.Classes) {
		m := sc.msg(i18n.AnswerNone)
		text(dst, fit(m, a.Dx(), sc.fLabel, sc.faces[0].label, sc.faces[0].small), a.Min.X, a.Min.Y+150, m, colTextDim)
		return
	}
	x := text(dst, sc.fLabel, a.Min.X, a.Min.Y+136, sc.msg(i18n.AnswerWanted), colTextDim)
	text(dst, sc.fButton, x, a.Min.Y+137, sc.label(f, f.Want), colText)
	right := f.Want == f.Answer
	lamp, word := colWrong, i18n.AnswerWrong
	if right {
		lamp, word = colGreen, i18n.AnswerRight
	}
	disc(dst, float64(a.Min.X+10), float64(a.Min.Y+160), 9, lamp)
	text(dst, sc.fButton, a.Min.X+26, a.Min.Y+169, sc.msg(word), lamp)
}

// drawRetina shows each photocell glowing with its level and the S-unit's lamp lit when on.
func (sc *Scene) drawRetina(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	for s := range retina.N {
		cr := l.cellRect(s).Inset(1)
		lv := float64(f.Machine.Levels[s])
		c := lerp(colCellDark, colCellLit, math.Sqrt(max(0, min(1.2, lv))/1.2))
		fill(dst, cr, c)
		cx, cy := cr.Min.X+cr.Dx()/2, cr.Min.Y+cr.Dy()/2
		if f.Machine.S.Get(s) {
			sc.sLampGlow.draw(dst, cx, cy, withAlpha(colAmberGlow, 160))
			sc.sLamp.draw(dst, cx, cy, colAmber)
		}
	}
	if ui.Drawing != nil {
		// The strokes as they are drawn, over the cells, until the machine sees them.
		g := ui.Drawing
		b := g.Bounds()
		r := l.retina
		for y := range r.Dy() {
			py := b.Min.Y + y*b.Dy()/r.Dy()
			i := dst.PixOffset(r.Min.X, r.Min.Y+y)
			for x := range r.Dx() {
				px := b.Min.X + x*b.Dx()/r.Dx()
				if v := g.Pix[g.PixOffset(px, py)]; v < 250 {
					mixPix(dst.Pix, i, colAmber, uint32(255-v)*100/255)
				}
				i += 4
			}
		}
	}
	b := sc.lang.Append(sc.buf[:0], i18n.RetinaCount, i18n.Int(f.Machine.S.Count()))
	text(dst, fit(b, l.retinaPanel.Dx()-16, sc.fSmall, sc.faces[0].small), l.retinaPanel.Min.X+8, l.retinaPanel.Max.Y-10, b, colTextDim)
	sc.buf = b
}

// diamond is an inhibitory plug's outline: its corners, from the cell's centre.
var diamond = [4][2]float64{{9, 0}, {0, 9}, {-9, 0}, {0, -9}}

// drawWiring draws the chosen A-unit's plugs: wires from its cells to its lamp, red for
// excitatory, blue for inhibitory.
func (sc *Scene) drawWiring(dst *image.RGBA, f *session.Frame, ui *UI) {
	if f.Board == nil || ui.Unit < 0 || ui.Unit >= f.Board.Len() {
		return
	}
	l := sc.l
	u := &f.Board.Units[ui.Unit]
	lc := l.lampCentre(ui.Unit)
	lx, ly := float64(lc.X)+0.5, float64(lc.Y)+0.5
	lit := func(s uint16) bool { return f.Machine.S.Get(int(s)) }
	nExc, nInh := 0, 0
	for pass := range 2 {
		plugs, col := u.Exc, colRed
		if pass == 1 {
			plugs, col = u.Inh, colBlue
		}
		for _, s := range plugs {
			cr := l.cellRect(int(s))
			cx, cy := float64(cr.Min.X)+float64(cellPx)/2, float64(cr.Min.Y)+float64(cellPx)/2
			a := uint8(110)
			if lit(s) {
				a = 230
				if pass == 0 {
					nExc++
				} else {
					nInh++
				}
			}
			line(dst, cx, cy, lx, ly, 1.6, withAlpha(col, a))
			if pass == 0 {
				ring(dst, cx, cy, 6.5, 9, withAlpha(col, 255))
			} else {
				// An inhibitory plug is a diamond: its kind is seen by its shape too.
				for i := range 4 {
					a, b := diamond[i], diamond[(i+1)%4]
					line(dst, cx+a[0], cy+a[1], cx+b[0], cy+b[1], 2.5, col)
				}
			}
		}
	}
	ring(dst, lx, ly, 6, 8.5, colText)
	// The plug-board panel: the unit's sum and threshold.
	p := l.unitPanel
	lang, I := sc.lang, i18n.Int
	// From 0, as the rig (R0.A17), train and features number them.
	b := lang.Append(sc.buf[:0], i18n.AUnitName, I(ui.Unit))
	nameEnd := text(dst, sc.fButton, p.Min.X+66, p.Min.Y+27, b, colText)
	b = lang.Append(b[:0], i18n.AUnitPlugs, I(nExc), I(len(u.Exc)), I(nInh), I(len(u.Inh)), I(u.Theta))
	text(dst, fit(b, p.Dx()-132, sc.fSmall, sc.faces[0].small), p.Min.X+66, p.Min.Y+50, b, colTextDim)
	fires := nExc-nInh >= u.Theta
	word, col := i18n.AUnitResting, colTextDim
	if fires {
		word, col = i18n.AUnitFires, colAmber
	}
	b = lang.Append(b[:0], word)
	textRight(dst, fit(b, p.Max.X-66-nameEnd-12, sc.fButton, sc.faces[0].button, sc.faces[0].label), p.Max.X-66, p.Min.Y+27, b, col)
	sc.buf = b
}

func (sc *Scene) drawLamps(dst *image.RGBA, f *session.Frame, ui *UI) {
	if f.Board == nil {
		return
	}
	l := sc.l
	for a := range min(f.Board.Len(), lampCols*16) { // the panel has room for the Mark I's 512
		if a/64 < len(f.Machine.A) && f.Machine.A[a/64]>>(a%64)&1 == 1 {
			c := l.lampCentre(a)
			sc.lampGlow.draw(dst, c.X, c.Y, withAlpha(colAmberGlow, 130))
			sc.lampOn.draw(dst, c.X, c.Y, colAmber)
		}
	}
	b := sc.lang.Append(sc.buf[:0], i18n.LampsFiring, i18n.Int(f.Machine.Active))
	textRight(dst, sc.fSmall, l.lampPanel.Max.X-10, l.lampPanel.Min.Y+24, b, colAmber)
	sc.buf = b
}

func (sc *Scene) drawRUnits(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	for r := range min(sc.nR, len(f.Machine.Sums)) {
		if sc.unused[r] {
			continue
		}
		b := l.rLamp[r]
		cx, cy := b.Min.X+b.Dx()/2, b.Min.Y+20
		sum := f.Machine.Sums[r]
		if f.Machine.Count > 0 && sum > 0 {
			sc.rGlow.draw(dst, cx, cy, withAlpha(colGreen, 90))
			disc(dst, float64(cx), float64(cy), 16, colGreen)
		}
		if f.Machine.Count > 0 {
			bb := sc.buf[:0]
			if sum > 0 {
				bb = append(bb, '+')
			}
			bb = strconv.AppendFloat(bb, sum, 'f', 0, 64)
			textCentred(dst, fit(bb, b.Dx()-2, sc.fSmall, sc.faces[0].small), cx, b.Min.Y+82, bb, colTextDim)
			sc.buf = bb
		}
	}
	for _, m := range f.Machine.Moves {
		if m.R < sc.nR {
			b := l.rLamp[m.R]
			frameRect(dst, b.Inset(-2), 8, 2, colAmber)
		}
	}
}

// heatColour maps a learned value, scaled to -1..1, to blue, dark or red.
func heatColour(v float32) color.RGBA {
	t := float64(v)
	if t >= 0 {
		return lerp(colHeatZero, colRed, math.Sqrt(min(1, t)))
	}
	return lerp(colHeatZero, colBlue, math.Sqrt(min(1, -t)))
}

// heatScale returns the scale of the heat maps: the largest magnitude over all of them, at
// least a few increments so that a fresh machine's small weights show faintly.
func (sc *Scene) heatScale() float32 {
	m := float32(8)
	for r := range sc.nR {
		for _, v := range sc.heat[r] {
			m = max(m, v, -v)
		}
	}
	return m
}

func (sc *Scene) drawHeat(dst *image.RGBA, f *session.Frame) {
	scale := sc.heatScale()
	for r := range sc.nR {
		sc.heatMap(dst, sc.l.heat[r], &sc.heat[r], scale)
	}
}

func (sc *Scene) heatMap(dst *image.RGBA, rr image.Rectangle, h *[retina.N]float32, scale float32) {
	cw := rr.Dx() / retina.Cols
	for s := range retina.N {
		y, x := s/retina.Cols, s%retina.Cols
		fill(dst, rect(rr.Min.X+x*cw, rr.Min.Y+y*cw, cw, cw), heatColour(h[s]/scale))
	}
}

// dialIndex returns the pointer sprite for value v on a dial of range rng.
func dialFraction(v float32, rng float64) float64 {
	full := rng
	if math.IsInf(full, 1) || full <= 0 {
		full = 64
	}
	return max(-1, min(1, float64(v)/full))
}

// pointerColour colours a pointer by its weight's sign, brighter the larger, amber while its
// motor turns.
func pointerColour(t float64, moving bool) color.RGBA {
	if moving {
		return colAmber
	}
	switch {
	case t > 0.004:
		return lerp(colPointer, colRed, 0.35+float64(0.65*math.Sqrt(min(1, 4*t))))
	case t < -0.004:
		return lerp(colPointer, colBlue, 0.35+float64(0.65*math.Sqrt(min(1, -4*t))))
	}
	return colPointer
}

func (sc *Scene) drawRacks(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	if h := ui.Hover; h.Kind == PartDial && h.Index >= 0 && h.Index < sc.nR {
		c := l.dialCentre(h.Index, h.Sub)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 6, 8, colText)
	}
	for r := range sc.nR {
		sh, mv := sc.shown[r], sc.moving[r]
		sh = sh[:min(len(sh), dialCols*dialRows)]
		for p, v := range sh {
			c := l.dialCentre(r, p)
			t := dialFraction(v, f.Range)
			if mv[p] {
				sc.dialRing.draw(dst, c.X, c.Y, colAmberGlow)
			}
			i := int(math.Round((t + 1) / 2 * float64(pointerSteps-1)))
			col := pointerColour(t, mv[p])
			if sc.unused[r] {
				col = colTextFaint
			}
			sc.pointers[i].draw(dst, c.X, c.Y, col)
		}
	}
}

func (sc *Scene) drawZoom(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	r := sc.zoom
	if h := ui.Hover; h.Kind == PartDial && h.Index == r {
		c := l.zoomCentre(h.Sub)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 17, 19.5, colText)
	}
	sh, mv := sc.shown[r], sc.moving[r]
	moving := 0
	for p, v := range sh[:min(len(sh), zoomCols*zoomRows)] {
		c := l.zoomCentre(p)
		t := dialFraction(v, f.Range)
		if mv[p] {
			sc.zoomRing.draw(dst, c.X, c.Y, colAmberGlow)
			moving++
		}
		i := int(math.Round((t + 1) / 2 * float64(zoomPointerSteps-1)))
		sc.zoomPointers[i].draw(dst, c.X, c.Y, pointerColour(t, mv[p]))
	}
	sc.heatMap(dst, l.zoomHeat, &sc.heat[r], sc.heatScale())
	b := sc.lang.Append(sc.buf[:0], i18n.ZoomMotors, i18n.Int(moving))
	col := colTextDim
	if moving > 0 {
		col = colAmber
	}
	text(dst, sc.fButton, l.zoomHeat.Min.X, l.zoomHeat.Max.Y+44, b, col)
	b = sc.lang.Append(b[:0], i18n.ZoomBias, i18n.Num(float64(sh[len(sh)-1]), 1))
	text(dst, sc.fLabel, l.zoomHeat.Min.X, l.zoomHeat.Max.Y+76, b, colTextDim)
	sc.buf = b
}

func (sc *Scene) drawControls(dst *image.RGBA, f *session.Frame, ui *UI) {
	l := sc.l
	pressed := func(k PartKind, i int) bool { return ui.Pressed.Kind == k && ui.Pressed.Index == i }
	for i := range numButtons {
		lit := i == ButtonTrain && f.Mode == session.Training || i == ButtonTest && f.Mode == session.Testing ||
			i == ButtonStop && f.Mode == session.Stopped
		if lit || pressed(PartButton, int(i)) {
			sc.litButton(dst, l.buttons[i], sc.msg(buttonLabels[i]), sc.fButton, pressed(PartButton, int(i)))
		}
	}
	rule := 0
	if f.Rule == machine.Forced {
		rule = 1
	}
	sc.litButton(dst, l.rules[rule], sc.msg(ruleLabels[rule]), sc.fLabel, pressed(PartRule, rule))
	for i, v := range Speeds {
		if v == f.Speed || pressed(PartSpeed, i) {
			sc.litButton(dst, l.speeds[i], sc.speedLabel(i), sc.fButton, pressed(PartSpeed, i))
		}
	}
	if e := experimentIndex(f.Experiment); e >= 0 && e < len(l.exps) {
		sc.litButton(dst, l.exps[e], sc.msg(Experiments[e].TitleMsg), sc.fLabel, pressed(PartExperiment, e))
	}
	for i, r := range sc.classKeys {
		if !ui.HaveDrawing && ui.Drawing == nil {
			blendRect(dst, r.Inset(2), color.RGBA{14, 16, 21, 110})
		}
		if pressed(PartClass, i) || f.Kind == session.Taught && f.Want == i {
			label := sc.label(f, i)
			sc.litButton(dst, r, label, sc.classFace(label, r), pressed(PartClass, i))
		}
	}
	if pressed(PartClear, 0) {
		sc.litButton(dst, l.clear, sc.msg(i18n.ButtonClear), sc.fLabel, true)
	}
	if pressed(PartUnitPrev, 0) {
		sc.litButton(dst, l.unitPrev, arrowPrev, sc.fButton, true)
	}
	if pressed(PartUnitNext, 0) {
		sc.litButton(dst, l.unitNext, arrowNext, sc.fButton, true)
	}
	if sc.zoom >= 0 && pressed(PartZoomClose, 0) {
		sc.litButton(dst, l.zoomClose, sc.msg(i18n.ButtonClose), sc.fButton, true)
	}
}

// drawCurve plots the mistakes of each epoch, the latest that fit, and the epoch under way.
func (sc *Scene) drawCurve(dst *image.RGBA, f *session.Frame) {
	p := sc.l.curvePlot
	hist := f.History
	first := f.HistoryFirst
	barW := min(24, p.Dx()/max(1, len(hist)+1))
	barW = max(barW, 4)
	maxBars := p.Dx() / barW
	if len(hist) > maxBars-1 {
		first += len(hist) - (maxBars - 1)
		hist = hist[len(hist)-(maxBars-1):]
	}
	top := max(4, f.EpochMistakes)
	for _, v := range hist {
		top = max(top, v)
	}
	top = niceCeil(top)
	for i, v := range hist {
		h := v * p.Dy() / top
		col := colAmber
		if v == 0 {
			col = colGreen
			h = 2
		}
		fill(dst, image.Rect(p.Min.X+i*barW, p.Max.Y-h, p.Min.X+i*barW+barW-max(1, barW/5), p.Max.Y), col)
	}
	if f.EpochDone > 0 {
		i := len(hist)
		h := f.EpochMistakes * p.Dy() / top
		blendRect(dst, image.Rect(p.Min.X+i*barW, p.Max.Y-h, p.Min.X+i*barW+barW-max(1, barW/5), p.Max.Y), withAlpha(colAmber, 90))
	}
	lang := sc.lang
	b := lang.AppendInt(sc.buf[:0], top)
	textRight(dst, sc.fSmall, p.Min.X-6, p.Min.Y+10, b, colTextDim)
	textRight(dst, sc.fSmall, p.Min.X-6, p.Max.Y, "0", colTextDim)
	if len(hist) > 0 {
		b = lang.Append(b[:0], i18n.CurveEpoch, i18n.Int(first))
		end := text(dst, sc.fSmall, p.Min.X, p.Max.Y+18, b, colTextDim)
		if len(hist) > 1 {
			b = lang.AppendInt(b[:0], first+len(hist)-1)
			textRight(dst, sc.fSmall, max(end+12+width(sc.fSmall, b), p.Min.X+len(hist)*barW), p.Max.Y+18, b, colTextDim)
		}
	} else if f.EpochDone == 0 {
		text(dst, sc.fSmall, p.Min.X+8, p.Min.Y+p.Dy()/2, sc.msg(i18n.CurveNone), colTextUnused)
	}
	sc.buf = b
}

// niceCeil rounds n up to 1, 2 or 5 times a power of ten.
func niceCeil(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range [3]int{1, 2, 5} {
			if m*p >= n {
				return m * p
			}
		}
	}
}

// drawHighlight rings the narration's subject.
func (sc *Scene) drawHighlight(dst *image.RGBA, ui *UI) {
	r, ok := sc.partRect(ui.Highlight)
	if !ok {
		return
	}
	pulse := 0.5 + float64(0.5*math.Sin(ui.Elapsed.Seconds()*4))
	frameRect(dst, r.Inset(-6), 12, 4, withAlpha(colHighlight, uint8(120+float64(120*pulse))))
}

// The description's box: its width, usual and large, and the most lines it shows.
const (
	tipWidth      = 560
	tipWidthLarge = 760
	tipLines      = 12
)

// drawTip shows what the part under the pointer is.
func (sc *Scene) drawTip(dst *image.RGBA, f *session.Frame, ui *UI) {
	sc.tip = sc.words.description(sc.tip[:0], sc.lang, ui.Hover, f, ui, sc)
	if len(sc.tip) == 0 {
		return
	}
	w, gap := tipWidth, 31
	if sc.key.large {
		w, gap = tipWidthLarge, 38
	}
	sc.ends = wrap(sc.fTip, sc.tip, w-32, sc.ends)
	lines := min(len(sc.ends), tipLines)
	sc.traceCut(len(sc.ends), tipLines)
	h := 24 + lines*gap
	x, y := ui.HoverAt.X+28, ui.HoverAt.Y+28
	if x+w > Width-8 {
		x = ui.HoverAt.X - 28 - w
	}
	if y+h > Height-8 {
		y = ui.HoverAt.Y - 28 - h
	}
	x, y = max(8, x), max(8, y)
	r := rect(x, y, w, h)
	sc.tipAt = r
	if tracing != nil {
		tracing.overlay(true)
		defer tracing.overlay(false)
	}
	blendRect(dst, r, colTipBack)
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+3), colAmber)
	start := 0
	for i := range lines {
		e := sc.ends[i]
		text(dst, sc.fTip, x+16, y+32+i*gap, sc.tip[start:e], colText)
		start = e + 1
	}
}

// partRect returns where a part is on the screen.
func (sc *Scene) partRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartTitle:
		return l.title, true
	case PartCaption:
		return l.caption, true
	case PartCard:
		return l.card, true
	case PartAnswer:
		return l.answer, true
	case PartCell:
		if p.Index >= 0 && p.Index < retina.N {
			return l.cellRect(p.Index), true
		}
		return l.retina, true
	case PartLamp:
		return l.lamps, true
	case PartUnit:
		return l.unitPanel, true
	case PartRLamp:
		return l.rPanel, true
	case PartHeat:
		return l.heatPanel, true
	case PartRack:
		if p.Index >= 0 && p.Index < maxR && sc.zoom < 0 {
			return l.rack[p.Index], true
		}
		return l.rackPanel, true
	case PartButton:
		if p.Index >= 0 && p.Index < int(numButtons) {
			return l.buttons[p.Index], true
		}
	case PartRule:
		return l.rules[0].Union(l.rules[1]), true
	case PartSpeed:
		return l.speeds[0].Union(l.speeds[len(l.speeds)-1]), true
	case PartExperiment:
		return l.expPanel, true
	case PartClass:
		if len(sc.classKeys) > 0 {
			return sc.classKeys[0].Union(sc.classKeys[len(sc.classKeys)-1]), true
		}
	case PartCurve:
		return l.curve, true
	case PartLanguage:
		return l.lang, true
	case PartLargeText:
		return l.large, true
	case PartHelp:
		if p.Index == 1 {
			return l.helpPanel, true
		}
		return l.help, true
	case PartUnitPrev:
		return l.unitPrev, true
	case PartUnitNext:
		return l.unitNext, true
	case PartClear:
		return l.clear, true
	case PartZoomClose:
		if sc.zoom >= 0 {
			return l.zoomClose, true
		}
	}
	return image.Rectangle{}, false
}

// HitTest returns the part of the screen at p, as the scene last drew it.
func (sc *Scene) HitTest(p image.Point) Part {
	l := sc.l
	in := p.In
	switch {
	case sc.helpOpen && in(l.helpPanel):
		return Part{Kind: PartHelp, Index: 1}
	case in(l.lang):
		return Part{Kind: PartLanguage}
	case in(l.large):
		return Part{Kind: PartLargeText}
	case in(l.help):
		return Part{Kind: PartHelp}
	case in(l.title):
		return Part{Kind: PartTitle}
	case in(l.caption):
		return Part{Kind: PartCaption}
	case in(l.card.Inset(-4)):
		return Part{Kind: PartCard}
	case in(l.answer):
		return Part{Kind: PartAnswer}
	case in(l.retina):
		x, y := (p.X-l.retina.Min.X)/cellPx, (p.Y-l.retina.Min.Y)/cellPx
		return Part{Kind: PartCell, Index: y*retina.Cols + x}
	}
	if sc.zoom >= 0 && in(l.zoom) {
		switch {
		case in(l.zoomClose):
			return Part{Kind: PartZoomClose}
		case in(l.zoomDials):
			x, y := (p.X-l.zoomDials.Min.X)/zoomPitch, (p.Y-l.zoomDials.Min.Y)/zoomPitch
			if i := y*zoomCols + x; i < len(sc.shown[sc.zoom]) {
				return Part{Kind: PartDial, Index: sc.zoom, Sub: i}
			}
		case in(l.zoomHeat):
			x, y := (p.X-l.zoomHeat.Min.X)*retina.Cols/l.zoomHeat.Dx(), (p.Y-l.zoomHeat.Min.Y)*retina.Rows/l.zoomHeat.Dy()
			return Part{Kind: PartHeat, Index: sc.zoom, Sub: y*retina.Cols + x}
		}
		return Part{Kind: PartRack, Index: sc.zoom}
	}
	switch {
	case in(l.lamps):
		x, y := (p.X-l.lamps.Min.X)/lampPitch, (p.Y-l.lamps.Min.Y)/lampPitch
		return Part{Kind: PartLamp, Index: y*lampCols + x}
	case in(l.unitPrev):
		return Part{Kind: PartUnitPrev}
	case in(l.unitNext):
		return Part{Kind: PartUnitNext}
	case in(l.unitPanel):
		return Part{Kind: PartUnit}
	}
	for r := range sc.nR {
		if in(l.rLamp[r]) {
			return Part{Kind: PartRLamp, Index: r}
		}
		if in(l.heat[r]) {
			x, y := (p.X-l.heat[r].Min.X)*retina.Cols/l.heat[r].Dx(), (p.Y-l.heat[r].Min.Y)*retina.Rows/l.heat[r].Dy()
			return Part{Kind: PartHeat, Index: r, Sub: y*retina.Cols + x}
		}
		if in(l.rack[r]) {
			q := p.Sub(l.dials[r])
			if q.Y >= 0 {
				if i := (q.Y/dialPitchY)*dialCols + q.X/dialPitch; i < len(sc.shown[r]) {
					return Part{Kind: PartDial, Index: r, Sub: i}
				}
			}
			return Part{Kind: PartRack, Index: r}
		}
	}
	for i := range numButtons {
		if in(l.buttons[i]) {
			return Part{Kind: PartButton, Index: int(i)}
		}
	}
	for i, r := range l.rules {
		if in(r) {
			rule := machine.Alpha
			if i == 1 {
				rule = machine.Forced
			}
			return Part{Kind: PartRule, Index: int(rule)}
		}
	}
	for i, r := range l.speeds {
		if in(r) {
			return Part{Kind: PartSpeed, Index: i}
		}
	}
	for i, r := range l.exps {
		if in(r) {
			return Part{Kind: PartExperiment, Index: i}
		}
	}
	for i, r := range sc.classKeys {
		if in(r) {
			return Part{Kind: PartClass, Index: i}
		}
	}
	switch {
	case in(l.clear):
		return Part{Kind: PartClear}
	case in(l.curve):
		return Part{Kind: PartCurve}
	case in(l.lampPanel):
		return Part{Kind: PartLamp, Index: -1}
	case in(l.rPanel):
		return Part{Kind: PartRLamp, Index: -1}
	case in(l.heatPanel):
		return Part{Kind: PartHeat, Index: -1, Sub: -1}
	case in(l.retinaPanel):
		return Part{Kind: PartCell, Index: -1}
	}
	return Part{}
}

// RetinaRect returns where the retina is on the screen (the visitor draws there).
func (sc *Scene) RetinaRect() image.Rectangle { return sc.l.retina }
