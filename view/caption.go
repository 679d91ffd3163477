package view

import (
	"math"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/retina"
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Caption returns the caption the screen shows for f in English: what is happening now, in
// plain words.
func Caption(f *session.Frame) string { return CaptionIn(i18n.English, f) }

// CaptionIn returns the caption the screen shows for f in lang.
func CaptionIn(lang i18n.Lang, f *session.Frame) string {
	var w words
	return string(w.caption(nil, lang, f))
}

// words holds the pieces a sentence is built from (a class's phrase, labels, the motors'
// clause), kept from frame to frame so that building the captions does not allocate.
type words struct {
	class, answer, want, motors, pot []byte
}

// appendLabel appends how the screen labels class c of f's experiment: a letter as it is, a
// word (a shape) in lang; "?" for no class.
func appendLabel(b []byte, lang i18n.Lang, f *session.Frame, c int) []byte {
	if c < 0 || c >= len(f.Classes) {
		return append(b, '?')
	}
	if t, ok := classTexts[classKey{f.Experiment, f.Classes[c]}]; ok {
		return lang.Append(b, t.label)
	}
	return append(b, f.Classes[c]...)
}

// appendClass appends how the captions name class c as the subject of a sentence: "the
// letter E", "a square".
func appendClass(b []byte, lang i18n.Lang, f *session.Frame, c int) []byte {
	if c < 0 || c >= len(f.Classes) {
		return lang.Append(b, i18n.UnknownClass)
	}
	if t, ok := classTexts[classKey{f.Experiment, f.Classes[c]}]; ok {
		return lang.Append(b, t.phrase)
	}
	if experimentOf(f.Experiment).Letters {
		return lang.Append(b, i18n.ClassLetter, i18n.Str(f.Classes[c]))
	}
	return append(b, f.Classes[c]...)
}

// motors writes w.motors: "the motors of 3 racks turn the weights of the 61 lit A-units
// toward E", as a sentence (without its full stop) or a clause.
func (w *words) motorsOf(lang i18n.Lang, f *session.Frame, toward int, sentence bool) i18n.Arg {
	w.want = appendLabel(w.want[:0], lang, f, toward)
	m := i18n.MotorsClause
	if sentence {
		m = i18n.MotorsSentence
	}
	w.motors = lang.Append(w.motors[:0], m, i18n.Int(max(1, len(f.Machine.Moves))), i18n.Int(f.Machine.Active), i18n.Bytes(w.want))
	return i18n.Bytes(w.motors)
}

// caption appends the caption for f in lang.
func (w *words) caption(b []byte, lang i18n.Lang, f *session.Frame) []byte {
	exp := experimentOf(f.Experiment)
	class := func(c int) i18n.Arg {
		w.class = appendClass(w.class[:0], lang, f, c)
		return i18n.Bytes(w.class)
	}
	answer := func() i18n.Arg {
		w.answer = appendLabel(w.answer[:0], lang, f, f.Answer)
		return i18n.Bytes(w.answer)
	}
	want := func() i18n.Arg {
		w.want = appendLabel(w.want[:0], lang, f, f.Want)
		return i18n.Bytes(w.want)
	}
	title := func() i18n.Arg {
		w.class = appendTitle(w.class[:0], lang, f)
		return i18n.Bytes(w.class)
	}
	draw := func() i18n.Arg {
		w.pot = lang.Append(w.pot[:0], exp.DrawMsg)
		return i18n.Bytes(w.pot)
	}
	I := i18n.Int
	switch {
	case f.Kind == session.None && f.Mode == session.Training:
		return lang.Append(b, i18n.CapTrainingBegins)
	case f.Kind == session.None:
		return lang.Append(b, i18n.CapWelcome, title(), draw())
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && f.Answer != f.Want:
		// Stopped between epochs on a card answered wrongly: a stop that cut an epoch short
		// (the session counts only whole epochs), perhaps after one that had no mistake. The
		// caption says what the lamp shows, not what the last whole epoch did.
		if len(f.Machine.Moves) > 0 {
			a, c := answer(), class(f.Want)
			m := w.motorsOf(lang, f, f.Want, true) // w.want holds the wanted label
			return lang.Append(b, i18n.CapStoppedWrongMoved, I(f.Epoch), c, a, i18n.Bytes(w.want), m)
		}
		return lang.Append(b, i18n.CapStoppedWrong, I(f.Epoch), class(f.Want), answer(), want())
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && f.Converged:
		return lang.Append(b, i18n.CapLearned, I(f.Cards), I(f.Epoch), draw())
	case f.Kind == session.TrainCard && f.Mode == session.Stopped && f.EpochDone == 0 && f.Epoch > 0 && len(f.History) > 0:
		return lang.Append(b, i18n.CapStopped, I(f.Epoch), I(f.History[len(f.History)-1]), I(f.Cards))
	case f.Kind == session.TrainCard:
		c, a := class(f.Want), answer()
		if f.Answer == f.Want {
			if len(f.Machine.Moves) > 0 {
				return lang.Append(b, i18n.CapTrainRightForced, I(f.EpochDone), I(f.Cards), c, a, w.motorsOf(lang, f, f.Want, false))
			}
			return lang.Append(b, i18n.CapTrainRight, I(f.EpochDone), I(f.Cards), c, a)
		}
		m := w.motorsOf(lang, f, f.Want, true)
		return lang.Append(b, i18n.CapTrainWrong, I(f.EpochDone), I(f.Cards), c, a, i18n.Bytes(w.want), m)
	case f.Kind == session.TestCard && f.Mode == session.Stopped && f.TestDone == f.Cards:
		pct := 100 * float64(f.TestCorrect) / float64(max(1, f.TestDone))
		return lang.Append(b, i18n.CapTestDone, I(f.TestCorrect), I(f.TestDone), i18n.Num(pct, 1))
	case f.Kind == session.TestCard:
		m := i18n.CapTestCardWrong
		if f.Answer == f.Want {
			m = i18n.CapTestCardRight
		}
		return lang.Append(b, m, I(f.TestDone), I(f.Cards), class(f.Want), answer(), I(f.TestCorrect), I(f.TestDone))
	case f.Kind == session.Shown:
		if a := aUnits(f); a != markIAUnits {
			return lang.Append(b, i18n.CapShownN, I(f.Machine.S.Count()), I(f.Machine.Active), I(a), answer())
		}
		return lang.Append(b, i18n.CapShown, I(f.Machine.S.Count()), I(f.Machine.Active), answer())
	case f.Kind == session.Taught:
		if f.Answer != f.Want {
			a := answer()
			m := w.motorsOf(lang, f, f.Want, false)
			return lang.Append(b, i18n.CapTaughtWrong, i18n.Bytes(w.want), a, m)
		}
		if len(f.Machine.Moves) > 0 {
			m := w.motorsOf(lang, f, f.Want, false)
			return lang.Append(b, i18n.CapTaughtMoved, i18n.Bytes(w.want), m)
		}
		return lang.Append(b, i18n.CapTaughtNothing, want())
	}
	return b
}

// description appends what part p is, for the visitor who points at it, in lang.
func (w *words) description(b []byte, lang i18n.Lang, p Part, f *session.Frame, ui *UI, sc *Scene) []byte {
	I, S := i18n.Int, i18n.Str
	switch p.Kind {
	case PartTitle:
		return lang.Append(b, i18n.DescTitle)
	case PartCaption:
		return lang.Append(b, i18n.DescCaption)
	case PartCard:
		return lang.Append(b, i18n.DescCard)
	case PartAnswer:
		return lang.Append(b, i18n.DescAnswer)
	case PartCell:
		if p.Index < 0 || p.Index >= retina.N {
			return lang.Append(b, i18n.DescRetina)
		}
		m := i18n.DescCell
		if f.Machine.S.Get(p.Index) {
			m = i18n.DescCellOn
		}
		// From 0, as S-units, A-units and R-units are numbered everywhere (S17 is row 0, column 17).
		return lang.Append(b, m, I(p.Index), I(p.Index/retina.Cols), I(p.Index%retina.Cols),
			i18n.Num(float64(f.Machine.Levels[p.Index]), 2), I(int(sc.fed[p.Index])))
	case PartLamp:
		if p.Index < 0 || f.Board == nil || p.Index >= f.Board.Len() {
			return lang.Append(b, i18n.DescLamps)
		}
		u := &f.Board.Units[p.Index]
		m := i18n.DescLamp
		if p.Index/64 < len(f.Machine.A) && f.Machine.A[p.Index/64]>>(p.Index%64)&1 == 1 {
			m = i18n.DescLampFiring
		}
		// From 0, as the rig's pots (R0.A17), train and features number them.
		return lang.Append(b, m, I(p.Index), I(len(u.Exc)), I(len(u.Inh)), I(u.Theta))
	case PartUnit, PartUnitPrev, PartUnitNext:
		return lang.Append(b, i18n.DescPlugBoard)
	case PartRLamp:
		if p.Index < 0 || p.Index >= len(f.Machine.Sums) {
			return lang.Append(b, i18n.DescRUnits)
		}
		r := S(rName(p.Index))
		if sc.unused[p.Index] {
			return lang.Append(b, i18n.DescRUnitUnused, r)
		}
		m := i18n.DescRUnitOff
		if f.Machine.Sums[p.Index] > 0 {
			m = i18n.DescRUnitOn
		}
		return lang.Append(b, m, r, i18n.Num(f.Machine.Sums[p.Index], 1))
	case PartHeat:
		if p.Index < 0 || p.Index >= maxR {
			return lang.Append(b, i18n.DescHeatAll)
		}
		return lang.Append(b, i18n.DescHeat, S(rName(p.Index)))
	case PartRack:
		if sc.zoom >= 0 {
			return lang.Append(b, i18n.DescRackZoomed)
		}
		return lang.Append(b, i18n.DescRack)
	case PartDial:
		if p.Index < 0 || p.Index >= len(f.Machine.Pots) || p.Sub < 0 || p.Sub >= len(f.Machine.Pots[p.Index]) {
			return b
		}
		if p.Sub == len(f.Machine.Pots[p.Index])-1 {
			w.pot = lang.Append(w.pot[:0], i18n.DescBiasName, S(rName(p.Index)))
		} else {
			// Pot R2.A40 is A-unit 40 into R-unit R2.
			w.pot = lang.Append(w.pot[:0], i18n.DescPotName, I(p.Sub), S(rName(p.Index)))
		}
		v := i18n.Signed(f.Machine.Pots[p.Index][p.Sub], 1)
		if !math.IsInf(f.Range, 1) {
			return lang.Append(b, i18n.DescPotReadingStops, i18n.Bytes(w.pot), v, i18n.Num(f.Range, -1))
		}
		return lang.Append(b, i18n.DescPotReading, i18n.Bytes(w.pot), v)
	case PartZoomClose:
		return lang.Append(b, i18n.DescZoomClose)
	case PartButton:
		switch Button(p.Index) {
		case ButtonTrain:
			return lang.Append(b, i18n.DescTrain)
		case ButtonTest:
			return lang.Append(b, i18n.DescTest)
		case ButtonStop:
			return lang.Append(b, i18n.DescStop)
		case ButtonReset:
			return lang.Append(b, i18n.DescReset)
		}
	case PartRule:
		if p.Index == int(machine.Forced) {
			return lang.Append(b, i18n.DescForced)
		}
		return lang.Append(b, i18n.DescAlpha)
	case PartSpeed:
		return lang.Append(b, i18n.DescSpeed)
	case PartExperiment:
		if p.Index >= 0 && p.Index < NumExperiments {
			return lang.Append(b, experiments[p.Index].AboutMsg)
		}
	case PartClass:
		if !ui.HaveDrawing {
			return lang.Append(b, i18n.DescClassFirst)
		}
		w.class = appendClass(w.class[:0], lang, f, p.Index)
		return lang.Append(b, i18n.DescClass, i18n.Bytes(w.class))
	case PartClear:
		return lang.Append(b, i18n.DescClear)
	case PartCurve:
		return lang.Append(b, i18n.DescCurve)
	case PartLanguage:
		return lang.Append(b, i18n.DescLanguage, i18n.Str(lang.String()))
	case PartLargeText:
		return lang.Append(b, i18n.DescLargeText)
	case PartHelp:
		return lang.Append(b, i18n.DescHelp)
	}
	return b
}
