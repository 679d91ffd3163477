// Package gen draws seeded card sets of any size for mark1's experiments and lab: squares
// against circles at random positions and orientations, a square against a diamond, E against
// F, X against E, the 26 letters, a square left or right of the centre line, and one ring
// against two (connectedness, after Minsky and Papert).
//
// A set is described by a Spec, written as text "KIND,key=value,..." (see Parse), for example
// "squares-circles,n=10000,seed=1,fill=outline": the kind, how many cards, the seed and the
// kind's options. Generate draws it. Every card is a fresh 60x60 *image.Gray, black antialiased
// ink on white with a white margin of at least 3 pixels (one retina cell), like the built-in
// sets of package builtin, and cards are ordered round-robin over the classes.
//
// # Determinism
//
// Card i of a set is drawn from its own random stream, PCG seeded with (Seed, i), so the same
// Spec gives the same cards, pixel for pixel, on every machine and architecture, a set of n
// cards is the first n cards of any larger set with the same options, and cards can be drawn in
// parallel. Sines and cosines come from internal/detmath, every product that is added to
// something is rounded explicitly (float64(a*b) + c, which keeps compilers from fusing it into
// a multiply-add), and the rasterizer works in fixed point at this card size.
package gen
