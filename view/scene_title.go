package view

import (
	"image"
	"image/color"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

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

// hitTitle finds p in the help when it is open over the machine, on the visitor's own
// controls, in the title bar or in the caption.
func (sc *Scene) hitTitle(p image.Point) (Part, bool) {
	l := sc.l
	switch {
	case sc.helpOpen && p.In(l.helpPanel):
		return Part{Kind: PartHelp, Index: 1}, true
	case p.In(l.lang):
		return Part{Kind: PartLanguage}, true
	case p.In(l.large):
		return Part{Kind: PartLargeText}, true
	case p.In(l.help):
		return Part{Kind: PartHelp}, true
	case p.In(l.title):
		return Part{Kind: PartTitle}, true
	case p.In(l.caption):
		return Part{Kind: PartCaption}, true
	}
	return Part{}, false
}

// titlePartRect says where the title bar, the caption, the visitor's own controls and the
// help (Index 1: the help drawn over the machine) are.
func (sc *Scene) titlePartRect(p Part) (image.Rectangle, bool) {
	l := sc.l
	switch p.Kind {
	case PartTitle:
		return l.title, true
	case PartCaption:
		return l.caption, true
	case PartLanguage:
		return l.lang, true
	case PartLargeText:
		return l.large, true
	case PartHelp:
		if p.Index == 1 {
			return l.helpPanel, true
		}
		return l.help, true
	}
	return image.Rectangle{}, false
}
