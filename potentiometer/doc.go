// Package potentiometer models the weights of the Mark I Perceptron: racks of rotary
// potentiometers turned by electric motors, one rack per R-unit (historical). A Rack holds one
// pot per A-unit plus a bias pot (index n, the weight of an always-on unit phi0 = 1). The
// position of a pot's wiper is the weight, in increments: one nominal correction pulse moves a
// pot 1.0.
//
// The machine uses a rack three ways on every presentation: Sum reads the R-unit's input (the
// bias pot plus the pots of the active A-units), Drive sends the learning rule's correction
// pulses to the motors, and Advance lets machine time pass. None of them allocates.
//
// # Physics
//
// Each pot has hidden state: the position m of its motor (the gear-train input), the position p
// of its wiper, a motor gain k (travel per nominal pulse, fixed per motor) and a track gain g
// (the pot's track-resistance tolerance, fixed per pot). NewRack draws k = 1 + N(0, MotorSpread)
// and g = 1 + N(0, Tolerance) for every pot, bias pot included; a draw below 0.5 is clamped to
// 0.5. Motor and wiper start at 0, the motor in the middle of the gear play.
//
// A Drive of s increments (s may be fractional, as the gamma rule needs; its sign is the
// direction) moves the motor of every pot it addresses by
//
//	travel = s * k * (1 + u),   u uniform in [-PulseJitter, +PulseJitter],
//
// with u drawn once per moved pot per Drive. The motor stops at the end stops -Range and
// +Range. The wiper follows the motor through the gear backlash, a play operator of width
// Backlash: when m > p + Backlash/2 the wiper is pushed to m - Backlash/2, when
// m < p - Backlash/2 it is pushed to m + Backlash/2, and otherwise it stays put, so after a
// reversal the first Backlash of travel only takes up the slack. The wiper is clamped to the end
// stops as well.
//
// A pot's reading (what the R-unit's summing network sees of it, without noise) is
//
//	q = g * quantize(p),
//
// where quantize rounds to the nearest multiple of Resolution, the step of the wire-wound
// track (0 = continuous). The rack keeps every pot's reading up to date when it moves, so Sum is
// a plain gather-add over the active pots.
//
// The R-unit's input is
//
//	Sum = (q_bias + sum of q_i over active i) * G(t) + ContactNoise * sqrt(a+1) * N(0, 1),
//
// where a is the number of active A-units. The contact noise of each of the a+1 wipers in the
// sum is independent and Gaussian, so their total is exactly one Gaussian of variance
// ContactNoise^2 * (a+1): Sum draws one random number, not one per pot. The rack gain
//
//	G(t) = 1 + TrackDrift * (1 - exp(-t/TrackTau))
//
// is the slow change of all track resistances as the rack warms up over machine time t; it is
// computed once per Advance, not per Sum.
//
// Machine time is the time the machine has been running, in seconds, advanced by the caller
// (about 3 s per presentation on the original); drift follows it, not wall time. Each wiper
// creeps as a random walk (Brownian motion) of WiperDrift increments per square root of hour.
// The rack accumulates elapsed machine time and, once DriftInterval seconds have passed, moves
// every wiper by one Gaussian step of variance WiperDrift^2 * elapsed/3600 (clamped to the end
// stops) and refreshes the readings. Brownian motion sampled at those instants is exact, whatever
// the step sizes of Advance, and between batches nothing is computed per pot.
//
// In ideal mode (Params.Ideal, as IdealParams returns) every effect is off and the other fields
// are ignored: Drive adds exactly s to the wiper and the reading, so integer increments stay exact
// float64 integers; there are no end stops; Sum is exact and draws nothing; Advance only counts
// time. No random number is used, and every noise argument may be nil.
//
// # Parameters
//
// All numbers are assumed: the surviving record says the weights were motor-driven
// potentiometers in racks (historical) but gives no travel, resolution, backlash or drift
// figures. "inc" is increments, one nominal correction pulse.
//
//	field          models                                      unit          default   source
//	Range          end stops at -Range, +Range                 inc           64        assumed
//	Resolution     wire-wound track step (0 = continuous)      inc           0.2       assumed
//	Backlash       gear play taken up on reversal              inc           0.3       assumed
//	MotorSpread    per-motor travel-per-pulse spread (fixed)   sigma, frac   0.05      assumed
//	PulseJitter    per-pulse travel spread                     +- frac       0.1       assumed
//	Tolerance      per-pot track resistance (gain) spread      sigma, frac   0.02      assumed
//	WiperDrift     wiper random walk                           inc/sqrt(h)   0.05      assumed
//	DriftInterval  machine time between drift batches          s             600       assumed
//	TrackDrift     rack gain change after warm-up              fraction      -0.01     assumed
//	TrackTau       warm-up time constant                       s             1800      assumed
//	ContactNoise   wiper contact noise per pot in a sum        inc RMS       0.05      assumed
//	Ideal          every effect off (textbook weights)         bool          false     -
//
// Randomness comes only from the *rand.Rand values the caller passes (math/rand/v2, normally a
// PCG stream): NewRack's for the fixed build spreads, and Drive's, Sum's and Advance's for the
// per-pulse jitter, the contact noise and the drift. A rack's State with the same random stream
// continues bit for bit.
package potentiometer
