package view_test

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// These tests read the screen as a visitor does: the letter in the answer panel, the words of
// the caption and the title, the lamps lit, the bars of the curve, the colours of the heat
// maps and the way each pointer points, and check them against the machine's own state (the
// frame), not against the view's drawing. Text is read by setting the words the screen should
// show with golang.org/x/image's own text drawer (not the view's glyph code) and comparing
// the ink, pixel by pixel.

// seen is one screen as drawn, with what it was drawn from.
type seen struct {
	name     string
	sc       *view.Scene
	img      *image.RGBA
	f        *session.Frame
	ui       *view.UI
	animated bool // the dials were caught turning (then was drawn dt after frame)
}

// A semantic check returns what the screen shows wrongly (nothing when it is right).
type semanticCheck struct {
	name  string
	check func(s *seen) []string
}

var semanticChecks = []semanticCheck{
	{"title", checkTitle},
	{"caption", checkCaption},
	{"card", checkCard},
	{"answer", checkAnswer},
	{"retina", checkRetina},
	{"lamps", checkLamps},
	{"plug-board", checkPlugBoard},
	{"R-units", checkRUnits},
	{"heat maps", checkHeat},
	{"dials", checkDials},
	{"rig", checkRig},
	{"controls", checkControls},
	{"curve", checkCurve},
	{"highlight", checkHighlight},
	{"tip", checkTip},
}

// semanticProblems runs every check on s, each problem prefixed with the check's name.
func semanticProblems(s *seen) []string {
	var out []string
	if s.ui.Lang != i18n.English || s.ui.LargeText || s.ui.Help {
		return nil // the checks read English in the usual size; access_test.go measures the rest
	}
	for _, c := range semanticChecks {
		for _, p := range c.check(s) {
			out = append(out, s.name+": "+c.name+": "+p)
		}
	}
	return out
}

