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

// BenchmarkExposeAnalogDigits presents 256 real digits in a scrambled order, 3 s each, with
// every analog effect on: what training on MNIST does.
func BenchmarkExposeAnalogDigits(b *testing.B) {
	r := newRetina(b, DefaultParams(), 1)
	cards := realCards(b)[:256]
	s := make([]Stimulus, len(cards))
	for i, img := range cards {
		r.Prepare(img, &s[i])
	}
	noise := rand.New(rand.NewPCG(1, 2))
	var out Bits
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		r.Expose(&s[(k*37)%len(s)], 3, noise, &out)
		k++
	}
}

// benchPrepare prepares img again and again (the weights for its size are kept after the
// first card, as for a deck).
func benchPrepare(b *testing.B, p Params, img image.Image) {
	r := newRetina(b, p, 1)
	var s Stimulus
	b.ReportAllocs()
	for b.Loop() {
		r.Prepare(img, &s)
	}
}

func BenchmarkPrepare28Ideal(b *testing.B)  { benchPrepare(b, IdealParams(), randomGray(1, 28, 28)) }
func BenchmarkPrepare28Analog(b *testing.B) { benchPrepare(b, DefaultParams(), randomGray(1, 28, 28)) }
func BenchmarkPrepare60Ideal(b *testing.B)  { benchPrepare(b, IdealParams(), randomGray(1, 60, 60)) }
func BenchmarkPrepare60Analog(b *testing.B) { benchPrepare(b, DefaultParams(), randomGray(1, 60, 60)) }

func BenchmarkPrepareLargeIdeal(b *testing.B) {
	benchPrepare(b, IdealParams(), randomGray(1, 2048, 2048))
}

func BenchmarkPrepareLargeAnalog(b *testing.B) {
	benchPrepare(b, DefaultParams(), randomGray(1, 2048, 2048))
}

// BenchmarkPrepareDigits prepares real 28x28 digits in turn.
func BenchmarkPrepareDigits(b *testing.B) {
	cards := realCards(b)[:64]
	for _, ideal := range []bool{true, false} {
		name, p := "analog", DefaultParams()
		if ideal {
			name, p = "ideal", IdealParams()
		}
		b.Run(name, func(b *testing.B) {
			r := newRetina(b, p, 1)
			var s Stimulus
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				r.Prepare(cards[k%len(cards)], &s)
				k++
			}
		})
	}
}

func BenchmarkPrepare(b *testing.B) {
	rotated := DefaultParams()
	rotated.Rotation = 15
	quarter := DefaultParams()
	quarter.Rotation = 90
	sharp := DefaultParams()
	sharp.Blur = 0
	cases := []struct {
		name string
		p    Params
		img  image.Image
	}{
		{"analog-sharp/60x60", sharp, randomGray(1, 60, 60)},
		{"analog-quarter-turn/60x60", quarter, randomGray(1, 60, 60)},
		{"analog-rotated/60x60", rotated, randomGray(1, 60, 60)},
		{"analog/512x512", DefaultParams(), randomGray(1, 512, 512)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchPrepare(b, c.p, c.img) })
	}
	// The first card of a size: the weights are computed.
	b.Run("analog-new-size/28x28", func(b *testing.B) {
		img := randomGray(1, 28, 28)
		b.ReportAllocs()
		for b.Loop() {
			r := newRetina(b, DefaultParams(), 1)
			var s Stimulus
			r.Prepare(img, &s)
		}
	})
}
