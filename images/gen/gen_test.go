package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"

	"github.com/mark1-perceptron/mark1/retina"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text string
		want Spec
	}{
		{"squares-circles", Spec{Kind: "squares-circles", N: 200, Seed: 1, Fill: "outline", Stroke: 5, Size: Range{24, 24}, Rotate: true, Shift: 30}},
		{"squares-circles,n=10000,seed=7,fill=solid,rotate=false,shift=5.5", Spec{Kind: "squares-circles", N: 10000, Seed: 7, Fill: "solid", Stroke: 5, Size: Range{24, 24}, Shift: 5.5}},
		{"square-diamond, size=18-22 ,stroke=3.5", Spec{Kind: "square-diamond", N: 60, Seed: 1, Fill: "both", Stroke: 3.5, Size: Range{18, 22}, Shift: 30}},
		{"letters,font=both,n=26", Spec{Kind: "letters", N: 26, Seed: 1, Font: "both", Size: Range{34, 42}, Shift: 30}},
		{"connected,stroke=3", Spec{Kind: "connected", N: 200, Seed: 1, Stroke: 3}},
		{"leftright,seed=18446744073709551615", Spec{Kind: "leftright", N: 60, Seed: 1<<64 - 1, Size: Range{13, 21}}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := Parse(tt.text)
			if err != nil {
				t.Errorf("Parse(%q): %v", tt.text, err)
				return
			}
			if got != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
			back, err := Parse(got.String())
			if err != nil || back != got {
				t.Errorf("Parse(%q.String() = %q) = %+v, %v", tt.text, got.String(), back, err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", `unknown kind ""`},
		{"circles", `unknown kind "circles" (have squares-circles,`},
		{"ef,fill=solid", `ef has no option "fill" (have n, seed, font, size, shift)`},
		{"ef,shift=31", "shift=31: want 0-30 pixels"},
		{"leftright,shift=3", `leftright has no option "shift"`},
		{"ef,n", `option "n": want key=value`},
		{"ef,n=0", "n=0: want a whole number of cards"},
		{"ef,n=200001", "n=200001: want a whole number of cards"},
		{"ef,n=-3", "n=-3"},
		{"ef,seed=1,seed=2", `option "seed" given twice`},
		{"ef,seed=x", "seed=x: want a whole number"},
		{"ef,font=italic", "font=italic: want bold, mono or both"},
		{"ef,size=1e3", "size=1e3: want a number of pixels"},
		{"ef,size=40-30", "size=40-30: want MIN-MAX with MIN <= MAX"},
		{"ef,size=55", "size=55: want sizes within 6-54 pixels"},
		{"ef,size=-5", "size=-5: want a number of pixels"},
		{"squares-circles,size=40", "size=40: want sizes within 6-38 pixels"},
		{"squares-circles,size=40,rotate=false", ""},
		{"squares-circles,stroke=12", "stroke=12: want 1-8 pixels"},
		{"squares-circles,size=10,stroke=5", "stroke=5: want 1-4 pixels"},
		{"squares-circles,rotate=maybe", "rotate=maybe: want true or false"},
		{"connected,stroke=6", "stroke=6: want 3-5 pixels"},
		{"connected,stroke=2", "stroke=2: want 3-5 pixels"},
		{"leftright,size=30", "size=30: want sizes within 6-26 pixels"},
	}
	for _, tt := range tests {
		name := tt.text
		if name == "" {
			name = "empty"
		}
		t.Run(name, func(t *testing.T) {
			_, err := Parse(tt.text)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Parse(%q): %v", tt.text, err)
			case tt.want == "":
			case err == nil:
				t.Errorf("Parse(%q): no error, want %q", tt.text, tt.want)
			case !strings.HasPrefix(err.Error(), "gen: ") || !strings.Contains(err.Error(), tt.want):
				t.Errorf("Parse(%q) error %q, want gen: ... %q", tt.text, err, tt.want)
			}
		})
	}
}

// TestGenerate checks every kind: classes round-robin, the margin white, every card with ink,
// and a smaller set the prefix of a larger one.
func TestGenerate(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			s := k.Default
			s.N = 3 * len(k.Classes)
			set, err := Generate(s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(set.Classes, k.Classes) || len(set.Cards) != s.N || set.Name != s.String() {
				t.Fatalf("%s: classes %q, %d cards, name %q", k.Name, set.Classes, len(set.Cards), set.Name)
			}
			for i, c := range set.Cards {
				g := c.Image.(*image.Gray)
				if c.Class != i%len(k.Classes) {
					t.Fatalf("%s card %d: class %d", k.Name, i, c.Class)
				}
				ink := 0
				for y := range cardSize {
					for x := range cardSize {
						v := g.GrayAt(x, y).Y
						edge := x < margin || y < margin || x >= cardSize-margin || y >= cardSize-margin
						if edge && v != 255 {
							t.Fatalf("%s card %d (%s): ink %d at %d,%d inside the margin", k.Name, i, c.Source, v, x, y)
						}
						ink += 255 - int(v)
					}
				}
				if ink < 255*30 {
					t.Fatalf("%s card %d (%s): only %d pixels of ink", k.Name, i, c.Source, ink/255)
				}
			}
			small := s
			small.N = 4
			prefix, err := Generate(small)
			if err != nil {
				t.Fatal(err)
			}
			for i := range prefix.Cards {
				if !reflect.DeepEqual(prefix.Cards[i], set.Cards[i]) {
					t.Fatalf("%s: card %d of a 4-card set differs from the larger set's", k.Name, i)
				}
			}
		})
	}
}

