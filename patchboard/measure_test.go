package patchboard

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/retina"
)

var measure = flag.Bool("measure", false, "scan parameters")

type actStats struct{ mean, min, max, dead, always, rare, often float64 }

func activity(b *Board, stim []retina.Bits) actStats {
	n := b.Len()
	dst := make([]uint64, (n+63)/64)
	act := make([]uint16, 0, n)
	cnt := make([]int, n)
	st := actStats{min: 1}
	for i := range stim {
		act = b.Fire(&stim[i], dst, act)
		f := float64(len(act)) / float64(n)
		st.mean += f
		st.min = min(st.min, f)
		st.max = max(st.max, f)
		for _, a := range act {
			cnt[a]++
		}
	}
	st.mean /= float64(len(stim))
	for _, c := range cnt {
		if c == 0 {
			st.dead++
		}
		if c == len(stim) {
			st.always++
		}
		if float64(c) < 0.02*float64(len(stim)) {
			st.rare++
		}
		if float64(c) > 0.98*float64(len(stim)) {
			st.often++
		}
	}
	st.dead /= float64(n)
	st.always /= float64(n)
	st.rare /= float64(n)
	st.often /= float64(n)
	return st
}

func TestMeasure(t *testing.T) {
	if !*measure {
		t.Skip()
	}
	stim := testStimuli()
	var fr []float64
	sum := 0.0
	for _, s := range stim {
		f := float64(s.Count()) / 400
		fr = append(fr, f)
		sum += f
	}
	fmt.Printf("%d stimuli, mean on %.3f\n", len(stim), sum/float64(len(stim)))
	for _, i := range []int{0, 100, 300, 500, len(stim) - 1} {
		s := stim[i]
		for r := 0; r < 20; r++ {
			for c := 0; c < 20; c++ {
				if s.Get(r*20 + c) {
					fmt.Print("#")
				} else {
					fmt.Print(".")
				}
			}
			fmt.Println()
		}
		fmt.Println()
	}
	for x := 2; x <= 16; x++ {
		for y := 0; y <= x; y++ {
			for th := 1; th <= x; th++ {
				var agg actStats
				for seed := uint64(1); seed <= 4; seed++ {
					b, err := MarkI(MarkIParams{512, x, y, th, 40}, rand.New(rand.NewPCG(seed, 0)))
					if err != nil {
						t.Fatal(err)
					}
					s := activity(b, stim)
					agg.mean += s.mean / 4
					agg.min += s.min / 4
					agg.max += s.max / 4
					agg.dead += s.dead / 4
					agg.always += s.always / 4
					agg.rare += s.rare / 4
					agg.often += s.often / 4
				}
				if agg.mean > 0.05 && agg.mean < 0.4 {
					fmt.Printf("X %d %d %d %.3f %.3f %.3f %.3f %.3f %.3f %.3f\n", x, y, th, agg.mean, agg.min, agg.max, agg.dead, agg.always, agg.rare, agg.often)
				}
			}
		}
	}
}
