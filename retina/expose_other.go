//go:build !amd64 || purego

package retina

import "math/rand/v2"

// haveExposeKernel: no vector kernel on this processor (or in a purego build).
const haveExposeKernel = false

// exposeKernel is exposeGo.
func (r *Retina) exposeKernel(s *Stimulus, fLatch, fEnd *[2]float64, thr, band2, sigma float64, light bool, noise *rand.Rand, out *Bits) {
	r.exposeGo(s, fLatch, fEnd, thr, band2, sigma, light, noise, out)
}

// finishMeans is finishGo.
func finishMeans(m *[N]float64, f *finTerms, avg *[N]float64) { finishGo(m, f, avg) }
