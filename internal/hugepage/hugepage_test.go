package hugepage

import (
	"testing"
	"unsafe"
)

// Make returns a zeroed slice of the length asked for, of any element type and size, small
// (not advised) or large.
func TestMake(t *testing.T) {
	for _, n := range []int{0, 1, 1000, Min - 1, Min, 3 * Min, 5*Min + 7} {
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
	}
	Advise([]int(nil)) // nothing to advise
}

// huge returns the first whole 2 MiB page inside b, as Advise finds it.
func huge(b []byte) (start, end uintptr) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	const h = 2 << 20
	return (p + h - 1) &^ (h - 1), (p + uintptr(len(b))) &^ (h - 1)
}
