package view

import (
	"image"
	"time"

	"github.com/mark1-perceptron/mark1/view/i18n"
)

// PartKind names a part of the screen: a piece of the machine or a control.
type PartKind int

// The parts of the screen. Index and Sub of a Part say which one (see each kind).
const (
	PartNone       PartKind = iota
	PartTitle               // the title bar
	PartCaption             // the caption: what is happening now
	PartCard                // the card in the holder, as the projector shows it
	PartAnswer              // the decoded answer, the wanted answer, right or wrong
	PartCell                // a photocell of the retina; Index: S-unit 0..399
	PartLamp                // an A-unit's lamp; Index: A-unit
	PartUnit                // the plug-board panel of the chosen A-unit
	PartUnitPrev            // the button showing the previous A-unit's wiring
	PartUnitNext            // the button showing the next A-unit's wiring
	PartRLamp               // an R-unit's lamp and meter; Index: R-unit
	PartHeat                // what an R-unit has learned; Index: R-unit, Sub: S-unit
	PartRack                // a rack of potentiometers; Index: R-unit
	PartDial                // one potentiometer; Index: R-unit, Sub: pot (A-unit, or the bias last)
	PartZoomClose           // the button closing a zoomed rack
	PartButton              // Train, Test, Stop, Reset: Index is a Button
	PartRule                // a position of the rule switch; Index: machine.Rule
	PartSpeed               // a position of the speed selector; Index into the speeds (SpeedAt)
	PartExperiment          // an experiment's button; Index into Experiments
	PartClass               // a class key (teach); Index: class
	PartClear               // the button clearing the drawing
	PartCurve               // the mistakes-per-epoch curve
	PartLanguage            // the language button: the next language
	PartLargeText           // the large-text button
	PartHelp                // the help button, or the help when it is open
	numParts
)

// Part is one part of the screen.
type Part struct {
	Kind  PartKind
	Index int
	Sub   int
}

// Button is one of the control panel's push buttons.
type Button int

// The push buttons, in panel order.
const (
	ButtonTrain Button = iota
	ButtonTest
	ButtonStop
	ButtonReset
	numButtons
)

// UI is the state of the visitor's side of the screen, which the museum's console keeps and
// Draw shows: what is chosen, pointed at, pressed or being drawn.
type UI struct {
	Unit    int         // the A-unit whose plug-board wiring is shown
	Zoom    int         // the R-unit whose rack is shown large, or -1
	Hover   Part        // the part under the pointer, whose description is shown (PartNone: none)
	HoverAt image.Point // where the pointer is
	Pressed Part        // the control held down
	// Drawing is the visitor's drawing while it is being made (nil otherwise), shown on the
	// card and the retina before the machine sees it. Draw reads it only.
	Drawing *image.Gray
	// HaveDrawing says a drawing is in the holder: the class keys teach it.
	HaveDrawing bool
	// Note, when not empty, replaces the caption (a narration, a hint for the visitor).
	Note string
	// Highlight marks a part (the narration's subject).
	Highlight Part
	// Attract is on while the attract mode runs.
	Attract bool
	// Elapsed is the time since the console started, for blinking and pulsing.
	Elapsed time.Duration
	// Lang is the language the screen speaks.
	Lang i18n.Lang
	// LargeText sets the captions, labels and descriptions larger.
	LargeText bool
	// Help shows what a visitor can do, and the keys, over the machine.
	Help bool
	// Focus is the control the keyboard has chosen (Tab), ringed; Enter presses it.
	Focus Part
}
