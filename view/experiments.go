package view

// Experiment describes a built-in experiment for the visitor: its card set (a name
// images/builtin knows), the title on its button and how the captions name its classes.
type Experiment struct {
	Name   string // the built-in card set, "letters"
	Title  string // the button's label, "LETTERS"
	About  string // one sentence for the caption when it is chosen
	Prefix string // how a caption names a class: Prefix + label, "the letter " + "E"
	Draw   string // what a visitor may draw, for the captions: "a capital letter"
	Year   string // the historical record, for the narration
}

// Experiments are the experiments the museum offers, in the order of their buttons.
var Experiments = []Experiment{
	{
		Name: "letters", Title: "LETTERS A–Z", Prefix: "the letter ", Draw: "a capital letter",
		About: "Learning the 26 capital letters, 8 cards each: the Mark I's best-known test.",
		Year:  "In 1960 the Office of Naval Research reported that the Mark I learned the 26 letters of one typeface without an error after 40 showings of each.",
	},
	{
		Name: "shapes", Title: "SHAPES", Prefix: "a ", Draw: "a square, circle, diamond or triangle",
		About: "Learning four shapes, solid and outlined, in three sizes and five places.",
		Year:  "The Mark I's reported results include squares told from circles 99.8% of the time.",
	},
	{
		Name: "leftright", Title: "LEFT / RIGHT", Prefix: "a square on the ", Draw: "a blob on the left or the right",
		About: "Learning whether a square is on the left or the right of the field.",
		Year:  "In July 1958 the perceptron, simulated on an IBM 704, learned left from right after about 50 cards.",
	},
	{
		Name: "ef", Title: "E / F", Prefix: "the letter ", Draw: "an E or an F",
		About: "Learning E from F, which differ by one bar.",
		Year:  "E against F was one of the Mark I's reported tests: over 80% right after 60 cards.",
	},
}

// ExperimentNames returns the names of Experiments, in order.
func ExperimentNames() []string {
	out := make([]string, len(Experiments))
	for i, e := range Experiments {
		out[i] = e.Name
	}
	return out
}

// experimentIndex returns the index of name in Experiments, or -1.
func experimentIndex(name string) int {
	for i, e := range Experiments {
		if e.Name == name {
			return i
		}
	}
	return -1
}

// experimentOf returns name's description, or a plain one for a set the museum does not list.
func experimentOf(name string) Experiment {
	if i := experimentIndex(name); i >= 0 {
		return Experiments[i]
	}
	return Experiment{Name: name, Title: name, Prefix: "", Draw: "a figure"}
}
