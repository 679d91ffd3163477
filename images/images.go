package images

import "image"

// Card is one stimulus card.
type Card struct {
	// Image is the card, a dark figure on a light ground or the reverse. The retina fits its whole bounds to the
	// 20x20 cells. Built-in cards are 60x60 *image.Gray images with bounds at the origin;
	// loaded cards keep the type and bounds their decoder gave them.
	Image image.Image
	// Class indexes the owning Set's Classes.
	Class int
	// Source tells where the card came from, for reports: a file path, "FILE#INDEX" for an
	// IDX image, or "SET:CLASS/..." describing a built-in card's typeface, size and shift.
	Source string
}

// Set is a named deck of cards with their class names.
type Set struct {
	// Name is the built-in set's name, the folder given to LoadDir, or the images file given
	// to LoadIDX.
	Name string
	// Classes are the class names; Card.Class indexes them. Every class has at least one card.
	Classes []string
	// Cards are the cards, in a fixed order (see Builtin, LoadDir and LoadIDX).
	Cards []Card
}

const (
	// MaxPixels caps the width*height of any image a loader accepts (a guard against
	// decompression bombs: a decoded image takes at most 8 bytes per pixel, 128 MiB).
	MaxPixels = 4096 * 4096
	// MaxSide caps either side of an image, in pixels.
	MaxSide = 16384
)
