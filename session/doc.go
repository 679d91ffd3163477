// Package session runs one Mark I Perceptron for whoever shows or drives it: the museum's
// window, the rig's bridge, the lab. A Session owns the machine and steps it on its own
// goroutine (Run), apart from any drawing; it paces the presentations from the historical
// speed (one card every 3 s of wall time, the machine's presentation time) up to as fast as
// the processor goes; it takes commands from any goroutine (Train, Test, Stop, Reset, Teach,
// Present, SetSpeed, SetRule, SetExperiment), applies them between two presentations, in
// order; and it publishes Frames, each a consistent picture of the machine after one whole
// presentation, double-buffered so that a reader (Snapshot, Wait) never waits for a
// presentation and never sees half of one.
//
// An experiment is a named card set (a built-in set such as "letters"); the session keeps one
// machine per experiment. With a state directory (Options.Dir) it saves the machine with
// machine.Save (atomically) every Options.SaveEvery, when the experiment changes and when Run
// ends, and New resumes from it: the experiment, the machine, the mode it was in, its speed
// and the mistakes of every epoch so far.
//
// # Determinism
//
// The machine is built from Options.Config (machine.Default when nil), so the same seed gives
// the same machine. Training uses machine.Epoch, so a session that trains at any speed with
// no other command reaches, epoch for epoch, the machine that "mark1 train" reaches with the
// same seed and set: pacing changes when cards are shown, never which. A command between two
// presentations ends the epoch under way (the next epoch draws a new order from the
// machine's order stream), so the same commands at the same presentations give the same
// machine.
package session
