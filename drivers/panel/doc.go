// Package panel reads the operator's panel of the mark1 rig, buttons and switches, debounced,
// and lights its lamps, on Raspberry Pi GPIO pins or on an MCP23017 I/O expander.
//
// The Mark I's operators started and stopped runs from a console and, when the machine erred,
// forced the right response with switches (US Navy photo 330-PSA-80-60). A rig's panel has
// buttons named train, test, stop and reset, switches force0, force1, ... (one per R-unit:
// closed forces that R-unit on, open off, while any is closed), and a lamp per R-unit.
//
// Buttons are wired from the input to ground, with the input's pull-up on: pressed reads low.
// Inputs are polled (periph's mcp23xxx does not implement edge waits; polling a GPIO pin every
// few milliseconds costs nothing), and a change counts only once the input has held its new
// level for the debounce time (Opts.Debounce), measured on the times the caller passes to
// Poll, so tests run on a manual clock. A source whose read fails is reported and keeps its
// buttons' debounced states.
//
// Lamps are written only when one changes, each source in one transaction.
//
// An MCP23017 shared by buttons and lamps is an Expander: a reset of the chip (its RESET pin,
// a brown-out) makes every pin an input without pull-up, and periph's mcp23xxx, which caches
// IODIR, GPPU and OLAT and skips writes equal to its cache, would leave it so (buttons
// floating, lamps dark). The Expander checks the chip's set-up when its inputs change, every
// few reads and before a lamp write, and sets it up again.
//
// # Datasheets
//
// MCP23017: https://www.microchip.com/en-us/product/MCP23017 (IODIR, GPPU, GPIO, OLAT).
package panel
