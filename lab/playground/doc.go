// Package playground is everything the browser lab computes, as Go functions with JSON-friendly
// types: cmd/mark1-lab binds them to JavaScript (the global mark1lab object) in the browser's
// WebAssembly build, and the tests run them natively. The page draws; every number it shows is
// this package's.
//
// # Runs
//
// Demos lists the lab's registry (lab/demo's demonstrations, then lab/experiment's
// experiments) with their parameters and what the browser runs of each (Demo.Browser: the
// runs with cards or machines, and the experiments, only as their quick runs). RunDemo runs
// one from a URL query whose parameters are the command's flags and returns its report as
// JSON (report.Report's, with "figures" holding plot.Figure's data) and the equivalent
// command line. The query is decoded as a form decodes it and the spaces around each
// comma-separated part dropped, so a label's +1, %2B1, " 1" and 1 read alike; csv= carries
// samples in the --data FILE format (sent on as --point flags); data=FILE is refused.
//
// # The 2-D playground
//
// A Session holds points of two classes (labels +1 and -1; exact rationals) or of K (0..K-1),
// a method and the run so far (SessionConfig). Two classes:
//
//   - fixed, batch, margin (b), variable (the margin rule with eta(k), 1/k by default),
//     pocket and pocket-ratchet (Gallant's, on the fixed rule) run through lab/trace's Stepper:
//     the trace's rows are those mark1 lab trace prints for State.Command, cell for cell
//     (lab/trace.Row), with --schedule and --pocket where set. Step is one presentation, Epoch
//     to the end of the epoch under way, RunToEnd until every sample is met, the weights cycle
//     (with a constant increment) or the most epochs (default 100) have run.
//   - lsq is least squares with ridge lambda, w = (X'X + lambda I')^-1 X'y exactly, I' the
//     identity but for the bias: the bias is not penalised (as the lecture notes leave it
//     out). fisher is S_W^-1 (m1 - m2) with the boundary through the mean of all samples (the
//     discriminant mark1 lab fisher-lsq shows least squares with targets N/N1, -N/N2 to be).
//     Step solves.
//
// K classes go through lab/learn in floats: the perceptron's rules (learn.Iterative, one
// epoch a step, the samples in order; both pockets are learn's, with the ratchet), least
// squares per class or per pair with ridge lambda (exactly), Fisher's K-class discriminant;
// one-vs-rest (ovr), one-vs-one (ovo) and K discriminants (kdisc) are read as mark1 lab
// regions reads them (lab/demo.Decider) and State.Regions grids the answers over the points'
// box, padded by a tenth, 120 cells a side (lab/demo.RegionGrid): a class, K for ambiguous,
// K+1 for no class.
//
// Editing the points (Add, Move, Remove, LoadCSV) runs again as far as the run had gone: to
// its end if it had ended, else as many steps. Set changes the set-up and starts again.
//
// # The state
//
// State (and StateJSON, the same JSON written faster) holds, for two classes: w exactly and
// as floats in the bias's order; the boundary a x1 + b x2 + c = 0 with its unit normal,
// -w0/|w| and |w| (|w| = |(w1, w2)|, the feature weights'); each point's g(x), g(x)/|w|
// (floats, written to float32 precision), whether the rule meets it and the unit's answer;
// the trace (its last 200 rows, First and Total saying which, and the epochs' rows; TraceCSV
// gives them all); the criteria of the current weights exactly and as floats:
//
//	0-1 loss  the samples with y w.x <= 0
//	E_P       sum over y w.x <= 0 of -y w.x (the perceptron criterion; DHS's J_p)
//	E_Q       sum over y w.x <= 0 of (w.x)^2 (DHS's J_q)
//	E_R       1/2 sum over y w.x <= b of (y w.x - b)^2 / |x|^2 (relaxation with margin b, the
//	          session's margin; DHS's J_r), x augmented
//
// (E_R exactly when its samples have at most 64 distinct |x|^2, else its float only, exact
// ""); the history of the criteria after every step (floats; thinned to 500 points, every
// HistoryStride-th step); the criteria along the line w(t) from the initial weights (t = 0)
// to the current (t = 1), t from -0.5 to 1.5 (along the bias when the two are the same); the
// weight space at the current bias w0 (each sample's half-plane of weights that meet it, the
// path of (w1, w2) through the updates, thinned to 500 points); Novikoff's bound
// R^2/gamma^2 with R the longest augmented sample and gamma the larger of the margin
// learn.MaxMargin finds (coordinate ascent on the hard-margin dual, at most 20,000 passes and
// 2,000,000 sample visits: a float method whose margin approaches the largest from below, so
// the bound is always valid) and the current weights' margin when they separate (the bound
// is the fixed increment's from zero; floats); the pocket's weights; the equivalent command
// (mark1 lab trace or fisher-lsq; "" with CommandNote saying why when there is none). For K
// classes: each discriminant's weights and line (floats), each point's answer, the errors,
// the regions.
//
// # The retina panel
//
// A Retina is a machine of package machine (ideal, or with its analog flaws; mark1's default
// machine otherwise, its seed given) answering the classes of a built-in set: Draw shows it a
// 20x20 drawing, Show a built-in card; RetinaState gives the S-units, the A-units that fire,
// the R-units' sums and the answer. Teach makes one correction toward a class; Train trains
// on a built-in set as mark1 train does, the same epochs and accuracy for the same seed
// (RetinaState.Command names the command).
package playground
