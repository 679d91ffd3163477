package screen

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The colours, matching view's.
var (
	colBack    = color.RGBA{14, 16, 21, 255}
	colPanel   = color.RGBA{24, 27, 35, 255}
	colEdge    = color.RGBA{46, 51, 64, 255}
	colText    = color.RGBA{226, 229, 235, 255}
	colDim     = color.RGBA{138, 147, 163, 255}
	colHeading = color.RGBA{200, 205, 215, 255}
	colAmber   = color.RGBA{255, 178, 64, 255}
	colRed     = color.RGBA{255, 86, 74, 255}
	colGreen   = color.RGBA{88, 214, 120, 255}
	colButton  = color.RGBA{44, 49, 62, 255}
	colLit     = color.RGBA{96, 72, 30, 255}
	colInk     = color.RGBA{24, 22, 20, 255}
	colPaper   = color.RGBA{236, 230, 214, 255}
)

var (
	faceMu sync.Mutex
	faces  = map[[2]int]font.Face{}
)

// face returns the Go font (0 regular, 1 medium) at size pixels.
func face(weight, size int) font.Face {
	faceMu.Lock()
	defer faceMu.Unlock()
	k := [2]int{weight, size}
	if f := faces[k]; f != nil {
		return f
	}
	ttf := goregular.TTF
	if weight == 1 {
		ttf = gomedium.TTF
	}
	ft, err := opentype.Parse(ttf)
	if err != nil {
		panic(err) // the fonts are compiled in
	}
	f, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	faces[k] = f
	return f
}

func fill(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Src)
}

func frame(dst *image.RGBA, r image.Rectangle, w int, c color.RGBA) {
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	fill(dst, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	fill(dst, image.Rect(r.Min.X, r.Min.Y, r.Min.X+w, r.Max.Y), c)
	fill(dst, image.Rect(r.Max.X-w, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// text draws s with its baseline at (x, y) and returns the x after it.
func text(dst *image.RGBA, f font.Face, x, y int, s string, c color.RGBA) int {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
	return d.Dot.X.Round()
}

func width(f font.Face, s string) int { return font.MeasureString(f, s).Round() }

// centred draws s centred in r.
func centred(dst *image.RGBA, f font.Face, r image.Rectangle, s string, c color.RGBA) {
	m := f.Metrics()
	y := r.Min.Y + (r.Dy()+m.Ascent.Round()-m.Descent.Round())/2
	text(dst, f, r.Min.X+(r.Dx()-width(f, s))/2, y, s, c)
}

// wrap draws s wrapped into width w from (x, y), lines lh apart, at most max lines; it
// returns the y after the last line.
func wrap(dst *image.RGBA, f font.Face, x, y, w, lh, max int, s string, c color.RGBA) int {
	line := ""
	n := 0
	for _, word := range strings.Fields(s) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && width(f, next) > w {
			if n++; n > max {
				return y
			}
			text(dst, f, x, y, line, c)
			y += lh
			line = word
			continue
		}
		line = next
	}
	if line != "" && n < max {
		text(dst, f, x, y, line, c)
		y += lh
	}
	return y
}

// lines returns the lines wrap takes for s in width w.
func lines(f font.Face, w int, s string) int {
	line, n := "", 0
	for _, word := range strings.Fields(s) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && width(f, next) > w {
			n++
			line = word
			continue
		}
		line = next
	}
	if line != "" {
		n++
	}
	return n
}

// button draws a push button.
func button(dst *image.RGBA, r image.Rectangle, label string, lit, pressed bool, size int) {
	bg, fg := colButton, colText
	if lit {
		bg, fg = colLit, colAmber
	}
	if pressed {
		bg = colAmber
		fg = colBack
	}
	fill(dst, r, bg)
	frame(dst, r, 2, colEdge)
	centred(dst, face(1, size), r, label, fg)
}

// DrawBand draws the title band: the institution's name.
func DrawBand(dst *image.RGBA, r image.Rectangle, title string) {
	fill(dst, r, colPanel)
	fill(dst, image.Rect(r.Min.X, r.Max.Y-2, r.Max.X, r.Max.Y), colEdge)
	centred(dst, face(1, 28), r, title, colHeading)
}
