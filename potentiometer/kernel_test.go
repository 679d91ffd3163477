package potentiometer

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/cpu"
)

// The tests count the AVX2 kernels' runs (see kernelRuns).
func init() { countKernels = true }

// The AVX2 kernels run exactly where they are built and the processor has AVX2, as
// golang.org/x/sys/cpu reports it after GODEBUG (GODEBUG=cpu.avx2=off turns it off): a bank
// of 9 racks, summed once, runs sumLanes' AVX2 path once there, and no AVX2 instruction
// anywhere else: there sumGo ran.
func TestKernelPath(t *testing.T) {
	if !countKernels {
		t.Fatal("countKernels is not set: no run would be counted")
	}
	want := avx2Built && cpu.X86.HasAVX2
	if useAVX2 != want {
		t.Fatalf("useAVX2 %v; built %v, processor AVX2 %v", useAVX2, avx2Built, cpu.X86.HasAVX2)
	}
	racks := bankRacks(t, rand.New(rand.NewPCG(1, 2)), 9, 40, false)
	b := mustBank(t, racks)
	before := kernelRuns.Load()
	b.Sum([]uint16{1, 5, 7, 30, 39}, nil, make([]float64, 9))
	runs := kernelRuns.Load() - before
	if want && runs != 1 || !want && runs != 0 {
		t.Fatalf("%d runs of the AVX2 kernel (built %v, processor AVX2 %v)", runs, avx2Built, cpu.X86.HasAVX2)
	}
	path := "the Go loop (sumGo)"
	if want {
		path = "AVX2 (sumLanes' kernels)"
	}
	t.Logf("Bank.Sum ran %s", path)
}

// Sentinels fill the guard bands: NaNs with payloads no sum makes, one around the rows and
// another around out. A kernel that read a guard of the rows would sum it into a NaN (which
// keeps the payload: hence two); one that wrote a guard would change its bits.
var (
	sentinelIn  = math.Float64frombits(0x7ff8_0000_dead_beef)
	sentinelOut = math.Float64frombits(0x7ff8_0000_0bad_f00d)
)

// guarded returns a slice of n float64s with guard sentinels s on each side (in the same
// array; s in the slice too), and the whole array.
func guarded(n, guard int, s float64) (v, whole []float64) {
	whole = make([]float64, n+2*guard)
	for i := range whole {
		whole[i] = s
	}
	return whole[guard : guard+n], whole
}

// checkGuards reports a guard of whole (guard values on each side) that is no longer the
// sentinel s.
func checkGuards(t *testing.T, what string, whole []float64, guard int, s float64) {
	t.Helper()
	for i := range guard {
		for _, j := range []int{i, len(whole) - 1 - i} {
			if math.Float64bits(whole[j]) != math.Float64bits(s) {
				t.Errorf("%s: guard %d of %d written: %v", what, j, len(whole), whole[j])
			}
		}
	}
}

