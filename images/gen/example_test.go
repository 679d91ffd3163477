package gen_test

import (
	"fmt"

	"github.com/mark1-perceptron/mark1/images/gen"
)

// Ten thousand squares and circles of one size at random positions and orientations, thick
// outlines, as in the Mark I's squares-and-circles experiment.
func Example() {
	spec, err := gen.Parse("squares-circles,n=10000,seed=1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(spec)
	fmt.Println(spec.Classes())
	card := spec.Card(17) // the card Generate would put at index 17, drawn alone
	fmt.Println(card.Class, card.Image.Bounds())
	// Output:
	// squares-circles,n=10000,seed=1,fill=outline,stroke=5,size=24,rotate=true,shift=30
	// [square circle]
	// 1 (0,0)-(60,60)
}
