package view

import (
	"fmt"
	"image"
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// glyph is one rasterised character: an alpha mask placed relative to the pen on the baseline.
type glyph struct {
	mask   []uint8
	w, h   int
	dx, dy int // top-left corner relative to the pen
	adv    int
}

// face is a font at one size, rasterised once: drawing text only blends masks.
type face struct {
	ascii  [128]glyph
	extra  map[rune]*glyph
	ascent int // pixels above the baseline
	height int // line height
}

// extraRunes are the characters beyond ASCII and Latin-1 (U+00A0 to U+00FF, all of which
// are rasterised: the accented letters of German, French and Spanish, the no-break space
// French groups digits with, « », ¿ ¡) that the captions use.
var extraRunes = []rune{'œ', 'Œ', 'Ÿ', '–', '—', '…', '→', '←', '‘', '’', '‚', '“', '”', '„', '‹', '›', '−'}

type faceKey struct {
	font string
	size int
}

var (
	faceMu    sync.Mutex
	faceCache = map[faceKey]*face{}
	fonts     = map[string][]byte{"regular": goregular.TTF, "medium": gomedium.TTF, "bold": gobold.TTF}
)

// loadFace returns the named Go font at size pixels, rasterised once per process.
func loadFace(name string, size int) (*face, error) {
	faceMu.Lock()
	defer faceMu.Unlock()
	k := faceKey{name, size}
	if f := faceCache[k]; f != nil {
		return f, nil
	}
	ft, err := opentype.Parse(fonts[name])
	if err != nil {
		return nil, fmt.Errorf("view: font %s: %w", name, err)
	}
	of, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("view: font %s: %w", name, err)
	}
	defer of.Close()
	m := of.Metrics()
	f := &face{extra: map[rune]*glyph{}, ascent: m.Ascent.Ceil(), height: m.Height.Ceil()}
	raster := func(r rune) glyph {
		dr, mask, mp, adv, ok := of.Glyph(fixed.P(0, 0), r)
		g := glyph{adv: adv.Round()}
		if !ok || dr.Empty() {
			return g
		}
		g.w, g.h, g.dx, g.dy = dr.Dx(), dr.Dy(), dr.Min.X, dr.Min.Y
		g.mask = make([]uint8, g.w*g.h)
		for y := range g.h {
			for x := range g.w {
				_, _, _, a := mask.At(mp.X+x, mp.Y+y).RGBA()
				g.mask[y*g.w+x] = uint8(a >> 8)
			}
		}
		return g
	}
	for r := rune(32); r < 127; r++ {
		f.ascii[r] = raster(r)
	}
	for r := rune(0xA0); r <= 0xFF; r++ {
		g := raster(r)
		f.extra[r] = &g
	}
	for _, r := range extraRunes {
		g := raster(r)
		f.extra[r] = &g
	}
	faceCache[k] = f
	return f, nil
}

// decode returns the rune at the start of s (UTF-8) and its length; invalid bytes give '?'.
func decode[T ~string | ~[]byte](s T, i int) (rune, int) {
	c := s[i]
	switch {
	case c < 0x80:
		return rune(c), 1
	case c&0xE0 == 0xC0 && i+1 < len(s):
		return rune(c&0x1F)<<6 | rune(s[i+1]&0x3F), 2
	case c&0xF0 == 0xE0 && i+2 < len(s):
		return rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3
	case c&0xF8 == 0xF0 && i+3 < len(s):
		return '?', 4
	}
	return '?', 1
}

func (f *face) glyph(r rune) *glyph {
	if r >= 0 && r < 128 {
		return &f.ascii[r]
	}
	if g := f.extra[r]; g != nil {
		return g
	}
	return &f.ascii['?']
}

// width returns the advance of s in pixels.
func width[T ~string | ~[]byte](f *face, s T) int {
	w := 0
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		w += f.glyph(r).adv
		i += n
	}
	return w
}

// text draws s with its baseline at y, starting at x, and returns the pen's x at the end.
func text[T ~string | ~[]byte](dst *image.RGBA, f *face, x, y int, s T, c color.RGBA) int {
	if tracing != nil {
		tracing.text(dst, f, x, y, string(s), c)
	}
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		g := f.glyph(r)
		if g.mask != nil {
			blendMask(dst, x+g.dx, y+g.dy, g.mask, g.w, g.h, c)
		}
		x += g.adv
		i += n
	}
	return x
}

// fit returns the first of faces in which s is at most w pixels wide, or the last (the
// large-text mode's heading falls back to the usual size where a language's words are too
// long for its panel; the overflow test fails what does not fit even then).
func fit[T ~string | ~[]byte](s T, w int, faces ...*face) *face {
	for _, f := range faces {
		if width(f, s) <= w {
			return f
		}
	}
	return faces[len(faces)-1]
}

// textCentred draws s centred on cx.
func textCentred[T ~string | ~[]byte](dst *image.RGBA, f *face, cx, y int, s T, c color.RGBA) {
	text(dst, f, cx-width(f, s)/2, y, s, c)
}

// textRight draws s ending at x.
func textRight[T ~string | ~[]byte](dst *image.RGBA, f *face, x, y int, s T, c color.RGBA) {
	text(dst, f, x-width(f, s), y, s, c)
}

// wrap breaks s into lines at most w pixels wide, at spaces, appending each line's end
// offset to ends[:0] (a line starts after the previous end, skipping one space).
func wrap[T ~string | ~[]byte](f *face, s T, w int, ends []int) []int {
	ends = ends[:0]
	start, lastSpace, x, xAtSpace := 0, -1, 0, 0
	for i := 0; i < len(s); {
		r, n := decode(s, i)
		if r == '\n' {
			ends = append(ends, i)
			start, lastSpace, x = i+1, -1, 0
			i++
			continue
		}
		if r == ' ' {
			lastSpace, xAtSpace = i, x
		}
		x += f.glyph(r).adv
		if x > w && lastSpace > start {
			ends = append(ends, lastSpace)
			start = lastSpace + 1
			x -= xAtSpace + f.glyph(' ').adv
			lastSpace = -1
		}
		i += n
	}
	if start < len(s) {
		ends = append(ends, len(s))
	}
	return ends
}

// paragraph draws s wrapped to w pixels from (x, y) (the first baseline), lineGap pixels
// between baselines, at most maxLines lines; it returns the number of lines drawn.
func paragraph[T ~string | ~[]byte](dst *image.RGBA, f *face, x, y, w, lineGap, maxLines int, s T, c color.RGBA, ends []int) ([]int, int) {
	ends = wrap(f, s, w, ends)
	if tracing != nil && len(ends) > maxLines {
		tracing.cut(string(s), len(ends), maxLines)
	}
	start := 0
	n := 0
	for _, e := range ends {
		if n == maxLines {
			break
		}
		text(dst, f, x, y+n*lineGap, s[start:e], c)
		start = e + 1
		n++
	}
	return ends, n
}
