package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/machine"
)

// mark1 bridge's text report fits 80 columns, names each read-back's weight (the bias among
// them) and calls the closed loop's re-writes re-drives: "corrections" are the machine's
// (issue 26).
func TestBridgeReportFits80Columns(t *testing.T) {
	readBack := func(r, n int, scale float64) [][]float64 {
		ws := make([][]float64, r)
		for i := range ws {
			ws[i] = make([]float64, n)
			for a := range ws[i] {
				ws[i][a] = scale * float64(a-n/2) / 3
			}
		}
		return ws
	}
	long := "the rig did not follow: R0.A3 reads +1.25, the machine drove it to +3.00 (allowed 1.10) for 15s: is the rig halted, a chip faulty, a pot stuck? (hwbridge's log, GET /v1/status)"
	for _, tc := range []struct {
		name string
		rep  bridgeReport
		want []string
	}{
		{"loop", bridgeReport{Mode: "loop", Train: &machine.Result{Accuracy: 1, Correct: 60, Cards: 60},
			Frames:   hwapi.FrameStats{WriteFrames: 123456, TotalWriteBytes: 98765432, LastFrameBytes: 14, MaxFrameBytes: 36, Reads: 1234567, Corrections: 1},
			ReadBack: readBack(1, 16, 1), Targets: readBack(1, 16, 3)},
			[]string{"rig: 1234567 read-backs, 1 re-drive (a pot read back off its target", "R0 read back: A0 ", "  bias ", "(-7)"}},
		{"loop, fractional targets, two R-units, a rig error", bridgeReport{Mode: "loop", ReadBack: readBack(2, 33, 3), Targets: readBack(2, 33, 0.1),
			RigStopped: true, RigError: long, Faulty: []string{"pots1: " + long}},
			[]string{"R1 read back: A0 ", "(-0.5333)", "rig error, training stopped: the rig did not follow"}},
		{"loop without targets", bridgeReport{Mode: "loop", ReadBack: readBack(1, 16, 10)},
			[]string{"R0 read back: A0   -26.67", "bias +23.33"}},
		{"mirror", bridgeReport{Mode: "mirror", Mirror: &hwapi.MirrorStats{Frames: 123456, Weights: 1234567, MeanLatency: 0.5, MaxLatency: 1.25},
			Frames: hwapi.FrameStats{WriteFrames: 5, TotalWriteBytes: 135, Reads: 80}},
			[]string{"mirror: 123456 frames, 1234567 weight values sent, at most 20 frames a second", "  latency to the bridge's write: mean 0.50, most 1.25"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			printBridgeReport(&b, tc.rep, hwapi.Info{UpdateHz: 20})
			out := b.String()
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if n := utf8.RuneCountInString(l); n > 80 {
					t.Errorf("a line of %d columns: %q", n, l)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in\n%s", w, out)
				}
			}
			if strings.Contains(out, "correction") {
				t.Errorf("the rig's lines speak of corrections (the machine's word):\n%s", out)
			}
			// Each read-back is labelled: as many labels as weights, the bias last.
			for r, ws := range tc.rep.ReadBack {
				if n := strings.Count(out, " bias "); n < 1 {
					t.Errorf("R%d: no bias labelled\n%s", r, out)
				}
				if !strings.Contains(out, " A"+strconv.Itoa(len(ws)-2)+" ") {
					t.Errorf("R%d: no A%d\n%s", r, len(ws)-2, out)
				}
			}
		})
	}
}
