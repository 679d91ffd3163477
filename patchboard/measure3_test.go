package patchboard

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestMeasureLocal(t *testing.T) {
	if !*measure {
		t.Skip()
	}
	stim := testStimuli()
	for _, r := range []int{1, 2, 3, 4} {
		for _, e := range []int{3, 4, 5, 6, 8, 10} {
			for _, i := range []int{0, 2, 4, 6, 8} {
				for th := 1; th <= e; th++ {
					var agg actStats
					for seed := uint64(1); seed <= 4; seed++ {
						b, err := local(512, r, e, i, th, rand.New(rand.NewPCG(seed, 0)))
						if err != nil {
							agg.mean = -100
							break
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
					if agg.mean > 0.08 && agg.mean < 0.35 {
						fmt.Printf("L r=%d x=%d y=%d th=%d mean %.3f min %.3f max %.3f dead %.3f always %.3f rare %.3f often %.3f\n", r, e, i, th, agg.mean, agg.min, agg.max, agg.dead, agg.always, agg.rare, agg.often)
					}
				}
			}
		}
	}
}
