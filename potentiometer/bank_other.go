//go:build !amd64 || purego

package potentiometer

// haveKernel: no vector kernel on this processor (or in a purego build).
const haveKernel = false

// sumLanes is sumGo.
func sumLanes(rows []float64, stride int, active []uint16, limit int, out []float64) bool {
	return sumGo(rows, stride, active, limit, out)
}
