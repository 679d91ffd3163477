// Package images provides the cards shown to the Mark I Perceptron's 20x20 photocell retina:
// built-in card sets drawn at start from embedded fonts and vector shapes, and loaders for the
// user's own images (a folder with one sub-folder per class, or MNIST-style IDX files).
//
// A card is a printed card: a dark figure (ink, luminance 0) on white paper (luminance 1). The
// retina fits the whole card image to its 20x20 cells, so a card's margins are part of what the
// machine sees. Loaders keep every image in this convention: images from a folder are kept as
// they are decoded, and IDX images (MNIST digits are white on black) are inverted to dark ink on
// white paper.
//
// The built-in sets (see [BuiltinNames]) recreate the stimuli of the historical experiments:
// letters in two typefaces, squares against circles and diamonds, a square on the left or right
// half of the field, E against F and X against E. They are generated from a fixed grid of sizes
// and positions, without randomness, so every run on every machine shows the same cards.
//
// The loaders guard against hostile files: image dimensions are checked before any pixel is
// decoded ([MaxPixels], [MaxSide]), IDX headers are checked against limits before anything is
// allocated from them, and every error is one line that starts with "images: " and names the
// file.
package images
