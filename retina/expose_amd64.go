//go:build gc && !purego

package retina

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/internal/detmath"
	"golang.org/x/sys/cpu"
)

// avx2Built: the AVX2 kernels are in this build.
const avx2Built = true

// useAVX2: the AVX2 kernels run here (the processor has AVX2, and GODEBUG=cpu.avx2=off has not
// turned it off). Only exposeLoop and finishMeans read it.
var useAVX2 = cpu.X86.HasAVX2

// exposeLoop is exposeGo, run with AVX2 where useAVX2 says so, bit for bit the same: the
// kernel computes four cells at a time the new levels, the readings at the latch less the
// threshold (into r.xs), the S-unit states without noise and which cells lie in the noise
// band (r.noisy); the noise is then drawn here for those cells, in cell order as exposeGo
// draws it, and their states set again.
func (r *Retina) exposeLoop(s *Stimulus, fLatch, fEnd *[2]float64, thr, band2, sigma float64, light bool, noise *rand.Rand, out *Bits) {
	if !useAVX2 {
		r.exposeGo(s, fLatch, fEnd, thr, band2, sigma, light, noise, out)
		return
	}
	if countKernels {
		kernelRuns.Add(1)
	}
	k := exposeConsts{fLatch[0], fLatch[1], fEnd[0], fEnd[1], thr, band2}
	exposeCells(&s.G[0], &r.level[0], &r.xs[0], &k, light, out, &r.noisy)
	for w, m := range r.noisy {
		for m != 0 {
			j := bits.TrailingZeros64(m)
			m &= m - 1
			x := r.xs[w*64+j] + float64(sigma*detmath.Normal(noise))
			if light {
				x = 0 - x
			}
			out[w] = out[w]&^(1<<j) | math.Float64bits(x)>>63<<j
		}
	}
}

// The kernel knows N.
var (
	_ [N - 400]struct{}
	_ [400 - N]struct{}
)

// exposeConsts are the kernel's constants, in the order it loads them.
type exposeConsts struct {
	decayL, riseL, decayEnd, riseEnd, thr, band2 float64
}

// exposeCells runs the kernel over the N cells: targets the G of the cells, level the levels (updated),
// x the readings less the threshold, out the states before noise, noisy the cells whose
// squared reading is below band2.
//
//go:noescape
func exposeCells(targets *float32, level *float64, x *float64, k *exposeConsts, light bool, out *Bits, noisy *Bits)

// finishMeans is finishGo, run with AVX2 where useAVX2 says so, bit for bit the same.
func finishMeans(m *[N]float64, f *finTerms, avg *[N]float64) {
	if !useAVX2 {
		finishGo(m, f, avg)
		return
	}
	if countKernels {
		kernelRuns.Add(1)
	}
	if f.inPlace {
		finishCells(m, &f.add, &f.den, avg)
		return
	}
	finishCells(m, &f.add, &f.den, &f.scratch)
	for i, x := range f.scratch {
		avg[f.at[i]] = x
	}
}

// finishCells computes v[i] = min((m[i] + add[i]) / den[i], 1) for the N cells.
//
//go:noescape
func finishCells(m, add, den, v *[N]float64)
