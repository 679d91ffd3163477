// Package retina models the Mark I Perceptron's sensory field: a 20x20 grid of
// cadmium-sulphide photocells (the S-units) onto which a lens focused the lit stimulus card.
//
// The optics (placement, area averaging per cell, defocus, lamp brightness) run once per card in
// Prepare; the cells (non-linear response, sensitivity spread, rise/decay lag, dark noise and the
// comparator threshold) run on every presentation in Expose, without allocating.
package retina
