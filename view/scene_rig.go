package view

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// The hardware rig: with a rig attached (Frame.Rig.Attached), a panel over the racks of R5
// to R7, which none of the museum's experiments uses (the letters' binary code takes R0 to
// R4; the others fewer), and a mark on each dial that has a real knob. The panel says the
// rig's state in plain words and shows, for each real knob, the weight the machine wants it
// to show (a white line) and where it is (a bar, amber while it turns): a knob lagging its
// target is what the real machine's motors did. Without a rig nothing of it is drawn.

// rigFirstRack is the first rack the rig's panel covers.
const rigFirstRack = 5

// colKnob marks a dial that has a real knob.
var colKnob = color.RGBA{120, 220, 235, 255}

// rigOn reports whether the rig's panel is on the screen (a rig attached, no rack zoomed).
func (sc *Scene) rigOn() bool { return sc.key.rig.attached && sc.zoom < 0 }

// rigKey is what of the rig the background is drawn for.
type rigKey struct {
	attached, loop bool
	knobs          int
}

// racksShown is how many racks the rack panel shows: the rig's panel covers the last ones.
func (sc *Scene) racksShown() int {
	if sc.rigOn() {
		return min(sc.nR, rigFirstRack)
	}
	return sc.nR
}

var rigStates = [...]struct{ label, say i18n.Msg }{
	session.RigConnecting:   {i18n.RigStateConnecting, i18n.RigSayConnecting},
	session.RigNotConnected: {i18n.RigStateNotConnected, i18n.RigSayNotConnected},
	session.RigSyncing:      {i18n.RigStateSyncing, i18n.RigSaySyncing},
	session.RigTurning:      {i18n.RigStateTurning, i18n.RigSayTurning},
	session.RigResting:      {i18n.RigStateResting, i18n.RigSayResting},
	session.RigHeld:         {i18n.RigStateHeld, i18n.RigSayHeld},
	session.RigHalted:       {i18n.RigStateHalted, i18n.RigSayHalted},
	session.RigFault:        {i18n.RigStateFault, i18n.RigSayFault},
	session.RigNotFollowing: {i18n.RigStateNotFollowing, i18n.RigSayNotFollowing},
	session.RigOther:        {i18n.RigStateOther, i18n.RigSayOther},
}

// rigColour is the colour of a state's lamp and word: green while the rig follows, amber
// while it is on its way back, red while it does not follow.
func rigColour(r *session.Rig) color.RGBA {
	switch r.State {
	case session.RigTurning, session.RigResting:
		if r.Emulated {
			return colWrong
		}
		return colGreen
	case session.RigConnecting, session.RigSyncing, session.RigHeld:
		return colAmber
	}
	return colWrong
}

// bgRig paints the rig's panel: its body, its heading and its legend.
func (sc *Scene) bgRig(dst *image.RGBA, f *session.Frame) {
	if !sc.rigOn() {
		return
	}
	p := sc.l.rig
	roundRect(dst, p, 10, colTitleBar)
	frameRect(dst, p, 10, 1.5, colPanelEdge)
	head := i18n.RigHeadMirror
	if f.Rig.Loop {
		head = i18n.RigHeadLoop
	}
	m := sc.msg(head, i18n.Int(f.Rig.AllKnobs))
	w := p.Dx() - 24
	hf := fit(m, w-24, sc.fHead, sc.faces[0].head, sc.faces[0].small)
	x := text(dst, hf, p.Min.X+12, p.Min.Y+10+hf.ascent, m, colHeading)
	if !f.Rig.Loop && x+20 <= p.Max.X-8 {
		// The mark the dials with a real knob carry.
		ring(dst, float64(x+12)+0.5, float64(p.Min.Y+10+hf.ascent/2)+0.5, 5.6, 7, colKnob)
	}
	g := sc.rigGeometry()
	lg := sc.msg(i18n.RigLegend)
	text(dst, fit(lg, w, sc.fSmall, sc.faces[0].small), p.Min.X+12, g.legend, lg, colTextDim)
}

// rigGeometry is where the rig's panel puts its parts, for the fonts in use.
type rigGeo struct {
	state, say       int // baselines: the state's word, the first line of its sentence
	gaugeTop, gaugeB int // the gauges' top and bottom
	labels           int // the knobs' names' baseline
	legend, footer   int
}

// The figures on the gauges, the knobs' names and the traffic are set in the usual small face
// in either text size: the large text is for the words a visitor reads (the state, its
// sentence, the legend), and the gauges keep their room.
func (sc *Scene) rigGeometry() rigGeo {
	p, small := sc.l.rig, sc.faces[0].small
	var g rigGeo
	g.footer = p.Max.Y - 8
	g.legend = g.footer - small.height - 2
	g.labels = g.legend - sc.fSmall.height - 2
	g.gaugeB = g.labels - small.ascent - 6
	g.state = p.Min.Y + 10 + sc.fHead.height + 6 + sc.fButton.ascent
	g.say = g.state + 8 + sc.fLabel.ascent
	g.gaugeTop = g.say + 2*sc.fLabel.height + (sc.fLabel.height - sc.fLabel.ascent) + 12
	return g
}

