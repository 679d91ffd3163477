package view

import (
	"image"

	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Width and Height are the size of the screen Draw paints, in pixels: a 1080p display. A
// window of another size shows it scaled.
const (
	Width  = 1920
	Height = 1080
)

// speeds are the positions of the speed selector.
var speeds = [...]session.Speed{1, 3, 10, 100, session.Max}

// NumSpeeds is how many positions the speed selector has.
const NumSpeeds = len(speeds)

// SpeedAt returns the speed of position i of the speed selector (0 <= i < NumSpeeds), slowest
// first.
func SpeedAt(i int) session.Speed { return speeds[i] }

// Geometry of the screen (pixels).
const (
	cellPx      = 20 // a retina cell
	lampPitch   = 13 // A-unit lamps
	lampCols    = 32
	dialPitch   = 12 // a rack's dials, across
	dialPitchY  = 11 // and down
	dialCols    = 20
	dialRows    = 26
	zoomPitch   = 34 // a zoomed rack's dials
	zoomCols    = 32
	zoomRows    = 17
	heatCell    = 5 // a cell of an R-unit's heat map
	pictureZoom = 150
	maxR        = 8 // R-units shown
)

// layout holds where every part is.
type layout struct {
	access
	title, caption        image.Rectangle
	card, answer          image.Rectangle
	retinaPanel, retina   image.Rectangle
	lampPanel, lamps      image.Rectangle
	unitPanel             image.Rectangle
	unitPrev, unitNext    image.Rectangle
	rPanel                image.Rectangle
	rLamp                 [maxR]image.Rectangle
	heatPanel             image.Rectangle
	heat                  [maxR]image.Rectangle
	rackPanel             image.Rectangle
	rig                   image.Rectangle // the hardware rig's panel, over the last racks
	rack                  [maxR]image.Rectangle
	dials                 [maxR]image.Point // top-left of each rack's dial grid
	zoom, zoomDials       image.Rectangle
	zoomClose             image.Rectangle
	zoomHeat              image.Rectangle
	controls              image.Rectangle
	buttons               [numButtons]image.Rectangle
	ruleLabel             image.Rectangle
	rules                 [2]image.Rectangle // error correction, forced
	speedLabel            image.Rectangle
	speeds                []image.Rectangle
	expPanel              image.Rectangle
	exps                  []image.Rectangle
	teachPanel            image.Rectangle
	curve, curvePlot      image.Rectangle
	panelTitles           []panelTitle
	teachKeys             image.Rectangle // where the class keys go
	clear                 image.Rectangle
	lampCentre0, lampStep image.Point
}

// access holds the rectangles of the visitor's own controls and the help (newLayout).
type access struct {
	lang, large, help image.Rectangle
	helpPanel         image.Rectangle
}

type panelTitle struct {
	at   image.Point
	text i18n.Msg
	w    int // the width it has
}

// The room kept beside two headings: for the count of firing A-units, and for the heat maps'
// legend.
const (
	countWidth  = 110
	legendWidth = 190
)

func rect(x, y, w, h int) image.Rectangle { return image.Rect(x, y, x+w, y+h) }

func newLayout() *layout {
	l := &layout{}
	l.title = rect(0, 0, Width, 60)
	// The visitor's own controls, at the top right: language, large text, help (each at
	// least 44 px, 12 mm on a 24-inch 1080p screen).
	l.help = rect(Width-16-56, 8, 56, 44)
	l.large = rect(l.help.Min.X-8-72, 8, 72, 44)
	l.lang = rect(l.large.Min.X-8-168, 8, 168, 44)
	l.helpPanel = rect(Width/2-560, 130, 1120, 760)
	l.caption = rect(16, 66, Width-32, 96)

	top, bottom := 170, 828
	// Column 1: the card, the answer, the retina.
	l.card = rect(24, top+28, pictureZoom, pictureZoom)
	l.answer = rect(196, top+10, 248, 170)
	l.retinaPanel = image.Rect(16, top+188, 452, bottom)
	l.retina = rect(34, top+222, retina.Cols*cellPx, retina.Rows*cellPx)

	// Column 2: the A-unit lamps and the plug-board, the R-units, what they learned.
	x2 := 476
	l.lampPanel = rect(x2, top, 432, 250)
	l.lamps = rect(x2+8, top+34, lampCols*lampPitch, 16*lampPitch)
	l.lampCentre0 = image.Pt(l.lamps.Min.X+lampPitch/2, l.lamps.Min.Y+lampPitch/2)
	l.lampStep = image.Pt(lampPitch, lampPitch)
	l.unitPanel = rect(x2, top+256, 432, 62)
	l.unitPrev = rect(x2+6, top+262, 50, 50)
	l.unitNext = rect(x2+432-56, top+262, 50, 50)
	l.rPanel = rect(x2, top+324, 432, 124)
	for r := range maxR {
		l.rLamp[r] = rect(x2+8+r*53, top+354, 50, 88)
	}
	l.heatPanel = image.Rect(x2, top+454, x2+432, bottom)
	for r := range maxR {
		l.heat[r] = rect(x2+32+(r%4)*104, top+486+(r/4)*86, retina.Cols*4, retina.Rows*4)
	}

	// Column 3: the racks.
	x3 := 924
	l.rackPanel = image.Rect(x3-8, top, Width-16, bottom)
	for r := range maxR {
		x := x3 + (r%4)*246
		y := top + 28 + (r/4)*316
		l.rack[r] = rect(x, y, dialCols*dialPitch, 18+dialRows*dialPitchY)
		l.dials[r] = image.Pt(x, y+18)
	}
	l.rig = image.Rect(l.rack[rigFirstRack].Min.X-6, l.rack[rigFirstRack].Min.Y-8, l.rackPanel.Max.X-6, l.rackPanel.Max.Y-6)
	l.zoom = image.Rect(x2-8, top, Width-16, bottom)
	l.zoomDials = rect(l.zoom.Min.X+16, top+60, zoomCols*zoomPitch, zoomRows*zoomPitch)
	l.zoomClose = rect(l.zoom.Max.X-150, top+10, 136, 40)
	l.zoomHeat = rect(l.zoomDials.Max.X+24, top+110, retina.Cols*15, retina.Rows*15)

	// The control panel.
	y := 846
	l.controls = image.Rect(16, y-10, Width-16, Height-4)
	for i := range numButtons {
		l.buttons[i] = rect(24+int(i)*138, y+24, 128, 56)
	}
	l.ruleLabel = rect(584, y, 330, 20)
	l.rules[0] = rect(584, y+24, 180, 56)
	l.rules[1] = rect(770, y+24, 134, 56)
	l.speedLabel = rect(930, y, 440, 20)
	for i := range speeds {
		l.speeds = append(l.speeds, rect(930+i*88, y+24, 84, 56))
	}
	l.expPanel = rect(24, y+96, 540, 126)
	for i := range experiments {
		l.exps = append(l.exps, rect(24+(i%2)*272, y+112+(i/2)*56, 264, 50))
	}
	l.teachPanel = rect(584, y+96, 786, 126)
	l.teachKeys = rect(584, y+112, 786-112, 106)
	l.clear = rect(584+786-104, y+112, 104, 106)
	l.curve = rect(1396, y, Width-24-1396, 220)
	l.curvePlot = rect(1396+56, y+34, Width-24-1396-76, 150)
	l.panelTitles = []panelTitle{
		{image.Pt(24, top+20), i18n.PanelCard, l.answer.Min.X - 32},
		{image.Pt(28, top+210), i18n.PanelRetina, l.retinaPanel.Max.X - 36},
		{image.Pt(x2+8, top+24), i18n.PanelAUnits, 416 - countWidth},
		{image.Pt(x2+8, top+344), i18n.PanelRUnits, 416},
		{image.Pt(x2+8, top+476), i18n.PanelLearned, 416 - legendWidth},
		{image.Pt(x3, top+20), i18n.PanelWeights, l.rackPanel.Max.X - x3 - 8},
		{image.Pt(24, y+16), i18n.PanelControl, l.ruleLabel.Min.X - 40},
		{image.Pt(24, y+102), i18n.PanelExperiment, l.expPanel.Dx()},
	}
	return l
}

// classKeys lays out n class keys in the teach panel: one row, or two when they do not fit.
func (l *layout) classKeys(n int, dst []image.Rectangle) []image.Rectangle {
	dst = dst[:0]
	if n == 0 {
		return dst
	}
	area := l.teachKeys
	rows := 1
	if n > 6 {
		rows = 2
	}
	perRow := (n + rows - 1) / rows
	gap := 6
	w := (area.Dx() - (perRow-1)*gap) / perRow
	h := (area.Dy() - (rows-1)*gap) / rows
	for i := range n {
		r, c := i/perRow, i%perRow
		dst = append(dst, rect(area.Min.X+c*(w+gap), area.Min.Y+r*(h+gap), w, h))
	}
	return dst
}

// cellRect returns S-unit s's square on the retina.
func (l *layout) cellRect(s int) image.Rectangle {
	r, c := s/retina.Cols, s%retina.Cols
	return rect(l.retina.Min.X+c*cellPx, l.retina.Min.Y+r*cellPx, cellPx, cellPx)
}

// lampCentre returns A-unit a's lamp centre.
func (l *layout) lampCentre(a int) image.Point {
	return image.Pt(l.lampCentre0.X+(a%lampCols)*lampPitch, l.lampCentre0.Y+(a/lampCols)*lampPitch)
}

// dialCentre returns the centre of pot p of rack r.
func (l *layout) dialCentre(r, p int) image.Point {
	o := l.dials[r]
	return image.Pt(o.X+(p%dialCols)*dialPitch+dialPitch/2, o.Y+(p/dialCols)*dialPitchY+dialPitchY/2)
}

// zoomCentre returns the centre of pot p in the zoomed rack.
func (l *layout) zoomCentre(p int) image.Point {
	o := l.zoomDials.Min
	return image.Pt(o.X+(p%zoomCols)*zoomPitch+zoomPitch/2, o.Y+(p/zoomCols)*zoomPitch+zoomPitch/2)
}
