package console

import (
	"time"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
)

// A scene of the attract mode: a narration, the part it is about, how long it stays, and
// what the machine does when it begins.
type step struct {
	say    string // "" means the experiment's historical note
	part   view.PartKind
	index  int
	last   time.Duration
	action func(c *Console, a *attract, f *session.Frame)
}

// Script is the attract mode's narration, played in a loop, one experiment after another.
var script = []step{
	{
		say:  "In 1958 Frank Rosenblatt's perceptron was a program on an IBM 704 computer. In 1960 his team at the Cornell Aeronautical Laboratory showed the Mark I Perceptron, a machine that learned to recognise pictures by itself. Watch it learn.",
		part: view.PartTitle, last: 9 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) {
			a.exp = (a.exp + 1) % len(view.Experiments)
			c.cmd.SetExperiment(view.Experiments[a.exp].Name)
			c.cmd.SetSpeed(session.Historical)
			c.cmd.Train()
			a.fresh = false
		},
	},
	{
		say:  "A card goes into the holder. Lamps light it and a lens focuses it onto 400 photocells, the retina. Where a cell sees the figure, its S-unit switches on and its lamp lights.",
		part: view.PartCell, index: -1, last: 10 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) {
			// A machine that has already learned starts again, so that there is learning to see.
			if f.Converged || f.Epoch >= 3 {
				c.cmd.Reset()
				c.cmd.Train()
			}
		},
	},
	{
		say:  "Wires plugged at random join the photocells to 512 association units. An A-unit fires when enough of its red wires, and few enough of its blue ones, see the figure.",
		part: view.PartLamp, index: -1, last: 11 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) { c.showFiringUnit(f) },
	},
	{
		say:  "Each response unit adds up the weights of the A-units that fire. Its lamp lights when the sum is above zero; together the lamps spell the machine's answer.",
		part: view.PartRLamp, index: -1, last: 10 * time.Second,
	},
	{
		say:  "The weights are potentiometers in racks, turned by electric motors. When the answer is wrong, the motors turn the weights of the firing A-units toward the right answer: they glow amber as they turn.",
		part: view.PartRack, index: -1, last: 12 * time.Second,
	},
	{
		say:  "That is all it does: it learns from its mistakes. Faster now: watch the mistakes of each pass through the cards fall.",
		part: view.PartCurve, last: 16 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) { c.cmd.SetSpeed(100) },
	},
	{
		say:  "Each map shows what an R-unit has learned: the photocells whose wires push it on in red, off in blue.",
		part: view.PartHeat, index: -1, last: 10 * time.Second,
	},
	{
		part: view.PartAnswer, last: 10 * time.Second,
	},
	{
		say:  "Your turn: touch the screen. Draw a letter on the retina with your finger and see what the machine answers, or press TRAIN.",
		part: view.PartCell, index: -1, last: 9 * time.Second,
	},
}

// attract is the attract mode under way.
type attract struct {
	own      bool // the curator's scene is on
	ownShown bool // and has been, this round
	step     int
	since    time.Time
	exp      int
	fresh    bool
}

func (c *Console) startAttract(f *session.Frame) {
	a := &attract{step: -1, exp: -1, fresh: true}
	for i, e := range view.Experiments {
		if e.Name == f.Experiment {
			a.exp = i - 1 // the first scene moves on to the next experiment: start with this one
		}
	}
	c.attract = a
	c.UI.Attract = true
	c.UI.Hover, c.UI.Pressed, c.UI.Zoom = view.Part{}, view.Part{}, -1
	c.clearDrawing()
}

func (c *Console) stopAttract() {
	c.attract = nil
	c.UI.Attract = false
	c.UI.Note, c.UI.Highlight = "", view.Part{}
	c.noteUntil = time.Time{}
}

// tick moves the narration on.
func (a *attract) tick(c *Console, f *session.Frame) {
	if a.own {
		// The curator's scene (see Options.AttractText), before the round's first.
		if c.now.Sub(a.since) < c.sceneTime(ownScene) {
			return
		}
		a.own = false
	} else if a.step >= 0 && c.now.Sub(a.since) < c.sceneTime(script[a.step].last) {
		return
	} else if c.opts.AttractText != "" && (a.step+1)%len(script) == 0 && !a.ownShown {
		a.own, a.ownShown, a.since = true, true, c.now
		c.UI.Note, c.UI.Highlight = c.opts.AttractText, view.Part{Kind: view.PartTitle}
		return
	}
	a.ownShown = false
	a.step = (a.step + 1) % len(script)
	a.since = c.now
	s := script[a.step]
	if s.action != nil {
		s.action(c, a, f)
	}
	text := s.say
	if text == "" {
		e := view.Experiments[max(0, a.exp)%len(view.Experiments)]
		text = e.Year + " Here it learns " + e.Title + "."
	}
	c.UI.Note = text
	c.UI.Highlight = view.Part{Kind: s.part, Index: s.index}
}

// showFiringUnit chooses an A-unit that fires on the card in the holder, for the narration.
func (c *Console) showFiringUnit(f *session.Frame) { c.followFiring(f) }

// followFiring shows the wiring of an A-unit that fires on the card in the holder: the one
// shown if it fires, else the next that does.
func (c *Console) followFiring(f *session.Frame) {
	fires := func(a int) bool { return a/64 < len(f.Machine.A) && f.Machine.A[a/64]>>(a%64)&1 == 1 }
	if c.nUnits == 0 || fires(c.UI.Unit) {
		return
	}
	for i := 1; i < c.nUnits; i++ {
		if a := (c.UI.Unit + i) % c.nUnits; fires(a) {
			c.UI.Unit = a
			return
		}
	}
}
