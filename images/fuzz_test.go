package images

import (
	"bytes"
	"image"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// checkFuzzErr fails unless err is a one-line error starting "images: " naming one of names.
func checkFuzzErr(t *testing.T, err error, names ...string) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, "images: ") || strings.Contains(msg, "\n") {
		t.Fatalf("error %q: want one line starting \"images: \"", msg)
	}
	for _, n := range names {
		if strings.Contains(msg, n) {
			return
		}
	}
	t.Fatalf("error %q names none of %q", msg, names)
}

func FuzzLoadIDX(f *testing.F) {
	f.Add(idxImages, idxLabels)
	f.Add(gzipped(f, idxImages), gzipped(f, idxLabels))
	f.Add(idxImages[:20], idxLabels)
	f.Add(idxLabels, idxImages)
	f.Add(idxFile(8, []uint32{1 << 20, 2048, 2048}, nil), idxFile(8, []uint32{1 << 20}, nil))
	f.Add(idxFile(8, []uint32{2, 1, 1}, []byte{1, 2}), idxFile(8, []uint32{2}, []byte{255, 0}))
	f.Fuzz(func(t *testing.T, img, lbl []byte) {
		set, err := new(Loader).readIDX("images.idx", bytes.NewReader(img), "labels.idx", bytes.NewReader(lbl))
		if err != nil {
			checkFuzzErr(t, err, "images.idx", "labels.idx")
			return
		}
		if len(set.Cards) == 0 || len(set.Classes) == 0 {
			t.Fatalf("%d cards, %d classes", len(set.Cards), len(set.Classes))
		}
		if !slices.IsSortedFunc(set.Classes, func(a, b string) int {
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return x - y
		}) {
			t.Fatalf("classes %q not in numeric order", set.Classes)
		}
		used := make([]bool, len(set.Classes))
		b := set.Cards[0].Image.Bounds()
		if b.Empty() || b.Dx()*b.Dy() > MaxPixels || len(set.Cards)*b.Dx()*b.Dy() > len(img)*1100 {
			t.Fatalf("%d cards of %v from %d bytes", len(set.Cards), b, len(img))
		}
		for i, c := range set.Cards {
			g := c.Image.(*image.Gray)
			if g.Bounds() != b || len(g.Pix) != b.Dx()*b.Dy() {
				t.Fatalf("card %d: bounds %v, %d pixels", i, g.Bounds(), len(g.Pix))
			}
			used[c.Class] = true // panics if out of range
		}
		if slices.Contains(used, false) {
			t.Fatal("a class without cards")
		}
	})
}

func FuzzDecodeImage(f *testing.F) {
	small := testImage(5, 4)
	f.Add(pngBytes(f, small))
	f.Add(gifBytes(f, small))
	f.Add(jpegBytes(f, small))
	f.Add(pngHeader(20000, 20000))
	f.Add(pngHeader(64, 64))
	f.Add([]byte("GIF89a\x10\x00\x10\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := new(Loader).decode("card.png", bytes.NewReader(data))
		if err != nil {
			checkFuzzErr(t, err, "card.png")
			return
		}
		b := img.Bounds()
		if b.Empty() || b.Dx() > MaxSide || b.Dy() > MaxSide || b.Dx()*b.Dy() > MaxPixels {
			t.Fatalf("decoded %v", b)
		}
	})
}
