package experiment

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
	"github.com/mark1-perceptron/mark1/retina"
)

// ActivityBinomial is Rosenblatt's (1958) probability that an A-unit with x excitatory and y
// inhibitory connections fires, each connection lit independently with probability r (the
// fraction of the retina illuminated): P(e - i >= theta), e ~ Binomial(x, r),
// i ~ Binomial(y, r).
func ActivityBinomial(x, y, theta int, r float64) float64 {
	p := 0.0
	for e := 0; e <= x; e++ {
		for i := 0; i <= y; i++ {
			if e-i >= theta {
				p += float64(binom(x, e, r) * binom(y, i, r))
			}
		}
	}
	return p
}

// ActivityExact is the same probability on a finite retina of n cells with exactly k lit, the
// unit's x+y plugs on distinct cells (as the emulator wires them): e and i then follow the
// multivariate hypergeometric law, P(e, i) = C(x,e) C(y,i) C(n-x-y, k-e-i) / C(n,k).
func ActivityExact(x, y, theta, n, k int) float64 {
	p := 0.0
	for e := 0; e <= x; e++ {
		for i := 0; i <= y; i++ {
			if e-i >= theta && k-e-i >= 0 && k-e-i <= n-x-y {
				p += math.Exp(lchoose(x, e) + lchoose(y, i) + lchoose(n-x-y, k-e-i) - lchoose(n, k))
			}
		}
	}
	return p
}

func binom(n, k int, p float64) float64 {
	return math.Exp(lchoose(n, k)) * math.Pow(p, float64(k)) * math.Pow(1-p, float64(n-k))
}

// lchoose returns log C(n, k).
func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// figure4Pairs are the (x, y) of Rosenblatt's figure 4.
var figure4Pairs = [][2]int{{10, 0}, {8, 2}, {6, 4}, {5, 5}}

// Figure4 measures how often A-units of the kinds in Rosenblatt's 1958 figure 4 fire, on
// random retinal patterns with a fraction Settings.Lit of the cells lit (default 0.5), against
// the theory: Rosenblatt's binomial formula and the exact finite-retina one. It also measures
// the Mark I's own (7, 4, 2) A-units on real cards, against the theory at each card's lit
// fraction.
func Figure4(ctx context.Context, s Settings) (*report.Report, error) {
	return timed(func() (*report.Report, error) { return figure4(ctx, s) })
}

