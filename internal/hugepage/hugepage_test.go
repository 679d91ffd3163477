package hugepage

import (
	"fmt"
	"testing"
	"unsafe"
)

// Make returns a zeroed slice of the length asked for, of any element type and size, small
// (not advised) or large.
func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, minSize - 1, minSize, 3 * minSize, 5*minSize + 7} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			b := Make[byte](n)
			if len(b) != n {
				t.Fatalf("Make[byte](%d): len %d", n, len(b))
			}
			for i, v := range b {
				if v != 0 {
					t.Fatalf("Make[byte](%d)[%d] = %d", n, i, v)
				}
			}
			w := Make[[7]uint64](n / 56)
			if len(w) != n/56 {
				t.Fatalf("Make[[7]uint64](%d): len %d", n/56, len(w))
			}
		})
	}
}

// span returns the huge pages b's memory touches.
func span(b []byte) (start, end uintptr) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p &^ (huge - 1), (p + uintptr(len(b)) + huge - 1) &^ (huge - 1)
}

// A large slice from Make starts at a huge-page boundary, or less than an element past it,
// and its capacity is its length (an append cannot run into the allocation's spare end).
func TestMakeAligned(t *testing.T) {
	check := func(t *testing.T, name string, p uintptr, elem uintptr, n, c int) {
		t.Helper()
		if off := p & (huge - 1); off >= elem {
			t.Errorf("%s: starts %d bytes past a huge page, elements are %d bytes", name, off, elem)
		}
		if c != n {
			t.Errorf("%s: capacity %d, length %d", name, c, n)
		}
	}
	for _, n := range []int{minSize, 3*minSize + 1, 47_040_000} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			b := Make[byte](n)
			check(t, "bytes", uintptr(unsafe.Pointer(unsafe.SliceData(b))), 1, n, cap(b))
			k := (n + 55) / 56 // at least n bytes
			w := Make[[7]uint64](k)
			check(t, "[7]uint64", uintptr(unsafe.Pointer(unsafe.SliceData(w))), 56, k, cap(w))
			for i := range w {
				if w[i] != [7]uint64{} {
					t.Fatalf("Make[[7]uint64](%d)[%d] not zero", k, i)
				}
			}
		})
	}
}
