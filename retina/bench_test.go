package retina

import (
	"image"
	"math/rand/v2"
	"testing"
)

// benchExpose alternates two letter cards, as training does, with 3 s presentations.
func benchExpose(b *testing.B, p Params) {
	r := newRetina(b, p, 1)
	cards := letterCards()
	s := []*Stimulus{prepare(r, cards[0]), prepare(r, cards[2])}
	noise := rand.New(rand.NewPCG(1, 2))
	var out Bits
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		r.Expose(s[k&1], 3, noise, &out)
		k++
	}
}

func BenchmarkExposeIdeal(b *testing.B) { benchExpose(b, IdealParams()) }

func BenchmarkExposeAnalog(b *testing.B) { benchExpose(b, DefaultParams()) }

func BenchmarkPrepare(b *testing.B) {
	rotated := DefaultParams()
	rotated.Rotation = 15
	sharp := DefaultParams()
	sharp.Blur = 0
	cases := []struct {
		name string
		p    Params
		img  image.Image
	}{
		{"ideal/28x28", IdealParams(), randomGray(1, 28, 28)},
		{"ideal/60x60", IdealParams(), randomGray(1, 60, 60)},
		{"analog-sharp/60x60", sharp, randomGray(1, 60, 60)},
		{"analog/28x28", DefaultParams(), randomGray(1, 28, 28)},
		{"analog/60x60", DefaultParams(), randomGray(1, 60, 60)},
		{"analog-rotated/60x60", rotated, randomGray(1, 60, 60)},
		{"analog/512x512", DefaultParams(), randomGray(1, 512, 512)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := newRetina(b, c.p, 1)
			var s Stimulus
			b.ReportAllocs()
			for b.Loop() {
				r.Prepare(c.img, &s)
			}
		})
	}
}
