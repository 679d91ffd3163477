//go:build !unix

package playground

// cpuTime is not measured here (0: the benchmarks report wall time only).
func cpuTime() int64 { return 0 }
