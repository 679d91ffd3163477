// Package images provides the cards shown to the Mark I Perceptron's 20x20 photocell retina
// (Card, Set) and loaders for the user's own images: a folder with one sub-folder per class, or
// MNIST-style IDX files. It uses the standard library only; the built-in card sets, drawn from
// embedded fonts, live in the images/builtin package.
//
// A card is any image: a printed card (a dark figure on white paper, as the built-in sets draw
// them) or a light figure on a dark ground (as MNIST digits are). Loaders keep every image as it
// is; the retina decides per card which part is the figure (its automatic polarity), and fits
// the whole image to its 20x20 cells, so a card's margins are part of what the machine sees.
//
// The loaders guard against hostile files: only regular files are opened (a FIFO named like an
// image is refused, not waited on); image dimensions are checked before any pixel is decoded
// ([MaxPixels], [MaxSide]); IDX headers are checked against limits, and against the file's
// size, before anything is allocated from them; and a [Loader] keeps the memory of all the
// cards it loads within one budget ([DefaultBudget], 1 GiB), charging each image before it is
// decoded. Every error is one line that starts with "images: " and names the file.
package images
