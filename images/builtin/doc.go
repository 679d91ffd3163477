// Package builtin draws the built-in card sets of mark1 at start, from embedded fonts (Go Bold,
// Go Mono Bold) and vector shapes: letters in two typefaces, squares against circles and
// diamonds, a square on the left or the right half of the field, E against F and X against E,
// the stimuli of the Mark I's historical experiments (see [Names] and [Load]).
//
// The cards follow the images package's convention, a dark figure on white paper. They are
// generated from a fixed grid of sizes and positions, without randomness, so every run on every
// machine shows the same cards. The package lives apart from images so that programs that only
// read the user's files (the hardware bridge, the browser build) do not carry the fonts.
package builtin
