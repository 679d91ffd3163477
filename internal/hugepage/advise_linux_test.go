package hugepage

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// On Linux with transparent huge pages in the kernel, every huge page a large buffer from
// Make touches lies in a mapping marked for huge pages (smaps' VmFlags "hg").
func TestMakeAdvisesLinux(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Log("this kernel has no transparent huge pages: madvise fails and Make ignores it")
		return
	}
	for _, n := range []int{minSize, 3<<20 + 5, 8 << 20} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			b := Make[byte](n)
			start, end := span(b)
			if !flagged(t, start, end) {
				t.Fatalf("the %d-byte buffer's huge pages [%#x, %#x) are not all marked hg", n, start, end)
			}
		})
	}
}

// flagged reports whether the mapping of /proc/self/smaps holding [start, end) has "hg".
func flagged(t *testing.T, start, end uintptr) bool {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(line, ":") && len(strings.Fields(line)) >= 5 {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			z, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uintptr(a) <= start && end <= uintptr(z)
				continue
			}
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.Contains(" "+strings.TrimPrefix(line, "VmFlags:")+" ", " hg ")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping holds [%#x, %#x)", start, end)
	return false
}

// BenchmarkFirstTouch writes one byte in every 4 KiB page of a fresh 64 MiB buffer, from make
// and from Make, reporting the minor page faults the touch took (getrusage):
//
//	go test -run '^$' -bench FirstTouch -benchtime 5x ./internal/hugepage
func BenchmarkFirstTouch(b *testing.B) {
	const size = 64 << 20
	for _, c := range []struct {
		name string
		make func() []byte
	}{{"make", func() []byte { return make([]byte, size) }}, {"Make", func() []byte { return Make[byte](size) }}} {
		b.Run(c.name, func(b *testing.B) {
			var faults int64
			for b.Loop() {
				buf := c.make()
				var r0, r1 unix.Rusage
				_ = unix.Getrusage(unix.RUSAGE_SELF, &r0)
				for i := 0; i < len(buf); i += 4096 {
					buf[i] = 1
				}
				_ = unix.Getrusage(unix.RUSAGE_SELF, &r1)
				faults += r1.Minflt - r0.Minflt
			}
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
		})
	}
}