// TestWhatTheVisitorSees draws the main screens and reads them.
func TestWhatTheVisitorSees(t *testing.T) {
	for _, s := range screens(t) {
		t.Run(s.name, func(t *testing.T) {
			sc, err := view.New(view.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range semanticProblems(seenOf(t, sc, s)) {
				t.Error(p)
			}
		})
	}
}

func seenOf(t testing.TB, sc *view.Scene, s screen) *seen {
	img := drawScreen(t, sc, s)
	f := s.frame
	if s.then != nil {
		f = s.then
	}
	ui := s.ui
	return &seen{name: s.name, sc: sc, img: img, f: f, ui: &ui, animated: s.then != nil}
}

// Fonts, loaded here from the Go fonts' files with x/image's opentype, as the screen's
// text is set: 72 dpi, full hinting.
var (
	facesMu sync.Mutex
	faces   = map[string]font.Face{}
)

func tface(t testing.TB, name string, size float64) font.Face {
	facesMu.Lock()
	defer facesMu.Unlock()
	k := name + strconv.FormatFloat(size, 'f', -1, 64)
	if f := faces[k]; f != nil {
		return f
	}
	ttf := map[string][]byte{"regular": goregular.TTF, "medium": gomedium.TTF, "bold": gobold.TTF}[name]
	ft, err := opentype.Parse(ttf)
	if err != nil {
		t.Fatal(err)
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	faces[k] = f
	return f
}

// The screen's fonts, by what they set.
func fontTitle(t testing.TB) font.Face   { return tface(t, "bold", 24) } // the experiment, the mode, the A-unit
func fontLabel(t testing.TB) font.Face   { return tface(t, "medium", 20) }
func fontSmall(t testing.TB) font.Face   { return tface(t, "medium", 14) }
func fontCaption(t testing.TB) font.Face { return tface(t, "regular", 31) }
func fontTip(t testing.TB) font.Face     { return tface(t, "regular", 23) }
func fontBig(t testing.TB) font.Face     { return tface(t, "bold", 96) }
func fontMid(t testing.TB) font.Face     { return tface(t, "bold", 40) }

// mask holds how much ink each pixel of r has: 0 for the background, 1 for the ink, between
// for an anti-aliased edge; a pixel of another colour (more than 48 levels off the line from
// bg to ink) has none, nor one less than a quarter of the way (a panel's edge, a dim socket).
type mask struct {
	r  image.Rectangle
	on []float64
}

func inkMask(img *image.RGBA, r image.Rectangle, ink, bg color.RGBA) mask {
	r = r.Intersect(img.Rect)
	m := mask{r: r, on: make([]float64, r.Dx()*r.Dy())}
	d := [3]float64{float64(ink.R) - float64(bg.R), float64(ink.G) - float64(bg.G), float64(ink.B) - float64(bg.B)}
	dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
	b := [3]float64{float64(bg.R), float64(bg.G), float64(bg.B)}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			i := img.PixOffset(x, y)
			p := [3]float64{float64(img.Pix[i]) - b[0], float64(img.Pix[i+1]) - b[1], float64(img.Pix[i+2]) - b[2]}
			a := max(0, min(1, (p[0]*d[0]+p[1]*d[1]+p[2]*d[2])/dd))
			res := 0.0
			for c := range 3 {
				res = max(res, math.Abs(p[c]-a*d[c]))
			}
			if res > 48 || a < 0.25 {
				a = 0 // another colour, or the faintest edge of a glyph
			}
			m.on[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = a
		}
	}
	return m
}

// count is the number of pixels more ink than background.
func (m mask) count() int {
	n := 0
	for _, v := range m.on {
		if v > 0.5 {
			n++
		}
	}
	return n
}

// bbox is the smallest rectangle holding the pixels more ink than background.
func (m mask) bbox() image.Rectangle {
	var b image.Rectangle
	for i, v := range m.on {
		if v > 0.5 {
			x, y := m.r.Min.X+i%m.r.Dx(), m.r.Min.Y+i/m.r.Dx()
			b = b.Union(image.Rect(x, y, x+1, y+1))
		}
	}
	return b
}

func (m mask) at(x, y int) float64 {
	if !(image.Point{x, y}).In(m.r) {
		return 0
	}
	return m.on[(y-m.r.Min.Y)*m.r.Dx()+x-m.r.Min.X]
}

// iou is the overlap of a's and b's ink, b moved by off (the sum of the smaller ink over the
// sum of the larger, pixel by pixel): 1 when they are the same, 0 when they share none.
func iou(a, b mask, off image.Point) float64 {
	inter, union := 0.0, 0.0
	ra := a.r.Union(b.r.Add(off))
	for y := ra.Min.Y; y < ra.Max.Y; y++ {
		for x := ra.Min.X; x < ra.Max.X; x++ {
			p, q := a.at(x, y), b.at(x-off.X, y-off.Y)
			inter += min(p, q)
			union += max(p, q)
		}
	}
	if union == 0 {
		return 1
	}
	return inter / union
}

// setText draws lines of s onto a copy of r filled with bg, the first baseline at (x, y),
// with x/image's font.Drawer, and returns its ink.
func setText(r image.Rectangle, f font.Face, x, y, gap int, lines []string, ink, bg color.RGBA) mask {
	img := image.NewRGBA(r)
	draw.Draw(img, r, image.NewUniform(bg), image.Point{}, draw.Src)
	for i, s := range lines {
		d := font.Drawer{Dst: img, Src: image.NewUniform(ink), Face: f, Dot: fixed.P(x, y+i*gap)}
		d.DrawString(s)
	}
	return inkMask(img, r, ink, bg)
}

// textAt compares the ink of r with str set at (x, y) (the baseline), word by word, and
// returns the overlap of the word that matches worst: one wrong letter or digit in a long
// sentence shows there.
func textAt(s *seen, r image.Rectangle, f font.Face, x, y int, str string, ink, bg color.RGBA) float64 {
	got := inkMask(s.img, r, ink, bg)
	ref := setText(r, f, x, y, 0, []string{str}, ink, bg)
	return wordsMatch(got, ref, f, x, y, str)
}

// wordsMatch returns the worst overlap of got and ref in the boxes of str's words, set at
// (x, y).
func wordsMatch(got, ref mask, f font.Face, x, y int, str string) float64 {
	m := font.Metrics(f.Metrics())
	top, bottom := y-m.Ascent.Ceil(), y+m.Descent.Ceil()
	worst := 1.0
	start := 0
	for i := 0; i <= len(str); i++ {
		if i < len(str) && str[i] != ' ' {
			continue
		}
		if i > start {
			x0 := x + font.MeasureString(f, str[:start]).Round()
			x1 := x + font.MeasureString(f, str[:i]).Round()
			box := image.Rect(x0-1, top, x1+1, bottom).Intersect(got.r)
			worst = min(worst, iou(got.sub(box), ref.sub(box), image.Point{}))
		}
		start = i + 1
	}
	return worst
}

// sub is the part of m in r.
func (m mask) sub(r image.Rectangle) mask {
	r = r.Intersect(m.r)
	out := mask{r: r, on: make([]float64, r.Dx()*r.Dy())}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			out.on[(y-r.Min.Y)*r.Dx()+x-r.Min.X] = m.at(x, y)
		}
	}
	return out
}

// read returns which of candidates the ink of r shows, set in one of fonts wherever it
// is in r (matched by the ink's top-left corner), and how well it and the next best match.
func read(s *seen, r image.Rectangle, fonts []font.Face, candidates []string, ink, bg color.RGBA) (string, float64, float64) {
	got := inkMask(s.img, r, ink, bg)
	gb := got.bbox()
	best, b1, b2 := "", -1.0, -1.0
	for _, c := range candidates {
		score := -1.0
		for _, f := range fonts {
			ref := setAlone(f, c, ink, bg)
			rb := ref.bbox()
			if rb.Empty() || gb.Empty() {
				continue
			}
			score = max(score, iou(got, ref, gb.Min.Sub(rb.Min)))
		}
		switch {
		case score > b1:
			best, b1, b2 = c, score, b1
		case score > b2:
			b2 = score
		}
	}
	return best, b1, b2
}

type aloneKey struct {
	f       font.Face
	s       string
	ink, bg color.RGBA
}

var (
	aloneMu sync.Mutex
	alone   = map[aloneKey]mask{}
)

// setAlone sets s on its own, in a rectangle just large enough, and returns its ink (once for
// each text, font and colours).
func setAlone(f font.Face, s string, ink, bg color.RGBA) mask {
	k := aloneKey{f, s, ink, bg}
	aloneMu.Lock()
	defer aloneMu.Unlock()
	if m, ok := alone[k]; ok {
		return m
	}
	asc, h := f.Metrics().Ascent.Ceil(), f.Metrics().Height.Ceil()
	m := setText(image.Rect(0, 0, font.MeasureString(f, s).Ceil()+20, h+20), f, 10, 10+asc, 0, []string{s}, ink, bg)
	alone[k] = m
	return m
}

