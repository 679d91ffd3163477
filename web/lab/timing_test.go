package labpage

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestStepTiming measures, with MARK1_LAB_TIMING=1 (make lab-timing), how long the page takes
// for one step and for one epoch of the fixed-increment rule on 1,000 points, each the lab's
// call and the page's drawing of its state (the click's handler, which draws at once): the
// issue's goal is a step under 16 ms, so that a drag stays smooth. It prints the figures (the
// median and the slowest of 30 steps, and of 5 epochs) and asserts only that the page worked:
// times on a shared machine are not a test.
func TestStepTiming(t *testing.T) {
	if os.Getenv("MARK1_LAB_TIMING") != "1" {
		t.Skip("MARK1_LAB_TIMING=1 measures (make lab-timing)")
	}
	if stubbed() {
		t.Skip("the stand-in is not the lab")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var csv strings.Builder
	csv.WriteString("x1,x2,label\n")
	for range 1000 {
		x1, x2 := rng.IntN(41)-20, rng.IntN(41)-20
		label := "+1"
		if x1+x2 < 0 || (x1+x2 == 0 && x1 < 0) {
			label = "-1"
		}
		fmt.Fprintf(&csv, "%d,%d,%s\n", x1, x2, label)
	}
	p := newPage(t, 1400, 1000)
	p.open("?demo=trace&auto=0&steps=0")
	p.eval(fmt.Sprintf(`(mark1labPage.playground.auto = false, mark1labPage.playground.loadCSV(%q), "")`, csv.String()))
	if n := p.eval(`String(mark1labPage.playground.state.points.length)`); n != "1000" {
		t.Fatalf("%s points loaded, want 1000", n)
	}
	var times struct {
		Step, Epoch []float64
		Rows        int
	}
	p.json(`(() => {
		const click = (id) => { const t0 = performance.now(); document.getElementById(id).click(); return performance.now() - t0; };
		const step = [], epoch = [];
		for (let i = 0; i < 30; i++) step.push(click("step"));
		for (let i = 0; i < 5; i++) epoch.push(click("epoch"));
		return { step, epoch, rows: mark1labPage.playground.state.trace.total };
	})()`, &times)
	if times.Rows == 0 || len(times.Step) != 30 || len(times.Epoch) != 5 {
		t.Fatalf("the page did not step: %+v", times)
	}
	median := func(v []float64) (float64, float64) {
		s := append([]float64(nil), v...)
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				if s[j] < s[i] {
					s[i], s[j] = s[j], s[i]
				}
			}
		}
		return s[len(s)/2], s[len(s)-1]
	}
	sm, sx := median(times.Step)
	em, ex := median(times.Epoch)
	t.Logf("lab-timing: 1,000 points, fixed increment: a step %.1f ms (median of 30; slowest %.1f ms), an epoch %.1f ms (median of 5; slowest %.1f ms), the lab's call and the page's drawing; %d presentations in all",
		sm, sx, em, ex, times.Rows)
}
