package pen

import (
	"strings"
	"testing"
)

func TestGlyph(t *testing.T) {
	cases := []struct {
		name    string
		face    *Typeface
		r       rune
		wantErr string
	}{
		{"gobold-E", GoBold, 'E', ""},
		{"gomonobold-Q", GoMonoBold, 'Q', ""},
		{"gobold-U4e00", GoBold, '\u4e00', "typeface gobold, letter '一': no glyph"},
		{"gomonobold-space", GoMonoBold, ' ', "empty glyph"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := c.face.Glyph(c.r)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("%s %q: error %v, want %q", c.face.Name(), c.r, err, c.wantErr)
				}
				return
			}
			if err != nil || len(o.Contours) == 0 || o.Max.X <= o.Min.X || o.Max.Y <= o.Min.Y {
				t.Errorf("%s %q: %d contours, bounds %v-%v, %v", c.face.Name(), c.r, len(o.Contours), o.Min, o.Max, err)
			}
			// The second call is the cached outline.
			if o2, _ := c.face.Glyph(c.r); len(o2.Contours) != len(o.Contours) || &o2.Contours[0][0] != &o.Contours[0][0] {
				t.Errorf("%s %q: not cached", c.face.Name(), c.r)
			}
		})
	}
}

// A placed glyph's ink is centred where asked, at the scale asked; a rendered circle is dark
// inside and white outside.
func TestPlaceAndRender(t *testing.T) {
	o, err := GoBold.Glyph('H')
	if err != nil {
		t.Fatal(err)
	}
	scale := 30 / (o.Max.Y - o.Min.Y)
	c := Point{X: 30, Y: 30}
	var lo, hi Point = Point{X: 1e9, Y: 1e9}, Point{X: -1e9, Y: -1e9}
	for _, cont := range o.Place(scale, c) {
		for _, p := range cont {
			lo, hi = Point{X: min(lo.X, p.X), Y: min(lo.Y, p.Y)}, Point{X: max(hi.X, p.X), Y: max(hi.Y, p.Y)}
		}
	}
	if d := (lo.X + hi.X) / 2; d < 29.999 || d > 30.001 {
		t.Errorf("centre x %v, want 30", d)
	}
	if h := hi.Y - lo.Y; h < 29.999 || h > 30.001 {
		t.Errorf("cap height %v, want 30", h)
	}
	g := Render([][]Point{Circle(c, 10, false), Circle(c, 5, true)}, 60)
	for _, tc := range []struct {
		x, y int
		want string
	}{{30, 30, "white"}, {30, 22, "black"}, {30, 45, "white"}, {2, 2, "white"}} {
		got := "grey"
		switch g.GrayAt(tc.x, tc.y).Y {
		case 0:
			got = "black"
		case 255:
			got = "white"
		}
		if got != tc.want {
			t.Errorf("pixel (%d, %d) %s, want %s", tc.x, tc.y, got, tc.want)
		}
	}
}