// wrapText breaks s into lines no wider than w in f, at spaces.
func wrapText(f font.Face, s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(s, " ") {
		try := word
		if line != "" {
			try = line + " " + word
		}
		if line != "" && font.MeasureString(f, try).Ceil() > w {
			lines = append(lines, line)
			line = word
			continue
		}
		line = try
	}
	return append(lines, line)
}

func px(img *image.RGBA, p image.Point) color.RGBA { return img.RGBAAt(p.X, p.Y) }

// sLampLit says whether an S-unit's lamp centred on c is lit: amber at one of the 9 points 2
// pixels apart around its centre (a wire from the cell may cross its centre).
func sLampLit(img *image.RGBA, c image.Point) bool {
	for dy := -2; dy <= 2; dy += 2 {
		for dx := -2; dx <= 2; dx += 2 {
			if near(px(img, c.Add(image.Pt(dx, dy))), view.ColAmber, 40) {
				return true
			}
		}
	}
	return false
}

// lampLit says whether the lamp centred on c is lit: amber, or amber under a translucent wire
// (bright red and green, little blue), at one of the 9 points 2 pixels apart around its
// centre. The plug-board's red and blue wires may cross a lamp; no wire over a dark lamp
// looks amber.
func lampLit(img *image.RGBA, c image.Point) bool {
	for dy := -2; dy <= 2; dy += 2 {
		for dx := -2; dx <= 2; dx += 2 {
			if q := px(img, c.Add(image.Pt(dx, dy))); q.R > 200 && q.G > 120 && q.G < q.R && q.B < 120 {
				return true
			}
		}
	}
	return false
}

func firing(f *session.Frame, a int) bool {
	return a/64 < len(f.Machine.A) && f.Machine.A[a/64]>>(a%64)&1 == 1
}

// used says which R-units a class's code trains.
func used(f *session.Frame, r int) bool {
	for _, c := range f.Codes {
		if r < len(c) && c[r] != 0 {
			return true
		}
	}
	return false
}

// readWell is the least overlap of a word read right. Measured on the main screens: the words
// read right overlap their setting by 0.98 to 1 (x/image's drawer and the view blend the same
// glyph masks a level apart); a word with one letter or digit wrong, by 0.21 to 0.73 (an
// epoch, an A-unit's number, a count, an R-unit's sum changed by one); the best of the
// answer's candidates reads 0.93 to 1 and the next best at most 0.85 (F against E).
const readWell = 0.9

// checkTitle reads the experiment's name, the mode and the count of cards in the title bar.
func checkTitle(s *seen) []string {
	var out []string
	tr := s.sc.TitleRect()
	var titles []string
	want := s.f.Experiment
	for j := range view.NumExperiments {
		e := view.ExperimentAt(j)
		titles = append(titles, i18n.English.S(e.TitleMsg))
		if e.Name == s.f.Experiment {
			want = i18n.English.S(e.TitleMsg)
		}
	}
	zone := image.Rect(780, tr.Min.Y, 1400, tr.Max.Y-2)
	if got, q, _ := read(s, zone, []font.Face{fontTitle(s.t())}, titles, view.ColAmber, view.ColTitleBar); got != want || q < readWell {
		out = append(out, fmt.Sprintf("the experiment reads %q (%.2f), want %q", got, q, want))
	}
	// The mode, after the experiment's name and the mode's lamp.
	mode := map[session.Mode]string{session.Training: "TRAINING", session.Testing: "TESTING", session.Stopped: "STOPPED"}[s.f.Mode]
	mx := 820 + font.MeasureString(fontTitle(s.t()), want).Ceil() + 40 + 26
	mz := image.Rect(mx-4, tr.Min.Y, mx+font.MeasureString(fontTitle(s.t()), mode).Ceil()+4, tr.Max.Y-2)
	if q := textAt(s, mz, fontTitle(s.t()), mx, 42, mode, view.ColText, view.ColTitleBar); q < readWell {
		out = append(out, fmt.Sprintf("the mode does not read %q (%.2f)", mode, q))
	}
	// The status, two lines right-aligned against the language button.
	f := fontSmall(s.t())
	right := s.sc.LanguageRect().Min.X - 16
	for i, line := range strings.Split(titleStatus(s.f), "   ·   ") {
		y := 26 + i*(f.Metrics().Height.Ceil()+2)
		x := right - font.MeasureString(f, line).Ceil()
		if q := textAt(s, image.Rect(1100, y-14, right+2, y+5), f, x, y, line, view.ColTextDim, view.ColTitleBar); q < readWell {
			out = append(out, fmt.Sprintf("the title bar does not read %q (%.2f)", line, q))
		}
	}
	return out
}

// titleStatus is what the title bar says of the cards: "epoch 4 · card 1 of 208   ·   625
// cards shown · 31 min of machine time".
func titleStatus(f *session.Frame) string {
	var b strings.Builder
	if f.Mode == session.Testing || f.Kind == session.TestCard && f.Tested {
		fmt.Fprintf(&b, "test card %d", f.TestDone)
	} else {
		fmt.Fprintf(&b, "epoch %d · card %d", f.Epoch+1, f.EpochDone)
	}
	fmt.Fprintf(&b, " of %d   ·   %s cards shown · ", f.Cards, thousands(f.Machine.Count))
	c := f.Machine.Clock
	switch {
	case c < 60:
		fmt.Fprintf(&b, "%d s", int(c))
	case c < 3600:
		fmt.Fprintf(&b, "%d min", int(c/60))
	case c < 48*3600:
		fmt.Fprintf(&b, "%d h %02d min", int(c/3600), int(c/60)%60)
	default:
		fmt.Fprintf(&b, "%d days %d h", int(c/86400), int(c/3600)%24)
	}
	b.WriteString(" of machine time")
	return b.String()
}

