package console

import (
	"time"

	"github.com/mark1-perceptron/mark1/session"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// A scene of the attract mode: a narration, the part it is about, how long it stays, and
// what the machine does when it begins.
type step struct {
	say    i18n.Msg // NoMsg: the experiment's historical note
	part   view.PartKind
	index  int
	last   time.Duration
	action func(c *Console, a *attract, f *session.Frame)
}

// Script is the attract mode's narration, played in a loop, one experiment after another.
var script = []step{
	{
		say:  i18n.AttractHistory,
		part: view.PartTitle, last: 9 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) {
			a.exp = (a.exp + 1) % view.NumExperiments
			c.cmd.SetExperiment(view.ExperimentAt(a.exp).Name)
			c.cmd.SetSpeed(session.Historical)
			c.cmd.Train()
			a.fresh = false
		},
	},
	{
		say:  i18n.AttractRetina,
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
		say:  i18n.AttractAUnits,
		part: view.PartLamp, index: -1, last: 11 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) { c.showFiringUnit(f) },
	},
	{
		say:  i18n.AttractRUnits,
		part: view.PartRLamp, index: -1, last: 10 * time.Second,
	},
	{
		say:  i18n.AttractMotors,
		part: view.PartRack, index: -1, last: 12 * time.Second,
	},
	{
		say:  i18n.AttractMistakes,
		part: view.PartCurve, last: 16 * time.Second,
		action: func(c *Console, a *attract, f *session.Frame) { c.cmd.SetSpeed(100) },
	},
	{
		say:  i18n.AttractMaps,
		part: view.PartHeat, index: -1, last: 10 * time.Second,
	},
	{
		part: view.PartAnswer, last: 10 * time.Second,
	},
	{
		say:  i18n.AttractYourTurn,
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
	for i := range view.NumExperiments {
		e := view.ExperimentAt(i)
		if e.Name == f.Experiment {
			a.exp = i - 1 // the first scene moves on to the next experiment: start with this one
		}
	}
	c.attract = a
	c.UI.Attract = true
	// The next visitor finds the curator's language and text size, and nothing open.
	c.UI.Lang, c.UI.LargeText = c.opts.Lang, c.opts.LargeText
	c.UI.Help, c.UI.Focus = false, view.Part{}
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
	lang := c.UI.Lang
	if s.say == i18n.NoMsg {
		e := view.ExperimentAt(max(0, a.exp) % view.NumExperiments)
		c.UI.Note = lang.S(i18n.AttractRecord, i18n.Str(lang.S(e.YearMsg)), i18n.Str(lang.S(e.TitleMsg)))
	} else {
		c.UI.Note = lang.S(s.say)
	}
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
