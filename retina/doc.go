// Package retina models the Mark I Perceptron's sensory field: a 20x20 grid of
// cadmium-sulphide photocells (the S-units) onto which a lens focused the lit stimulus card.
//
// The optics (placement, defocus, area averaging per cell, lamp brightness, polarity) run once
// per card in Prepare; the cells (non-linear response, sensitivity spread, rise/decay lag, dark
// noise and the comparator threshold) run on every presentation in Expose, without allocating.
//
// # Optics (Prepare)
//
// The card is any image.Image. Its luminance is taken with the Rec. 601 weights of
// color.Gray16Model, transparent parts showing the surround luminance, which also fills the
// field outside the card. By default the card is scaled, keeping its aspect ratio, so that its
// larger side spans the 20 cells, and centred; Params.Scale multiplies that size,
// Params.Rotation turns the card clockwise about its own centre, and Params.OffsetX and OffsetY
// then shift it along the field's axes, in cells.
//
// Each cell receives the mean, over its square, of the card's luminance blurred by the lens: a
// Gaussian point-spread function of sigma Params.Blur cells (defocus; none in Ideal mode). The
// pixels are taken as what they are, squares of constant luminance, and the means are exact:
// without rotation (and for rotations by multiples of 90 degrees) the square cell, the square
// pixels and the Gaussian are all products of one function per axis, so the cell's mean is a sum
// over pixels of Wy*Wx*luminance, plus the surround times the share of the cell's light that
// comes from outside the card. Along each axis the weight of a pixel for a cell is the double
// integral of the Gaussian over the pixel's and the cell's intervals, a closed form in
// F(t) = t*Phi(t) + phi(t) (Phi, phi the standard normal distribution and density); without
// blur it is the overlap of the two intervals. The weights are non-negative, so every cell's
// mean is in [0, 1] by construction; they are banded (a cell takes only the pixels within its
// span and 6 to 7 sigmas beyond, from where less than 2^-40 of its light comes) and
// are computed once per image size, so a deck of same-size cards shares them. The Ideal
// retina takes the same path without blur: an ideal cell's light is exactly the area average,
// never below 0. Other rotations render a focal plane of 4x4 sub-cells per cell from a
// summed-area table of the card and integrate it with the same weights; that plane is accurate
// to its resolution (a quarter cell). Images larger than the image loaders accept (16384 pixels
// a side, 4096x4096 pixels), only synthetic ones, are point-sampled first.
//
// The lamp multiplies the light: a Stimulus holds the light on each cell, 0..Lamp, and the
// conductance each cell tends to under it.
//
// # Polarity
//
// Which part of a card is figure is a setting (Params.Polarity): DarkFigure (ink on paper: an
// S-unit is on where the card is dark), LightFigure (a light figure on a dark ground), or, by
// default, AutoPolarity: Prepare looks at each card's outermost ring of pixels and, when its
// mean luminance is below one half, takes the card for a light figure on a dark ground
// (white-on-black digits such as MNIST) and any other card for DarkFigure. For a light card the
// field outside the image is taken to be 1-Surround, as if the card holder matched the card's
// ground (the surround is given for printed cards and mirrored with the polarity). The
// Stimulus records the polarity it was given (Stimulus.Polarity), and Expose uses it.
//
// # Cells (Expose)
//
// A cell's conductance under light L is s*L^Gamma, s its sensitivity (1 + Spread*z, fixed per
// machine, drawn in New). The conductance follows the light with a first-order lag: faster when
// the light rises (RiseTau) than when it falls (DecayTau), so a dark card shown right after a
// bright one leaves an after-image. The comparators read the cells Latch seconds after the card
// appears: a cell's S-unit is on when its conductance plus dark noise is below Threshold^Gamma
// (DarkFigure) or above it (LightFigure). The threshold is the same for every cell, so the
// sensitivity spread moves cells across it. The lag is computed in closed form, with the
// exponentials cached for the presentation time, and dark noise is drawn only for cells close
// enough to the threshold (8 sigma) for it to matter.
//
// With Params.Ideal, a cell is on exactly when the area average of the card over it is below
// one half (above for LightFigure): no blur, gamma, spread, lag or noise. NeutralParams is the
// analog retina with every flaw at its neutral value; it gives exactly the ideal S-states, and
// the flaws can be turned on one at a time from it (ParamDocs says which act alone).
//
// # Ranges
//
// Every value the retina computes is finite and within its physical range, whatever the image
// (any colour model, any size, all black or all white) and the parameters: Stimulus.Light in
// [0, Lamp] (Ideal: [0, 1]), Stimulus.G in [0, s*Lamp^Gamma] for a cell of sensitivity s, and
// every level Levels and State report likewise (Ideal: the light, [0, 1]). A level moves only
// between its old value and its target. Every state State returns, SetState accepts.
//
// # Determinism
//
// Randomness comes only from the *rand.Rand values handed in: the sensitivity spread from the
// rng given to New, the dark noise from the one given to Expose. The same parameters, seeds and
// cards give the same S-states bit for bit, on every architecture: the transcendental functions
// and the normal random numbers come from internal/detmath, which computes them the same way
// everywhere, and every product that is added to something is rounded explicitly
// (float64(x*y) + z), which keeps compilers from fusing it into a multiply-add (as they do on
// arm64). State and SetState save and restore the cells (their sensitivities and current
// levels) exactly, so that a restored retina continues bit for bit.
//
// # Concurrency
//
// A Retina is used by one goroutine at a time, except that Levels, State and Params only read:
// they may be called concurrently with each other (a window or a hardware bridge reading while
// the machine holds its own lock around presentations), but not concurrently with Prepare,
// Expose, Reset or SetState. A Stimulus is only read by Expose; many retinas may not share one
// (G holds one retina's sensitivities).
package retina
