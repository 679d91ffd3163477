package playground

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// cloud returns a session config of n points with two decimals in [-5, 5]^2, labelled by the
// side of x1 + 2 x2 = 1 with a tenth of the labels flipped (not separable: the rule never
// stops), in the rule given.
func cloud(n int, method string) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var pts []string
	for range n {
		x1, x2 := float64(rng.IntN(1001)-500)/100, float64(rng.IntN(1001)-500)/100
		y := 1
		if x1+2*x2 < 1 {
			y = -1
		}
		if rng.IntN(10) == 0 {
			y = -y
		}
		pts = append(pts, fmt.Sprintf(`["%g","%g",%d]`, x1, x2, y))
	}
	return fmt.Sprintf(`{"points":[%s],"method":%q,"margin":"1/2"}`, strings.Join(pts, ","), method)
}

func benchSession(b *testing.B, method string, epoch bool) {
	var c SessionConfig
	if err := json.Unmarshal([]byte(cloud(1000, method)), &c); err != nil {
		b.Fatal(err)
	}
	s, err := NewSession(c)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		if s.status != Running {
			b.StopTimer()
			if err := s.Reset(); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		step := s.Step
		if epoch {
			step = s.Epoch
		}
		if err := step(); err != nil {
			b.Fatal(err)
		}
		size = len(s.StateJSON())
	}
	b.ReportMetric(float64(size), "state-bytes")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		// The process's CPU time (the machine may be busy with others: wall time says less).
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkStep1000: one presentation to a session of 1,000 points, and its whole state as
// JSON (what mark1lab.step does).
func BenchmarkStep1000(b *testing.B) { benchSession(b, "fixed", false) }

// BenchmarkEpoch1000: an epoch of 1,000 presentations, and the state as JSON.
func BenchmarkEpoch1000(b *testing.B) { benchSession(b, "fixed", true) }

// BenchmarkStep1000Margin: a presentation of the margin rule (E_R's margin 1/2 too).
func BenchmarkStep1000Margin(b *testing.B) { benchSession(b, "margin", false) }
