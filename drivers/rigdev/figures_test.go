package rigdev

import (
	"context"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/hwapi"
	"github.com/mark1-perceptron/mark1/images/builtin"
	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/rig"
)

type sink struct {
	h      *Hardware
	frames []int // weights per frame
	bytes  []int // bytes written per frame
}

func (s *sink) Frame(_ context.Context, f hwapi.Frame) (hwapi.FrameReply, error) {
	before := s.h.Status().Stats.TotalWriteBytes
	ws := make([]WeightValue, len(f.Weights))
	for i, w := range f.Weights {
		ws[i] = WeightValue{rig.Weight{R: w.R, A: w.A}, w.W}
	}
	n := s.h.SetWeights(ws)
	s.frames = append(s.frames, n)
	s.bytes = append(s.bytes, int(s.h.Status().Stats.TotalWriteBytes-before))
	return hwapi.FrameReply{Applied: n}, nil
}

func (s *sink) Heartbeat(context.Context) (hwapi.Ack, error) { return hwapi.Ack{}, nil }

// The full machine learning the letters, mirrored on the simulated rig's 24 knobs: what each
// update frame costs on the bus, against periph's SetPwm (a transaction of 6 bytes per
// channel). Each board's frame is the least its protocol allows (pca9685's
// TestFramesCostTheProtocolMinimum); this measures a real run.
func TestFigureMirrorFrames(t *testing.T) {
	t.Parallel()
	h, _, clk, _ := open(t, "sim-mirror.toml", SimOpts{Seed: 1})
	set, err := builtin.Load("letters")
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.New(machine.Default(), set.Classes)
	if err != nil {
		t.Fatal(err)
	}
	deck, err := m.Prepare(set)
	if err != nil {
		t.Fatal(err)
	}
	var pots []hwapi.PotInfo
	for _, p := range h.Rig().Pots {
		pots = append(pots, hwapi.PotInfo{R: p.Weight.R, A: p.Weight.A, Range: p.Range})
	}
	mi := hwapi.NewMirror(m, pots, h.Rig().Period())
	m.Observe(mi)
	s := &sink{h: h}
	start := h.Status().Stats
	mi.Sync()
	// One presentation per simulated millisecond; the mirror's policy decides when frames go.
	m.Epoch(deck, func(int) bool {
		clk.Advance(time.Millisecond)
		h.Step()
		if f, ok, _ := mi.Pump(clk.Now()); ok {
			if _, err := s.Frame(context.Background(), f); err != nil {
				t.Fatal(err)
			}
		}
		return true
	})
	end := h.Status().Stats
	weights := 0
	for _, n := range s.frames {
		weights += n
	}
	if len(s.frames) < 5 {
		t.Fatalf("%d frames", len(s.frames))
	}
	// Every byte written in the run: the frames' own, the moves the slewing limit deferred to
	// later frames, and the closed loop's corrections.
	total := end.TotalWriteBytes - start.TotalWriteBytes
	frames := end.WriteFrames - start.WriteFrames
	t.Logf("%d presentations; the mirror sent %d frames with %d knob moves; the rig wrote %d bytes in %d writing frames: %.1f bytes per frame, %.2f per knob move (periph SetPwm: 6 per channel)",
		deck.Len(), len(s.frames), weights, total, frames, float64(total)/float64(frames), float64(total)/float64(weights))
	// docs/rig.md quotes this run (simulated clock and chips, seeded: the same every time).
	if len(s.frames) != 13 || weights != 223 || total != 471 || frames != 70 {
		t.Errorf("%d frames, %d knob moves, %d bytes in %d writing frames; docs/rig.md says 13, 223, 471 in 70", len(s.frames), weights, total, frames)
	}
	if float64(total)/float64(weights) >= 6 {
		t.Errorf("%.2f bytes per knob move: no better than one SetPwm per channel", float64(total)/float64(weights))
	}
}

// In the loop: the bytes a correction writes (the closed loop's reads apart).
func TestFigureLoopFrames(t *testing.T) {
	h, _, _, _ := open(t, "sim-loop.toml", SimOpts{Seed: 1})
	racks, err := h.LoopRacks()
	if err != nil {
		t.Fatal(err)
	}
	before := h.Status().Stats
	if err := racks[0].Drive([]uint16{0, 1, 5, 6, 9, 14}, 1, 0); err != nil {
		t.Fatal(err)
	}
	after := h.Status().Stats
	// 7 pots (6 and the bias) on 4 chips, each +1 increment = +4 wiper steps: a 16-bit write
	// each, one transaction per chip: 4 address bytes + 7*2.
	if got := after.TotalWriteBytes - before.TotalWriteBytes; got != 4+14 {
		t.Errorf("a correction of 7 pots wrote %d bytes, want 18", got)
	}
	t.Logf("a correction of 7 pots on 4 chips: %d bytes written (4 address bytes and 2 per wiper: the least the protocol allows), %d read-backs",
		after.TotalWriteBytes-before.TotalWriteBytes, after.Reads-before.Reads)
}