// sumLanes (the AVX2 kernels sum4, sum8 and sum12 where they run, alone and in passes) and
// sumGo touch nothing but out's lanes, as gonum's asm tests check it: the rows, the active
// list and out lie between guard bands of sentinels that must be the same after the call;
// the rows and the active list are left as they were; every lane of out below lanes is
// written, and those past it (padding, which the AVX2 kernels write and sumGo leaves) hold
// the sentinel or their sum (out starts as sentinels too). A read past the rows gives a NaN
// sum; one past the active list reads 0xffff, an index past the limit, and makes the kernel
// refuse. Every stride the bank uses up to 40 racks with each count of racks that gives it,
// every length of the active list modulo 4, and an index past the limit at each place
// (refused, out's guards still whole).
func TestSumLanesGuards(t *testing.T) {
	const guard = 24
	kernels := []struct {
		name string
		sum  func(rows []float64, stride, lanes int, active []uint16, limit int, out []float64) bool
	}{{"go", sumGo}, {"sumLanes", sumLanes}}
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 37 // A-unit rows: the last one lies against the rows' back guard
	for _, stride := range []int{4, 8, 12, 16, 20, 24, 28, 32, 36, 40} {
		for _, m := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 35, 36, 37} {
			bads := []int{-1} // where an index past the limit goes (-1: nowhere)
			if m > 0 {
				bads = slices.Compact([]int{-1, 0, m / 2, m - 1})
			}
			for _, bad := range bads {
				rows, rowsAll := guarded(n*stride, guard, sentinelIn)
				for i := range rows {
					rows[i] = math.Ldexp(rng.Float64()-0.5, rng.IntN(40)-20)
				}
				actAll := make([]uint16, m+2*guard)
				for i := range actAll {
					actAll[i] = 0xffff
				}
				active := actAll[guard : guard+m]
				copy(active, bankActive(rng, n, m))
				if bad >= 0 {
					active[bad] = uint16(n + rng.IntN(3))
				}
				want := make([]float64, stride)
				wantOK := sumGo(slices.Clone(rows), stride, stride, slices.Clone(active), n, want)
				rows0, act0 := slices.Clone(rowsAll), slices.Clone(actAll)
				for lanes := stride - 3; lanes <= stride; lanes++ {
					for _, k := range kernels {
						name := fmt.Sprintf("%s/stride=%d/lanes=%d/active=%d/bad=%d", k.name, stride, lanes, m, bad)
						t.Run(name, func(t *testing.T) {
							out, outAll := guarded(stride, guard, sentinelOut)
							ok := k.sum(rows, stride, lanes, active, n, out)
							if ok != wantOK || ok != (bad < 0) {
								t.Fatalf("reported %v, want %v", ok, bad < 0)
							}
							checkGuards(t, "out", outAll, guard, sentinelOut)
							if !slices.Equal(actAll, act0) {
								t.Errorf("the active list or its guards changed")
							}
							for i := range rowsAll {
								if math.Float64bits(rowsAll[i]) != math.Float64bits(rows0[i]) {
									t.Fatalf("rows (with guards) %d changed: %v, was %v", i, rowsAll[i], rows0[i])
								}
							}
							for l := range out {
								switch got := math.Float64bits(out[l]); {
								case !ok || l >= lanes:
									if got != math.Float64bits(sentinelOut) && (!ok || got != math.Float64bits(want[l])) {
										t.Errorf("lane %d written: %v (sum %v)", l, out[l], want[l])
									}
								case got != math.Float64bits(want[l]):
									t.Errorf("lane %d: %v, want %v", l, out[l], want[l])
								}
							}
						})
					}
				}
			}
		}
	}
}

// bank_amd64.s is what gen_kernels.go writes today, byte for byte (go generate ./potentiometer
// brings it up to date).
func TestKernelsGenerated(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on $PATH to run gen_kernels.go")
	}
	out := filepath.Join(t.TempDir(), "bank_amd64.s")
	cmd := exec.Command(goTool, "run", "gen_kernels.go", "-out", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_kernels.go: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("bank_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, have) {
		t.Fatal("bank_amd64.s is not what gen_kernels.go writes: run go generate ./potentiometer")
	}
}

// BenchmarkBankSum times Bank.Sum's kernel, the Go loop against AVX2 (skipped where the
// processor lacks it), on a bank of each size the machine uses (1 R-unit, 2, binary coding's
// 4 for ten classes, the default 8, 10 one-hot digits, 26 one-hot letters) over 512 A-units,
// a quarter of them active.
func BenchmarkBankSum(b *testing.B) {
	for _, path := range []string{"go", "avx2"} {
		for _, k := range []int{1, 2, 4, 8, 10, 26} {
			b.Run(fmt.Sprintf("%s/racks=%d", path, k), func(b *testing.B) {
				if path == "avx2" && !useAVX2 {
					b.Skip("no AVX2 here (another processor, a purego or gccgo build, no AVX2, or GODEBUG=cpu.avx2=off)")
				}
				sum := sumGo
				if path == "avx2" {
					sum = sumLanes
				}
				rng := rand.New(rand.NewPCG(3, 4))
				bank := mustBank(b, bankRacks(b, rng, k, 512, false))
				active := bankActive(rng, 512, 128)
				slices.Sort(active) // as the A-units fire
				b.ReportAllocs()
				for b.Loop() {
					sum(bank.rows, bank.stride, k, active, bank.n, bank.out)
				}
			})
		}
	}
}
