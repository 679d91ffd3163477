package screen

import (
	"image"

	"github.com/mark1-perceptron/mark1/museum/camera"
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
}

// chrome is what, changed, makes the panel draw everything again.
type chrome struct {
	state   camera.State
	msg     string
	live    bool
	pressed PanelPart
	fresh   bool // the picture arrived (the first one)
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
	hint, hintFits  int          // the hint drawn (an index of panelHints, -1: none) and the lines it had
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
	c := chrome{state: st.Status.State, msg: st.Status.Message(), live: st.Live, pressed: st.Pressed, fresh: live}
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
	text(dst, face(1, 17), 24, 34, "THE CAMERA: YOUR CARD", colHeading)
	if !c.fresh {
		fill(dst, p.pic, colBack)
		frame(dst, p.pic, 2, colEdge)
		msg := c.msg
		if msg == "" {
			msg = "No picture yet."
		}
		wrap(dst, face(0, 20), p.pic.Min.X+14, p.pic.Min.Y+40, p.pic.Dx()-28, 27, 8, msg, colAmber)
	}
	edge := colEdge
	if c.live {
		edge = colAmber
	}
	frame(dst, p.pic.Inset(-4), 3, edge)
	status, col := "SHOW IT puts it in the card holder", colDim
	if c.live {
		status, col = "LIVE: the retina shows it", colAmber
	}
	text(dst, face(0, 17), p.pic.Min.X, p.pic.Max.Y+28, status, col)
	button(dst, p.show, "SHOW IT", c.fresh, c.pressed == PanelShow, 26)
	liveLabel := "LIVE ON THE RETINA"
	if c.live {
		liveLabel = "STOP LIVE"
	}
	button(dst, p.live, liveLabel, c.live, c.pressed == PanelLive || c.pressed == PanelPicture, 18)
	fits := max(0, (dst.Rect.Max.Y-16-(p.live.Max.Y+34))/24+1) // the lines that fit
	say := ""
	p.hint, p.hintFits = -1, fits
	for i, s := range panelHints {
		if lines(face(0, 18), p.show.Dx(), s) <= fits {
			say, p.hint = s, i
			break
		}
	}
	wrap(dst, face(0, 18), p.show.Min.X, p.live.Max.Y+34, p.show.Dx(), 24, fits, say, colDim)
}

// panelHints are what the panel tells the visitor under its buttons, longest first: the
// longest that fits whole is drawn (none when none fits).
var panelHints = []string{
	"Draw a letter or a shape in thick black pen on white paper. Hold it up close, so that the paper fills the picture, and press SHOW IT (or the S key): the machine answers, and you can teach it with the keys below.",
	"Hold your drawing up close, then press SHOW IT.",
	"Hold it close: SHOW IT.",
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
