package hugepage

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// advise madvises [p, p+size) MADV_HUGEPAGE (Make passes whole huge pages); errors (a kernel
// without transparent huge pages) are ignored, as the advice changes no contents.
func advise(p unsafe.Pointer, size uintptr) {
	_ = unix.Madvise(unsafe.Slice((*byte)(p), size), unix.MADV_HUGEPAGE)
}