func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// captionNames returns what the caption must say of the presentation f shows: the card, the
// machine's answer, the right one, the A-units that fired.
func captionNames(f *session.Frame) []string {
	label := func(c int) string {
		if c < 0 || c >= len(f.Classes) {
			return "?"
		}
		return f.Classes[c]
	}
	active := strconv.Itoa(f.Machine.Active)
	switch f.Kind {
	case session.TrainCard:
		out := []string{"Card " + strconv.Itoa(f.EpochDone) + " of " + strconv.Itoa(f.Cards), "answered " + label(f.Answer)}
		if f.Answer != f.Want {
			out = append(out, "should be "+label(f.Want), "the "+active+" lit A-units toward "+label(f.Want))
		}
		return out
	case session.TestCard:
		return []string{"It answered " + label(f.Answer)}
	case session.Shown:
		return []string{active + " of the 512 A-units fire", "answers " + label(f.Answer)}
	case session.Taught:
		return []string{"You taught it " + label(f.Want)}
	}
	return nil
}

// checkCaption reads the caption: the narration when there is one, else what happened on the
// presentation the frame shows.
func checkCaption(s *seen) []string {
	var out []string
	r := s.sc.CaptionRect()
	text, ink := view.Caption(s.f), view.ColText
	if s.ui.Note != "" {
		text, ink = s.ui.Note, view.ColHighlight
	} else {
		for _, w := range captionNames(s.f) {
			if !strings.Contains(text, w) {
				out = append(out, fmt.Sprintf("the caption %q does not say %q", text, w))
			}
		}
	}
	f := fontCaption(s.t())
	lines := wrapText(f, text, r.Dx()-16)
	lines = lines[:min(len(lines), 2)]
	ref := setText(r, f, r.Min.X+8, r.Min.Y+34, 42, lines, ink, view.ColBackground)
	got := inkMask(s.img, r, ink, view.ColBackground)
	for i, line := range lines {
		if q := wordsMatch(got, ref, f, r.Min.X+8, r.Min.Y+34+42*i, line); q < readWell {
			return append(out, fmt.Sprintf("the caption does not read %q (%.2f)", text, q))
		}
	}
	return out
}

// checkCard looks at the card in the holder: ink where the card's picture is dark, paper
// where it is light.
func checkCard(s *seen) []string {
	if s.ui.Drawing != nil {
		return nil
	}
	r := s.sc.CardRect()
	bad, n := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			py, pxl := (y-r.Min.Y)*session.PictureSide/r.Dy(), (x-r.Min.X)*session.PictureSide/r.Dx()
			v := s.f.Picture[py*session.PictureSide+pxl]
			c := s.img.RGBAAt(x, y)
			lum := int(c.R) + int(c.G) + int(c.B)
			switch {
			case v < 64:
				n++
				if lum > 3*100 {
					bad++
				}
			case v > 192:
				n++
				if lum < 3*180 {
					bad++
				}
			}
		}
	}
	if bad > n/100 {
		return []string{fmt.Sprintf("%d of %d points of the card are not the card's picture", bad, n)}
	}
	return nil
}

// checkAnswer reads the answer panel: the machine's answer in large amber letters, the answer
// wanted, and the lamp and word that say right or wrong.
func checkAnswer(s *seen) []string {
	var out []string
	a := s.sc.AnswerRect()
	big := image.Rect(a.Min.X, a.Min.Y+16, a.Max.X, a.Min.Y+118)
	if s.f.Answer < 0 || s.f.Answer >= len(s.f.Classes) {
		if n := inkMask(s.img, big, view.ColAmber, view.ColPanel).count(); n > 0 {
			out = append(out, fmt.Sprintf("no answer, but %d amber pixels where it goes", n))
		}
		return out
	}
	want := s.f.Classes[s.f.Answer]
	got, q, _ := read(s, big, []font.Face{fontBig(s.t()), fontMid(s.t())}, s.f.Classes, view.ColAmber, view.ColPanel)
	if got != want || q < readWell {
		out = append(out, fmt.Sprintf("the answer reads %q (%.2f); the machine answered %q", got, q, want))
	}
	if s.f.Want < 0 || s.f.Want >= len(s.f.Classes) {
		if q := textAt(s, image.Rect(a.Min.X, a.Min.Y+128, a.Max.X, a.Max.Y), fontLabel(s.t()), a.Min.X, a.Min.Y+150, "(no right answer given)", view.ColTextDim, view.ColPanel); q < readWell {
			out = append(out, fmt.Sprintf("no right answer, and the panel does not say so (%.2f)", q))
		}
		return out
	}
	// The zone of the wanted label: as wide as the widest label (a wire may cross beyond).
	wx := a.Min.X + font.MeasureString(fontLabel(s.t()), "wanted: ").Ceil()
	ww := 0
	for _, c := range s.f.Classes {
		ww = max(ww, font.MeasureString(fontTitle(s.t()), c).Ceil())
	}
	wz := image.Rect(wx, a.Min.Y+112, min(a.Max.X, wx+ww+8), a.Min.Y+146)
	if got, q, _ := read(s, wz, []font.Face{fontTitle(s.t())}, s.f.Classes, view.ColText, view.ColPanel); got != s.f.Classes[s.f.Want] || q < readWell {
		out = append(out, fmt.Sprintf("the wanted answer reads %q (%.2f), want %q", got, q, s.f.Classes[s.f.Want]))
	}
	right := s.f.Answer == s.f.Want
	lampCol, word := view.ColRed, "WRONG"
	if right {
		lampCol, word = view.ColGreen, "RIGHT"
	}
	if c := px(s.img, s.sc.AnswerLampCentre()); c != lampCol {
		out = append(out, fmt.Sprintf("the answer lamp is %v, want %v (%s)", c, lampCol, word))
	}
	wordZone := image.Rect(a.Min.X+22, a.Min.Y+146, a.Max.X, a.Max.Y)
	if got, q, _ := read(s, wordZone, []font.Face{fontTitle(s.t())}, []string{"RIGHT", "WRONG"}, lampCol, view.ColPanel); got != word || q < readWell {
		out = append(out, fmt.Sprintf("the verdict reads %q (%.2f), want %q", got, q, word))
	}
	return out
}

