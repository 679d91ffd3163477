//go:build !linux

package riglink_test

import "time"

var cpuStart = time.Now()

// threadCPU is the wall clock where a thread's CPU time is not read (Linux only).
func threadCPU() time.Duration { return time.Since(cpuStart) }
