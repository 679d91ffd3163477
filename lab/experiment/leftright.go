package experiment

import (
	"context"
	"fmt"

	"github.com/mark1-perceptron/mark1/lab"
	"github.com/mark1-perceptron/mark1/lab/plot"
	"github.com/mark1-perceptron/mark1/lab/report"
	"github.com/mark1-perceptron/mark1/machine"
)

// leftRightRun is one machine taught card by card.
type leftRightRun struct {
	// Correct holds the test cards right after each trial (for the analog machine, whose
	// evaluation needs a copy of it, after each trial up to 20 and every 5th after; the
	// trials between repeat the last count).
	Correct     []int `json:"correct_of_100"`
	LastMistake int   `json:"last_mistake"` // the trial of the last wrong answer while training
}

// LeftRight reproduces the 1958 IBM 704 simulation: a square marked on the left or the right
// of a card, learned after about 50 trials, 97 of 100 right after 30 to 40 training squares
// (Cornell Chronicle; New York Times, 13 July 1958).
func LeftRight(ctx context.Context, s Settings) (*report.Report, error) {
	return timed(func() (*report.Report, error) { return leftRight(ctx, s) })
}

func leftRight(ctx context.Context, s Settings) (*report.Report, error) {
	const trials, nTest = 100, 100
	seeds := s.seeds(10, 3)
	conds := []bool{true, false} // ideal (a digital simulation), analog
	prog := newProgress(s.Progress, len(conds)*seeds)
	runs, err := lab.Parallel(ctx, len(conds)*seeds, s.Workers, func(int) { prog.add(1) }, func(ctx context.Context, j int) (leftRightRun, error) {
		ideal, seed := conds[j/seeds], s.seed()+uint64(j%seeds)
		train, err := genSet(fmt.Sprintf("leftright,n=%d,seed=%d", trials, seed))
		if err != nil {
			return leftRightRun{}, err
		}
		test, err := genSet(fmt.Sprintf("leftright,n=%d,seed=%d", nTest, seed+1000))
		if err != nil {
			return leftRightRun{}, err
		}
		cfg := machine.Default()
		cfg.Seed = seed
		if ideal {
			cfg = cfg.Ideal()
		}
		m, err := machine.New(cfg, train.Classes)
		if err != nil {
			return leftRightRun{}, err
		}
		deck, err := m.Prepare(train)
		if err != nil {
			return leftRightRun{}, err
		}
		td, err := m.Prepare(test)
		if err != nil {
			return leftRightRun{}, err
		}
		var run leftRightRun
		for t := range trials {
			if ctx.Err() != nil {
				return run, ctx.Err()
			}
			if got, _ := m.Train(&deck.Stimuli[t], deck.Class[t]); got != deck.Class[t] {
				run.LastMistake = t + 1
			}
			if !ideal && t+1 > 20 && (t+1)%5 != 0 {
				run.Correct = append(run.Correct, run.Correct[t-1])
				continue
			}
			res, err := lab.Evaluate(m, td)
			if err != nil {
				return run, err
			}
			run.Correct = append(run.Correct, res[0].Correct)
		}
		return run, m.Err()
	})
	if err != nil {
		return nil, err
	}
	r := &report.Report{Name: "leftright", Title: "Cards marked left or right (the IBM 704 simulation, 1958)"}
	r.Summary = "A square on the left or the right half of a card. The emulator shows a Mark I one new card at a time (a trial), correcting it when it errs, and after every trial tests a copy of it on 100 other cards."
	r.Condition("machine", describeMachine(machine.Default())+"; and the same machine ideal, as the 1958 simulation on a digital computer was")
	r.Condition("cards", fmt.Sprintf("gen:leftright: a solid square, side 13 to 21 px, anywhere in its half; %d training cards, each shown once, and %d test cards (seed SEED+1000)", trials, nTest))
	r.Condition("machines per condition", perCondition(seeds, s.seed(), ""))
	table := &report.Table{Name: "leftright", Title: "Test cards right (of 100) after so many training trials",
		Columns: []string{"machine", "after 10", "after 30", "after 40", "after 50", "after 100", "first trial with >= 97 right", "last training mistake at trial"}}
	fig := &plot.Figure{Name: "trials", Title: "Left or right: test cards right after each trial" + medianOf(seeds, " (median)"), XLabel: "training trials", YLabel: "right of 100 test cards", YMin: 40, YMax: 101,
		Caption: medianOf(seeds, "median over the machines; ") + "the dashed line is the record's 97 of 100"}
	var at30, at40, reach, learned [2][]float64
	for ci, ideal := range conds {
		rs := runs[ci*seeds : (ci+1)*seeds]
		name := "analog"
		if ideal {
			name = "ideal"
		}
		after := func(t int) []float64 {
			return collect(rs, func(r leftRightRun) float64 { return float64(r.Correct[t-1]) })
		}
		for _, run := range rs {
			first := inf
			for t, c := range run.Correct {
				if c >= 97 {
					first = float64(t + 1)
					break
				}
			}
			reach[ci] = append(reach[ci], first)
			learned[ci] = append(learned[ci], float64(run.LastMistake))
		}
		at30[ci], at40[ci] = after(30), after(40)
		table.AddRow(name, count(after(10)), count(after(30)), count(after(40)), count(after(50)), count(after(100)), count(reach[ci]), count(learned[ci]))
		s := plot.Series{Name: name, Dashed: !ideal}
		for t := 1; t <= trials; t++ {
			s.X = append(s.X, float64(t))
			s.Y = append(s.Y, median(after(t)))
		}
		fig.Series = append(fig.Series, s)
	}
	fig.Series = append(fig.Series, plot.Series{Name: "97 of 100", X: []float64{1, trials}, Y: []float64{97, 97}, Reference: true})
	table.Note = mediansNote(seeds, "machine") + " The analog machine is tested (on a copy) after every trial up to 20, then after every 5th."
	r.Tables = append(r.Tables, table)
	r.Figures = append(r.Figures, fig)
	m30, m40 := median(at30[0]), median(at40[0])
	gap := fmt.Sprintf("The ideal machine (a digital simulation, as the 1958 one was) has %.0f and %.0f of 100 right after 30 and 40 trials, ", m30, m40)
	switch {
	case m30 >= 97 && m40 >= 97:
		gap += "at or above the record's 97: it learns at least as fast as reported."
	case m40 >= 97:
		gap += "reaching the record's 97 by 40 trials as reported."
	default:
		gap += "short of the record's 97."
	}
	ml := median(learned[0])
	when := "close to"
	switch {
	case ml < 40:
		when = "earlier than"
	case ml > 60:
		when = "later than"
	}
	gap += fmt.Sprintf(" Its last training mistake comes at trial %s%s, %s the record's \"about 50\"; the record gives neither the simulated machine's size nor how the squares varied, so the emulator's squares (13 to 21 px, anywhere in their half) stand in for cards it does not describe. The analog machine does about as well (%s right after 40 trials).", count(learned[0]), medianOf(seeds, " (median)"), when, count(at40[1]))
	r.Findings = append(r.Findings, report.Finding{
		What: "left or right", Record: "learned after about 50 trials; 97 of 100 right after 30 to 40 training squares", Source: "Cornell Chronicle; New York Times, 13 July 1958",
		Measured: fmt.Sprintf("ideal: %s of 100 right after 30 trials, %s after 40; last training mistake at trial %s", count(at30[0]), count(at40[0]), count(learned[0])),
		Value:    m40, Gap: gap,
	})
	r.Data = map[string]any{"ideal": runs[:seeds], "analog": runs[seeds:], "seeds": seeds}
	return r, nil
}
