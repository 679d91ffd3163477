package console_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mark1-perceptron/mark1/machine"
	"github.com/mark1-perceptron/mark1/museum/console"
	"github.com/mark1-perceptron/mark1/view"
	"github.com/mark1-perceptron/mark1/view/i18n"
)

// Every control is reachable by the keyboard: Tab visits each of the screen's controls once
// a round (Shift+Tab backwards), and Enter presses the one in focus as a tap would.
func TestKeyboardReachesEveryControl(t *testing.T) {
	d := newDesk(t, "letters")
	controls := d.sc.Controls(nil)
	if len(controls) < 20 {
		t.Fatalf("only %d controls", len(controls))
	}
	seen := map[view.Part]int{}
	for range controls {
		d.c.Key(console.KeyTab, true)
		d.frame()
		seen[d.c.UI.Focus]++
	}
	for _, p := range controls {
		if seen[p] != 1 {
			t.Errorf("Tab reached %+v %d times in a round", p, seen[p])
		}
	}
	d.c.Key(console.KeyBackTab, true)
	if d.c.UI.Focus != controls[len(controls)-2] {
		t.Errorf("Shift+Tab went to %+v, want %+v", d.c.UI.Focus, controls[len(controls)-2])
	}
	// Enter presses: each of these as a tap does.
	d.rec.take()
	for _, c := range []struct {
		p    view.Part
		want string
	}{
		{view.Part{Kind: view.PartButton, Index: int(view.ButtonTest)}, "test"},
		{view.Part{Kind: view.PartSpeed, Index: 2}, "speed 10"},
		{view.Part{Kind: view.PartRule, Index: int(machine.Forced)}, "rule forced"},
		{view.Part{Kind: view.PartExperiment, Index: 1}, "experiment shapes; train"},
	} {
		for i := 0; d.c.UI.Focus != c.p; i++ {
			if i > len(controls) {
				t.Fatalf("Tab never reaches %+v", c.p)
			}
			d.c.Key(console.KeyTab, true)
		}
		d.c.Key(console.KeyEnter, true)
		if got := d.rec.take(); got != c.want {
			t.Errorf("Enter on %+v: %q, want %q", c.p, got, c.want)
		}
	}
	// Enter on the language button changes the language.
	for d.c.UI.Focus.Kind != view.PartLanguage {
		d.c.Key(console.KeyTab, true)
	}
	d.c.Key(console.KeyEnter, true)
	if d.c.UI.Lang != i18n.German {
		t.Errorf("Enter on the language button: %v, want German", d.c.UI.Lang)
	}
	// A touch takes the focus away.
	d.tap(d.find(view.PartCurve, 0))
	if d.c.UI.Focus.Kind != view.PartNone {
		t.Errorf("focus %+v after a touch", d.c.UI.Focus)
	}
}

// The language, large-text and help buttons work by touch and by key; the hints speak the
// language chosen; the attract mode returns to the curator's language and text size.
func TestLanguageLargeTextHelp(t *testing.T) {
	d := newDesk(t, "letters")
	d.c = console.New(d.rec, d.sc, console.Options{Start: d.now, Lang: i18n.French})
	d.frame()
	if d.c.UI.Lang != i18n.French {
		t.Fatalf("the curator's language: %v", d.c.UI.Lang)
	}
	d.tap(d.find(view.PartLanguage, 0))
	if d.c.UI.Lang != i18n.Spanish || !strings.Contains(d.c.UI.Note, "español") {
		t.Errorf("after the language button: %v, note %q", d.c.UI.Lang, d.c.UI.Note)
	}
	d.c.Key(console.KeyL, true)
	if d.c.UI.Lang != i18n.English {
		t.Errorf("after L: %v", d.c.UI.Lang)
	}
	d.tap(d.find(view.PartButton, int(view.ButtonReset)))
	if d.c.UI.Note != i18n.English.S(i18n.NoteResetArmed) {
		t.Errorf("RESET's hint: %q", d.c.UI.Note)
	}
	d.tap(d.find(view.PartLargeText, 0))
	if !d.c.UI.LargeText {
		t.Errorf("the A+ button did not set large text")
	}
	d.c.Key(console.KeyMinus, true)
	if d.c.UI.LargeText {
		t.Errorf("- did not set the usual text")
	}
	d.c.Key(console.KeyPlus, true)
	d.tap(d.find(view.PartHelp, 0))
	if !d.c.UI.Help {
		t.Fatalf("the ? button did not open the help")
	}
	d.rec.take()
	// The help closes at the next touch, which does nothing else.
	d.tap(d.find(view.PartButton, int(view.ButtonTrain)))
	if d.c.UI.Help {
		t.Errorf("the help stayed open after a touch")
	}
	if got := d.rec.take(); got != "" {
		t.Errorf("the touch closing the help acted: %q", got)
	}
	d.c.Key(console.KeyH, true)
	d.c.Key(console.KeyEscape, true)
	if d.c.UI.Help {
		t.Errorf("Escape did not close the help")
	}
	// Idle: the attract mode speaks French again, in the usual size.
	d.wait(61 * time.Second)
	if !d.c.Attracting() || d.c.UI.Lang != i18n.French || d.c.UI.LargeText {
		t.Errorf("attract mode: on %v, %v, large %v", d.c.Attracting(), d.c.UI.Lang, d.c.UI.LargeText)
	}
	if !strings.Contains(d.c.UI.Note, "1958") || !strings.Contains(d.c.UI.Note, "perceptron de Frank Rosenblatt") {
		t.Errorf("the narration is not in French: %q", d.c.UI.Note)
	}
}
