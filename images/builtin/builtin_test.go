package builtin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"

	"github.com/mark1-perceptron/mark1/images"
)

// builtinTests lists every built-in set with its classes and cards per class.
var builtinTests = []struct {
	name     string
	classes  []string
	perClass int
}{
	{"ef", []string{"E", "F"}, 30},
	{"leftright", []string{"left", "right"}, 30},
	{"letters", strings.Split(alphabet, ""), 8},
	{"letters-both", strings.Split(alphabet, ""), 16},
	{"letters2", strings.Split(alphabet, ""), 8},
	{"shapes", []string{"square", "circle", "diamond", "triangle"}, 30},
	{"square-diamond", []string{"square", "diamond"}, 30},
	{"squares-circles", []string{"square", "circle"}, 30},
	{"xe", []string{"X", "E"}, 30},
}

func TestBuiltinNames(t *testing.T) {
	var want []string
	for _, tt := range builtinTests {
		want = append(want, tt.name)
	}
	got := Names()
	if !slices.Equal(got, want) {
		t.Fatalf("Names() = %q, want %q", got, want)
	}
	if !slices.IsSorted(got) {
		t.Fatalf("Names() = %q, not sorted", got)
	}
}

func TestBuiltinUnknown(t *testing.T) {
	_, err := Load("letter")
	if err == nil {
		t.Fatal("Load(\"letter\") gave no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "builtin: ") || !strings.Contains(msg, `"letter"`) {
		t.Fatalf("error %q: want the builtin: prefix and the unknown name", msg)
	}
	for _, n := range Names() {
		if !strings.Contains(msg, n) {
			t.Fatalf("error %q does not list %q", msg, n)
		}
	}
}

// retinaCells averages 3x3-pixel blocks of a 60x60 card into the 20x20 retina cells and
// returns the number of cells darker than one half.
func retinaCells(g *image.Gray) int {
	n := 0
	for r := range 20 {
		for c := range 20 {
			sum := 0
			for y := range 3 {
				for x := range 3 {
					sum += int(g.GrayAt(3*c+x, 3*r+y).Y)
				}
			}
			if sum < 9*255/2 {
				n++
			}
		}
	}
	return n
}

func TestBuiltinSets(t *testing.T) {
	for _, tt := range builtinTests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Load(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if set.Name != tt.name {
				t.Errorf("Name = %q, want %q", set.Name, tt.name)
			}
			if !slices.Equal(set.Classes, tt.classes) {
				t.Fatalf("Classes = %q, want %q", set.Classes, tt.classes)
			}
			if want := len(tt.classes) * tt.perClass; len(set.Cards) != want {
				t.Fatalf("%d cards, want %d", len(set.Cards), want)
			}
			counts := make([]int, len(set.Classes))
			seen := map[string]string{} // pixels -> source
			sources := map[string]bool{}
			for i, c := range set.Cards {
				if c.Class < 0 || c.Class >= len(set.Classes) {
					t.Fatalf("card %d: class %d out of range", i, c.Class)
				}
				counts[c.Class]++
				if i < len(set.Classes) && c.Class != i {
					t.Errorf("card %d has class %d: want round-robin order", i, c.Class)
				}
				if !strings.HasPrefix(c.Source, tt.name+":"+set.Classes[c.Class]+"/") {
					t.Errorf("card %d: Source %q does not name the set and class", i, c.Source)
				}
				if sources[c.Source] {
					t.Errorf("card %d: Source %q repeats", i, c.Source)
				}
				sources[c.Source] = true
				g, ok := c.Image.(*image.Gray)
				if !ok {
					t.Fatalf("card %d: image is %T, want *image.Gray", i, c.Image)
				}
				if g.Bounds() != image.Rect(0, 0, cardSize, cardSize) {
					t.Fatalf("card %d: bounds %v", i, g.Bounds())
				}
				checkInkAndMargins(t, c.Source, g)
				if n := retinaCells(g); n < 12 {
					t.Errorf("%s: only %d dark retina cells", c.Source, n)
				}
				if prev, dup := seen[string(g.Pix)]; dup {
					t.Errorf("%s: same pixels as %s", c.Source, prev)
				}
				seen[string(g.Pix)] = c.Source
			}
			for k, n := range counts {
				if n != tt.perClass {
					t.Errorf("class %q: %d cards, want %d", set.Classes[k], n, tt.perClass)
				}
			}
		})
	}
}

// checkInkAndMargins checks that g has solid ink, some antialiased grey, and white margins.
func checkInkAndMargins(t *testing.T, src string, g *image.Gray) {
	t.Helper()
	black, grey := 0, 0
	for y := range cardSize {
		for x := range cardSize {
			v := g.GrayAt(x, y).Y
			inMargin := x < margin || y < margin || x >= cardSize-margin || y >= cardSize-margin
			if inMargin && v != 255 {
				t.Fatalf("%s: margin pixel (%d,%d) = %d, want white", src, x, y, v)
			}
			switch {
			case v == 0:
				black++
			case v < 255:
				grey++
			}
		}
	}
	if black < 20 {
		t.Errorf("%s: %d black pixels: no figure?", src, black)
	}
	if grey == 0 {
		t.Errorf("%s: no grey pixels: not antialiased?", src)
	}
}

