// Package potentiometer models the weights of the Mark I Perceptron: racks of rotary
// potentiometers turned by motors (or, in one account, by relay-driven ratchets), one rack per
// R-unit (historical). A Rack holds one pot per A-unit plus a bias pot (index n, the weight of an
// always-on unit phi0 = 1). The position of a pot's wiper is the weight, in increments: one
// nominal correction pulse moves a pot 1.0.
//
// The machine uses a rack three ways on every presentation: Sum reads the R-unit's input (the
// bias pot plus the pots of the active A-units), Drive sends the learning rule's correction
// pulses to the drives, and Advance lets machine time pass. None of them allocates.
//
// # The gear train
//
// Each pot has a drive (a motor, or a relay and ratchet) that turns a gear train, whose output
// turns the pot's shaft, which carries the wiper. The model keeps, per pot, the position m of
// the gear train's input (the motor side, referred to the shaft, in increments) and the
// position p of the shaft and wiper, with a play of width Backlash between them:
//
//	m - Backlash/2 <= p <= m + Backlash/2
//
// (each bound as float64 arithmetic rounds it: this is the invariant the rack keeps exactly and
// SetState checks). A motor side moving up pushes the wiper to m - Backlash/2 when it lags
// further behind, one moving down pulls it to m + Backlash/2, and otherwise the wiper stays put,
// so after a reversal the first Backlash of travel only takes up the slack. The wiper never
// moves against the drive: a Drive with a step s > 0 never decreases a driven wiper, s < 0
// never increases it. Motor and wiper start at 0, the motor side in the middle of the play.
//
// End stops are mechanical stops on the shaft at -Range and +Range. A wiper driven into a stop
// reaches exactly +-Range; the motor side then stands Backlash/2 beyond it, at its limit
// +-(Range + Backlash/2) (exactly, the largest float64 m with m - Backlash/2 <= Range as
// float64 arithmetic rounds it), and further travel is lost. Drift stops at the stops too. So |p| <= Range and |m| <= Range + Backlash/2
// always, for motor, wiper and drift alike.
//
// Each pot has a fixed motor gain k (travel per nominal pulse; for a ratchet, its tooth pitch
// through the gears), 1 + N(0, MotorSpread), and a fixed track gain g (the pot's
// track-resistance tolerance), 1 + N(0, Tolerance), both drawn by NewRack for every pot, bias
// pot included, and clamped to [MinGain, MaxGain] = [0.5, 1.5].
//
// # The drives
//
// With Drive "motor" (DriveMotor, the default; "motor-driven potentiometers", Bishop and
// Tappert), a step of s increments (s may be fractional, as the gamma rule needs; its sign is
// the direction) moves the motor side of every pot it addresses by
//
//	travel = s * k * (1 + u),   u uniform in [-PulseJitter, +PulseJitter],
//
// with u drawn once per moved pot per Drive.
//
// With Drive "ratchet" (DriveRatchet; "relay coils driving potentiometers through ratchets",
// Nagle's 1986 recollection), each relay stroke advances a ratchet wheel by one tooth, a
// travel of k/TeethPerIncrement increments; the drive moves by whole teeth only and has no
// pulse jitter. Each stroke misses its tooth (moves nothing) with probability RatchetMiss and
// overshoots by one (moves two teeth) with RatchetDouble, independently, one uniform draw per
// stroke. Backlash and the stops apply as for the motor.
//
// A step of s increments is s*TeethPerIncrement teeth, which the gamma rule makes fractional.
// The ratchet's controller carries a per-pot remainder: it adds the step's teeth to the pot's
// remainder, fires the nearest whole number of strokes (ties away from zero, never against the
// step) and keeps the rest, which stays within half a tooth and is saved in RackState. So the
// teeth delivered (without slips) never differ from the teeth commanded so far by more than
// half a tooth per pot, and a run of small gamma steps moves a pot as their sum does. We chose
// this over stochastic rounding (a whole tooth with probability equal to the fraction, the
// expectation kept), which would draw a random number per pot per step and let each pot's
// error, and the rack total, random-walk without bound; the remainder is deterministic,
// bounded, and what a controller that counts pulses per pot would do. The record does not say
// whether or how the Mark I ran the gamma rule on ratchets. Missed and double strokes are not
// seen by the controller (it drives open loop), so they are not carried.
//
// # Readings and sums
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
//	Sum = (q_bias + sum of q_i over active i) * G + ContactNoise * sqrt(a+1) * N(0, 1),
//
// where a is the number of active A-units. The contact noise of each of the a+1 wipers in the
// sum is independent and Gaussian, so their total is exactly one Gaussian of variance
// ContactNoise^2 * (a+1): Sum draws one random number, not one per pot.
//
// # Warm-up
//
// The rack gain G is the slow change of all the rack's track resistances as it warms up over
// machine time t:
//
//	G = 1 + TrackDrift * f * (1 - L),   L = exp(-t/TrackTau),
//
// where f is the rack's warm-up factor, 1 + N(0, TrackSpread) drawn once per rack by NewRack and
// clamped to [0, MaxTrackFactor] = [0, 2]: racks in different places in the cabinet warm by
// different amounts. That matters: the machine decides by comparing the (code-weighted) sums of
// different R-units, and a gain common to all racks scales every sum alike and changes no
// decision (the alpha rule's sign test neither), so with f the same for every rack TrackDrift
// would be unobservable. With its spread, the racks' gains part by about
// |TrackDrift|*TrackSpread and decisions between near-tied R-units change.
//
// Advance keeps the remaining fraction L in closed form without an exp per call: for a step dt,
// L is multiplied by exp(-dt/TrackTau), a factor computed once per new dt and cached (the
// machine advances by the same presentation time every time). L is the product of these
// factors, equal to exp(-t/TrackTau) up to rounding, and is saved in RackState, so a restored
// rack continues bit for bit.
//
// # Drift
//
// Machine time is the time the machine has been running, in seconds, advanced by the caller
// (about 3 s per presentation on the original); drift follows it, not wall time. Each pot's
// shaft creeps as a random walk (Brownian motion) of WiperDrift increments per square root of
// hour. The rack accumulates elapsed machine time and, once DriftInterval seconds have passed,
// moves every shaft by one Gaussian step of variance WiperDrift^2 * elapsed/3600, stopped at
// the end stops, and refreshes the readings. Brownian motion sampled at those instants is
// exact, whatever the step sizes of Advance, and between batches nothing is computed per pot.
//
// Drift is creep of the whole shaft: the motor side and the wiper move together, by the same
// amount, and the play between them is kept. We chose this over a reading offset (the wiper's
// electrical position drifting while the gears stand still) because the causes that plausibly
// move a motor-driven pot with no pulse (vibration working a gear train that does not lock,
// thermal creep) move the train as a whole, and a wiper that moved alone by more than the play
// would have to slip on its shaft; because the stops then need no second rule (the shaft
// creeps until it meets a stop, where a reading offset would need limits of its own at the
// track's ends and a second per-pot state); and because Pos stays the weight. Moving the wiper
// alone, as an earlier version did, was not gear-true: the next pulse's backlash snapped the
// wiper back to its motor and erased the drift, and after long idle times a wiper could drift
// more than the play ahead of its motor, so that a forward pulse moved it backward. Under
// shaft creep a pulse starts from wherever the shaft crept to and cannot undo the drift.
//
// # Ideal and neutral racks
//
// In ideal mode (Params.Ideal, as IdealParams returns) every effect is off and the other fields
// are ignored: Drive adds exactly s to the wiper and the reading, so integer increments stay
// exact float64 integers; there are no end stops; Sum is exact and draws nothing; Advance only
// counts time. No random number is used, and every noise argument may be nil. NeutralParams is
// the analog model with every effect at its neutral value; it gives exactly the readings, sums
// and positions of the ideal rack, bit for bit, with whole and with fractional steps, so the
// machine can turn single flaws on from it. IdealParams is NeutralParams with Ideal set.
//
// States saved by the earlier, not gear-true model (wipers that drifted alone, no warm-up
// fields) are brought into this one by UpgradeState.
//
// # The gamma rule's conservation
//
// The gamma rule drives the a active pots (the bias pot included) by y(N-a)/N and the N-a
// inactive ones by -y*a/N, so the commanded travel sums to zero over the rack. Conservation
// holds for the commanded travel: the ideal and the neutral racks keep their total weight (to
// float64 rounding). It does not hold for the wipers under the flaws: backlash eats up to
// Backlash of travel at every reversal, and gamma reverses most pots often; a stop swallows
// travel; motor spread and pulse jitter scale each pot's travel differently; the ratchet
// rounds to whole teeth (the remainder keeps each pot within half a tooth of its commands) and
// its strokes slip; drift moves shafts on its own; and resolution and tolerance make the
// readings' total differ from the wipers'. The rack total of the wipers random-walks away
// from its start: over 20,000 gamma corrections of a 513-pot rack (random active sets of 5-45%,
// random signs) TestGammaWander measures an RMS wander of 80.6 increments with the defaults,
// 26 with backlash alone and 220 with the ratchet (its slips), against 2e-11 (float64 rounding)
// with every flaw off; the runs are seeded and the test asserts these figures. It grows like a
// random walk with the length of the run.
//
// # Which parameters act alone
//
// Turned on alone from NeutralParams, each of range, backlash, motor_spread, pulse_jitter,
// tolerance, wiper_drift, track_drift (its tau and spread at their defaults) and contact_noise
// changes the readings or the sums that decide (TestFlawsAlone). The others act only with a
// partner, as their knob.Doc Note says: resolution rounds only positions that are not
// multiples of it, so alone it acts under the gamma rule's fractional steps and with whole
// steps only with backlash, motor_spread, pulse_jitter or wiper_drift; drift_interval_s only
// with wiper_drift; track_tau_s and track_spread only with track_drift; drive "ratchet" alone
// only on fractional steps (with whole steps only with pulse_jitter, which the ratchet has
// not, ratchet_slip, or teeth_per_increment not a whole number); teeth_per_increment,
// ratchet_miss and ratchet_double only with the ratchet drive.
//
// # Parameters
//
// All numbers are assumed: the surviving record says the weights were motor-driven
// potentiometers in racks (historical) but gives no travel, resolution, backlash or drift
// figures. "inc" is increments, one nominal correction pulse.
//
//	field              models                                    unit          default  source
//	Range              end stops on the shaft at -Range, +Range  inc           64       assumed
//	Resolution         wire-wound track step (0 = continuous)    inc           0.2      assumed
//	Backlash           gear play taken up on reversal            inc           0.3      assumed
//	MotorSpread        per-pot travel-per-pulse spread (fixed)   sigma, frac   0.05     assumed
//	PulseJitter        per-pulse travel spread (motor)           +- frac       0.1      assumed
//	Tolerance          per-pot track resistance (gain) spread    sigma, frac   0.02     assumed
//	WiperDrift         shaft creep, random walk                  inc/sqrt(h)   0.05     assumed
//	DriftInterval      machine time between drift batches        s             600      modelling
//	TrackDrift         rack gain change after warm-up            fraction      -0.01    assumed
//	TrackTau           warm-up time constant                     s             1800     assumed
//	TrackSpread        per-rack warm-up spread (fixed)           sigma, frac   0.3      assumed
//	ContactNoise       wiper contact noise per pot in a sum      inc RMS       0.05     assumed
//	Drive              motor or ratchet                          name          motor    historical (accounts differ)
//	TeethPerIncrement  ratchet teeth per increment               teeth/inc     1        assumed
//	RatchetMiss        probability a stroke misses its tooth     probability   0.01     assumed
//	RatchetDouble      probability a stroke moves two teeth      probability   0.005    assumed
//	Ideal              every effect off (textbook weights)       bool          false    -
//
// ParamDocs gives the same descriptions, with the flaw each parameter belongs to, for the
// machine's configuration files and its --flaws switches.
//
// # Determinism
//
// Randomness comes only from the *rand.Rand values the caller passes (math/rand/v2, normally a
// PCG stream): NewRack's for the fixed build spreads, and Drive's, Sum's and Advance's for the
// per-pulse jitter and slips, the contact noise and the drift. A rack's State with the same
// random stream continues bit for bit. The exponential and the normal deviates come from
// internal/detmath, and every product that is then added is written float64(x*y) + z, which
// forbids fused multiply-adds, so a rack gives the same bits on amd64 and arm64 (TestGolden
// checks a digest of a whole session; scripts/test-arm64.sh runs it under qemu).
package potentiometer
