package patchboard

import (
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/retina"
)

// benchStimuli returns the test stimuli with 20% to 30% of the field on (mean about 25%), and
// when dark is set, their negatives (light figures on a dark field).
func benchStimuli(b testing.TB, negative bool) []retina.Bits {
	var out []retina.Bits
	for _, s := range testStimuli() {
		if f := float64(s.Count()) / retina.N; f >= 0.20 && f <= 0.30 {
			if negative {
				for i := range s {
					s[i] = ^s[i]
				}
				s[retina.Words-1] &= 1<<(retina.N%64) - 1
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		b.Fatal("no stimuli")
	}
	return out
}

func benchFire(b *testing.B, board *Board, negative bool) {
	stim := benchStimuli(b, negative)
	dst := make([]uint64, (board.Len()+63)/64)
	active := make([]uint16, 0, board.Len())
	board.Fire(&stim[0], dst, active)
	on, fired := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s := &stim[i%len(stim)]
		active = board.Fire(s, dst, active)
		on += s.Count()
		fired += len(active)
	}
	b.ReportMetric(float64(on)/float64(b.N)/retina.N, "S-on")
	b.ReportMetric(float64(fired)/float64(b.N)/float64(board.Len()), "A-on")
}

// BenchmarkFire fires the default Mark I board on printed letters and shapes (dark figures,
// about 25% of the field on).
func BenchmarkFire(b *testing.B) {
	board, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	benchFire(b, board, false)
}

// BenchmarkFireLightFigure fires the default Mark I board on the negatives (about 75% on).
func BenchmarkFireLightFigure(b *testing.B) {
	board, err := MarkI(DefaultMarkI(), rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	benchFire(b, board, true)
}

func BenchmarkFireIdentity(b *testing.B) { benchFire(b, Identity(), false) }

func BenchmarkFireLocal(b *testing.B) {
	board, err := Local(512, 2, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	benchFire(b, board, false)
}
