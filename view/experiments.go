package view

import (
	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Experiment describes a built-in experiment for the visitor: its card set (a name
// images/builtin knows), the title on its button, and what the captions and the narration
// say of it, as messages of the catalogue (package i18n): TitleMsg the button's label
// ("LETTERS A–Z" in English), AboutMsg one sentence for the caption when it is chosen,
// DrawMsg what to draw for it, YearMsg the historical record, for the narration.
type Experiment struct {
	Name string // the built-in card set, "letters"

	TitleMsg, AboutMsg, DrawMsg, YearMsg i18n.Msg
	// Letters says the classes are letters, named "the letter E"; otherwise each class has
	// a label and a phrase of its own (classTexts).
	Letters bool
}

func experiment(name string, letters bool, title, about, draw, year i18n.Msg) Experiment {
	return Experiment{Name: name, TitleMsg: title, AboutMsg: about, DrawMsg: draw, YearMsg: year, Letters: letters}
}

// experiments are the experiments the museum offers, in the order of their buttons.
var experiments = [...]Experiment{
	experiment("letters", true, i18n.ExpLettersTitle, i18n.ExpLettersAbout, i18n.ExpLettersDraw, i18n.ExpLettersYear),
	experiment("shapes", false, i18n.ExpShapesTitle, i18n.ExpShapesAbout, i18n.ExpShapesDraw, i18n.ExpShapesYear),
	experiment("leftright", false, i18n.ExpLeftRightTitle, i18n.ExpLeftRightAbout, i18n.ExpLeftRightDraw, i18n.ExpLeftRightYear),
	experiment("ef", true, i18n.ExpEFTitle, i18n.ExpEFAbout, i18n.ExpEFDraw, i18n.ExpEFYear),
}

// classKey names a class of a built-in set.
type classKey struct{ experiment, class string }

// classText is how the screen names a class that is a word: its label (on its key and in
// the answer) and the phrase the captions name it with ("a square").
type classText struct{ label, phrase i18n.Msg }

var classTexts = map[classKey]classText{
	{"shapes", "square"}:   {i18n.ClassSquare, i18n.ClassASquare},
	{"shapes", "circle"}:   {i18n.ClassCircle, i18n.ClassACircle},
	{"shapes", "diamond"}:  {i18n.ClassDiamond, i18n.ClassADiamond},
	{"shapes", "triangle"}: {i18n.ClassTriangle, i18n.ClassATriangle},
	{"leftright", "left"}:  {i18n.ClassLeft, i18n.ClassOnTheLeft},
	{"leftright", "right"}: {i18n.ClassRight, i18n.ClassOnTheRight},
}

// NumExperiments is how many experiments the museum offers.
const NumExperiments = len(experiments)

// ExperimentAt returns the i-th experiment the museum offers (0 <= i < NumExperiments), in the
// order of their buttons.
func ExperimentAt(i int) Experiment { return experiments[i] }

// ExperimentNames returns the names of the experiments the museum offers, in order.
func ExperimentNames() []string {
	out := make([]string, NumExperiments)
	for i, e := range experiments {
		out[i] = e.Name
	}
	return out
}

// experimentIndex returns the index of name in experiments, or -1.
func experimentIndex(name string) int {
	for i, e := range experiments {
		if e.Name == name {
			return i
		}
	}
	return -1
}

// experimentOf returns name's description, or a plain one for a set the museum does not list
// (its title is its name, its classes named by their labels).
func experimentOf(name string) *Experiment {
	if i := experimentIndex(name); i >= 0 {
		return &experiments[i]
	}
	return &otherExperiment
}

var otherExperiment = Experiment{DrawMsg: i18n.ExpOtherDraw}

// appendTitle appends the title of f's experiment in lang.
func appendTitle(b []byte, lang i18n.Lang, f *session.Frame) []byte {
	e := experimentOf(f.Experiment)
	if e.TitleMsg == i18n.NoMsg {
		return append(b, f.Experiment...)
	}
	return lang.Append(b, e.TitleMsg)
}
