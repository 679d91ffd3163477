package retina

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
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The tests count the AVX2 kernels' runs (see kernelRuns).
func init() { countKernels = true }

// The AVX2 kernels run exactly where they are built and the processor has AVX2, as
// golang.org/x/sys/cpu reports it after GODEBUG (GODEBUG=cpu.avx2=off turns it off): an analog
// Prepare (finish) and Expose each run one AVX2 kernel there, and no AVX2 instruction anywhere
// else: there the Go loops ran.
func TestKernelPath(t *testing.T) {
	if !countKernels {
		t.Fatal("countKernels is not set: no run would be counted")
	}
	want := avx2Built && cpu.X86.HasAVX2
	if useAVX2 != want {
		t.Fatalf("useAVX2 %v; built %v, processor AVX2 %v", useAVX2, avx2Built, cpu.X86.HasAVX2)
	}
	r := newRetina(t, DefaultParams(), 1)
	var s Stimulus
	var out Bits
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"Prepare", func() { r.Prepare(randomGray(1, 28, 28), &s) }},
		{"Expose", func() { r.Expose(&s, 3, rand.New(rand.NewPCG(1, 2)), &out) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := kernelRuns.Load()
			c.run()
			runs := kernelRuns.Load() - before
			if want && runs != 1 || !want && runs != 0 {
				t.Fatalf("%d runs of an AVX2 kernel (built %v, processor AVX2 %v)", runs, avx2Built, cpu.X86.HasAVX2)
			}
		})
	}
	path := "the Go loops (exposeGo, finishGo)"
	if want {
		path = "AVX2 (exposeCells, finishCells)"
	}
	t.Logf("Prepare and Expose ran %s", path)
}

// guard is the number of sentinel words on each side of a guarded value.
const guard = 16

// Sentinels fill the guard bands: NaNs with payloads no kernel makes, a different one around
// each value, so that a kernel that read one guard and wrote what it read (a NaN sum keeps
// its payload) into another is caught too.
const (
	sentinelIn  = 0x7ff8_0000_dead_beef // around the inputs
	sentinelOut = 0x7ff8_0000_0bad_f00d // around the outputs
	sentinelIO  = 0x7ff8_0000_feed_face // around what is both (the retina, finish's terms)
)

// bytesOf returns the memory of *v.
func bytesOf[T any](v *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(v)), unsafe.Sizeof(*v))
}

// wordBytes returns the memory of w.
func wordBytes(w []uint64) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w)) }

// guarded holds a value between guard bands of sentinels, in one piece of memory.
type guarded[T any] struct {
	pre  [guard]uint64
	v    T
	post [guard]uint64
}

// newGuarded returns v between guard bands of sentinel s.
func newGuarded[T any](v T, s uint64) *guarded[T] {
	g := &guarded[T]{v: v}
	for i := range guard {
		g.pre[i], g.post[i] = s, s
	}
	return g
}

// span is a range of bytes of a guarded value that a kernel may write.
type span struct{ off, size uintptr }

// checkUntouched reports any byte of now (the guards and the value) that differs from was,
// outside the spans the kernel may write.
func checkUntouched(t *testing.T, what string, was, now []byte, may ...span) {
	t.Helper()
	for i := range now {
		if now[i] == was[i] {
			continue
		}
		ok := false
		for _, s := range may {
			ok = ok || uintptr(i) >= s.off && uintptr(i) < s.off+s.size
		}
		if !ok {
			t.Errorf("%s: byte %d of %d written (guards: the first and last %d)", what, i, len(now), guard*8)
			return
		}
	}
}

// newGuardedWords returns n words between guard bands of sentinel s (and s in the words
// themselves), and the whole array.
func newGuardedWords(n int, s uint64) (v, whole []uint64) {
	whole = make([]uint64, n+2*guard)
	for i := range whole {
		whole[i] = s
	}
	return whole[guard : guard+n], whole
}