// TestGolden pins the pixels of each kind's cards to testdata/golden-digest.txt: the same on
// every architecture (make arm64 runs it under qemu: GOARCH=arm64 CGO_ENABLED=0 go test
// -exec qemu-aarch64-static -run Golden ./images/gen).
func TestGolden(t *testing.T) {
	got := map[string]string{}
	for _, k := range Kinds() {
		s := k.Default
		s.N = 40
		set, err := Generate(s)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for _, c := range set.Cards {
			h.Write(c.Image.(*image.Gray).Pix)
			h.Write([]byte(c.Source))
		}
		got[s.String()] = hex.EncodeToString(h.Sum(nil))[:16]
	}
	goldenFile.Check(t, golden.Sorted(got))
}

// goldenHeader heads testdata/golden-digest.txt.
const goldenHeader = "# SHA-256 digests (first 16 hex digits) over the pixels and sources of 40 cards of each kind, the same on every architecture.\n" +
	"# Regenerate after a deliberate change only: go test ./images/gen -run Golden -update\n"

var goldenFile = golden.File{Path: "testdata/golden-digest.txt", Header: goldenHeader, Sep: ": "}

// TestShift: with shift=0 every figure is centred; with shift=4 within 4 pixels of the centre.
func TestShift(t *testing.T) {
	for _, shift := range []float64{0, 4} {
		t.Run(fmt.Sprintf("shift=%v", shift), func(t *testing.T) {
			s, err := Parse("ef,n=40")
			if err != nil {
				t.Fatal(err)
			}
			s.Shift = shift
			for i := range s.N {
				c := s.Card(i)
				g := c.Image.(*image.Gray)
				x0, y0, x1, y1 := cardSize, cardSize, 0, 0
				for y := range cardSize {
					for x := range cardSize {
						if g.GrayAt(x, y).Y < 255 {
							x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
						}
					}
				}
				// The ink's box is centred on the figure's centre to within a pixel of antialiasing.
				if cx, cy := float64(x0+x1)/2, float64(y0+y1)/2; math.Abs(cx-30) > shift+1 || math.Abs(cy-30) > shift+1 {
					t.Fatalf("shift %v, %s: ink centred at %v,%v", shift, c.Source, cx, cy)
				}
			}
		})
	}
}

func TestLeftRightHalves(t *testing.T) {
	s, err := Parse("leftright,n=200,size=6-26")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Generate(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range set.Cards {
		g := c.Image.(*image.Gray)
		for y := range cardSize {
			for x := range cardSize {
				wrong := (c.Class == 0 && x >= cardSize/2) || (c.Class == 1 && x < cardSize/2)
				if wrong && g.GrayAt(x, y).Y != 255 {
					t.Fatalf("%s: ink at %d,%d, in the wrong half", c.Source, x, y)
				}
			}
		}
	}
}

// TestConnectedOnRetina checks that connectedness survives the retina: on the ideal retina a
// connected card lights one 4-connected component of S-units with one hole, a disconnected
// card two components and two holes.
func TestConnectedOnRetina(t *testing.T) {
	for _, stroke := range []string{"3", "3.5", "4", "5"} {
		t.Run("stroke="+stroke, func(t *testing.T) {
			s, err := Parse("connected,n=400,seed=3,stroke=" + stroke)
			if err != nil {
				t.Fatal(err)
			}
			set, err := Generate(s)
			if err != nil {
				t.Fatal(err)
			}
			r, err := retina.New(retina.IdealParams(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var st retina.Stimulus
			var bits retina.Bits
			for _, c := range set.Cards {
				r.Prepare(c.Image, &st)
				r.Expose(&st, 0, nil, &bits)
				on := components(&bits, true)
				off := components(&bits, false) // the background and one hole per ring
				if on != c.Class+1 || off != c.Class+2 {
					t.Fatalf("stroke %s, %s: %d figure components and %d ground components, want %d and %d", stroke, c.Source, on, off, c.Class+1, c.Class+2)
				}
			}
		})
	}
}

// components counts the 4-connected components of the S-units that are on (or off).
func components(b *retina.Bits, on bool) int {
	seen := make([]bool, retina.N)
	n := 0
	for i := range retina.N {
		if seen[i] || b.Get(i) != on {
			continue
		}
		n++
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r, c := j/retina.Cols, j%retina.Cols
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, cc := r+d[0], c+d[1]
				if rr < 0 || cc < 0 || rr >= retina.Rows || cc >= retina.Cols {
					continue
				}
				k := rr*retina.Cols + cc
				if !seen[k] && b.Get(k) == on {
					seen[k] = true
					stack = append(stack, k)
				}
			}
		}
	}
	return n
}
