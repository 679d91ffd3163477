package detmath

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// countingSource counts the values drawn from it.
type countingSource struct {
	src rand.Source
	n   int
}

func (c *countingSource) Uint64() uint64 { c.n++; return c.src.Uint64() }

// stdNormalCDF is the standard normal distribution function, by this package's Erfc.
func stdNormalCDF(x float64) float64 { return 0.5 * Erfc(float64(-x*0.70710678118654752440)) }

func TestNormalMoments(t *testing.T) {
	const n = 1000000
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, n)
	var s1 float64
	for i := range xs {
		xs[i] = Normal(r)
		s1 += xs[i]
	}
	mean := s1 / n
	var m2, m3, m4 float64
	var over3, over4, overR int
	for _, x := range xs {
		d := x - mean
		m2 += d * d
		m3 += d * d * d
		m4 += d * d * d * d
		if math.Abs(x) > 3 {
			over3++
		}
		if math.Abs(x) > 4 {
			over4++
		}
		if math.Abs(x) > zigR {
			overR++
		}
	}
	m2, m3, m4 = m2/n, m3/n, m4/n
	skew := m3 / math.Pow(m2, 1.5)
	kurt := m4/(m2*m2) - 3
	t.Logf("mean %.5f variance %.5f skewness %.5f excess kurtosis %.5f; |x|>3: %d, |x|>4: %d, |x|>%.3f: %d",
		mean, m2, skew, kurt, over3, over4, zigR, overR)
	// Bounds at about 4.5 standard errors of each statistic for n = 1e6.
	if math.Abs(mean) > 4.5/math.Sqrt(n) {
		t.Errorf("mean %v", mean)
	}
	if math.Abs(m2-1) > 4.5*math.Sqrt(2.0/n) {
		t.Errorf("variance %v", m2)
	}
	if math.Abs(skew) > 4.5*math.Sqrt(6.0/n) {
		t.Errorf("skewness %v", skew)
	}
	if math.Abs(kurt) > 4.5*math.Sqrt(24.0/n) {
		t.Errorf("excess kurtosis %v", kurt)
	}
	// Tail counts: binomial, checked at 4.5 standard deviations.
	for _, c := range []struct {
		at  float64
		got int
	}{{3, over3}, {4, over4}, {zigR, overR}} {
		p := Erfc(c.at / math.Sqrt2) // P(|X| > at)
		want := p * n
		if sd := math.Sqrt(want * (1 - p)); math.Abs(float64(c.got)-want) > 4.5*sd {
			t.Errorf("%d draws beyond ±%v, want %.1f ± %.1f", c.got, c.at, want, sd)
		}
	}

	// Kolmogorov-Smirnov against the normal distribution function.
	slices.Sort(xs)
	var d float64
	for i, x := range xs {
		f := stdNormalCDF(x)
		d = max(d, math.Abs(f-float64(i)/n), math.Abs(float64(i+1)/n-f))
	}
	t.Logf("Kolmogorov-Smirnov D = %.6f, sqrt(n)*D = %.3f", d, d*math.Sqrt(n))
	if d*math.Sqrt(n) > 1.95 { // p = 0.001
		t.Errorf("Kolmogorov-Smirnov: sqrt(n)*D = %.3f > 1.95", d*math.Sqrt(n))
	}
}

// TestNormalTails checks the distribution far out, where the ziggurat's base layer and its
// tail method take over: 4e6 draws, counts beyond several points compared with 2*Q(x).
func TestNormalTails(t *testing.T) {
	if testing.Short() {
		t.Skip("4e6 draws")
	}
	const n = 4000000
	r := rand.New(rand.NewPCG(3, 4))
	points := []float64{1, 2, 3, 3.5, zigR, 4, 4.5, 5}
	counts := make([]int, len(points))
	for range n {
		x := math.Abs(Normal(r))
		for i, p := range points {
			if x > p {
				counts[i]++
			}
		}
	}
	for i, p := range points {
		q := Erfc(p / math.Sqrt2)
		want := q * n
		sd := math.Sqrt(want * (1 - q))
		t.Logf("|x| > %.4f: %d, expected %.1f ± %.1f", p, counts[i], want, sd)
		if math.Abs(float64(counts[i])-want) > 4.5*sd+1 {
			t.Errorf("|x| > %v: %d draws, want %.1f ± %.1f", p, counts[i], want, sd)
		}
	}
}

