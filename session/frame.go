package session

import (
	"math"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/patchboard"
)

// Mode is what the session is doing.
type Mode int

const (
	// Stopped: no card is shown until a command says so.
	Stopped Mode = iota
	// Training: the machine learns the experiment's cards, epoch after epoch, until an epoch
	// passes without a correction or Options.MaxEpochs epochs have passed.
	Training
	// Testing: the machine is shown every card of the experiment once, in order, without
	// learning, then the session stops.
	Testing
)

var modeNames = [...]string{"stopped", "training", "testing"}

// String returns the mode's name: "stopped", "training" or "testing".
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

// Kind says what the last presentation was.
type Kind int

const (
	// None: nothing has been shown to this machine since the session started or the
	// experiment changed.
	None Kind = iota
	// TrainCard: a card of the experiment, with learning.
	TrainCard
	// TestCard: a card of the experiment, without learning.
	TestCard
	// Shown: a picture given by Present (a visitor's drawing), without learning.
	Shown
	// Taught: the picture in the holder trained as the class Teach named (the operator forcing
	// the response).
	Taught
)

var kindNames = [...]string{"none", "train", "test", "shown", "taught"}

// String returns the kind's name.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Speed is the pace of presentations as a multiple of real time: at Speed 1 (Historical) a
// card takes the machine's presentation time of wall time (3 s by default: about 3 s a card
// is what a later, secondary account gives the original, with no primary source, so the pace
// is assumed), at Speed 10 a tenth of it; Max shows cards as fast as the processor goes.
type Speed float64

const (
	// Historical is the original machine's pace, about 3 s a card (assumed: see Speed).
	Historical Speed = 1
	// MinSpeed is the slowest pace a session accepts.
	MinSpeed Speed = 0.01
)

// Max is as fast as the processor goes (the largest Speed; +Inf means the same).
const Max Speed = math.MaxFloat64

// IsMax reports whether s is as fast as the processor goes: Max, or +Inf.
func (s Speed) IsMax() bool { return s >= Max }

// PictureSide is the side, in pixels, of Frame.Picture: the card in the holder, as the
// projector shows it (3 pixels per retina cell).
const PictureSide = 60

// MaxHistory is the number of epochs whose mistakes a Frame keeps (the latest).
const MaxHistory = 512

// Frame is a consistent picture of a session after one whole presentation: what a window
// draws, a bridge sends or a lab records. Take one with Session.Snapshot. Its slices belong to
// the Frame (Snapshot reuses them), except Classes, Codes and Board, which are shared and never
// modified: a new experiment brings new ones.
type Frame struct {
	Seq  uint64    // publication number, from 1: a larger Seq is a later frame
	Wall time.Time // time of publication, on the session's clock (the wall clock by default)

	Experiment       string            // the experiment's name ("letters")
	Classes          []string          // its class labels, in class-number order (shared)
	Codes            [][]int8          // Codes[class][r]: +1 on, -1 off, 0 neutral (shared)
	Coding           string            // machine.CodingOneHot, CodingBinary or CodingTable
	Board            *patchboard.Board // the plug-board's wiring (shared; read only)
	Rule             machine.Rule      // the reinforcement rule
	Range            float64           // the pots' end stops, +-Range increments (+Inf: none)
	PresentationTime float64           // machine time one presentation takes, s
	Cards            int               // cards in the experiment

	Mode   Mode
	Speed  Speed
	Kind   Kind // what the last presentation was
	Card   int  // the experiment's card in the holder, -1 for a picture given by Present or none
	Want   int  // the wanted class of the last presentation, -1 if unknown
	Answer int  // the machine's answer to the last presentation, -1 before the first

	// Picture is the card in the holder as the projector shows it: PictureSide x PictureSide
	// luminance values, row by row, 0 black to 255 white.
	Picture [PictureSide * PictureSide]uint8
	// Machine is the machine after the last presentation, pot readings included.
	Machine machine.Snapshot

	Epoch            int   // training epochs completed in this experiment
	EpochDone        int   // cards presented in the epoch under way (0 between epochs)
	EpochMistakes    int   // wrong answers in the epoch under way
	EpochCorrections int   // R-unit corrections in the epoch under way
	History          []int // mistakes in each completed epoch, oldest first (the latest MaxHistory)
	HistoryFirst     int   // the epoch number of History[0], from 1
	Converged        bool  // the last completed epoch made no correction

	TestDone, TestCorrect int  // the test pass under way or last completed: cards shown, right
	Tested                bool // a test pass has been made or is under way since the last training

	Problem string // the last problem the session met (a failed save, a state it could not resume), or ""

	// Rig is the hardware rig attached to the session (Options.Rig), as Snapshot found it: a
	// zero Rig without one. It is the rig's latest state, not the presentation's.
	Rig Rig
}

// copyFrame copies src into dst, reusing dst's slices.
func copyFrame(dst, src *Frame) {
	a, sums, moves, pots, hist := dst.Machine.A, dst.Machine.Sums, dst.Machine.Moves, dst.Machine.Pots, dst.History
	*dst = *src
	dst.Machine.A = append(a[:0], src.Machine.A...)
	dst.Machine.Sums = append(sums[:0], src.Machine.Sums...)
	dst.Machine.Moves = append(moves[:0], src.Machine.Moves...)
	if cap(pots) < len(src.Machine.Pots) {
		pots = append(pots[:cap(pots)], make([][]float64, len(src.Machine.Pots)-cap(pots))...)
	}
	pots = pots[:len(src.Machine.Pots)]
	for r, p := range src.Machine.Pots {
		pots[r] = append(pots[r][:0], p...)
	}
	dst.Machine.Pots = pots
	dst.History = append(hist[:0], src.History...)
}
