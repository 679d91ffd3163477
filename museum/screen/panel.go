package screen

import (
	"image"

	"github.com/mark1-perceptron/mark1/museum/camera"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// PanelPart is a control of the camera panel.
type PanelPart int

// The panel's controls.
const (
	PanelNone    PanelPart = iota
	PanelShow              // SHOW IT: the picture goes in the card holder
	PanelLive              // LIVE: the retina follows the camera
	PanelPicture           // the picture itself (as LIVE)
)

// PanelState is what the camera panel shows.
type PanelState struct {
	Status  camera.Status
	Seq     uint64      // the picture's number (a new one is drawn)
	Picture *image.Gray // the camera's square picture
	Live    bool        // the retina follows the camera
	Pressed PanelPart
	Lang    i18n.Lang // the language the screen speaks
}

// chrome is what, changed, makes the panel draw everything again.
type chrome struct {
	state   camera.State
	msg     string
	live    bool
	pressed PanelPart
	fresh   bool // the picture arrived (the first one)
	lang    i18n.Lang
}

// Panel draws the camera panel: the camera's picture as the card holder would take it, SHOW
// IT, LIVE, and a hint; or, when the camera is missing, busy or unplugged, what to do. It
// keeps its picture between calls and does not allocate once drawn, unless its text changes.
type Panel struct {
	img  *image.RGBA
	last chrome
	seq  uint64
	done bool

	pic, show, live image.Rectangle
	hint, hintFits  int          // the hint drawn (an index of PanelHints, -1: none) and the lines it had
	xs              []int        // the source column of each of the picture's columns
	lut             [256][4]byte // a level's colour, as paper and ink
}

// NewPanel returns a panel of size w x h.
func NewPanel(w, h int) *Panel {
	p := &Panel{img: image.NewRGBA(image.Rect(0, 0, w, h))}
	m := 16
	s := min(w-2*m, h-250)
	p.pic = image.Rect((w-s)/2, 44, (w-s)/2+s, 44+s)
	y := p.pic.Max.Y + 44
	p.show = image.Rect(m, y, w-m, y+64)
	p.live = image.Rect(m, y+74, w-m, y+74+48)
	p.xs = make([]int, s)
	for v := range p.lut {
		u := uint32(v)
		p.lut[v] = [4]byte{
			uint8((uint32(colInk.R)*(255-u) + uint32(colPaper.R)*u) / 255),
			uint8((uint32(colInk.G)*(255-u) + uint32(colPaper.G)*u) / 255),
			uint8((uint32(colInk.B)*(255-u) + uint32(colPaper.B)*u) / 255), 255}
	}
	return p
}

// Image returns the panel's picture.
func (p *Panel) Image() *image.RGBA { return p.img }

// HitTest returns the control at q (the panel's coordinates).
func (p *Panel) HitTest(q image.Point) PanelPart {
	switch {
	case q.In(p.show):
		return PanelShow
	case q.In(p.live):
		return PanelLive
	case q.In(p.pic):
		return PanelPicture
	}
	return PanelNone
}

// Draw brings the panel up to st and reports whether its picture changed.
func (p *Panel) Draw(st *PanelState) bool {
	live := st.Status.State == camera.Live && st.Seq > 0
	c := chrome{state: st.Status.State, msg: CameraMessage(st.Status.State, st.Lang), live: st.Live, pressed: st.Pressed, fresh: live, lang: st.Lang}
	changed := false
	if !p.done || c != p.last {
		p.drawChrome(st, c)
		p.last, p.done, changed = c, true, true
		p.seq = 0
	}
	if live && st.Picture != nil && st.Seq != p.seq {
		p.seq = st.Seq
		p.drawPicture(st.Picture)
		changed = true
	}
	return changed
}

func (p *Panel) drawChrome(st *PanelState, c chrome) {
	dst := p.img
	b := dst.Rect
	fill(dst, b, colBack)
	fill(dst, b.Inset(8), colPanel)
	frame(dst, b.Inset(8), 1, colEdge)
	l := c.lang
	text(dst, face(1, 17), 24, 34, l.S(i18n.CamPanelTitle), colHeading)
	if !c.fresh {
		fill(dst, p.pic, colBack)
		frame(dst, p.pic, 2, colEdge)
		msg := c.msg
		if msg == "" {
			msg = l.S(i18n.CamPanelNoPicture)
		}
		wrap(dst, face(0, 20), p.pic.Min.X+14, p.pic.Min.Y+40, p.pic.Dx()-28, 27, 8, msg, colAmber)
	}
	edge := colEdge
	if c.live {
		edge = colAmber
	}
	frame(dst, p.pic.Inset(-4), 3, edge)
	status, col := l.S(i18n.CamPanelShowPuts), colDim
	if c.live {
		status, col = l.S(i18n.CamPanelLive), colAmber
	}
	text(dst, face(0, 17), p.pic.Min.X, p.pic.Max.Y+28, status, col)
	button(dst, p.show, l.S(i18n.CamButtonShow), c.fresh, c.pressed == PanelShow, 26)
	liveLabel := l.S(i18n.CamButtonLive)
	if c.live {
		liveLabel = l.S(i18n.CamButtonStopLive)
	}
	button(dst, p.live, liveLabel, c.live, c.pressed == PanelLive || c.pressed == PanelPicture, 18)
	fits := max(0, (dst.Rect.Max.Y-16-(p.live.Max.Y+34))/24+1) // the lines that fit
	say := ""
	p.hint, p.hintFits = -1, fits
	for i, m := range PanelHints {
		if s := l.S(m); lines(face(0, 18), p.show.Dx(), s) <= fits {
			say, p.hint = s, i
			break
		}
	}
	wrap(dst, face(0, 18), p.show.Min.X, p.live.Max.Y+34, p.show.Dx(), 24, fits, say, colDim)
}

// PanelHints are what the panel tells the visitor under its buttons, longest first: the
// longest that fits whole is drawn (none when none fits).
var PanelHints = []i18n.Msg{i18n.CamPanelHint, i18n.CamPanelHintShort, i18n.CamPanelHintShortest}

// CameraMessage is what the visitor is told, in the language l, of a camera in state st ("":
// nothing to tell): camera.Status.Message's sentences, from the catalogue.
func CameraMessage(st camera.State, l i18n.Lang) string {
	m := i18n.Msg(0)
	switch st {
	case camera.Starting:
		m = i18n.CamStarting
	case camera.Missing:
		m = i18n.CamMissing
	case camera.Busy:
		m = i18n.CamBusy
	case camera.Unplugged:
		m = i18n.CamUnplugged
	case camera.Denied:
		m = i18n.CamDenied
	case camera.Failed:
		m = i18n.CamFailed
	default:
		return ""
	}
	return l.S(m)
}

// drawPicture draws the camera's square picture, as paper and ink like a card.
func (p *Panel) drawPicture(g *image.Gray) {
	dst, r := p.img, p.pic
	gb := g.Bounds()
	for x := range p.xs {
		p.xs[x] = gb.Min.X + x*gb.Dx()/r.Dx()
	}
	for y := range r.Dy() {
		row := g.Pix[g.PixOffset(0, gb.Min.Y+y*gb.Dy()/r.Dy()):]
		out := dst.Pix[dst.PixOffset(r.Min.X, r.Min.Y+y):][:4*r.Dx()]
		for x, sx := range p.xs {
			copy(out[4*x:4*x+4], p.lut[row[sx]][:])
		}
	}
}
