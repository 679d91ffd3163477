package patchboard

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestMeasureBins(t *testing.T) {
	if !*measure {
		t.Skip()
	}
	stim := testStimuli()
	for _, p := range []MarkIParams{{512, 6, 4, 2, 40}, {512, 7, 5, 2, 40}, {512, 8, 6, 2, 40}, {512, 5, 3, 2, 40}, {512, 6, 3, 2, 40}, {512, 10, 5, 3, 40}} {
		var sum, cnt [8]float64
		for seed := uint64(1); seed <= 8; seed++ {
			b, _ := MarkI(p, rand.New(rand.NewPCG(seed, 0)))
			dst := make([]uint64, 8)
			act := make([]uint16, 0, 512)
			for i := range stim {
				act = b.Fire(&stim[i], dst, act)
				bin := stim[i].Count() * 20 / 400 // 5% bins
				sum[bin] += float64(len(act)) / 512
				cnt[bin]++
			}
		}
		fmt.Printf("%v:", p)
		for k := 2; k < 8; k++ {
			if cnt[k] > 0 {
				fmt.Printf(" %d-%d%%: %.3f (%d)", k*5, k*5+5, sum[k]/cnt[k], int(cnt[k])/8)
			}
		}
		fmt.Println()
	}
}
