package view

import (
	"math"
	"strconv"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
)

// Caption returns the caption the screen shows for f: what is happening now, in plain words.
func Caption(f *session.Frame) string { return string(appendCaption(nil, f)) }

// class appends how the captions name class c ("the letter E").
func appendClass(b []byte, f *session.Frame, c int) []byte {
	if c < 0 || c >= len(f.Classes) {
		return append(b, "an unknown class"...)
	}
	b = append(b, experimentOf(f.Experiment).Prefix...)
	return append(b, f.Classes[c]...)
}

func appendLabel(b []byte, f *session.Frame, c int) []byte {
	if c < 0 || c >= len(f.Classes) {
		return append(b, '?')
	}
	return append(b, f.Classes[c]...)
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendMotors appends "the motors of 3 racks turn the weights of the 61 lit A-units toward E".
func appendMotors(b []byte, f *session.Frame, toward int, capital bool) []byte {
	n := len(f.Machine.Moves)
	if capital {
		b = append(b, "The motors "...)
	} else {
		b = append(b, "the motors "...)
	}
	if n > 1 {
		b = append(b, "of "...)
		b = appendInt(b, n)
		b = append(b, " racks "...)
	}
	b = append(b, "turn the weights of the "...)
	b = appendInt(b, f.Machine.Active)
	b = append(b, " lit A-units toward "...)
	return appendLabel(b, f, toward)
}

// appendCaption appends the caption for f.
func appendCaption(b []byte, f *session.Frame) []byte {
	exp := experimentOf(f.Experiment)
	switch {
	case f.Kind == session.None && f.Mode == session.Training:
		b = append(b, "Training begins: the first card goes into the holder, and the lamps light its picture onto the 400 photocells."...)
		return b
	case f.Kind == session.None:
		b = append(b, "This is the Mark I Perceptron, a machine that learns to recognise pictures, first shown in 1960. Press TRAIN to watch it learn "...)
		b = append(b, exp.Title...)
		b = append(b, ", or draw "...)
		b = append(b, exp.Draw...)
		return append(b, " on the retina with your finger."...)
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && f.Answer != f.Want:
		// Stopped between epochs on a card answered wrongly: a stop that cut an epoch short
		// (the session counts only whole epochs), perhaps after one that had no mistake. The
		// caption says what the lamp shows, not what the last whole epoch did.
		b = append(b, "Stopped after "...)
		b = appendInt(b, f.Epoch)
		b = append(b, " epochs, on "...)
		b = appendClass(b, f, f.Want)
		b = append(b, ": the machine answered "...)
		b = appendLabel(b, f, f.Answer)
		b = append(b, "; it should be "...)
		b = appendLabel(b, f, f.Want)
		b = append(b, ". "...)
		if len(f.Machine.Moves) > 0 {
			b = appendMotors(b, f, f.Want, true)
			b = append(b, ". "...)
		}
		return append(b, "Press TRAIN to go on."...)
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && f.Converged:
		b = append(b, "Learned! A whole pass through the "...)
		b = appendInt(b, f.Cards)
		b = append(b, " cards without a mistake, after "...)
		b = appendInt(b, f.Epoch)
		b = append(b, " epochs. Draw "...)
		b = append(b, exp.Draw...)
		return append(b, " on the retina to see what it answers, or press TEST."...)
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && len(f.History) > 0:
		b = append(b, "Stopped after "...)
		b = appendInt(b, f.Epoch)
		b = append(b, " epochs. The last full pass made "...)
		b = appendInt(b, f.History[len(f.History)-1])
		b = append(b, " mistakes in "...)
		b = appendInt(b, f.Cards)
		return append(b, " cards. Press TRAIN to go on."...)
	case f.Kind == session.TrainCard:
		b = append(b, "Card "...)
		b = appendInt(b, f.EpochDone)
		b = append(b, " of "...)
		b = appendInt(b, f.Cards)
		b = append(b, ": "...)
		b = appendClass(b, f, f.Want)
		b = append(b, ". The machine answered "...)
		b = appendLabel(b, f, f.Answer)
		if f.Answer == f.Want {
			if len(f.Machine.Moves) > 0 {
				b = append(b, ": right. Forced learning: "...)
				b = appendMotors(b, f, f.Want, false)
				return append(b, " all the same."...)
			}
			return append(b, ": right, so nothing changes."...)
		}
		b = append(b, "; it should be "...)
		b = appendLabel(b, f, f.Want)
		b = append(b, ". "...)
		b = appendMotors(b, f, f.Want, true)
		return append(b, '.')
	case f.Kind == session.TestCard && f.Mode == session.Stopped && f.TestDone == f.Cards:
		b = append(b, "Test finished: "...)
		b = appendInt(b, f.TestCorrect)
		b = append(b, " of "...)
		b = appendInt(b, f.TestDone)
		b = append(b, " cards right ("...)
		b = strconv.AppendFloat(b, 100*float64(f.TestCorrect)/float64(max(1, f.TestDone)), 'f', 1, 64)
		return append(b, "%). Nothing was learned during the test."...)
	case f.Kind == session.TestCard:
		b = append(b, "Test, card "...)
		b = appendInt(b, f.TestDone)
		b = append(b, " of "...)
		b = appendInt(b, f.Cards)
		b = append(b, ": "...)
		b = appendClass(b, f, f.Want)
		b = append(b, ". It answered "...)
		b = appendLabel(b, f, f.Answer)
		if f.Answer == f.Want {
			b = append(b, ": right. "...)
		} else {
			b = append(b, ": wrong. "...)
		}
		b = appendInt(b, f.TestCorrect)
		b = append(b, " of "...)
		b = appendInt(b, f.TestDone)
		return append(b, " right so far; in a test nothing is learned."...)
	case f.Kind == session.Shown:
		b = append(b, "Your drawing: "...)
		b = appendInt(b, f.Machine.S.Count())
		b = append(b, " of the 400 photocells see it and "...)
		b = appendInt(b, f.Machine.Active)
		b = append(b, " of the 512 A-units fire. The machine answers "...)
		b = appendLabel(b, f, f.Answer)
		return append(b, ". If that is wrong, press the right answer below to teach it."...)
	case f.Kind == session.Taught:
		b = append(b, "You taught it "...)
		b = appendLabel(b, f, f.Want)
		if f.Answer != f.Want {
			b = append(b, ". It had answered "...)
			b = appendLabel(b, f, f.Answer)
			b = append(b, ", so "...)
			b = appendMotors(b, f, f.Want, false)
			return append(b, ". Press again to teach it more."...)
		}
		if len(f.Machine.Moves) > 0 {
			b = append(b, ". It already answered "...)
			b = appendLabel(b, f, f.Want)
			b = append(b, "; "...)
			b = appendMotors(b, f, f.Want, false)
			return append(b, " to make it surer."...)
		}
		b = append(b, ". It already answered "...)
		b = appendLabel(b, f, f.Want)
		return append(b, ", and error correction changes nothing when the answer is right."...)
	}
	return b
}

// appendDescription appends what part p is, for the visitor who points at it.
func appendDescription(b []byte, p Part, f *session.Frame, ui *UI, sc *Scene) []byte {
	switch p.Kind {
	case PartTitle:
		return append(b, "The Mark I Perceptron, Frank Rosenblatt's machine, built at the Cornell Aeronautical Laboratory and first shown in 1960: the first machine to learn to recognise pictures by itself. (In 1958 his perceptron ran as a program on an IBM 704 computer.) The original is in the Smithsonian's National Museum of American History."...)
	case PartCaption:
		return append(b, "What the machine is doing now, in plain words."...)
	case PartCard:
		return append(b, "The card in the holder. Strong lamps lit it and a lens focused its picture onto the retina of photocells."...)
	case PartAnswer:
		return append(b, "The machine's answer, read from its R-unit lamps, beside the answer the card should get. A right answer lights green, a wrong one red."...)
	case PartCell:
		if p.Index < 0 || p.Index >= retina.N {
			return append(b, "The retina: 400 cadmium-sulphide photocells in a 20 by 20 grid. Draw on it with your finger to show the machine your own picture."...)
		}
		b = append(b, "Photocell "...)
		b = appendInt(b, p.Index+1)
		b = append(b, " (row "...)
		b = appendInt(b, p.Index/retina.Cols+1)
		b = append(b, ", column "...)
		b = appendInt(b, p.Index%retina.Cols+1)
		b = append(b, "): its resistance falls in light. Level now "...)
		b = strconv.AppendFloat(b, float64(f.Machine.Levels[p.Index]), 'f', 2, 32)
		b = append(b, " of white paper; its S-unit is "...)
		if f.Machine.S.Get(p.Index) {
			b = append(b, "ON (lamp lit): it sees the figure."...)
		} else {
			b = append(b, "off: it sees the paper."...)
		}
		b = append(b, " Its wire goes to "...)
		b = appendInt(b, int(sc.fed[p.Index]))
		return append(b, " A-units. Draw on the retina with your finger."...)
	case PartLamp:
		if p.Index < 0 || f.Board == nil || p.Index >= f.Board.Len() {
			return append(b, "512 association units (A-units). Each adds up a few photocells wired to it at random, some excitatory (red), some inhibitory (blue), and lights when the sum reaches its threshold. Tap a lamp to see its wiring."...)
		}
		u := &f.Board.Units[p.Index]
		b = append(b, "A-unit "...)
		b = appendInt(b, p.Index) // from 0, as the rig's pots (R0.A17), train and features number them
		b = append(b, ": "...)
		b = appendInt(b, len(u.Exc))
		b = append(b, " excitatory and "...)
		b = appendInt(b, len(u.Inh))
		b = append(b, " inhibitory plugs, threshold "...)
		b = appendInt(b, u.Theta)
		if p.Index/64 < len(f.Machine.A) && f.Machine.A[p.Index/64]>>(p.Index%64)&1 == 1 {
			b = append(b, ". Firing now."...)
		} else {
			b = append(b, ". Resting now."...)
		}
		return append(b, " Tap to show its wiring."...)
	case PartUnit, PartUnitPrev, PartUnitNext:
		return append(b, "The plug-board: each A-unit's wires, plugged by hand from a table of random numbers. Red wires excite it, blue ones hold it back. The arrows show the next or previous A-unit."...)
	case PartRLamp:
		if p.Index < 0 || p.Index >= len(f.Machine.Sums) {
			return append(b, "The 8 response units (R-units). Each adds up the weights of the firing A-units and lights when the sum is above zero. Together they spell the answer in a code."...)
		}
		b = append(b, "R-unit R"...)
		b = appendInt(b, p.Index)
		if sc.unused[p.Index] {
			return append(b, ": not needed for this experiment."...)
		}
		b = append(b, ": the weights of the firing A-units add up to "...)
		b = strconv.AppendFloat(b, f.Machine.Sums[p.Index], 'f', 1, 64)
		if f.Machine.Sums[p.Index] > 0 {
			return append(b, ", above zero: its lamp is lit."...)
		}
		return append(b, ", not above zero: its lamp is dark."...)
	case PartHeat:
		b = append(b, "What R-unit "...)
		if p.Index >= 0 {
			b = append(b, 'R')
			b = appendInt(b, p.Index)
		} else {
			b = append(b, 'N')
		}
		return append(b, " has learned: each photocell coloured by the weights its A-units carry to it. Red cells push it on, blue ones off. It changes as the machine learns."...)
	case PartRack:
		b = append(b, "A rack of 513 potentiometers: the weights of one R-unit, one per A-unit and a bias. Electric motors turn them when the machine learns; they glow amber while they turn. "...)
		if sc.zoom >= 0 {
			return append(b, "Tap CLOSE to go back."...)
		}
		return append(b, "Tap a rack to look closer."...)
	case PartDial:
		if p.Index < 0 || p.Index >= len(f.Machine.Pots) || p.Sub < 0 || p.Sub >= len(f.Machine.Pots[p.Index]) {
			return b
		}
		n := len(f.Machine.Pots[p.Index])
		if p.Sub == n-1 {
			b = append(b, "The bias potentiometer of R-unit R"...)
		} else {
			b = append(b, "The weight of A-unit "...)
			b = appendInt(b, p.Sub) // pot R2.A40 is A-unit 40 into R-unit R2
			b = append(b, " into R-unit R"...)
		}
		b = appendInt(b, p.Index)
		b = append(b, ": "...)
		v := f.Machine.Pots[p.Index][p.Sub]
		if v > 0 {
			b = append(b, '+')
		}
		b = strconv.AppendFloat(b, v, 'f', 1, 64)
		b = append(b, " steps"...)
		if !math.IsInf(f.Range, 1) {
			b = append(b, "; the end stops are at ±"...)
			b = strconv.AppendFloat(b, f.Range, 'f', -1, 64)
		}
		return append(b, ". A motor turns it one step for each correction."...)
	case PartZoomClose:
		return append(b, "Back to all eight racks."...)
	case PartButton:
		switch Button(p.Index) {
		case ButtonTrain:
			return append(b, "TRAIN: show the cards one by one. When the machine answers wrongly, its motors turn the weights toward the right answer (error correction)."...)
		case ButtonTest:
			return append(b, "TEST: show every card once without learning, and count the right answers."...)
		case ButtonStop:
			return append(b, "STOP: stop after the card in the holder."...)
		case ButtonReset:
			return append(b, "RESET: turn every weight back to zero: the machine forgets everything it has learned."...)
		}
	case PartRule:
		if p.Index == int(machine.Forced) {
			return append(b, "FORCED learning: the teacher drives the right answer on every card, right or wrong."...)
		}
		return append(b, "ERROR CORRECTION: the weights move only when the machine answers wrongly, toward the right answer. Rosenblatt's alpha rule."...)
	case PartSpeed:
		return append(b, "How fast the cards come. 1× is about 3 seconds a card: an assumed pace for the original (a later account gives it; the 1960 papers we know do not), slow enough to watch the motors turn. MAX is as fast as this computer goes."...)
	case PartExperiment:
		if p.Index >= 0 && p.Index < len(Experiments) {
			return append(b, Experiments[p.Index].About...)
		}
	case PartClass:
		if !ui.HaveDrawing {
			return append(b, "Draw a figure on the retina first; then press the right answer to teach it."...)
		}
		b = append(b, "Teach the machine that your drawing is "...)
		b = appendClass(b, f, p.Index)
		return append(b, '.')
	case PartClear:
		return append(b, "Wipe your drawing off the retina."...)
	case PartCurve:
		return append(b, "The mistakes in each pass through all the cards (an epoch). As the machine learns, the bars shrink; green means a pass without a mistake."...)
	}
	return b
}
