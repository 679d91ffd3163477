// Package patchboard models the Mark I Perceptron's plug-board and its association units
// (A-units): the fixed wiring from the 400 photocells (S-units, see package retina) to the
// threshold units whose outputs feed the motor-driven weights.
//
// Each A-unit has excitatory and inhibitory plugs from S-units and a threshold theta; it fires
// when (lit excitatory plugs) - (lit inhibitory plugs) >= theta. Rosenblatt wrote such units as
// (x, y, theta): x excitatory and y inhibitory connections, threshold theta. On the Mark I the
// wiring was set by hand from a table of random numbers, and one S-unit could feed at most 40
// A-units (historical); the plug counts and thresholds are not in the surviving record.
//
// A Board holds the wiring. MarkI draws the random Mark I wiring, Identity the one-to-one wiring
// of the textbook perceptron on pixels (phi(x) = x), Local a wiring with local centre-surround
// receptive fields. Read and WriteTo load and save a board as a plain-text wiring file, one
// A-unit per line (the format is described with FormatVersion):
//
//	# mark1 wiring
//	format 1
//	fanout 40
//	a0 theta=2 +12 +45 +300 -7 -99
//	a1 theta=1 +3 -250
//
// Fire, the hot loop of every presentation, computes the A-unit states for the S-states of one
// presentation without allocating.
package patchboard
