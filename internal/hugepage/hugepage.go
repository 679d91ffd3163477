// Package hugepage asks the kernel to back large buffers with transparent huge pages.
//
// The first touch of every 4 KiB page of fresh memory is a page fault, and on a virtual
// machine a costly one: measured on the CI machine (a Firecracker VM, 2026-11-27), touching
// 64 MiB took about 200 ms in 16,500 faults, and 12 ms in about 150 faults once the range was
// advised (MADV_HUGEPAGE; a system set to "madvise", as Debian's kernel is by default, needs
// the advice). A training from 60,000 IDX digits touches about 90 MB (the pixels, the deck),
// so mark1 advises the buffers it knows to be large and fresh. Where the kernel
// has transparent huge pages off, or the platform has no madvise, Advise does nothing; the
// buffer's contents never depend on it.
package hugepage

import "unsafe"

// Min is the smallest buffer Advise advises, in bytes: a huge page is 2 MiB on amd64 and on
// arm64 with 4 KiB pages, and only the aligned huge pages inside a buffer are advised.
const Min = 2 << 20

// Make returns make([]T, n), advised (see Advise).
func Make[T any](n int) []T {
	s := make([]T, n)
	Advise(s)
	return s
}

// Advise asks the kernel to back the whole huge pages within s's memory with huge pages, when
// s holds at least Min bytes. Call it before s is first written: pages already touched keep
// their small pages until the kernel gathers them.
func Advise[T any](s []T) {
	if len(s) == 0 {
		return
	}
	size := uintptr(len(s)) * unsafe.Sizeof(s[0])
	if size < Min {
		return
	}
	advise(unsafe.Pointer(unsafe.SliceData(s)), size)
}
