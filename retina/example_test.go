package retina_test

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/retina"
)

// letterE draws a printed "E" on a 40x40 white card: dark ink, strokes two cells wide.
func letterE() image.Image {
	img := image.NewGray(image.Rect(0, 0, 40, 40))
	for y := range 40 {
		for x := range 40 {
			ink := x >= 8 && x < 12 && y >= 6 && y < 34 || // stem
				x >= 8 && x < 32 && (y >= 6 && y < 10 || y >= 18 && y < 22 || y >= 30 && y < 34) // bars
			if ink {
				img.SetGray(x, y, color.Gray{Y: 20})
			} else {
				img.SetGray(x, y, color.Gray{Y: 240})
			}
		}
	}
	return img
}

// The analog retina (default parameters: defocus, CdS cells, spread, lag, noise) looks at a
// printed letter, shifted two cells to the right.
func ExampleRetina_Expose() {
	p := retina.DefaultParams()
	p.OffsetX = 2
	r, err := retina.New(p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	var card retina.Stimulus
	r.Prepare(letterE(), &card)
	var s retina.Bits
	r.Expose(&card, 3, rand.New(rand.NewPCG(3, 4)), &s)
	for row := range retina.Rows {
		line := make([]byte, retina.Cols)
		for col := range retina.Cols {
			line[col] = '.'
			if s.Get(row*retina.Cols + col) {
				line[col] = '#'
			}
		}
		fmt.Println(string(line))
	}
	fmt.Println(s.Count(), "S-units on")
	// Output:
	// ....................
	// ....................
	// ....................
	// ......############..
	// ......############..
	// ......##............
	// ......##............
	// ......##............
	// ......##............
	// ......############..
	// ......############..
	// ......##............
	// ......##............
	// ......##............
	// ......##............
	// ......############..
	// ......############..
	// ....................
	// ....................
	// ....................
	// 88 S-units on
}

// A white-on-black digit, as MNIST has them: the default polarity (auto) sees that the card's
// border is dark and takes the bright strokes for the figure.
func ExampleStimulus_Polarity() {
	digit := image.NewGray(image.Rect(0, 0, 28, 28)) // black
	for y := 6; y < 22; y++ {
		for x := 12; x < 16; x++ {
			digit.SetGray(x, y, color.Gray{Y: 255}) // a "1"
		}
	}
	r, err := retina.New(retina.IdealParams(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var card retina.Stimulus
	r.Prepare(digit, &card)
	var s retina.Bits
	r.Expose(&card, 3, nil, &s)
	fmt.Println(card.Polarity(), s.Count(), "S-units on")
	// Output: light 24 S-units on
}

// Turning one flaw on from the neutral retina: the lens's defocus alone.
func ExampleNeutralParams() {
	count := func(p retina.Params) int {
		r, err := retina.New(p, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			panic(err)
		}
		var card retina.Stimulus
		r.Prepare(letterE(), &card)
		var s retina.Bits
		r.Expose(&card, 3, nil, &s)
		return s.Count()
	}
	p := retina.NeutralParams()
	fmt.Println("neutral:", count(p), "ideal:", count(retina.IdealParams()))
	p.Blur = 0.8
	fmt.Println("with blur 0.8:", count(p))
	// Output:
	// neutral: 88 ideal: 88
	// with blur 0.8: 82
}

// The parameters that are flaws, and what the ones that do nothing alone act with.
func ExampleParamDocs() {
	for _, d := range retina.ParamDocs() {
		if d.Flaw != "" {
			fmt.Printf("%s (%s, %s)\n", d.Key, d.Flaw, d.Source)
			if d.Note != "" {
				fmt.Println("   ", d.Note)
			}
		}
	}
	// Output:
	// blur_cells (blur, assumed)
	// gamma (gamma, assumed)
	//     acts only with spread, dark_noise or the lags (light^gamma against threshold^gamma is a monotone transform)
	// spread (spread, assumed)
	// rise_tau_s (lag, assumed)
	//     acts only with a latch_s (or presentation) shorter than about 0.3 s: at the default latch a rise is complete to e^-33
	// decay_tau_s (lag, assumed)
	// dark_noise (dark_noise, assumed)
}
