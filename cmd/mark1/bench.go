package main

import (
	"fmt"
	"io"
	"time"

	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
)

// benchResult is one machine's speed in "mark1 bench --json".
type benchResult struct {
	Presentations int     `json:"presentations"`
	Seconds       float64 `json:"seconds"`
	PerSecond     float64 `json:"presentations_per_s"`
	Corrections   int     `json:"corrections"`
}

// benchReport is the JSON output of "mark1 bench --json".
type benchReport struct {
	Data   string      `json:"data"`
	SUnits int         `json:"s_units"`
	AUnits int         `json:"a_units"`
	RUnits int         `json:"r_units"`
	Rule   string      `json:"rule"`
	Ideal  benchResult `json:"ideal"`
	Analog benchResult `json:"analog"`
}

// benchCodes gives every class of k a distinct 8-bit code, so that all eight R-units are
// trained (37 is odd, so c*37 mod 256 is distinct for c < 256).
func benchCodes(k, r int) [][]int8 {
	codes := make([][]int8, k)
	for c := range codes {
		v := (c*37 + 11) & 255
		codes[c] = make([]int8, r)
		for u := range r {
			codes[c][u] = -1
			if v>>(u%8)&1 == 1 {
				codes[c][u] = 1
			}
		}
	}
	return codes
}

func cmdBench(args []string, stdout, _ io.Writer) error {
	fs := newFlags("bench", "[--json] [--seconds S]", stdout)
	jsonOut := fs.Bool("json", false, "print JSON instead of text")
	secs := fs.Float64("seconds", 2, "wall time to spend on each machine")
	if err := fs.parse(args); err != nil {
		return err
	}
	if !(*secs > 0) || *secs > 3600 {
		return usageErr(fmt.Sprintf("--seconds %v: want more than 0 and at most 3600", *secs))
	}
	const data = "builtin:letters"
	set, err := builtin.Load("letters")
	if err != nil {
		return err
	}
	rep := benchReport{Data: data, SUnits: 400, Rule: "alpha"}
	for _, ideal := range []bool{true, false} {
		cfg := machine.Default()
		cfg.Coding, cfg.Codes = machine.CodingTable, benchCodes(len(set.Classes), cfg.RUnits)
		if ideal {
			cfg = cfg.Ideal()
		}
		m, err := machine.New(cfg, set.Classes)
		if err != nil {
			return err
		}
		deck, err := m.Prepare(set)
		if err != nil {
			return err
		}
		rep.AUnits, rep.RUnits = m.AUnits(), m.RUnits()
		var res benchResult
		start := time.Now()
		budget := time.Duration(*secs * float64(time.Second))
		for time.Since(start) < budget {
			st := m.Epoch(deck, nil)
			res.Presentations += st.Cards
			res.Corrections += st.Corrections
		}
		res.Seconds = time.Since(start).Seconds()
		res.PerSecond = float64(res.Presentations) / res.Seconds
		if ideal {
			rep.Ideal = res
		} else {
			rep.Analog = res
		}
	}
	if *jsonOut {
		return writeJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "full-size machine: %d S-units, %d A-units, %d R-units, alpha rule, training on %s\n", rep.SUnits, rep.AUnits, rep.RUnits, data)
	fmt.Fprintf(stdout, "  ideal:  %10.0f presentations/s (%d in %.2f s, %d corrections)\n", rep.Ideal.PerSecond, rep.Ideal.Presentations, rep.Ideal.Seconds, rep.Ideal.Corrections)
	fmt.Fprintf(stdout, "  analog: %10.0f presentations/s (%d in %.2f s, %d corrections)\n", rep.Analog.PerSecond, rep.Analog.Presentations, rep.Analog.Seconds, rep.Analog.Corrections)
	return nil
}
