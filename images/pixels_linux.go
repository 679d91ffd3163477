package images

import (
	"syscall"
	"unsafe"
)

// hugeBuffer is the size from which pixelBuffer asks for huge pages.
const hugeBuffer = 8 << 20

// pixelBuffer returns a new buffer of n bytes for an IDX file's pixels. A large one is marked
// for transparent huge pages (madvise MADV_HUGEPAGE, which a system set to "madvise" needs to
// use them) before it is touched: reading MNIST's 47 MB of training digits into 4 KiB pages
// takes 11,500 page faults, which a virtual machine makes slow; 2 MiB pages take about 23.
// The advice changes only how the memory is mapped, never what it holds; a failure is
// ignored.
func pixelBuffer(n int) []byte {
	b := make([]byte, n)
	if n < hugeBuffer {
		return b
	}
	const page = 4096
	start := (page - int(uintptr(unsafe.Pointer(unsafe.SliceData(b)))%page)) % page
	end := start + (n-start)/page*page
	_ = syscall.Madvise(b[start:end], syscall.MADV_HUGEPAGE)
	return b
}
