//go:build gc && !purego

package potentiometer

import "golang.org/x/sys/cpu"

// avx2Built: the AVX2 kernels are in this build.
const avx2Built = true

// useAVX2: the AVX2 kernels run here (the processor has AVX2, and GODEBUG=cpu.avx2=off has not
// turned it off). Only sumLanes reads it.
var useAVX2 = cpu.X86.HasAVX2

// sumLanes is sumGo, run with AVX2 where useAVX2 says so (four lanes a register and up to
// twelve lanes a pass, every lane of stride written); it reports false, having summed nothing
// it promises, when an active index is >= limit.
func sumLanes(rows []float64, stride, lanes int, active []uint16, limit int, out []float64) bool {
	if !useAVX2 {
		return sumGo(rows, stride, lanes, active, limit, out)
	}
	if countKernels {
		kernelRuns.Add(1)
	}
	var ap *uint16
	if len(active) > 0 {
		ap = &active[0]
	}
	bytes, n := uintptr(stride*8), len(active)
	switch stride {
	case 4:
		return sum4(&rows[0], bytes, ap, n, limit, &out[0])
	case 8:
		return sum8(&rows[0], bytes, ap, n, limit, &out[0])
	case 12:
		return sum12(&rows[0], bytes, ap, n, limit, &out[0])
	}
	l := 0
	for ; l+12 <= stride; l += 12 {
		if !sum12(&rows[l], bytes, ap, n, limit, &out[l]) {
			return false
		}
	}
	switch stride - l {
	case 4:
		return sum4(&rows[l], bytes, ap, n, limit, &out[l])
	case 8:
		return sum8(&rows[l], bytes, ap, n, limit, &out[l])
	}
	return true
}

// sum4, sum8 and sum12 write to out[0..lanes-1] the four interleaved partial sums of rows'
// first lanes (rows points at lane 0 of row 0; rows are stride bytes apart) over the n
// indices at active, combined as (s0 + s1) + (s2 + s3), and report true; or false as soon as
// an index is >= limit.
//
//go:noescape
func sum4(rows *float64, stride uintptr, active *uint16, n, limit int, out *float64) bool

//go:noescape
func sum8(rows *float64, stride uintptr, active *uint16, n, limit int, out *float64) bool

//go:noescape
func sum12(rows *float64, stride uintptr, active *uint16, n, limit int, out *float64) bool