func TestBuiltinDeterministic(t *testing.T) {
	for _, name := range Names() {
		a, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Cards) != len(b.Cards) {
			t.Fatalf("%s: %d then %d cards", name, len(a.Cards), len(b.Cards))
		}
		for i := range a.Cards {
			ga, gb := a.Cards[i].Image.(*image.Gray), b.Cards[i].Image.(*image.Gray)
			if ga == gb {
				t.Fatalf("%s: card %d: two calls share an image", name, i)
			}
			if !bytes.Equal(ga.Pix, gb.Pix) || a.Cards[i].Source != b.Cards[i].Source || a.Cards[i].Class != b.Cards[i].Class {
				t.Fatalf("%s: card %d differs between two calls", name, i)
			}
		}
	}
}

// goldenHeader heads testdata/golden-digest.txt: SHA-256 digests (first 16 hex digits) over
// every card's pixels, class and source. They pin the cards across machines and versions: the
// built-in sets must not change by accident, since results on them are compared between runs.
// If a change is intended, update the digests (-update) and say so in the change log.
const goldenHeader = "# SHA-256 digests (first 16 hex digits) over every built-in card's pixels, class and source.\n" +
	"# Regenerate after a deliberate change only (say so in the change log): go test ./images/builtin -run Golden -update\n"

var goldenFile = golden.File{Path: "testdata/golden-digest.txt", Header: goldenHeader, Sep: ": "}

func setDigest(set *images.Set) string {
	h := sha256.New()
	for _, c := range set.Cards {
		h.Write(c.Image.(*image.Gray).Pix)
		h.Write([]byte{byte(c.Class)})
		h.Write([]byte(c.Source))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TestBuiltinGolden: the built-in cards are those of testdata/golden-digest.txt.
func TestBuiltinGolden(t *testing.T) {
	got := map[string]string{}
	for _, name := range Names() {
		set, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = setDigest(set)
	}
	goldenFile.Check(t, golden.Sorted(got))
}

func TestTypefacesDiffer(t *testing.T) {
	one, err := Load("letters")
	if err != nil {
		t.Fatal(err)
	}
	two, err := Load("letters2")
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Cards {
		a, b := one.Cards[i], two.Cards[i]
		if a.Class != b.Class {
			t.Fatalf("card %d: classes %d and %d: the two sets should line up", i, a.Class, b.Class)
		}
		pa, pb := a.Image.(*image.Gray).Pix, b.Image.(*image.Gray).Pix
		differ := 0
		for k := range pa {
			if d := int(pa[k]) - int(pb[k]); d > 128 || d < -128 {
				differ++
			}
		}
		// The closest pair, the I (a bar against a serifed I), differs in 68 pixels.
		if differ < 40 {
			t.Errorf("%s and %s differ in only %d pixels", a.Source, b.Source, differ)
		}
	}
}

func TestLettersBothIsUnion(t *testing.T) {
	both, err := Load("letters-both")
	if err != nil {
		t.Fatal(err)
	}
	pixels := map[string]bool{}
	for _, c := range both.Cards {
		pixels[string(c.Image.(*image.Gray).Pix)] = true
	}
	for _, name := range []string{"letters", "letters2"} {
		set, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range set.Cards {
			if !pixels[string(c.Image.(*image.Gray).Pix)] {
				t.Fatalf("%s is not in letters-both", c.Source)
			}
		}
	}
}

func TestLeftRight(t *testing.T) {
	set, err := Load("leftright")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range set.Cards {
		g := c.Image.(*image.Gray)
		left, right := 0, 0
		for y := range cardSize {
			for x := range cardSize {
				if g.GrayAt(x, y).Y < 255 {
					if x < cardSize/2 {
						left++
					} else {
						right++
					}
				}
			}
		}
		if (c.Class == 0) != (right == 0) || (c.Class == 1) != (left == 0) {
			t.Errorf("%s: %d inked pixels left, %d right", c.Source, left, right)
		}
	}
}

func BenchmarkBuiltinLetters(b *testing.B) {
	for b.Loop() {
		if _, err := Load("letters"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBuiltinConcurrent builds sets from several goroutines at once (run with -race).
func TestBuiltinConcurrent(t *testing.T) {
	names := []string{"letters-both", "letters", "letters2", "ef", "shapes", "xe"}
	digests := make([]string, len(names))
	errs := make([]error, len(names))
	done := make(chan int)
	for i, name := range names {
		go func() {
			defer func() { done <- i }()
			set, err := Load(name)
			if err != nil {
				errs[i] = err
				return
			}
			digests[i] = setDigest(set)
		}()
	}
	for range names {
		<-done
	}
	sums := goldenFile.Sums(t)
	for i, name := range names {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if digests[i] != sums[name] {
			t.Errorf("%s built concurrently: digest %s, want %s", name, digests[i], sums[name])
		}
	}
}
