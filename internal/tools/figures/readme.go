package main

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The passages README.md must hold, word for word (runs of white space count as one space),
// made from the figure files: a figure the README quotes that the files do not give fails
// figures_test.go.

// Quote is a passage of README.md and the subsection ("### ...") it stands in.
type Quote struct {
	Section, Text string
}

// pct is an accuracy in percent with one decimal, rounded half up, or "100%".
func pct(r Result) string {
	if r.Cards == 0 {
		return "?%"
	}
	if r.Correct == r.Cards {
		return "100%"
	}
	tenths := (2000*r.Correct + r.Cards) / (2 * r.Cards)
	return fmt.Sprintf("%d.%d%%", tenths/10, tenths%10)
}

// whole is an accuracy in whole percent, rounded half up.
func whole(r Result) int { return (200*r.Correct + r.Cards) / (2 * r.Cards) }

// thousands writes n with commas: 8,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

const (
	digitsSection = "Real handwritten digits"
	curveSection  = "Learning curves"
	analogSection = "Accuracy, analog against ideal"
	speedSection  = "Speed"
	limitsSection = "Exit status, errors and limits"
)

// CurveColumns is how many epochs the learning-curve table shows.
const CurveColumns = 13

// Quotes lists the passages of README.md that quote the figures of acc, st and sp.
func Quotes(acc *Accuracy, st *State, sp *Speed) ([]Quote, error) {
	var q []Quote
	var missing []string
	get := func(id string) Run {
		r, ok := acc.run(id)
		if !ok {
			missing = append(missing, id)
		}
		return r
	}
	test := func(id string) Result {
		r := get(id)
		if r.Test == nil {
			missing = append(missing, id+" (test)")
			return Result{}
		}
		return *r.Test
	}
	add := func(section, format string, a ...any) {
		q = append(q, Quote{section, fmt.Sprintf(format, a...)})
	}

	// Real handwritten digits.
	idxIdeal := get("mnist-idx-ideal")
	if idxIdeal.Train != nil && idxIdeal.Test != nil {
		add(digitsSection, "The %s MNIST training and %s test digits", thousands(idxIdeal.Train.Cards), thousands(idxIdeal.Test.Cards))
	}
	add(digitsSection, "scikit-learn %s", acc.SklearnVersion)
	add(digitsSection, "| IDX files | %s | %s | %s |", pct(test("mnist-idx-ideal")), pct(test("mnist-idx-analog")), pct(test("mnist-idx-sklearn")))
	pngIdeal := get("mnist-png-ideal")
	if pngIdeal.Train != nil {
		add(digitsSection, "| PNG class folders (%s training digits) | %s | %s | %s |", thousands(pngIdeal.Train.Cards),
			pct(test("mnist-png-ideal")), pct(test("mnist-png-analog")), pct(test("mnist-png-sklearn")))
	}
	ei, ea := get("mnist-png-ideal-eval").Eval, get("mnist-png-analog-eval").Eval
	if ei != nil && ea != nil && *ei == test("mnist-png-ideal") && *ea == test("mnist-png-analog") {
		add(digitsSection, "`mark1 eval` of the saved states gives the same test accuracy as the training report (%s and %s on the folders)", pct(*ea), pct(*ei))
	} else {
		add(digitsSection, "`mark1 eval` of the saved states gives another test accuracy than the training report")
	}
	add(digitsSection, "4,096 A-units (`--a-units 4096`) reach %s on the IDX digits", pct(test("mnist-idx-4096-analog")))

	// Learning curves.
	ci, ca := get("letters-curve-ideal"), get("letters-curve-analog")
	for _, c := range []struct {
		name string
		r    Run
	}{{"ideal", ci}, {"analog", ca}} {
		cells := make([]string, CurveColumns)
		for i := range min(CurveColumns, len(c.r.Mistakes)) {
			cells[i] = strconv.Itoa(c.r.Mistakes[i])
		}
		add(curveSection, "| %s: mistakes | %s |", c.name, strings.Join(cells, " | "))
	}
	if ci.Train != nil && ca.Train != nil && ci.Train.Correct == ci.Train.Cards && ca.Train.Correct == ca.Train.Cards && ci.Converged && ca.Converged {
		add(curveSection, "Both reach 100%% training accuracy; the analog machine needs more epochs to an epoch without any correction (%d against %d here)",
			len(ca.Mistakes), len(ci.Mistakes))
	}

	// Accuracy, analog against ideal.
	second := func(mode string) string {
		var sum Result
		lo, hi := 100, 0
		for _, seed := range Letters2Seeds {
			r := test(fmt.Sprintf("letters2-seed%d-%s", seed, mode))
			if r.Cards == 0 {
				return "?"
			}
			sum.Cards += r.Cards
			sum.Correct += r.Correct
			lo, hi = min(lo, whole(r)), max(hi, whole(r))
		}
		return fmt.Sprintf("%d-%d%%, mean %s", lo, hi, pct(sum))
	}
	add(analogSection, "| letters, 26 R-units, trained on one typeface, tested on the second (`--test builtin:letters2`), seeds %d-%d | %s | %s |",
		Letters2Seeds[0], Letters2Seeds[len(Letters2Seeds)-1], second("ideal"), second("analog"))
	train := func(set, mode string) string {
		r := get("builtin-" + set + "-" + mode)
		if r.Train == nil {
			return "?"
		}
		return pct(*r.Train)
	}
	// same is one accuracy when the sets agree, else each, separated by "; ".
	same := func(mode string, sets ...string) string {
		var a []string
		for _, s := range sets {
			a = append(a, train(s, mode))
		}
		if len(slices.Compact(slices.Clone(a))) == 1 {
			return a[0]
		}
		return strings.Join(a, "; ")
	}
	add(analogSection, "| letters, default 8 R-units (binary code) | %s | %s |", train("letters", "ideal"), train("letters", "analog"))
	four := []string{"shapes", "squares-circles", "square-diamond", "leftright"}
	add(analogSection, "| shapes (4 classes), squares vs circles, square vs diamond, left vs right | %s | %s |", same("ideal", four...), same("analog", four...))
	add(analogSection, "| E vs F; X vs E | %s | %s", same("ideal", "ef", "xe"), same("analog", "ef", "xe"))

	// The biggest machine's state.
	if st != nil {
		add(limitsSection, "The biggest machine (65,536 A-units, 64 analog R-units), trained one epoch on the letters, saves a %d MB state", int(math.Round(float64(st.Bytes)/1e6)))
		add(limitsSection, "measured on %s, %s: train and save %s, %s peak; load and evaluate %s, %s peak",
			st.Machine.Date, hostText(st.Machine), seconds(st.Train.Seconds), gib(st.Train.PeakRSSBytes), seconds(st.Eval.Seconds), gib(st.Eval.PeakRSSBytes))
	}

	// Speed.
	if sp != nil {
		qs, err := speedQuotes(sp)
		if err != nil {
			return nil, err
		}
		q = append(q, qs...)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the figure files lack %s", strings.Join(missing, ", "))
	}
	return q, nil
}

