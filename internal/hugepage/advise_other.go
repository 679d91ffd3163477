//go:build !linux

package hugepage

import "unsafe"

// advise does nothing: no madvise here.
func advise(unsafe.Pointer, uintptr) {}
