package patchboard

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/retina"
)

// activityStats summarises A-unit activity over a set of stimuli.
type activityStats struct {
	mean     float64    // mean fraction of A-units firing
	min, max float64    // least and most fraction firing on one stimulus
	byOn     [7]float64 // mean fraction firing for stimuli with 5k%..5k+5% of the field on
	nByOn    [7]int     // stimuli in each of those bins
	dead     int        // A-units that fire on no stimulus
	always   int        // A-units that fire on every stimulus
	rare     int        // A-units that fire on fewer than 2% of the stimuli
	units    int        // A-units
	stimuli  int        // stimuli
	perUnit  []int      // stimuli each A-unit fires on
}

func measureActivity(b *Board, stim []retina.Bits) activityStats {
	st := activityStats{min: 1, units: b.Len(), stimuli: len(stim), perUnit: make([]int, b.Len())}
	dst := make([]uint64, (b.Len()+63)/64)
	active := make([]uint16, 0, b.Len())
	for i := range stim {
		active = b.Fire(&stim[i], dst, active)
		f := float64(len(active)) / float64(b.Len())
		st.mean += f
		st.min, st.max = min(st.min, f), max(st.max, f)
		bin := min(stim[i].Count()*20/retina.N, len(st.byOn)-1)
		st.byOn[bin] += f
		st.nByOn[bin]++
		for _, a := range active {
			st.perUnit[a]++
		}
	}
	st.mean /= float64(len(stim))
	for k := range st.byOn {
		if st.nByOn[k] > 0 {
			st.byOn[k] /= float64(st.nByOn[k])
		}
	}
	for _, n := range st.perUnit {
		switch {
		case n == 0:
			st.dead++
		case n == len(stim):
			st.always++
		}
		if n*50 < len(stim) {
			st.rare++
		}
	}
	return st
}

func logActivity(t *testing.T, name string, st activityStats) {
	t.Helper()
	t.Logf("%s: mean activity %.3f (per stimulus %.3f..%.3f); by field on: 10-15%% %.3f, 15-20%% %.3f, 20-25%% %.3f, 25-30%% %.3f, 30-35%% %.3f; dead %d, always on %d, rare (<2%% of stimuli) %d of %d",
		name, st.mean, st.min, st.max, st.byOn[2], st.byOn[3], st.byOn[4], st.byOn[5], st.byOn[6], st.dead, st.always, st.rare, st.units)
}

// TestDefaultActivity checks that the default boards keep A-unit activity moderate on letters
// and shapes (the figures quoted in the doc comments of DefaultMarkI and Local come from here:
// go test -v -run Activity).
func TestDefaultActivity(t *testing.T) {
	stim := testStimuli()
	on := 0
	for i := range stim {
		on += stim[i].Count()
	}
	t.Logf("%d stimuli (letters and shapes), %.1f%% of the field on on average", len(stim), 100*float64(on)/float64(len(stim)*retina.N))
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("DefaultMarkI/seed=%d", seed), func(t *testing.T) {
			b, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(seed, 0)))
			if err != nil {
				t.Fatal(err)
			}
			st := measureActivity(b, stim)
			logActivity(t, "DefaultMarkI", st)
			if st.mean < 0.10 || st.mean > 0.30 || st.dead > b.Len()/100 || st.always > 0 || st.min < 0.03 || st.max > 0.5 {
				t.Errorf("DefaultMarkI, seed %d: activity out of bounds", seed)
			}
		})
	}
	for _, radius := range []int{1, 2, 3, 4} {
		t.Run(fmt.Sprintf("Local/radius=%d", radius), func(t *testing.T) {
			b, err := Local(512, radius, rand.New(rand.NewPCG(1, 0)))
			if err != nil {
				t.Fatal(err)
			}
			st := measureActivity(b, stim)
			logActivity(t, "Local radius "+string(rune('0'+radius)), st)
			if radius > 1 && (st.mean < 0.10 || st.mean > 0.30 || st.dead > b.Len()/25 || st.always > 0) {
				t.Errorf("Local(512, %d): activity out of bounds", radius)
			}
		})
	}
}
