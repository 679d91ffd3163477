//go:build !amd64 || !gc || purego

package retina

import "math/rand/v2"

// avx2Built: the AVX2 kernels are not in this build (another processor, gccgo, or purego).
const avx2Built = false

// useAVX2: the Go loops run.
const useAVX2 = false

// exposeLoop is exposeGo.
func (r *Retina) exposeLoop(s *Stimulus, fLatch, fEnd *[2]float64, thr, band2, sigma float64, light bool, noise *rand.Rand, out *Bits) {
	r.exposeGo(s, fLatch, fEnd, thr, band2, sigma, light, noise, out)
}

// finishMeans is finishGo.
func finishMeans(m *[N]float64, f *finTerms, avg *[N]float64) { finishGo(m, f, avg) }
