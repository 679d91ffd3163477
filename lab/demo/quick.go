package demo

import (
	"math/big"

	"github.com/mark1-perceptron/mark1/lab/exact"
	"github.com/mark1-perceptron/mark1/lab/report"
)

// The quick runs of the course's demonstrations (mark1 lab DEMO --quick). Each demonstration
// runs at its defaults in well under a second already, so its quick run is that run, with the
// checks: the figures that show its effect, each with the band a working demonstration keeps
// it in and what a broken one gives instead. The tests hold every check (TestQuickChecks).

func check(what string, v, lo, hi float64, broken string) report.Check {
	return report.Check{What: what, Value: v, Min: lo, Max: hi, Broken: broken}
}

func holds(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// QuickNote is the note a quick run of a course demonstration adds to its report.
const QuickNote = "--quick: the demonstration's own default run (it takes well under a second), with the checks of its effect that the tests hold."

// LossChecks runs the loss demonstration's two problems (as Loss does with c) and checks its
// effect: the separable problem learned, the overlapping one cycling, E_P rising after some
// updates although each lowers the corrected sample's term by |x|^2, and E_P's gradient equal
// to its difference quotients.
func LossChecks(c LossConfig) ([]report.Check, error) {
	if c.Points == 0 {
		c.Points = 40
	}
	if c.Epochs == 0 {
		c.Epochs = 20
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	var runs []*LossRun
	for _, kind := range []string{"separable", "overlapping"} {
		run, err := RunLoss(kind, kind, intProblem(kind, c.Points, c.Seed), c.Epochs)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	sep, over := runs[0], runs[1]
	rises, wrongFall := 0, 0
	gradOff := 0.0
	for _, run := range runs {
		// The first update from zero always raises E_P (E_P(0) = 0): count the others.
		for i, u := range run.Rises() {
			if i > 0 || u.Before.Sign() != 0 {
				rises++
			}
		}
		for _, u := range run.Updates {
			if new(big.Rat).Sub(u.TermBefore, u.TermAfter).Cmp(u.Fall) != 0 {
				wrongFall++
			}
		}
		if u, ok := run.offBoundary(); ok {
			w := run.Trace.Steps[u.Step-1].W
			g := Gradient(w, run.Xs, run.Ys)
			h := big.NewRat(1, 1000)
			e0 := Criterion(w, run.Xs, run.Ys)
			for j := range w {
				wj := w.Clone()
				wj[j].Add(wj[j], h)
				fd := new(big.Rat).Quo(new(big.Rat).Sub(Criterion(wj, run.Xs, run.Ys), e0), h)
				d := exact.Float(new(big.Rat).Sub(fd, g[j]))
				gradOff = max(gradOff, d, -d)
			}
		} else {
			gradOff = 1e9
		}
	}
	return []report.Check{
		check("separable problem: mistakes at the end of the run", float64(sep.Epochs[len(sep.Epochs)-1].Mistakes), 0, 0, "a rule that does not correct: about half the samples"),
		check("overlapping problem: the weights repeat an earlier epoch's (1: yes)", holds(over.Trace.Repeats >= 0), 1, 1, "the cycle not found: 0"),
		check("updates after the first that raised E_P, both problems", float64(rises), 1, 1000, "E_P not computed, or only the corrected sample's term: 0"),
		check("updates whose corrected sample's term did not fall by exactly |x|^2", float64(wrongFall), 0, 0, "a rule that steps otherwise than by y x: most of them"),
		check("E_P's gradient: largest difference between minus the mistakes' sum of y x and the difference quotient", gradOff, 0, 0, "E_P or its gradient computed wrongly: not 0"),
	}, nil
}

// RegionsChecks checks what the regions demonstration shows (fitted by least squares): one-vs-rest
// with K classifiers leaves ambiguous and unclaimed parts of the plot, one-vs-one's vote ties in
// the middle, and K discriminants answer every point, every training sample right.
func RegionsChecks(stats []RegionStats) []report.Check {
	by := map[string]RegionStats{}
	for _, s := range stats {
		by[s.Scheme] = s
	}
	ovr, ovo, kd := by["one-vs-rest, K"], by["one-vs-one"], by["K discriminants"]
	return []report.Check{
		check("one-vs-rest, K: ambiguous (% of the plot)", 100*ovr.AmbiguousArea, 5, 40, "signs read as an argmax, no region ambiguous: 0"),
		check("one-vs-rest, K: no class (% of the plot)", 100*ovr.NoClassArea, 1, 20, "signs read as an argmax: 0"),
		check("one-vs-one: tied votes (% of the plot)", 100*ovo.AmbiguousArea, 0.5, 10, "ties broken, or votes read as an argmax: 0"),
		check("K discriminants: undecided (% of the plot)", 100*(kd.AmbiguousArea+kd.NoClassArea), 0, 0, "the discriminants read by sign: above 0"),
		check("K discriminants: training errors", float64(kd.Errors), 0, 0, "discriminants not fitted: about two thirds of the samples"),
	}
}

// MaskingChecks checks that least squares masks the middle class (default sizes: 20 of 80
// samples) while the perceptron's K-class machine and Fisher for K classes answer it.
func MaskingChecks(methods []MaskingMethod) []report.Check {
	out := []report.Check{
		check("least squares: middle samples answered middle", float64(methods[0].Assigned[1]), 0, 0, "no masking (the middle class as large as the others, or not least squares): several"),
		check("least squares: the plot answered middle (%)", 100*methods[0].Area[1], 0, 0, "no masking: a band across the row"),
	}
	for _, m := range methods[1:] {
		out = append(out, check(m.Name+": middle samples answered middle (of 20)", float64(m.Assigned[1]), 18, 20, "a method that masks too: 0"))
	}
	return out
}

// BooleanChecks checks that the rule learned the six separable functions (an epoch that met
// every row) and found XOR and parity cycling.
func BooleanChecks(results []BooleanResult) []report.Check {
	learned, cycling := 0, 0
	for _, r := range results {
		switch {
		case r.Computes && r.Trace.Converged:
			learned++
		case !r.Computes && r.Trace.Repeats >= 0:
			cycling++
		}
	}
	return []report.Check{
		check("AND, OR, NOT, NAND, 2-of-3, 3-of-5: learned (of 6)", float64(learned), 6, 6, "a rule that does not correct: 0"),
		check("XOR and 3-bit parity: found cycling (of 2)", float64(cycling), 2, 2, "the cycle not found, or weights claimed: fewer"),
	}
}

// PocketChecks checks the pocket against the perceptron on the digits: the pocket's training
// error never rises, is never above the perceptron's, and is below it after most updates.
func PocketChecks(c PocketCurve) []report.Check {
	n := len(c.PocketIn)
	rises, above, below := 0, 0, 0
	for i := range n {
		if i > 0 && c.PocketIn[i] > c.PocketIn[i-1] {
			rises++
		}
		if c.PocketIn[i] > c.PLAIn[i] {
			above++
		}
		if c.PocketIn[i] < c.PLAIn[i] {
			below++
		}
	}
	return []report.Check{
		check("updates after which the pocket's training error rose", float64(rises), 0, 0, "the pocket's last weights for its best: many"),
		check("updates after which the pocket misclassified more training digits than the perceptron", float64(above), 0, 0, "a pocket that keeps other weights than the best: many"),
		check("updates after which the pocket misclassified fewer training digits than the perceptron (fraction)", float64(below)/float64(n), 0.6, 1, "a pocket no better than the perceptron: 0"),
		check("the pocket's final training error (%)", pct(c.PocketIn[n-1], c.Train), 5, 15, "a perceptron that never learns: about 44 to 56"),
	}
}

// FisherLSQChecks checks that least squares with the targets N/N1 and -N/N2 gives Fisher's
// direction and the bias -w.m, and with +1 and -1 Fisher's direction and another bias.
func FisherLSQChecks(f *FisherLSQ) []report.Check {
	off := func(l LSQFit) float64 { return exact.Float(new(big.Rat).Sub(l.W0, l.AtMean)) }
	d := off(f.Plain)
	return []report.Check{
		check("targets N/N1, -N/N2: every weight the same multiple of Fisher's (1: yes)", holds(f.Special.Ratio != nil), 1, 1, "not Fisher's direction: 0"),
		check("targets N/N1, -N/N2: w0 minus -w.m", off(f.Special), 0, 0, "the threshold not at the mean of all samples: not 0"),
		check("targets +1, -1: every weight the same multiple of Fisher's (1: yes)", holds(f.Plain.Ratio != nil), 1, 1, "not Fisher's direction: 0"),
		check("targets +1, -1: |w0 minus -w.m| (classes of 12 and 20)", max(d, -d), 0.01, 10, "the targets mixed up, the bias at the mean: 0"),
	}
}