// checkRetina looks at every photocell: its S-unit's lamp lit (amber at its centre) exactly
// when the S-unit is on, its glass dark without light, bright in full light, and brighter
// the more light it has.
func checkRetina(s *seen) []string {
	var out []string
	type cell struct {
		level float32
		lum   int
	}
	var cells []cell
	for c := range retina.N {
		r := s.sc.CellRect(c)
		on := s.f.Machine.S.Get(c)
		if lit := sLampLit(s.img, centre(r)); lit != on {
			out = append(out, fmt.Sprintf("S-unit %d: on %v, lamp lit %v", c, on, lit))
			if len(out) > 5 {
				return out
			}
		}
		// The glass at the cell's corners (a wire may cross one: take the colour two share).
		k := [4]color.RGBA{px(s.img, r.Min.Add(image.Pt(2, 2))), px(s.img, image.Pt(r.Max.X-3, r.Min.Y+2)),
			px(s.img, image.Pt(r.Min.X+2, r.Max.Y-3)), px(s.img, r.Max.Sub(image.Pt(3, 3)))}
		glass, ok := color.RGBA{}, false
		for i := range k {
			for j := i + 1; j < len(k); j++ {
				if k[i] == k[j] {
					glass, ok = k[i], true
				}
			}
		}
		if !ok {
			continue
		}
		lv := s.f.Machine.Levels[c]
		switch {
		case lv <= 0 && glass != view.ColCellDark:
			out = append(out, fmt.Sprintf("cell %d sees no light (level %.2f) but its glass is %v", c, lv, glass))
		case lv >= 1.2 && glass != view.ColCellLit:
			out = append(out, fmt.Sprintf("cell %d is in full light (level %.2f) but its glass is %v", c, lv, glass))
		}
		cells = append(cells, cell{lv, int(glass.R) + int(glass.G) + int(glass.B)})
	}
	if len(cells) < retina.N*9/10 {
		out = append(out, fmt.Sprintf("only %d cells' glass could be seen", len(cells)))
	}
	for _, a := range cells {
		for _, b := range cells {
			if a.level < b.level-0.01 && a.lum > b.lum+3 {
				out = append(out, fmt.Sprintf("a cell at level %.2f is brighter (%d) than one at %.2f (%d)", a.level, a.lum, b.level, b.lum))
				return out
			}
		}
	}
	return out
}

// checkLamps looks at every A-unit's lamp: lit exactly when the A-unit fires; and reads the
// count of those firing.
func checkLamps(s *seen) []string {
	if s.ui.Zoom >= 0 || s.f.Board == nil {
		return nil
	}
	var out []string
	lit := 0
	for a := range s.f.Board.Len() {
		on := lampLit(s.img, s.sc.LampCentre(a))
		if on != firing(s.f, a) {
			out = append(out, fmt.Sprintf("A-unit %d: firing %v, lamp lit %v", a, firing(s.f, a), on))
			if len(out) > 5 {
				return out
			}
		}
		if on {
			lit++
		}
	}
	if lit != s.f.Machine.Active {
		out = append(out, fmt.Sprintf("%d lamps lit, %d A-units active", lit, s.f.Machine.Active))
	}
	p := s.sc.PartRect(view.Part{Kind: view.PartLamp})
	head := image.Rect(p.Min.X+250, p.Min.Y-34, p.Max.X+8, p.Min.Y-2)
	str := thousands(uint64(s.f.Machine.Active)) + " firing"
	f := fontSmall(s.t())
	if q := textAt(s, head, f, p.Max.X+8-10-font.MeasureString(f, str).Ceil(), p.Min.Y-34+24, str, view.ColAmber, view.ColPanel); q < readWell {
		out = append(out, fmt.Sprintf("the lamp panel does not read %q (%.2f)", str, q))
	}
	return out
}