// drawRig paints the rig's state, its knobs' gauges, its traffic, and the marks on the dials
// that have a real knob.
func (sc *Scene) drawRig(dst *image.RGBA, f *session.Frame) {
	r := &f.Rig
	if !r.Attached {
		return
	}
	if sc.zoom >= 0 {
		sc.markZoomedKnobs(dst, f)
		return
	}
	sc.markKnobs(dst, f)
	p, g := sc.l.rig, sc.rigGeometry()
	x0, w := p.Min.X+12, p.Dx()-24
	st := rigStates[session.RigConnecting]
	if int(r.State) < len(rigStates) {
		st = rigStates[r.State]
	}
	col := rigColour(r)
	disc(dst, float64(x0+9)+0.5, float64(g.state-sc.fButton.ascent/2)+0.5, 8, col)
	label := sc.msg(st.label)
	text(dst, fit(label, w-28, sc.fButton, sc.faces[0].button, sc.fLabel), x0+28, g.state, label, col)

	// What it means, in a sentence or two.
	say := st.say
	if !r.Emulated && r.Loop && (r.State == session.RigTurning || r.State == session.RigResting) {
		say = i18n.RigSayLoop
	}
	var b []byte
	switch say {
	case i18n.RigSayConnecting, i18n.RigSayNotConnected, i18n.RigSayOther:
		b = sc.lang.Append(sc.buf[:0], say, i18n.Str(r.Addr))
	case i18n.RigSayFault:
		b = sc.lang.Append(sc.buf[:0], say, i18n.Str(r.Chip))
	default:
		b = sc.lang.Append(sc.buf[:0], say)
	}
	if r.Emulated {
		b = append(b, ' ')
		b = sc.lang.Append(b, i18n.RigSayEmulated)
	}
	sc.buf = b
	// In three lines of the label's face; else four, in it or a smaller one.
	pf, lines := sc.fLabel, 3
	for _, c := range [...]struct {
		f *face
		n int
	}{{sc.fLabel, 3}, {sc.fLabel, 4}, {sc.faces[0].label, 4}, {sc.faces[0].small, 4}} {
		pf, lines = c.f, c.n
		if sc.ends = wrap(c.f, b, w, sc.ends); len(sc.ends) <= c.n {
			break
		}
	}
	sc.ends, _ = paragraph(dst, pf, x0, g.say, w, pf.height, lines, b, colText, sc.ends)
	g.gaugeTop = max(g.gaugeTop, g.say+(len(sc.ends)-1)*pf.height+(pf.height-pf.ascent)+12)

	sc.gaugeGeo = g
	sc.drawGauges(dst, r, g)

	foot := i18n.RigFooterMirror
	if r.Loop {
		foot = i18n.RigFooterLoop
	}
	b = sc.lang.Append(sc.buf[:0], foot, i18n.Int(int(r.Generation)), i18n.Int(int(r.Sent)), i18n.Int(int(r.BusBytes)), i18n.Num(r.ReadbackError, 1))
	sc.buf = b
	text(dst, sc.faces[0].small, x0, g.footer, b, colTextDim)
}