func seconds(s float64) string { return fmt.Sprintf("%.0f s", s) }

func gib(b int64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

// hostText names the machine briefly: "2 cores of AMD EPYC, Go 1.26.8, load average 3.2 at
// the start".
func hostText(h Host) string {
	return fmt.Sprintf("%d cores of %s, Go %s, load average %.1f at the start", h.Cores, h.CPU, strings.TrimPrefix(h.Go, "go"), h.LoadAverage)
}

// dur writes nanoseconds as the README does: "3 ns", "0.97 us", "1.3 us", "10.3 us".
func dur(ns float64) string {
	us := ns / 1000
	switch {
	case ns < 100:
		return fmt.Sprintf("%.0f ns", ns)
	case us < 1:
		return fmt.Sprintf("%.2f us", us)
	default:
		return fmt.Sprintf("%.1f us", us)
	}
}

// spread writes a benchmark's runs: their one value, or the fastest and slowest ("1.3-1.4 us").
func spread(b Bench) string {
	lo, hi := dur(slices.Min(b.Values)), dur(slices.Max(b.Values))
	if lo == hi {
		return lo
	}
	l, unit, _ := strings.Cut(lo, " ")
	h, unit2, _ := strings.Cut(hi, " ")
	if unit != unit2 {
		return lo + " to " + hi
	}
	return l + "-" + h + " " + unit
}

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func speedQuotes(sp *Speed) ([]Quote, error) {
	var q []Quote
	add := func(format string, a ...any) { q = append(q, Quote{speedSection, fmt.Sprintf(format, a...)}) }
	var missing []string
	b := func(pkg, name string) Bench {
		x, ok := sp.bench(pkg, name)
		if !ok || len(x.Values) == 0 {
			missing = append(missing, pkg+" "+name)
			x.Values = []float64{math.NaN()}
		}
		return x
	}
	add("Measured on %s by `make figures`, %s", sp.Machine.Date, hostText(sp.Machine))
	// How far runs of one figure differ: the slowest over the fastest.
	vary := 1.0
	for _, x := range sp.Benchmarks {
		if len(x.Values) > 0 {
			vary = max(vary, slices.Max(x.Values)/slices.Min(x.Values))
		}
	}
	for _, f := range []func(SklearnSpeed) float64{
		func(r SklearnSpeed) float64 { return r.SklearnNs },
		func(r SklearnSpeed) float64 { return r.IdealNs },
		func(r SklearnSpeed) float64 { return r.AnalogNs },
	} {
		lo, hi := math.Inf(1), 0.0
		for _, r := range sp.Sklearn {
			lo, hi = min(lo, f(r)), max(hi, f(r))
		}
		if hi > 0 {
			vary = max(vary, hi/lo)
		}
	}
	add("speeds vary from run to run (by up to %.1f times here)", vary)
	if len(sp.Sklearn) == 0 {
		return nil, fmt.Errorf("docs/figures/speed.json has no run of scripts/compare-sklearn.py")
	}
	best := sp.Sklearn[0] // the fastest of the runs, each figure on its own
	for _, r := range sp.Sklearn[1:] {
		best.SklearnNs, best.IdealNs, best.AnalogNs = min(best.SklearnNs, r.SklearnNs), min(best.IdealNs, r.IdealNs), min(best.AnalogNs, r.AnalogNs)
	}
	faster := fmt.Sprintf("%.1f times faster", best.SklearnNs/best.IdealNs)
	if best.SklearnNs < best.IdealNs {
		faster = fmt.Sprintf("%.2f of scikit-learn's speed", best.SklearnNs/best.IdealNs)
	}
	add("the fastest of %d runs of `scripts/compare-sklearn.py speed`: scikit-learn %s fitting 8 binary Perceptrons (one per R-unit, the same codes) on the letters' precomputed 512 A-unit features takes %s ns per presentation; "+
		"mark1's ideal machine, features included, %s ns (%s); the analog machine, every flaw on, %s ns (%.2f of the ideal's speed)",
		len(sp.Sklearn), best.SklearnVersion, thousands(int(math.Round(best.SklearnNs))), thousands(int(math.Round(best.IdealNs))), faster,
		thousands(int(math.Round(best.AnalogNs))), best.IdealNs/best.AnalogNs)
	// Allocations: per presentation, or per run of the benchmarks whose op is a whole run.
	var perRun []string
	perPresentation := 0.0
	for _, x := range sp.Benchmarks {
		switch {
		case x.PerOp > 0 && x.Allocs > 0:
			perRun = append(perRun, fmt.Sprintf("%s %g", x.Name, x.Allocs))
		case x.PerOp == 0:
			perPresentation = max(perPresentation, x.Allocs)
		}
	}
	allocs := fmt.Sprintf("%g allocations per presentation throughout", perPresentation)
	if perPresentation > 0 {
		allocs = fmt.Sprintf("at most %g allocations per presentation", perPresentation)
	}
	if len(perRun) > 0 {
		allocs += fmt.Sprintf("; allocations per whole run from scratch: %s", strings.Join(perRun, ", "))
	}
	add("(the fastest and slowest of %d runs; %s)", sp.BenchCount, allocs)
	ratio := func(ideal, analog Bench) string {
		return fmt.Sprintf("%s (%.1fx)", spread(analog), median(analog.Values)/median(ideal.Values))
	}
	m := "./machine"
	add("| one training presentation, fresh machine, letters (`machine` Train) | %s | %s |", spread(b(m, "TrainIdeal")), spread(b(m, "TrainAnalog")))
	add("| learning phase: from scratch to a clean epoch on E/F (`Learning`) | %s per presentation | %s |", spread(b(m, "LearningIdeal")), spread(b(m, "LearningAnalog")))
	add("| converged: presentations with no correction (`Converged`) | %s | %s |", spread(b(m, "ConvergedIdeal")), spread(b(m, "ConvergedAnalog")))
	r := "./retina"
	add("| `retina` Prepare, 28x28 card | %s | %s |", spread(b(r, "Prepare28Ideal")), ratio(b(r, "Prepare28Ideal"), b(r, "Prepare28Analog")))
	add("| `retina` Prepare, MNIST digit | %s | %s |", spread(b(r, "PrepareDigits/ideal")), ratio(b(r, "PrepareDigits/ideal"), b(r, "PrepareDigits/analog")))
	add("| `retina` Expose | %s | %s |", spread(b(r, "ExposeIdeal")), spread(b(r, "ExposeAnalog")))
	add("| `patchboard` Fire (25%% of the field on) | %s | |", spread(b("./patchboard", "Fire")))
	if len(missing) > 0 {
		return nil, fmt.Errorf("docs/figures/speed.json lacks the benchmarks %s", strings.Join(missing, ", "))
	}
	return q, nil
}