// checkPlugBoard reads the plug-board panel (the A-unit shown, numbered from 0 as the rig
// and mark1's other commands number it, and whether it fires) and looks for its plugs' rings
// on the retina: red for excitatory, blue for inhibitory.
func checkPlugBoard(s *seen) []string {
	if s.ui.Zoom >= 0 || s.f.Board == nil || s.ui.Unit < 0 || s.ui.Unit >= s.f.Board.Len() {
		return nil
	}
	var out []string
	p := s.sc.UnitPanelRect()
	name := "A-UNIT " + strconv.Itoa(s.ui.Unit)
	zone := image.Rect(p.Min.X+60, p.Min.Y, p.Min.X+260, p.Min.Y+34)
	if q := textAt(s, zone, fontTitle(s.t()), p.Min.X+66, p.Min.Y+27, name, view.ColText, view.ColPanel); q < readWell {
		out = append(out, fmt.Sprintf("the plug-board does not read %q (%.2f)", name, q))
	}
	word, col := "RESTING", view.ColTextDim
	if firing(s.f, s.ui.Unit) {
		word, col = "FIRES", view.ColAmber
	}
	f := fontTitle(s.t())
	right := image.Rect(p.Max.X-220, p.Min.Y, p.Max.X-60, p.Min.Y+34)
	if q := textAt(s, right, f, p.Max.X-66-font.MeasureString(f, word).Ceil(), p.Min.Y+27, word, col, view.ColPanel); q < readWell {
		out = append(out, fmt.Sprintf("A-unit %d: the plug-board does not say %s (%.2f)", s.ui.Unit, word, q))
	}
	u := s.f.Board.Units[s.ui.Unit]
	for pass, plugs := range [2][]uint16{u.Exc, u.Inh} {
		for _, c := range plugs {
			cp := centre(s.sc.CellRect(int(c)))
			n := 0
			for _, d := range []image.Point{{8, 0}, {-8, 0}, {0, 8}, {0, -8}} {
				q := px(s.img, cp.Add(d))
				if pass == 0 && q.R > 200 && q.G < 130 && q.B < 130 || pass == 1 && q.B > 170 && q.R < 100 {
					n++
				}
			}
			if n < 3 {
				kind := [2]string{"excitatory", "inhibitory"}[pass]
				out = append(out, fmt.Sprintf("A-unit %d's %s plug on cell %d has no ring", s.ui.Unit, kind, c))
			}
		}
	}
	return out
}

// checkRUnits looks at the R-units' lamps (lit exactly when the sum is above zero), reads the
// sums under them, and looks for the amber frame of the R-units whose motors turn.
func checkRUnits(s *seen) []string {
	if s.ui.Zoom >= 0 {
		return nil
	}
	var out []string
	m := &s.f.Machine
	moved := map[int]bool{}
	for _, mv := range m.Moves {
		moved[mv.R] = true
	}
	for r := range min(len(m.Pots), 8) {
		b := s.sc.RLampRect(r)
		c := image.Pt(b.Min.X+b.Dx()/2, b.Min.Y+20)
		on := used(s.f, r) && m.Count > 0 && m.Sums[r] > 0
		if lit := near(px(s.img, c), view.ColGreen, 30); lit != on {
			out = append(out, fmt.Sprintf("R%d: sum %.1f, lamp lit %v", r, m.Sums[r], lit))
		}
		if used(s.f, r) && m.Count > 0 {
			str := strconv.FormatFloat(m.Sums[r], 'f', 0, 64)
			if m.Sums[r] > 0 {
				str = "+" + str
			}
			f := fontSmall(s.t())
			zone := image.Rect(b.Min.X-2, b.Min.Y+68, b.Max.X+2, b.Max.Y)
			if q := textAt(s, zone, f, c.X-font.MeasureString(f, str).Ceil()/2, b.Min.Y+82, str, view.ColTextDim, view.ColPanel); q < readWell {
				out = append(out, fmt.Sprintf("R%d: the sum under the lamp does not read %s (%.2f)", r, str, q))
			}
		}
		top := px(s.img, image.Pt(c.X, b.Min.Y-2))
		if framed := near(top, view.ColAmber, 60); framed != moved[r] {
			out = append(out, fmt.Sprintf("R%d: motors turning %v, amber frame %v", r, moved[r], framed))
		}
	}
	return out
}

// heatOf is what R-unit r has learned, computed here from the pots and the plug-board:
// sum over A-units a of w[r][a] * (+1 for each excitatory plug of a on the cell, -1 for each
// inhibitory one).
func heatOf(f *session.Frame, r int) [retina.N]float64 {
	var h [retina.N]float64
	for a, u := range f.Board.Units {
		w := f.Machine.Pots[r][a]
		for _, c := range u.Exc {
			h[c] += w
		}
		for _, c := range u.Inh {
			h[c] -= w
		}
	}
	return h
}

// checkHeat looks at each heat map's cells: red where the R-unit has learned that the cell
// pushes it on, blue where off, dark where neither.
func checkHeat(s *seen) []string {
	if s.ui.Zoom >= 0 || s.animated || s.f.Board == nil {
		return nil
	}
	var out []string
	nR := min(len(s.f.Machine.Pots), 8)
	heat := make([][retina.N]float64, nR)
	scale := 8.0
	for r := range nR {
		heat[r] = heatOf(s.f, r)
		for _, v := range heat[r] {
			scale = max(scale, math.Abs(v))
		}
	}
	for r := range nR {
		hr := s.sc.HeatRect(r)
		cw := hr.Dx() / retina.Cols
		bad := 0
		for c := range retina.N {
			p := image.Pt(hr.Min.X+(c%retina.Cols)*cw+cw/2, hr.Min.Y+(c/retina.Cols)*cw+cw/2)
			q := px(s.img, p)
			v := heat[r][c] / scale
			red, blue := int(q.R)-int(q.B), int(q.B)-int(q.R)
			switch {
			case v > 0.1 && red < 40, v < -0.1 && blue < 40, math.Abs(v) < 0.0002 && !near(q, view.ColHeatZero, 4):
				bad++
			}
		}
		if bad > 0 {
			out = append(out, fmt.Sprintf("R%d: %d cells of its map are not coloured by what it has learned", r, bad))
		}
	}
	return out
}