// Expose's loop (exposeLoop: exposeCells where it runs, and exposeGo) writes nothing but the
// levels, the kernel's readings and noisy cells (r.xs, r.noisy) and the states, as gonum's asm
// tests check it: the retina lies between guard bands of sentinels and every other byte of it
// (the fields around the three it writes) must be the same after the call; so must the
// stimulus, also between guard bands; the states lie between guard words. Both polarities,
// with and without noise, presentation times from none to far past every lag.
func TestExposeGuards(t *testing.T) {
	loops := []struct {
		name string
		run  func(r *Retina, s *Stimulus, fLatch, fEnd *[2]float64, thr, band2, sigma float64, light bool, noise *rand.Rand, out *Bits)
	}{{"go", (*Retina).exposeGo}, {"exposeLoop", (*Retina).exposeLoop}}
	for trial := range 24 {
		for _, loop := range loops {
			t.Run(fmt.Sprintf("%s/trial=%d", loop.name, trial), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(61, uint64(trial)))
				p := DefaultParams()
				p.DarkNoise = []float64{0, p.DarkNoise, 0.2, 5}[trial%4]
				gr := newGuarded(*newRetina(t, p, uint64(trial)), sentinelIO)
				r := &gr.v
				for i := range r.level {
					r.level[i] = math.Ldexp(rng.Float64(), -rng.IntN(8))
				}
				gs := newGuarded(Stimulus{}, sentinelIn)
				for i := range gs.v.G {
					gs.v.G[i] = float32(math.Ldexp(rng.Float64(), -rng.IntN(8)))
				}
				r.factors([]float64{0, 0.001, 0.3, 10}[trial/4%4])
				fLatch := [2]float64{r.decayL, r.riseL}
				fEnd := [2]float64{r.decEnd, r.riseEnd}
				band2 := r.band * r.band
				var noise *rand.Rand
				if trial%3 > 0 {
					noise = rand.New(rand.NewPCG(uint64(trial), 1))
				} else {
					band2 = 0
				}
				words, whole := newGuardedWords(Words, sentinelOut)
				was, wasS, wasW := slices.Clone(bytesOf(gr)), slices.Clone(bytesOf(gs)), slices.Clone(wordBytes(whole))
				loop.run(r, &gs.v, &fLatch, &fEnd, r.thr, band2, p.DarkNoise, trial%2 == 0, noise, (*Bits)(words))
				base := unsafe.Offsetof(gr.v)
				checkUntouched(t, "retina", was, bytesOf(gr),
					span{base + unsafe.Offsetof(r.level), unsafe.Sizeof(r.level)},
					span{base + unsafe.Offsetof(r.xs), unsafe.Sizeof(r.xs)},
					span{base + unsafe.Offsetof(r.noisy), unsafe.Sizeof(r.noisy)})
				checkUntouched(t, "stimulus", wasS, bytesOf(gs))
				checkUntouched(t, "states", wasW, wordBytes(whole), span{guard * 8, Words * 8})
				if words[Words-1]>>(N%64) != 0 {
					t.Errorf("states past cell %d set: %x", N, words[Words-1])
				}
			})
		}
	}
}

