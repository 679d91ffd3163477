// Package lab runs the methods of a pattern-recognition course on the Mark I Perceptron's own
// features, beside the machine itself: the lecture notes' linear discriminants (package
// lab/learn) on the A-unit states the emulator's plug-board computes (or on the raw pixels,
// with the identity wiring), and the Mark I trained by its alpha rule, ideal or with its analog
// flaws.
//
// A Dataset is a training set and an optional test set of features, with, for cards, the
// machine configuration and the cards they came from (NewCardDataset); a problem of features
// drawn by package lab/problem (xor, parity, ...) is one without cards. A Method names what to
// run ("perceptron", "pocket/ovo", "lsq", "fisher", "mark1", "mark1+backlash", ... see
// ParseMethod). Compare runs methods on a dataset, in parallel, and returns for each a Run:
// its training and test error after every epoch (the learning curve), its corrections, and the
// time it took.
//
// ReceptiveField carries an R-unit's weights back through the plug-board onto the retina, to
// show what it has learned. Parallel runs independent jobs on all cores, deterministically;
// TrainCurve trains a machine with its learning curve, and Progress counts a run's jobs done.
// GenSet and BuiltinSet draw and load the card sets the demonstrations use themselves.
//
// # Runs
//
// Every demonstration (package lab/demo) and historical experiment (package lab/experiment)
// is a Demo: its name and help, its parameters (Param: kind, default, range, help), what it
// takes from its host (Uses: the machine, cards, parallel jobs), its quick run, and its Run,
// func(ctx, Config) (*report.Report, error). A host (the mark1 command; the browser lab) makes
// its settings from the parameters, fills a Config (Values, the machine, the cards it loads)
// and runs it; a parameter the run refuses is a *ParamError.
//
// # Determinism
//
// Every random choice comes from a seed: the machine's from its Config.Seed, the learners'
// from Options.Seed. Parallel jobs never share a random source and their results come back in
// job order, so the same call gives the same numbers however the jobs are scheduled; only the
// times differ.
package lab
