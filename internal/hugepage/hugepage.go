// Package hugepage asks the kernel to back large buffers with transparent huge pages.
//
// The first touch of every 4 KiB page of fresh memory is a page fault, and on a virtual
// machine a costly one. BenchmarkFirstTouch (go test -run '^$' -bench FirstTouch -benchtime 5x
// ./internal/hugepage) writes a byte in every page of 64 MiB: on the CI machine, a Firecracker
// VM, on 2026-11-27, 131 ms a buffer from make, 27 ms a buffer from Make, which advises it
// (the mean of five buffers, the heap reusing some memory between them; MADV_HUGEPAGE; a system set to "madvise", as Debian's kernel is by default, needs
// the advice). A training from 60,000 IDX digits touches about 90 MB (the pixels, the deck),
// so mark1 advises the buffers it knows to be large and fresh. Where the kernel
// has transparent huge pages off, or the platform has no madvise, the advice does nothing; the
// buffer's contents never depend on it.
package hugepage

import "unsafe"

// minSize is the smallest buffer Make advises, in bytes: a huge page is 2 MiB on amd64 and on
// arm64 with 4 KiB pages.
const minSize = 2 << 20

// huge is the size of a transparent huge page.
const huge = 2 << 20

// Make returns a zeroed slice of n elements (length and capacity n), advised: one of 2 MiB
// or more starts at a huge-page boundary (or as few bytes past it as an element's size
// needs) inside a larger allocation, so that every page it touches can be a huge page (advising
// a plain slice would leave its unaligned ends in small pages). The extra allocation
// (up to two huge pages) takes address space, not memory, when T holds no pointers; the
// collector scans the whole allocation of elements with pointers, and so touches it (most of
// it in huge pages: the training of scripts/bench-whole.sh took 2,960 minor page faults, as
// /usr/bin/time counts them, with its cards and images from Make, 3,820 with them from make,
// on 2026-11-27).
func Make[T any](n int) []T {
	var zero T
	elem := unsafe.Sizeof(zero)
	size := uintptr(n) * elem
	if n == 0 || elem == 0 || elem >= huge || size < minSize {
		return make([]T, n)
	}
	buf := make([]T, n+int((2*huge+elem-1)/elem))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	start := int((((p + huge - 1) &^ (huge - 1)) - p + elem - 1) / elem) // the first element at or past a boundary
	s := buf[start : start+n : start+n]
	q := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo := q &^ (huge - 1)
	hi := (q + size + huge - 1) &^ (huge - 1) // within buf: it has a huge page and more past s
	advise(unsafe.Add(unsafe.Pointer(unsafe.SliceData(buf)), lo-p), hi-lo)
	return s
}
