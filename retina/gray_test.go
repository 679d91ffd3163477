package retina

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// integrateGray, which reads a gray card in place and leaves out its black rows and the cells
// that see only black pixels, gives every cell's mean bit for bit as integrate does, on real
// digits and on sparse random cards (black borders, black rows and columns inside, bounds away
// from the origin), for placements, rotations by quarter turns and blurs that make the bands
// short and long.
func TestIntegrateGrayIsIntegrate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cards := realCards(t)[:40:40] // a copy when appended to: realCards is shared
	for i := range 40 {
		w, h := 5+rng.IntN(40), 5+rng.IntN(40)
		x0, y0 := rng.IntN(7)-3, rng.IntN(7)-3
		img := image.NewGray(image.Rect(x0, y0, x0+w, y0+h))
		ink := 0.05 + 0.5*rng.Float64()
		for y := range h {
			if rng.IntN(4) == 0 {
				continue // a black row
			}
			for x := range w {
				if x > 1 && x < w-2 && rng.Float64() < ink {
					img.Pix[y*img.Stride+x] = uint8(1 + rng.IntN(255))
				}
			}
		}
		if i%5 == 0 {
			img.Pix[0] = 255 // a corner pixel
		}
		cards = append(cards, img)
	}
	cards = append(cards, image.NewGray(image.Rect(0, 0, 28, 28))) // all black
	params := map[string]Params{"ideal": IdealParams(), "default": DefaultParams()}
	for _, rot := range []float64{90, 180, 270} {
		p := IdealParams()
		p.Rotation, p.OffsetX, p.OffsetY, p.Scale = rot, 1.25, -2.5, 0.8
		params["ideal turned"] = p
		q := DefaultParams()
		q.Rotation, q.Scale = rot, 1.7
		params["analog turned"] = q
		for name, p := range params {
			r := newRetina(t, p, 1)
			for k, img := range cards {
				for _, sur := range []float64{0, 0.3, 1} {
					src := newSource(img, sur)
					ax := r.axesFor(&src)
					var want, got [N]float64
					r.integrate(ax, src.unit, sur, &want, func(y, x0 int, dst []float64) { src.row(y, x0, dst) })
					r.integrateGray(ax, &src, sur, &got)
					for c := range want {
						if math.Float64bits(want[c]) != math.Float64bits(got[c]) {
							t.Fatalf("%s, rotation %v, card %d, surround %v: cell %d is %v, want %v (short bands: %v)",
								name, p.Rotation, k, sur, c, got[c], want[c], ax.short)
						}
					}
				}
			}
		}
	}
}

// inkSpan finds the first and one past the last non-zero byte, whatever the length.
func TestInkSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		pix := make([]byte, rng.IntN(40))
		for i := range pix {
			if rng.IntN(6) == 0 {
				pix[i] = uint8(1 + rng.IntN(255))
			}
		}
		w0, w1 := 0, 0
		for i, v := range pix {
			if v != 0 {
				if w1 == 0 {
					w0 = i
				}
				w1 = i + 1
			}
		}
		if i0, i1 := inkSpan(pix); i0 != w0 || i1 != w1 {
			t.Fatalf("inkSpan(%v) = %d, %d, want %d, %d", pix, i0, i1, w0, w1)
		}
	}
}
