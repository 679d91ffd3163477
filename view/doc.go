// Package view draws the Mark I Perceptron in pure Go: Scene.Draw paints a session.Frame and
// the visitor's UI into a 1920x1080 *image.RGBA, with no display and no window library, so the
// museum's window, its browser build, a bridge serving PNGs and the tests all draw the same
// picture.
//
// The screen is one machine: the card in the holder; the retina of 400 photocells, each glowing
// with its level, its S-unit's lamp lit when on; the 512 A-unit lamps and the plug-board wiring
// of a chosen A-unit drawn to its cells; the eight R-unit lamps with the decoded answer, the
// wanted answer and right or wrong; what each R-unit has learned, its weights carried back
// through the plug-board onto the retina as a heat map (red pushes it on, blue off); the eight
// racks of 513 potentiometer dials (this emulator's arrangement: the record does not say how
// many pots there were nor how they were grouped), whose pointers turn toward the pots'
// readings no faster than a motor could (DefaultMotorSpeed) and glow amber while they turn,
// with the end stops marked; the control panel (Train, Test, Stop, Reset, the rule switch, the
// speed, the experiment, the class keys that teach a drawing); the mistakes of each epoch; and
// a caption saying in plain words what is happening now.
//
// Drawing is the presentation's hot loop: the background (panels, labels, dial faces, lamp
// sockets) is drawn once per experiment, fonts and sprites once per process, and a frame is
// the background copied and the moving parts drawn over it, with no allocation once the first
// frame of a machine has been drawn. HitTest tells which part is under a point, and the
// description of any part is what Draw shows when UI.Hover points at it.
package view