// drawGauges paints one gauge per knob: a track from -scale to +scale, the target as a white
// line, the knob's position as a bar from zero (red above, blue below, amber while it turns),
// the scale on the left and the knobs' names below.
func (sc *Scene) drawGauges(dst *image.RGBA, r *session.Rig, g rigGeo) {
	p := sc.l.rig
	n := r.NKnobs
	if n == 0 || g.gaugeB-g.gaugeTop < 20 {
		return
	}
	gl := sc.gauges(r, g)
	small := sc.faces[0].small
	left, pitch, scale, mid, half := gl.left, gl.pitch, gl.scale, gl.mid, gl.half
	sb := append(sc.kbuf[:0], '+')
	sb = strconv.AppendInt(sb, int64(scale), 10)
	textRight(dst, small, left-8, g.gaugeTop+small.ascent, sb, colTextDim)
	sb = append(sb[:0], "−"...)
	sb = strconv.AppendInt(sb, int64(scale), 10)
	textRight(dst, small, left-8, g.gaugeB, sb, colTextDim)
	sc.kbuf = sb
	tw := gl.tw
	// The knobs' names: the last (the bias) set against the panel's right edge, the others
	// centred under their gauges where they clear their neighbours.
	last := sc.knobName(r.Knobs[n-1])
	lastX := min(left+(n-1)*pitch+pitch/2-width(small, last)/2, p.Max.X-8-width(small, last))
	text(dst, small, lastX, g.labels, last, colTextDim)
	// Every name, or every other, or every third, as the widest fits.
	every := 1
	for i, k := range r.Knobs[:n-1] {
		if i%every == 0 {
			for width(small, sc.knobName(k))+6 > every*pitch {
				every++
			}
		}
	}
	right := left - 8 // the right end of the last name drawn
	for i, k := range r.Knobs[:n] {
		cx := left + i*pitch + pitch/2
		track := image.Rect(cx-tw/2, g.gaugeTop, cx-tw/2+tw, g.gaugeB)
		fill(dst, track, colDialFace)
		fill(dst, image.Rect(track.Min.X-2, mid, track.Max.X+2, mid+1), colDialRim)
		t := max(-1, min(1, float64(k.Reading)/float64(scale)))
		y := mid - int(math.Round(t*half))
		bar := image.Rect(track.Min.X+1, min(y, mid), track.Max.X-1, max(y, mid+1))
		fill(dst, bar, pointerColour(t, k.Moving))
		ty := mid - int(math.Round(max(-1, min(1, float64(k.Target)/float64(scale)))*half))
		fill(dst, image.Rect(track.Min.X-4, ty-1, track.Max.X+4, ty+1), colText)
		if i == n-1 || i%every != 0 {
			continue
		}
		name := sc.knobName(k)
		nw := width(small, name)
		if nx := cx - nw/2; nx >= right+6 && nx+nw <= lastX-6 {
			text(dst, small, nx, g.labels, name, colTextDim)
			right = nx + nw
		}
	}
}

// gaugeLayout is where the gauges are: the first's left edge, their pitch, the track's
// width, the scale (the smallest power of two holding every target and reading), the zero's
// row and the rows from zero to the scale's end.
type gaugeLayout struct {
	left, pitch, tw, scale, mid int
	half                        float64
}

func (sc *Scene) gauges(r *session.Rig, g rigGeo) gaugeLayout {
	most := 1e-9
	for _, k := range r.Knobs[:r.NKnobs] {
		most = max(most, math.Abs(float64(k.Target)), math.Abs(float64(k.Reading)))
	}
	gl := gaugeLayout{left: sc.l.rig.Min.X + 52, scale: 1, mid: (g.gaugeTop + g.gaugeB) / 2, half: float64(g.gaugeB-g.gaugeTop) / 2}
	for float64(gl.scale) < most && gl.scale < 1<<20 {
		gl.scale *= 2
	}
	gl.pitch = min(48, (sc.l.rig.Max.X-16-gl.left)/max(1, r.NKnobs))
	gl.tw = max(4, min(12, gl.pitch-10))
	return gl
}

// knobName is a knob's name under its gauge: its A-unit (A17), or the bias.
func (sc *Scene) knobName(k session.RigKnob) []byte {
	if k.A < 0 {
		return sc.msg(i18n.RigBias)
	}
	sc.kbuf = append(sc.kbuf[:0], 'A')
	sc.kbuf = strconv.AppendInt(sc.kbuf, int64(k.A), 10)
	return sc.kbuf
}

// knobDial returns the pot index on its rack's dials of knob k of a machine of pots.
func knobDial(f *session.Frame, k session.RigKnob) (r, p int, ok bool) {
	r = int(k.R)
	if r < 0 || r >= len(f.Machine.Pots) {
		return 0, 0, false
	}
	n := len(f.Machine.Pots[r])
	p = int(k.A)
	if p < 0 {
		p = n - 1
	}
	return r, p, p >= 0 && p < n
}

// markKnobs rings each dial that has a real knob.
func (sc *Scene) markKnobs(dst *image.RGBA, f *session.Frame) {
	l := sc.l
	for _, k := range f.Rig.Knobs[:f.Rig.NKnobs] {
		r, p, ok := knobDial(f, k)
		if !ok || r >= sc.racksShown() || p >= dialCols*dialRows {
			continue
		}
		c := l.dialCentre(r, p)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 5.8, 7.2, colKnob)
	}
}

// markZoomedKnobs rings the zoomed rack's dials that have a real knob.
func (sc *Scene) markZoomedKnobs(dst *image.RGBA, f *session.Frame) {
	for _, k := range f.Rig.Knobs[:f.Rig.NKnobs] {
		r, p, ok := knobDial(f, k)
		if !ok || r != sc.zoom || p >= zoomCols*zoomRows {
			continue
		}
		c := sc.l.zoomCentre(p)
		ring(dst, float64(c.X)+0.5, float64(c.Y)+0.5, 16.8, 18.6, colKnob)
	}
}
