package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// advise madvises the huge-page-aligned part of [p, p+size) MADV_HUGEPAGE; errors (a kernel
// without transparent huge pages) are ignored, as the advice changes no contents.
func advise(p unsafe.Pointer, size uintptr) {
	const huge = 2 << 20
	start := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + size) &^ (huge - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
}
