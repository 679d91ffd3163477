// Package retina models the Mark I Perceptron's sensory field: a 20x20 grid of
// cadmium-sulphide photocells (the S-units) onto which a lens focused the lit stimulus card.
//
// The optics (placement, area averaging per cell, defocus, lamp brightness) run once per card in
// Prepare; the cells (non-linear response, sensitivity spread, rise/decay lag, dark noise and the
// comparator threshold) run on every presentation in Expose, without allocating.
//
// # Optics (Prepare)
//
// The card is any image.Image. Its luminance is taken with the Rec. 601 weights of
// color.Gray16Model, transparent parts showing the Surround luminance, which also fills the field
// outside the card. By default the card is scaled, keeping its aspect ratio, so that its larger
// side spans the 20 cells, and centred; Params.Scale multiplies that size, Params.Rotation turns
// the card clockwise about its own centre, and Params.OffsetX and OffsetY then shift it along the
// field's axes, in cells. Each cell receives the exact mean luminance over its own square (area
// averaging, not the nearest pixel: a summed-area table interpolated bilinearly, exact for
// piecewise-constant pixels). Defocus (Params.Blur) is a Gaussian blur applied to a focal plane of
// 4x4 sub-cells per cell before the cells integrate it; rotation by other than a multiple of 90
// degrees is rendered on the same plane. The lamp multiplies the light: a Stimulus holds the
// light on each cell and the conductance each cell tends to under it.
//
// # Cells (Expose)
//
// A cell's conductance under light L is s*L^Gamma, s its sensitivity (1 + Spread*z, fixed per
// machine, drawn in New). The conductance follows the light with a first-order lag: faster when
// the light rises (RiseTau) than when it falls (DecayTau), so a dark card shown right after a
// bright one leaves an after-image. The comparators read the cells Latch seconds after the card
// appears: a cell's S-unit is on when its conductance plus dark noise is below Threshold^Gamma
// (DarkFigure: ink on paper) or above it (LightFigure). The threshold is the same for every cell,
// so the sensitivity spread moves cells across it. The lag is computed in closed form, with the
// exponentials cached for the presentation time, and dark noise is drawn only for cells close
// enough to the threshold (8 sigma) for it to matter.
//
// With Params.Ideal, a cell is on exactly when the area average of the card over it is below
// one half (above for LightFigure): no blur, gamma, spread, lag or noise.
//
// # Determinism
//
// Randomness comes only from the *rand.Rand values handed in: the sensitivity spread from the rng
// given to New, the dark noise from the one given to Expose. The same parameters, seeds and cards
// give the same S-states bit for bit. State and SetState save and restore the cells (their
// sensitivities and current levels) exactly, so that a restored retina continues bit for bit.
package retina
