// Package rigdev brings a rig file to life: it opens the chips the file names on the buses
// the host gives it, maps each pot to the weight it shows, and runs them.
//
// Hardware holds every chip of the rig. A mirror rig's pots follow weight targets
// (SetWeights): each update frame (Step) writes the changed ones, a servo board's channels in
// as few transactions as the chip allows, a digital pot chip's wipers in one, under each
// board's slewing limit. A loop rig's pots are the weights of a small machine: LoopRack is a
// machine.Rack whose Drive writes the corrections and waits for the closed loop, and whose Sum
// adds what the ADCs read back.
//
// # Closed loop
//
// A pot with a read-back (an ADS1115 channel on its wiper) is calibrated once: driven to both
// ends of its travel (a sweep), where the ADC's readings become positions 0 and 1. The ends are
// kept in Env.CalFile (JSON) and read at the next Open, for each pot whose rig file entry is
// the same (its weight, output, read-back, and its pulses and board or its chip's model); each
// such pot is checked once at its first position (read back within the rig's tolerance of it),
// and one that fails (a knob slipped on its shaft, a pot rewired) is swept again, as are all of
// them when Env.Recalibrate is set. Without a file every Open sweeps. After each move
// it is read back once settled (a servo's travel time, estimated by its board); when the
// reading is off its target by more than the rig's tolerance, the command is corrected by the
// error and sent again, at most max_corrections times; a pot that still does not follow is
// reported (a slipping knob, a dead servo, a loose wire). The learnt correction is kept for
// the pot's later moves.
//
// # Faults
//
// A failed transaction (a NACK, a timeout, a stuck bus) is retried with back-off; when it
// still fails, the chip is marked faulty, the fault reported (the log, Status, the events) and
// the rig goes on without it. Its pots keep their targets: nothing is lost. A faulty chip is
// tried again after the rig's fault_retry_s, then twice as long, up to a minute; a chip that
// did not answer at Open is opened then. When it answers again it is checked (a chip back from
// a power loss is set up again) and the latest targets are written. Every check_s each chip is
// checked for a power loss the same way.
//
// Simulate builds the rig's chips as register-level simulations (package i2csim), wired as
// the rig file says (servos on the boards' channels with pots read by the ADCs, wipers into
// the ADCs, the panel's expander), so a whole rig runs on any machine.
package rigdev
