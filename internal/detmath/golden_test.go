package detmath

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mark1-perceptron/mark1/internal/golden"
)

// goldenFile holds the digests, in goldenNames' order.
var goldenFile = golden.File{
	Path: "testdata/golden.txt",
	Header: "# SHA-256 digests of detmath's results over fixed argument sequences (see golden_test.go).\n" +
		"# They must be the same on every architecture. Regenerate: go test ./internal/detmath -run Golden -update\n",
	Sep: " ",
}

// goldenArgs is the number of arguments each function is digested over.
const goldenArgs = 200000

// anyFloat returns a float64 with random bits: every sign, exponent, subnormal, Inf and NaN.
func anyFloat(rng *rand.Rand) float64 { return math.Float64frombits(rng.Uint64()) }

// goldenDigests computes, for each function, the SHA-256 of the little-endian bit patterns of
// its results over a fixed argument sequence drawn from a seeded PCG. The arguments are drawn
// with math/rand/v2's Float64, IntN and Uint64, which are integer arithmetic and one exact
// conversion, the same on every machine.
func goldenDigests() map[string]string {
	out := map[string]string{}
	put := func(h hash.Hash, vs ...float64) {
		var b [8]byte
		for _, v := range vs {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	// mix draws from one of several ranges in turn.
	mix := func(rng *rand.Rand, i int, gens ...func() float64) float64 { return gens[i%len(gens)]() }
	run := func(name string, seed uint64, f func(rng *rand.Rand, i int, h hash.Hash)) {
		h := sha256.New()
		rng := rand.New(rand.NewPCG(seed, 0x5eed))
		for i := 0; i < goldenArgs; i++ {
			f(rng, i, h)
		}
		out[name] = fmt.Sprintf("%x", h.Sum(nil))
	}
	run("Exp", 1, func(rng *rand.Rand, i int, h hash.Hash) {
		put(h, Exp(mix(rng, i,
			func() float64 { return float64(rng.Float64()*1500) - 750 },
			func() float64 { return float64(rng.Float64()*2) - 1 },
			func() float64 { return anyFloat(rng) })))
	})
	run("Log", 2, func(rng *rand.Rand, i int, h hash.Hash) {
		put(h, Log(mix(rng, i,
			func() float64 { return math.Float64frombits(rng.Uint64() >> 1) },
			func() float64 { return float64(rng.Float64() * 2) },
			func() float64 { return anyFloat(rng) })))
	})
	run("Pow", 3, func(rng *rand.Rand, i int, h hash.Hash) {
		var x, y float64
		switch i % 4 {
		case 0: // the machine's range
			x, y = float64(rng.Float64()*1000), 10-float64(rng.Float64()*10)
		case 1:
			x, y = math.Float64frombits(rng.Uint64()>>1), float64(rng.Float64()*100)-50
		case 2:
			x, y = float64(rng.Float64()*20)-10, float64(rng.IntN(41)-20)
		default:
			x, y = anyFloat(rng), anyFloat(rng)
		}
		put(h, Pow(x, y))
	})
	run("Erfc", 4, func(rng *rand.Rand, i int, h hash.Hash) {
		put(h, Erfc(mix(rng, i,
			func() float64 { return float64(rng.Float64()*37) - 7 },
			func() float64 { return float64(rng.Float64()*4) - 2 },
			func() float64 { return anyFloat(rng) })))
	})
	run("Sincos", 5, func(rng *rand.Rand, i int, h hash.Hash) {
		put(h, pair(Sincos(mix(rng, i,
			func() float64 { return float64(rng.Float64()*20) - 10 },
			func() float64 { return float64(rng.Float64()*2e5) - 1e5 },
			func() float64 { return float64(rng.Float64()*2e7) - 1e7 },
			func() float64 { return anyFloat(rng) })))...)
	})
	h := sha256.New()
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000000 {
		put(h, Normal(r))
	}
	out["Normal"] = fmt.Sprintf("%x", h.Sum(nil))
	h = sha256.New()
	for i := range zigLayers {
		put(h, float64(zig.k[i]), zig.w[i], zig.f[i])
	}
	out["NormalTables"] = fmt.Sprintf("%x", h.Sum(nil))
	return out
}

func pair(a, b float64) []float64 { return []float64{a, b} }

var goldenNames = []string{"Exp", "Log", "Pow", "Erfc", "Sincos", "Normal", "NormalTables"}

// TestGolden is the determinism test: the digests must match testdata/golden.txt on every
// architecture (make arm64 runs it under qemu-aarch64: go test -exec). Run with -update to
// rewrite the file after an intended change of results.
func TestGolden(t *testing.T) {
	got := goldenDigests()
	var digests []golden.Digest
	for _, n := range goldenNames {
		digests = append(digests, golden.Digest{Name: n, Sum: got[n]})
	}
	goldenFile.Check(t, digests)
}
