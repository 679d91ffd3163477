//go:build !amd64 || !gc || purego

package potentiometer

// avx2Built: the AVX2 kernels are not in this build (another processor, gccgo, or purego).
const avx2Built = false

// useAVX2: sumGo runs.
const useAVX2 = false

// sumLanes is sumGo.
func sumLanes(rows []float64, stride, lanes int, active []uint16, limit int, out []float64) bool {
	return sumGo(rows, stride, lanes, active, limit, out)
}