func figure4(ctx context.Context, s Settings) (*report.Report, error) {
	r := 0.5
	if s.Lit > 0 {
		r = s.Lit
	}
	units, patterns := 4096, 400
	if s.Quick {
		units, patterns = 1024, 100
	}
	k := int(math.Round(float64(r * retina.N)))
	type job struct{ x, y, theta int }
	var jobs []job
	for _, p := range figure4Pairs {
		for th := 1; th <= p[0]; th++ {
			jobs = append(jobs, job{p[0], p[1], th})
		}
	}
	prog := newProgress(s.Progress, len(jobs)+1)
	measured, err := lab.Parallel(ctx, len(jobs), s.Workers, func(int) { prog.add(1) }, func(ctx context.Context, j int) (float64, error) {
		jb := jobs[j]
		// The same stream for every theta of a pair: the same plugs, only the threshold differs.
		seed := s.seed() + uint64(jb.x*100+jb.y)
		b, err := patchboard.MarkI(patchboard.MarkIParams{AUnits: units, Exc: jb.x, Inh: jb.y, Theta: jb.theta}, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			return 0, err
		}
		rng := rand.New(rand.NewPCG(seed, 2))
		cells := make([]int, retina.N)
		for i := range cells {
			cells[i] = i
		}
		dst := make([]uint64, (units+63)/64)
		active := make([]uint16, 0, units)
		fired := 0
		for range patterns {
			rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			var pattern retina.Bits
			for _, c := range cells[:k] {
				pattern.Set(c, true)
			}
			active = b.Fire(&pattern, dst, active)
			fired += len(active)
		}
		return float64(fired) / float64(units*patterns), nil
	})
	if err != nil {
		return nil, err
	}
	cards, err := markIOnCards(s)
	if err != nil {
		return nil, err
	}
	prog.add(1)

	rep := &report.Report{Name: "figure4", Title: "Rosenblatt 1958, figure 4: the probability that an A-unit fires"}
	rep.Summary = fmt.Sprintf("An A-unit with x excitatory and y inhibitory connections fires when at least theta more excitatory than inhibitory ones are lit. Rosenblatt computed P_a, the probability that it fires, for a fraction R of the retina lit, taking each connection to be lit independently (a binomial law). The emulator wires %d A-units of each kind at random and shows them %d random patterns with exactly %d of the 400 cells lit (R = %g).", units, patterns, k, r)
	rep.Condition("R (fraction of the retina lit)", fmt.Sprintf("%g (%d of 400 cells); mark1 experiment figure4 --lit sets it", r, k))
	rep.Condition("A-units per kind", fmt.Sprintf("%d, plugs on distinct cells, no fan-out limit; seeds from %d", units, s.seed()))
	rep.Condition("patterns", fmt.Sprintf("%d random patterns per kind and threshold", patterns))
	table := &report.Table{Name: "pa", Title: "P_a: theory and the emulator's A-units", Columns: []string{"x", "y", "theta", "binomial (Rosenblatt)", "exact (400 cells)", "measured", "std. error", "deviation / std. error"}}
	fig := &plot.Figure{Name: "figure4", Title: fmt.Sprintf("P_a against the threshold, R = %g", r), XLabel: "threshold theta", YLabel: "P_a", LogY: true,
		Caption: "lines: Rosenblatt's binomial formula; points: the emulator's A-units (the exact finite-retina formula lies on the points)"}
	worstZ, worstBinom := 0.0, 0.0
	for pi, p := range figure4Pairs {
		line := plot.Series{Name: fmt.Sprintf("(x, y) = (%d, %d)", p[0], p[1]), Style: pi + 1}
		pts := plot.Series{Points: true, Style: pi + 1}
		for th := -p[1]; th <= p[0]; th++ {
			line.X = append(line.X, float64(th))
			line.Y = append(line.Y, ActivityBinomial(p[0], p[1], th, r))
		}
		for j, jb := range jobs {
			if jb.x != p[0] || jb.y != p[1] {
				continue
			}
			bi := ActivityBinomial(jb.x, jb.y, jb.theta, r)
			ex := ActivityExact(jb.x, jb.y, jb.theta, retina.N, k)
			m := measured[j]
			// Standard error of a fraction over units*patterns trials (an underestimate: the
			// units share the patterns).
			se := math.Sqrt(float64(ex*(1-ex)) / float64(units*patterns))
			z := 0.0
			if se > 0 {
				z = (m - ex) / se
			}
			worstZ = max(worstZ, math.Abs(z))
			worstBinom = max(worstBinom, math.Abs(bi-ex))
			table.AddRow(jb.x, jb.y, jb.theta, bi, ex, m, se, fmt.Sprintf("%+.1f", z))
			pts.X = append(pts.X, float64(jb.theta))
			pts.Y = append(pts.Y, m)
		}
		fig.Series = append(fig.Series, line, pts)
	}
	table.Note = "The emulator's board needs theta of 1 or more (a unit that fires on a blank field is refused), so the measured points start at theta = 1; the theory runs from theta = -y."
	rep.Tables = append(rep.Tables, table, cards.table)
	rep.Figures = append(rep.Figures, fig, cards.fig)
	rep.Findings = append(rep.Findings, report.Finding{
		What:   "P_a against the threshold",
		Record: "curves of P_a, the probability that an A-unit responds, for (x, y) = (10, 0), (8, 2), (6, 4), (5, 5)",
		Source: "Rosenblatt 1958, Psychological Review 65(6), figure 4",
		Measured: fmt.Sprintf("the emulator's A-units fire as often as the exact finite-retina formula says, within %.1f standard errors at every (x, y, theta); Rosenblatt's binomial formula differs from the exact one by at most %.4f at R = %g",
			worstZ, worstBinom, r),
		Value: worstZ,
		Gap: fmt.Sprintf("None in the theory: the emulator's plug-board realises the model of the paper. The small difference between the binomial and the exact values is the paper's infinite-retina approximation: on 400 cells with exactly %d lit, a unit's plugs on distinct cells are slightly anti-correlated. Real cards are not random patterns: their lit cells cluster. On the built-in letters and shapes %.1f%% of the Mark I's own (7, 4, 2) units fire on average, against %.1f%% that the theory gives at each card's lit fraction; card by card the two differ by %.1f points (root mean square), %d of %d cards above the curve (second table and figure).",
			k, float64(100*cards.measured), float64(100*cards.theory), float64(100*cards.rms), cards.above, cards.cards),
	})
	rep.Data = map[string]any{"r": r, "lit_cells": k, "units": units, "patterns": patterns, "measured": measured}
	return rep, nil
}