// TestNormalCalls checks what Normal draws from its source: only Uint64 values (rand.Rand
// has no other way to reach the source), one per try on the fast path, which should take
// about 98.5% of draws.
func TestNormalCalls(t *testing.T) {
	src := &countingSource{src: rand.NewPCG(5, 6)}
	r := rand.New(src)
	const n = 1000000
	one := 0
	for range n {
		before := src.n
		Normal(r)
		if src.n-before == 1 {
			one++
		}
	}
	// The fast path's probability, from the tables: the sure part of each layer.
	var p float64
	for i := range zigLayers {
		p += float64(zig.k[i]) / (1 << 53) / zigLayers
	}
	frac := float64(one) / n
	t.Logf("%.4f of draws took one value (expected %.4f); %.4f values a draw", frac, p, float64(src.n)/n)
	if sd := math.Sqrt(p * (1 - p) / n); math.Abs(frac-p) > 4.5*sd {
		t.Errorf("fast path taken by %.4f of draws, want %.4f ± %.4f", frac, p, sd)
	}
}

// TestNormalStream checks that Normal is a function of the Uint64 stream alone: two sources
// that give the same values give the same draws, whatever the source is.
func TestNormalStream(t *testing.T) {
	a := rand.New(rand.NewPCG(9, 10))
	vals := make([]uint64, 0, 1<<16)
	src := &countingSource{src: rand.NewPCG(9, 10)}
	b := rand.New(replay{&vals, src})
	for range 10000 {
		if x, y := Normal(a), Normal(b); x != y {
			t.Fatalf("Normal differs between two sources of the same stream: %v, %v", x, y)
		}
	}
	// Replaying the recorded values through a fresh Rand gives the same draws again.
	c := rand.New(&sliceSource{vals: vals})
	a = rand.New(rand.NewPCG(9, 10))
	for range 10000 {
		if x, y := Normal(a), Normal(c); x != y {
			t.Fatalf("Normal differs on replay: %v, %v", x, y)
		}
	}
}

type replay struct {
	rec *[]uint64
	src rand.Source
}

func (r replay) Uint64() uint64 { v := r.src.Uint64(); *r.rec = append(*r.rec, v); return v }

type sliceSource struct {
	vals []uint64
	i    int
}

func (s *sliceSource) Uint64() uint64 { v := s.vals[s.i]; s.i++; return v }

// TestZigguratTables checks the tables computed at init: every layer has the same area, and
// the top layer closes at f = 1 to within rounding.
func TestZigguratTables(t *testing.T) {
	x := func(i int) float64 { return zig.w[i] * (1 << 53) }
	for i := 2; i < zigLayers; i++ {
		area := x(i) * (zig.f[i-1] - zig.f[i])
		if math.Abs(area-zig.v) > 1e-12 {
			t.Errorf("layer %d: area %v, want %v", i, area, zig.v)
		}
	}
	top := x(1) * (1 - zig.f[1])
	t.Logf("layer area v = %.15g; top layer area %.15g (relative difference %.2g)", zig.v, top, top/zig.v-1)
	if math.Abs(top/zig.v-1) > 1e-6 {
		t.Errorf("top layer area %v, want %v", top, zig.v)
	}
	if zig.k[1] != 0 {
		t.Errorf("k[1] = %d, want 0", zig.k[1])
	}
}

func TestNormalAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	if a := testing.AllocsPerRun(1000, func() { Normal(r) }); a != 0 {
		t.Errorf("Normal allocates %v times a call", a)
	}
}
