package machine

import (
	"testing"
	"time"
)

// BenchmarkPresentation measures one training presentation of a real 28x28 digit (testdata's
// 600 MNIST training digits in file order, 512 A-units, ten R-units one-hot, alpha rule) by
// the ideal machine from a deck of kept A-units (PrepareBits: "ideal-cached"), by the ideal
// machine from a deck of prepared stimuli ("ideal": the retina and the A-units at every
// presentation) and by the analog machine, every flaw on ("analog"), one machine each, fresh
// at the start: ns/op is per presentation. "analog-vs-ideal" alternates blocks of 60
// presentations of an ideal machine (uncached) and an analog one, so that both see the same
// load on a shared computer, and reports each one's time per presentation and the analog
// machine's throughput as a share of the ideal machine's (analog/ideal, at least 0.5 is the
// goal). The optics are run once per card, outside the timing.
//
//	go test -run '^$' -bench '^BenchmarkPresentation$' -benchmem ./machine
func BenchmarkPresentation(b *testing.B) {
	set := loadIDX(b, "train")
	build := func(b *testing.B, ideal, bits bool) (*Machine, *Deck) {
		cfg := digitsConfig(ideal)
		cfg.Order = OrderFile
		m, err := New(cfg, set.Classes)
		if err != nil {
			b.Fatal(err)
		}
		prep := m.Prepare
		if bits {
			prep = m.PrepareBits
		}
		d, err := prep(set)
		if err != nil {
			b.Fatal(err)
		}
		return m, d
	}
	for _, c := range []struct {
		name        string
		ideal, bits bool
	}{{"ideal-cached", true, true}, {"ideal", true, false}, {"analog", false, false}} {
		b.Run(c.name, func(b *testing.B) {
			m, d := build(b, c.ideal, c.bits)
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				m.presentCard(d, k, d.Class[k], true)
				if k++; k == d.Len() {
					k = 0
				}
			}
		})
	}
	b.Run("analog-vs-ideal", func(b *testing.B) {
		mi, di := build(b, true, false)
		ma, da := build(b, false, false)
		const block = 60
		var ti, ta time.Duration
		b.ReportAllocs()
		k, n := 0, 0
		for b.Loop() {
			t0 := time.Now()
			for j := range block {
				mi.presentCard(di, k+j, di.Class[k+j], true)
			}
			t1 := time.Now()
			for j := range block {
				ma.presentCard(da, k+j, da.Class[k+j], true)
			}
			ta += time.Since(t1)
			ti += t1.Sub(t0)
			n += block
			if k += block; k+block > di.Len() {
				k = 0
			}
		}
		b.ReportMetric(float64(ti.Nanoseconds())/float64(n), "ideal-ns/presentation")
		b.ReportMetric(float64(ta.Nanoseconds())/float64(n), "analog-ns/presentation")
		b.ReportMetric(float64(ti)/float64(ta), "analog/ideal")
		b.ReportMetric(0, "ns/op")
	})
}
