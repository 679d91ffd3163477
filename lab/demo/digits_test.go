package demo

import (
	"context"
	"flag"
	"fmt"
	"image"
	"os"
	"strings"
	"testing"

	"github.com/mark1-perceptron/mark1/images"
)

var updateDigits = flag.Bool("update-digits", false, "rewrite digits15.csv from testdata/mnist")

// TestDigitTable: the embedded table is the 1s and 5s of testdata/mnist's train8000 and
// test2000 files, computed again here from the IDX files (with -update-digits, it is written).
func TestDigitTable(t *testing.T) {
	var b strings.Builder
	b.WriteString("set,index,label,ink,asymmetry\n")
	for _, f := range []struct{ set, images, labels string }{
		{"train", "train8000-images.idx.gz", "train8000-labels.idx.gz"},
		{"test", "test2000-images.idx.gz", "test2000-labels.idx.gz"},
	} {
		t.Run(f.set, func(t *testing.T) {
			set, err := images.LoadIDX("../../testdata/mnist/"+f.images, "../../testdata/mnist/"+f.labels)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := digitFeatures(set, "1", "5")
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				_, index, _ := strings.Cut(d.Source, "#")
				if d.Scale != 255*28*28 {
					t.Fatalf("%s: scale %d", d.Source, d.Scale)
				}
				fmt.Fprintf(&b, "%s,%s,%s,%d,%d\n", f.set, index, d.Label, d.Ink, d.Asym)
			}
		})
	}
	if *updateDigits {
		if err := os.WriteFile("digits15.csv", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if b.String() != digitsCSV {
		t.Fatal("digits15.csv is not what testdata/mnist gives (go test -run TestDigitTable -update-digits rewrites it)")
	}
	train, test, err := digitTable()
	if err != nil || len(train)+len(test) != strings.Count(digitsCSV, "\n")-1 {
		t.Fatalf("%d and %d digits, %v", len(train), len(test), err)
	}
}

// TestDigitFeatures: a card's ink and asymmetry by hand: a 3x2 card with pixels 10 0 7 / 5 5 1
// has ink 28; turned half a turn it is 1 5 5 / 7 0 10, so its asymmetry is
// |10-1| + |0-5| + |7-5| + |5-7| + |5-0| + |1-10| = 32.
func TestDigitFeatures(t *testing.T) {
	g := newGray(3, 2, []uint8{10, 0, 7, 5, 5, 1})
	set := &images.Set{Name: "t", Classes: []string{"1", "5", "7"}, Cards: []images.Card{{Image: g, Class: 0}, {Image: g, Class: 2}}}
	ds, err := digitFeatures(set, "1", "5")
	if err != nil || len(ds) != 1 || ds[0].Ink != 28 || ds[0].Asym != 32 || ds[0].Scale != 6*255 {
		t.Fatalf("%+v, %v", ds, err)
	}
}

// TestPocketDigits: on the 1s and 5s the pocket's training error never rises and is never
// above the perceptron's; the pocket misclassifies fewer digits than the perceptron's current
// weights after most updates, training and test (not at every update: at the end the
// perceptron's test error happens to be lower), and ends with fewer training errors.
func TestPocketDigits(t *testing.T) {
	_, c, err := digitsReport(context.Background(), pocketConfig{Updates: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := len(c.PLAIn)
	if n != 1000 {
		t.Fatalf("%d updates", n)
	}
	for i := 1; i < n; i++ {
		if c.PocketIn[i] > c.PocketIn[i-1] {
			t.Fatalf("the pocket's training error rose at update %d", i+1)
		}
	}
	// After each update: the pocket's errors against the perceptron's current weights'.
	betterIn, betterTest := 0, 0
	for i := range n {
		if c.PocketIn[i] > c.PLAIn[i] {
			t.Fatalf("update %d: the pocket misclassifies %d training digits, the perceptron %d", i+1, c.PocketIn[i], c.PLAIn[i])
		}
		if c.PocketIn[i] < c.PLAIn[i] {
			betterIn++
		}
		if c.PocketTest[i] < c.PLATest[i] {
			betterTest++
		}
	}
	t.Logf("the pocket better on the training digits after %d of %d updates, on the test digits after %d", betterIn, n, betterTest)
	if betterIn < n*4/5 || betterTest < n*2/3 { // measured: 873 and 729 of 1000
		t.Errorf("the pocket better than the perceptron after only %d (training) and %d (test) of %d updates", betterIn, betterTest, n)
	}
	if c.PocketIn[n-1] >= c.PLAIn[n-1] {
		t.Errorf("the pocket ends with %d training errors, the perceptron with %d", c.PocketIn[n-1], c.PLAIn[n-1])
	}
}

func newGray(w, h int, px []uint8) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	copy(g.Pix, px)
	return g
}
