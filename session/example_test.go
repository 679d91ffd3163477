package session_test

import (
	"context"
	"fmt"
	"image"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/session"
)

// A session trains E against F at full speed on its own goroutine while this one watches the
// frames it publishes.
func Example() {
	s, err := session.New(session.Options{Sets: builtin.Load, Experiment: "ef", Speed: session.Max})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()

	s.Train()
	var f session.Frame
	for seq := uint64(0); ; {
		if seq, err = s.Wait(ctx, seq); err != nil {
			fmt.Println(err)
			return
		}
		s.Snapshot(&f)
		if f.Epoch > 0 && f.Mode == session.Stopped {
			break
		}
	}
	fmt.Printf("%s: %d epochs, mistakes %v\n", f.Experiment, f.Epoch, f.History)

	// A visitor's card, taught as E: the operator forcing the response.
	s.Present(builtinCard("ef", 0))
	s.Teach(0)
	for f.Kind != session.Taught {
		s.Wait(ctx, f.Seq)
		s.Snapshot(&f)
	}
	fmt.Printf("taught %s, the machine had answered %s\n", f.Classes[f.Want], f.Classes[f.Answer])

	cancel()
	fmt.Println("run:", <-done)
	// Output:
	// ef: 8 epochs, mistakes [26 21 2 4 1 2 1 0]
	// taught E, the machine had answered E
	// run: <nil>
}

// builtinCard returns card k of a built-in set.
func builtinCard(name string, k int) image.Image {
	set, err := builtin.Load(name)
	if err != nil {
		panic(err)
	}
	return set.Cards[k].Image
}