// checkDials looks at every pointer of the racks: it points where its pot's reading puts it
// (+-135 degrees for the end stops), red for a positive weight and blue for a negative one.
func checkDials(s *seen) []string {
	if s.ui.Zoom >= 0 || s.animated {
		return nil
	}
	var out []string
	rng := s.f.Range
	if math.IsInf(rng, 1) || rng <= 0 {
		rng = 64
	}
	// A description covers some dials.
	var covered image.Rectangle
	if at, ok := tipBox(s.img); ok {
		covered = image.Rect(at.X, at.Y, at.X+560, at.Y+24+8*31).Inset(-8)
	}
	racks := min(len(s.f.Machine.Pots), 8)
	if s.f.Rig.Attached {
		racks = min(racks, 5) // the rig's panel lies over R5 to R7
	}
	for r := range racks {
		bad, colour := 0, 0
		for p, v := range s.f.Machine.Pots[r] {
			t := max(-1, min(1, v/rng))
			th := t * 135 * math.Pi / 180
			c := s.sc.DialCentre(r, p)
			if c.In(covered) {
				continue
			}
			tip := c.Add(image.Pt(int(math.Round(3.6*math.Sin(th))), int(math.Round(-3.6*math.Cos(th)))))
			back := c.Add(image.Pt(int(math.Round(-2.5*math.Sin(th))), int(math.Round(2.5*math.Cos(th))))) // short of the end stops' marks
			face := view.ColDialFace
			if p == len(s.f.Machine.Pots[r])-1 {
				continue // the bias's brown face
			}
			dist := func(q color.RGBA) int {
				return max(absInt(int(q.R)-int(face.R)), absInt(int(q.G)-int(face.G)), absInt(int(q.B)-int(face.B)))
			}
			if dist(px(s.img, tip)) < 40 || dist(px(s.img, back)) > 30 {
				bad++
			}
			q := px(s.img, tip)
			if used(s.f, r) && (t > 0.2 && int(q.R) < int(q.B)+30 || t < -0.2 && int(q.B) < int(q.R)+30) {
				colour++
			}
		}
		if bad > 0 || colour > 0 {
			out = append(out, fmt.Sprintf("rack R%d: %d pointers do not point at their readings, %d are not coloured by their sign", r, bad, colour))
		}
	}
	return out
}

func absInt(v int) int { return max(v, -v) }

// lit says whether a button's glass is lit (amber over its grey).
func lit(s *seen, r image.Rectangle) bool {
	q := px(s.img, r.Min.Add(image.Pt(8, 8)))
	return int(q.R) > int(q.B)+20
}

// checkControls looks at which buttons are lit: the mode's, the rule's, the speed's and the
// experiment's, and no other.
func checkControls(s *seen) []string {
	var out []string
	f := s.f
	for b, want := range map[view.Button]bool{view.ButtonTrain: f.Mode == session.Training, view.ButtonTest: f.Mode == session.Testing,
		view.ButtonStop: f.Mode == session.Stopped, view.ButtonReset: false} {
		if got := lit(s, s.sc.ButtonRect(b)); got != want {
			out = append(out, fmt.Sprintf("button %d: lit %v, want %v (mode %v)", b, got, want, f.Mode))
		}
	}
	for i := range 2 {
		if got, want := lit(s, s.sc.RuleRect(i)), (i == 1) == (f.Rule == machine.Forced); got != want {
			out = append(out, fmt.Sprintf("rule switch %d: lit %v, want %v", i, got, want))
		}
	}
	for i := range view.NumSpeeds {
		v := view.SpeedAt(i)
		if got, want := lit(s, s.sc.SpeedRect(i)), v == f.Speed; got != want {
			out = append(out, fmt.Sprintf("speed %v: lit %v, want %v", v, got, want))
		}
	}
	for i := range view.NumExperiments {
		e := view.ExperimentAt(i)
		if got, want := lit(s, s.sc.ExperimentRect(i)), e.Name == f.Experiment; got != want {
			out = append(out, fmt.Sprintf("experiment %s: lit %v, want %v", e.Name, got, want))
		}
	}
	return out
}

