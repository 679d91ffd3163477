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
