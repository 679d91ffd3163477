//go:build !purego

package potentiometer

import "golang.org/x/sys/cpu"

//go:generate go run gen_kernels.go

// haveKernel: the AVX2 kernels run here.
var haveKernel = cpu.X86.HasAVX2

// sumLanes is sumGo with AVX2, four lanes a register and up to twelve lanes a pass, and
// reports false, having summed nothing it promises, when an active index is >= limit.
func sumLanes(rows []float64, stride int, active []uint16, limit int, out []float64) bool {
	if !haveKernel {
		return sumGo(rows, stride, active, limit, out)
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
