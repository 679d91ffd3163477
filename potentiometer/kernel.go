package potentiometer

import "sync/atomic"

//go:generate go run gen_kernels.go -out bank_amd64.s

// Bank.Sum's AVX2 kernels (bank_amd64.s, written by gen_kernels.go) run only where useAVX2 is
// true: in amd64 builds by gc without the purego tag (bank_amd64.go; gccgo cannot assemble Go
// assembly), on a processor with AVX2 that GODEBUG=cpu.avx2=off has not turned off. sumLanes,
// the one Go function that calls them, checks it; everywhere else sumGo runs, bit for bit the
// same.

// countKernels, set by the tests before any goroutine starts, makes sumLanes count its AVX2
// runs in kernelRuns, so that a test can tell which path ran.
var (
	countKernels bool
	kernelRuns   atomic.Uint64
)