// finish's kernel (finishMeans: finishCells where it runs, and finishGo) writes nothing but the
// means (and, when they are placed by a permutation, the scratch they are placed from): the
// sums and the means lie between guard bands of sentinels, as do finish's terms, every byte of
// which but the scratch must be the same after the call. In cell order and by a permutation.
func TestFinishGuards(t *testing.T) {
	loops := []struct {
		name string
		run  func(m *[N]float64, f *finTerms, avg *[N]float64)
	}{{"go", finishGo}, {"finishMeans", finishMeans}}
	for trial := range 8 {
		for _, loop := range loops {
			t.Run(fmt.Sprintf("%s/trial=%d", loop.name, trial), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(71, uint64(trial)))
				m, f := randomFinish(rng, trial%2 == 0)
				var want [N]float64
				finishGo(&m, &f, &want)
				gm, gf := newGuarded(m, sentinelIn), newGuarded(f, sentinelIO)
				avgW, avgWhole := newGuardedWords(N, sentinelOut)
				avg := (*[N]float64)(unsafe.Pointer(&avgW[0]))
				wasM, wasF := slices.Clone(bytesOf(gm)), slices.Clone(bytesOf(gf))
				wasA := slices.Clone(wordBytes(avgWhole))
				loop.run(&gm.v, &gf.v, avg)
				checkUntouched(t, "sums", wasM, bytesOf(gm))
				checkUntouched(t, "terms", wasF, bytesOf(gf),
					span{unsafe.Offsetof(gf.v) + unsafe.Offsetof(gf.v.scratch), unsafe.Sizeof(gf.v.scratch)})
				checkUntouched(t, "means", wasA, wordBytes(avgWhole), span{guard * 8, N * 8})
				for i := range N {
					if math.Float64bits(avg[i]) != math.Float64bits(want[i]) {
						t.Fatalf("cell %d: %v, want %v", i, avg[i], want[i])
					}
				}
			})
		}
	}
}

// expose_amd64.s is what gen_expose.go writes today, byte for byte (go generate ./retina brings
// it up to date).
func TestKernelsGenerated(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on $PATH to run gen_expose.go")
	}
	out := filepath.Join(t.TempDir(), "expose_amd64.s")
	cmd := exec.Command(goTool, "run", "gen_expose.go", "-out", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_expose.go: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("expose_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, have) {
		t.Fatal("expose_amd64.s is not what gen_expose.go writes: run go generate ./retina")
	}
}

// kernelPaths are the benchmarks' paths: the Go loop, and AVX2 (skipped where it does not run).
var kernelPaths = []string{"go", "avx2"}

// skipNoAVX2 skips an avx2 benchmark where the AVX2 kernels do not run.
func skipNoAVX2(b *testing.B, path string) {
	if path == "avx2" && !useAVX2 {
		b.Skip("no AVX2 here (another processor, a purego or gccgo build, no AVX2, or GODEBUG=cpu.avx2=off)")
	}
}

// BenchmarkExposeKernel times Expose's loop over the cells, the Go loop against AVX2, as
// benchExpose runs it: an analog retina, two letter cards in turn, 3 s presentations, dark
// noise drawn.
func BenchmarkExposeKernel(b *testing.B) {
	for _, path := range kernelPaths {
		b.Run(path, func(b *testing.B) {
			skipNoAVX2(b, path)
			loop := (*Retina).exposeGo
			if path == "avx2" {
				loop = (*Retina).exposeLoop
			}
			r := newRetina(b, DefaultParams(), 1)
			cards := letterCards()
			s := []*Stimulus{prepare(r, cards[0]), prepare(r, cards[2])}
			noise := rand.New(rand.NewPCG(1, 2))
			r.factors(3)
			fLatch := [2]float64{r.decayL, r.riseL}
			fEnd := [2]float64{r.decEnd, r.riseEnd}
			band2 := r.band * r.band
			var out Bits
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				loop(r, s[k&1], &fLatch, &fEnd, r.thr, band2, r.p.DarkNoise, false, noise, &out)
				k++
			}
		})
	}
}

// BenchmarkFinishKernel times finish's loop over the cells, the Go loop against AVX2, placing
// the means in cell order (as for every card not turned by a quarter).
func BenchmarkFinishKernel(b *testing.B) {
	for _, path := range kernelPaths {
		b.Run(path, func(b *testing.B) {
			skipNoAVX2(b, path)
			loop := finishGo
			if path == "avx2" {
				loop = finishMeans
			}
			m, f := randomFinish(rand.New(rand.NewPCG(1, 2)), true)
			var avg [N]float64
			b.ReportAllocs()
			for b.Loop() {
				loop(&m, &f, &avg)
			}
		})
	}
}
