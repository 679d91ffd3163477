package retina

import "sync/atomic"

//go:generate go run gen_expose.go -out expose_amd64.s

// The AVX2 kernels of Expose and of finish (expose_amd64.s, written by gen_expose.go) run only
// where useAVX2 is true: in amd64 builds by gc without the purego tag (expose_amd64.go; gccgo
// cannot assemble Go assembly), on a processor with AVX2 that GODEBUG=cpu.avx2=off has not
// turned off. The one Go function that calls each kernel (exposeLoop, finishMeans) checks it;
// everywhere else the Go loops (exposeGo, finishGo) run, bit for bit the same.

// countKernels, set by the tests before any goroutine starts, makes exposeLoop and finishMeans
// count their AVX2 runs in kernelRuns, so that a test can tell which path ran.
var (
	countKernels bool
	kernelRuns   atomic.Uint64
)
