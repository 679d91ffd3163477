// Package potentiometer models the weights of the Mark I Perceptron: racks of rotary
// potentiometers turned by motors (or, in one account, by relay-driven ratchets), which is
// historical. One rack per R-unit, each holding one pot per A-unit plus a bias pot, is this
// emulator's arrangement (the record does not say how many pots there were nor how they were
// grouped, and mentions no bias): a Rack holds n A-unit pots and the bias pot (index n, the
// weight of an always-on unit phi0 = 1). The position of a pot's wiper is the weight, in increments: one nominal correction
// pulse moves a pot 1.0.
//
// # Use
//
// NewRack builds a rack of n A-unit pots with Params (DefaultParams: the analog rack with every
// flaw at its assumed default; IdealParams: the textbook weights) and a random stream for its
// fixed build spreads. The machine then uses it three ways on every presentation, none of which
// allocates:
//
//   - Sum reads the R-unit's input: the bias pot plus the pots of the active A-units, times the
//     rack's gain, plus contact noise (SumRacks reads several racks at once).
//   - Drive sends the learning rule's correction: a step onActive to the active A-units' pots
//     and the bias pot, onInactive to the others (the gamma rule drives both, the alpha rule
//     only the active ones).
//   - Advance lets machine time pass: the racks warm up and the shafts creep.
//
// Readings and Pos read the weights; State and SetState save and restore a rack exactly, so
// that a restored rack continues bit for bit (UpgradeState brings in states of an earlier
// model).
//
// # The model in brief
//
// Each pot is a drive (a motor moving by timed travel, or a ratchet moving by whole teeth)
// turning a gear train with play (Backlash) between the motor side and the wiper; mechanical
// stops hold the shaft within -Range..+Range. Each drive and each track has a fixed gain drawn
// by NewRack; a motor's pulses vary (PulseJitter), a ratchet's strokes may miss or double. A
// reading is the wiper rounded to the track's Resolution times the track gain; the rack's gain
// changes as it warms up (TrackDrift), and every shaft creeps as a random walk (WiperDrift) in
// machine time. Every field of Params says what it models, its unit, its default and where the
// default comes from (all are assumed: the record gives none); ParamDocs gives the same for the
// machine's configuration files, and docs/parameters.md lists them with their ranges.
//
// NeutralParams is the analog model with every effect at its neutral value: it gives exactly
// the ideal rack's readings, sums and positions, so single flaws can be turned on from it.
//
// docs/potentiometer.md has the whole model: the gear train's invariant, the two drives and the
// ratchet's remainder, the sums, warm-up and drift and why they were chosen, which parameters
// act alone, and how far the gamma rule's conservation holds under the flaws, with the
// commands that measure each figure.
//
// # Determinism and concurrency
//
// Randomness comes only from the *rand.Rand values the caller passes (math/rand/v2, normally a
// PCG stream): NewRack's for the fixed build spreads, and Drive's, Sum's and Advance's for the
// per-pulse jitter and slips, the contact noise and the drift. An ideal rack draws nothing, and
// every noise argument may then be nil. The same parameters and streams give the same bits on
// amd64 and arm64 (TestGolden checks a digest of a whole session; make arm64 runs it
// under qemu). A Rack is not safe for concurrent use.
package potentiometer
