package patchboard_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// A hand-wired board of three A-units watching the top-left corner of the field.
func Example() {
	const wiring = `
# three A-units watching the top-left corner (S-unit = row*20 + col)
format 1
fanout 40
a0 theta=2 +0 +1 +20 -21   # fires when two more of 0, 1, 20 than 21 are lit
a1 theta=1 +21
a2 theta=1 +2 -1
`
	b, err := patchboard.Read(strings.NewReader(wiring), "corner.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	var s retina.Bits
	s.Set(0, true)  // row 0, col 0
	s.Set(1, true)  // row 0, col 1
	s.Set(21, true) // row 1, col 1
	dst := make([]uint64, (b.Len()+63)/64)
	active := b.Fire(&s, dst, make([]uint16, 0, b.Len()))
	fmt.Printf("%d A-units, firing: %v, A-bits: %03b\n", b.Len(), active, dst[0])
	b.WriteTo(os.Stdout)
	// Output:
	// 3 A-units, firing: [1], A-bits: 010
	// # mark1 wiring: 3 A-units
	// # S-unit index = row*20 + col (0..399); +S excitatory plug, -S inhibitory plug;
	// # an A-unit fires when (lit +S) - (lit -S) >= theta.
	// format 1
	// fanout 40
	// a0 theta=2 +0 +1 +20 -21
	// a1 theta=1 +21
	// a2 theta=1 +2 -1
}

func ExampleMarkI() {
	b, err := patchboard.MarkI(patchboard.DefaultMarkI(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	// A bar across the middle of the field.
	var s retina.Bits
	for i := 8 * retina.Cols; i < 12*retina.Cols; i++ {
		s.Set(i, true)
	}
	p := patchboard.DefaultMarkI()
	active := b.Fire(&s, make([]uint64, (b.Len()+63)/64), make([]uint16, 0, b.Len()))
	fmt.Printf("%d A-units of (x, y, theta) = (%d, %d, %d); %d S-units on, %d A-units fire\n",
		b.Len(), p.Exc, p.Inh, p.Theta, s.Count(), len(active))
	// Output:
	// 512 A-units of (x, y, theta) = (7, 4, 2); 80 S-units on, 121 A-units fire
}
