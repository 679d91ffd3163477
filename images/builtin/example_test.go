package builtin_test

import (
	"fmt"
	"log"

	"github.com/mark1-perceptron/mark1/images/builtin"
)

func ExampleLoad() {
	set, err := builtin.Load("ef")
	if err != nil {
		log.Fatal(err)
	}
	b := set.Cards[0].Image.Bounds()
	fmt.Println(set.Name, set.Classes, len(set.Cards), "cards")
	fmt.Printf("%dx%d pixels, first card %s\n", b.Dx(), b.Dy(), set.Cards[0].Source)
	// Output:
	// ef [E F] 60 cards
	// 60x60 pixels, first card ef:E/gobold/30px/+0,+0
}

func ExampleNames() {
	fmt.Println(builtin.Names())
	// Output:
	// [ef leftright letters letters-both letters2 shapes square-diamond squares-circles xe]
}