// checkCurve reads the curve: one bar per epoch, amber, as tall as its mistakes on the scale
// written at the top of the axis (green and flat for an epoch without a mistake), then a
// faint bar for the epoch under way.
func checkCurve(s *seen) []string {
	var out []string
	p := s.sc.CurvePlot()
	f := fontSmall(s.t())
	hist := s.f.History
	if len(hist) == 0 && s.f.EpochDone == 0 {
		if q := textAt(s, p, f, p.Min.X+8, p.Min.Y+p.Dy()/2, "no epoch finished yet", view.ColTextUnused, view.ColPanel); q < readWell {
			out = append(out, fmt.Sprintf("no epoch, and the curve does not say so (%.2f)", q))
		}
	}
	// The scale.
	var nice []string
	for m := 1; m <= 100000; m *= 10 {
		nice = append(nice, strconv.Itoa(m), strconv.Itoa(2*m), strconv.Itoa(5*m))
	}
	label := image.Rect(p.Min.X-50, p.Min.Y-8, p.Min.X-2, p.Min.Y+14)
	got, q, _ := read(s, label, []font.Face{f}, nice, view.ColTextDim, view.ColPanel)
	top, _ := strconv.Atoi(got)
	if q < readWell || top < max(1, s.f.EpochMistakes) {
		return append(out, fmt.Sprintf("the scale reads %q (%.2f)", got, q))
	}
	for _, v := range hist {
		if v > top {
			return append(out, fmt.Sprintf("the scale reads %d, below an epoch's %d mistakes", top, v))
		}
	}
	// The bars, from the bottom row of the plot.
	type bar struct {
		col color.RGBA
		h   int
	}
	var bars []bar
	y := p.Max.Y - 1
	for x := p.Min.X; x < p.Max.X; x++ {
		c := s.img.RGBAAt(x, y)
		if c == view.ColPanel {
			continue
		}
		if len(bars) > 0 && s.img.RGBAAt(x-1, y) == c {
			continue
		}
		h := 0
		for y2 := y; y2 >= p.Min.Y && s.img.RGBAAt(x, y2) == c; y2-- {
			h++
		}
		bars = append(bars, bar{c, h})
	}
	want := len(hist)
	under := s.f.EpochDone > 0 && s.f.EpochMistakes*p.Dy()/top > 0
	if under {
		want++
	}
	if len(bars) != want {
		return append(out, fmt.Sprintf("%d bars, want %d (%v mistakes, %d so far in the epoch under way)", len(bars), want, hist, s.f.EpochMistakes))
	}
	for i, v := range hist {
		b := bars[i]
		switch {
		case v == 0 && (b.col != view.ColGreen || b.h != 2):
			out = append(out, fmt.Sprintf("epoch %d had no mistake: bar %v %d px, want green and 2 px", i+1, b.col, b.h))
		case v > 0 && (b.col != view.ColAmber || b.h != v*p.Dy()/top):
			out = append(out, fmt.Sprintf("epoch %d: %d mistakes on a scale of %d: bar %v %d px, want amber and %d px", i+1, v, top, b.col, b.h, v*p.Dy()/top))
		}
	}
	if under {
		b := bars[len(bars)-1]
		if h := s.f.EpochMistakes * p.Dy() / top; b.h != h || b.col == view.ColAmber {
			out = append(out, fmt.Sprintf("the epoch under way: %d mistakes so far, bar %v %d px, want faint and %d px", s.f.EpochMistakes, b.col, b.h, h))
		}
	}
	return out
}

// checkHighlight looks for the narration's ring around the part it names.
func checkHighlight(s *seen) []string {
	if s.ui.Highlight.Kind == view.PartNone {
		return nil
	}
	r := s.sc.PartRect(s.ui.Highlight).Inset(-6)
	n := 0
	for _, p := range []image.Point{{r.Min.X + r.Dx()/2, r.Min.Y + 2}, {r.Min.X + r.Dx()/2, r.Max.Y - 3}, {r.Min.X + 2, r.Min.Y + r.Dy()/2}, {r.Max.X - 3, r.Min.Y + r.Dy()/2}} {
		if q := px(s.img, p); q.R > 120 && int(q.B) < int(q.R)-50 && int(q.G) > int(q.B) {
			n++
		}
	}
	if n < 4 {
		return []string{fmt.Sprintf("the highlight's ring around %v shows on %d of its 4 sides", r, n)}
	}
	return nil
}

// tipBox finds the top-left corner of the description's box: its top edge is a row of at
// least 500 amber pixels.
func tipBox(img *image.RGBA) (image.Point, bool) {
	for y := range view.Height {
		run := 0
		for x := range view.Width {
			if img.RGBAAt(x, y) != view.ColAmber {
				run = 0
			} else if run++; run >= 500 {
				return image.Pt(x-run+1, y), true
			}
		}
	}
	return image.Point{}, false
}

// checkTip reads the first line of the description of the part under the pointer, in its box
// (found by the box's amber top edge).
func checkTip(s *seen) []string {
	if s.ui.Hover.Kind == view.PartNone {
		return nil
	}
	desc := s.sc.Describe(s.ui.Hover, s.f, s.ui)
	if desc == "" {
		return nil
	}
	if h := s.ui.Hover; h.Kind == view.PartDial && h.Sub < len(s.f.Machine.Pots[h.Index])-1 {
		// A pot is named as the rig names it (R2.A40: A-unit 40 into R-unit R2), with its reading.
		w := fmt.Sprintf("A-unit %d into R-unit R%d: %+.1f", h.Sub, h.Index, s.f.Machine.Pots[h.Index][h.Sub])
		if !strings.Contains(desc, w) {
			return []string{fmt.Sprintf("the description %q does not say %q", desc, w)}
		}
	}
	at, ok := tipBox(s.img)
	if !ok {
		return []string{"no description box"}
	}
	f := fontTip(s.t())
	first := wrapText(f, desc, 560-32)[0]
	zone := image.Rect(at.X, at.Y+4, at.X+560, at.Y+40)
	bg := color.RGBA{10, 12, 16, 255}
	if q := textAt(s, zone, f, at.X+16, at.Y+32, first, view.ColText, bg); q < readWell {
		return []string{fmt.Sprintf("the description's first line does not read %q (%.2f)", first, q)}
	}
	return nil
}

// t gives the font loader a testing.TB that fails loudly: the fonts are compiled in.
func (s *seen) t() testing.TB { return panicTB{} }

type panicTB struct{ testing.TB }

func (panicTB) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