// cardsActivity compares the Mark I's A-units on real cards with the theory.
type cardsActivity struct {
	table *report.Table
	fig   *plot.Figure
	// measured and theory are the mean activity over all cards, and the theory's at each
	// card's own lit fraction; rms is the root mean square of the card-by-card difference.
	measured, theory, rms float64
	above, cards          int
}

// markIOnCards presents the built-in letters and shapes to the default (ideal) Mark I and
// compares each card's A-unit activity with the binomial P_a at that card's lit fraction.
func markIOnCards(s Settings) (cardsActivity, error) {
	cfg := machine.Default().Ideal()
	cfg.Seed = s.seed()
	p := cfg.MarkI
	var out cardsActivity
	out.table = &report.Table{Name: "cards-activity", Title: fmt.Sprintf("The Mark I's (%d, %d, %d) A-units on real cards", p.Exc, p.Inh, p.Theta),
		Columns: []string{"cards", "mean fraction lit", "mean activity measured", "theory at each card's R (mean)"}}
	out.fig = &plot.Figure{Name: "cards", Title: fmt.Sprintf("The Mark I's (%d, %d, %d) A-units on real cards", p.Exc, p.Inh, p.Theta), XLabel: "fraction of the retina lit (R)", YLabel: "fraction of A-units firing",
		Caption: "points: one card each; line: Rosenblatt's P_a for independent connections"}
	var allM, allT []float64
	for si, name := range []string{"letters", "letters2", "shapes"} {
		set, err := loadBuiltin(name)
		if err != nil {
			return out, err
		}
		m, err := machine.New(cfg, set.Classes)
		if err != nil {
			return out, err
		}
		deck, err := m.Prepare(set)
		if err != nil {
			return out, err
		}
		pts := plot.Series{Name: set.Name, Points: true, Style: si + 1}
		var rs, acts, theory []float64
		for i := range deck.Stimuli {
			m.Present(&deck.Stimuli[i])
			on := m.LastS().Count()
			act := 0
			for _, w := range m.LastA() {
				act += bits.OnesCount64(w)
			}
			rr := float64(on) / retina.N
			a := float64(act) / float64(m.AUnits())
			th := ActivityBinomial(p.Exc, p.Inh, p.Theta, rr)
			rs, acts, theory = append(rs, rr), append(acts, a), append(theory, th)
			pts.X, pts.Y = append(pts.X, rr), append(pts.Y, a)
			allM, allT = append(allM, a), append(allT, th)
			if a > th {
				out.above++
			}
		}
		out.table.AddRow(set.Name, mean(rs), mean(acts), mean(theory))
		out.fig.Series = append(out.fig.Series, pts)
	}
	line := plot.Series{Name: "theory", Style: 6}
	for i := 0; i <= 40; i++ {
		rr := float64(i) / 100
		line.X, line.Y = append(line.X, rr), append(line.Y, ActivityBinomial(p.Exc, p.Inh, p.Theta, rr))
	}
	out.fig.Series = append(out.fig.Series, line)
	out.cards = len(allM)
	out.measured, out.theory = mean(allM), mean(allT)
	sq := 0.0
	for i := range allM {
		d := allM[i] - allT[i]
		sq += float64(d * d)
	}
	out.rms = math.Sqrt(sq / float64(len(allM)))
	return out, nil
}
