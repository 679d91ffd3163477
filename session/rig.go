package session

import "time"

// MaxRigKnobs is the most knobs of a rig a Frame describes (Rig.Knobs): a rig with more shows
// its first MaxRigKnobs, in the rig file's order.
const MaxRigKnobs = 32

// Rig is what a hardware rig attached to the session is doing (hwbridge's knobs or pots, run
// by the museum's rig link): a small value that Snapshot copies into every Frame from
// Options.Rig, so that the screen draws it without allocating. A session without a rig has a
// zero Rig (Attached false), and the screen draws nothing of it.
type Rig struct {
	// Attached says a rig is configured: the screen shows its panel and marks its knobs.
	Attached bool
	// Seq changes whenever anything below changes: a window draws again when it does.
	Seq uint64
	// Loop says the machine learns on the rig's pots (their read-backs are the weights its
	// R-units sum); otherwise the rig's knobs mirror some of the machine's weights.
	Loop bool
	// State is the rig's state in a word; Since when it began.
	State RigState
	Since time.Time
	// Emulated says, for a loop rig, that the learning went back to the emulated racks: the
	// rig does not follow (State says why), and the machine goes on without it.
	Emulated bool
	// Chip is the faulty chip's name (RigFault), or "".
	Chip string
	// Addr is the bridge's address (HOST:PORT).
	Addr string
	// Generation is the rig's count of motion stopped (a watchdog, a halt): when it changes,
	// every knob is sent again.
	Generation uint64
	// Knobs are the rig's knobs (NKnobs of them), in the rig file's order.
	Knobs  [MaxRigKnobs]RigKnob
	NKnobs int
	// AllKnobs is how many knobs the rig has (more than NKnobs when over MaxRigKnobs).
	AllKnobs int
	// Moving counts the knobs still turning toward their targets.
	Moving int
	// Faults counts the rig's chips that do not answer.
	Faults int
	// ReadbackError is the largest distance, in increments, between a read-back knob's
	// reading and its target (0 without read-backs).
	ReadbackError float64
	// Sent counts what the museum sent the rig: a mirror's frames, a loop's corrections.
	Sent uint64
	// BusFrames and BusBytes are the frames the rig wrote on its bus and their bytes (the
	// bridge's count, since it started).
	BusFrames, BusBytes uint64
}

// RigKnob is one knob of a rig: the weight it shows (R-unit R, A-unit A, -1 for the bias),
// the weight it should show (Target: the machine's) and what it shows (Reading: read back, or
// as commanded when it has no read-back).
type RigKnob struct {
	R, A     int16
	Target   float32
	Reading  float32
	Readback bool // the knob is read back (its Reading is measured)
	Moving   bool // it is still turning toward its target
}

// RigState is what a rig is doing, in a word.
type RigState uint8

const (
	// RigConnecting: no bridge has answered yet.
	RigConnecting RigState = iota
	// RigNotConnected: the bridge does not answer (missing, killed, its computer off).
	RigNotConnected
	// RigSyncing: the bridge answers again; every knob is being sent back to its weight.
	RigSyncing
	// RigTurning: knobs are turning toward the machine's weights.
	RigTurning
	// RigResting: every knob shows its weight.
	RigResting
	// RigHeld: the rig's watchdog stopped its motion (no word from the museum for too long).
	RigHeld
	// RigHalted: an operator halted the rig (hwbridge halt): nothing moves until resumed.
	RigHalted
	// RigFault: a chip of the rig does not answer (Rig.Chip).
	RigFault
	// RigNotFollowing: the rig answers, but its pots' read-backs do not follow their targets.
	RigNotFollowing
	// RigOther: the bridge runs another rig than the museum's (another loop machine).
	RigOther
	numRigStates
)

var rigStateNames = [numRigStates]string{"connecting", "not connected", "syncing", "turning", "resting", "held",
	"halted", "fault", "not following", "other rig"}

// String returns the state's name, as the staff's status gives it ("not connected").
func (s RigState) String() string {
	if s < numRigStates {
		return rigStateNames[s]
	}
	return "state?"
}

// Connected reports whether the bridge answers in this state.
func (s RigState) Connected() bool { return s != RigConnecting && s != RigNotConnected }

// RigSource gives a session its rig's state (Options.Rig).
type RigSource interface {
	// LoadRig copies the rig's latest state into dst. It must not wait for the rig (a copy
	// under a lock): Snapshot calls it, on whatever goroutine draws.
	LoadRig(dst *Rig)
}
