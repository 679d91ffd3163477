// Package learn holds the linear discriminants of a first course in pattern recognition, written
// to be read beside the lecture notes (Duda, Hart and Stork, Pattern Classification, ch. 5;
// Bishop, Pattern Recognition and Machine Learning, ch. 4; Gallant 1990 for the pocket):
//
//   - the fixed-increment perceptron (the Mark I's alpha rule), online and batch;
//   - the variable-increment perceptron with a margin b and a learning-rate schedule eta(k);
//   - the pocket algorithm with ratchet, which keeps the best weights seen;
//   - least-squares classification through the pseudo-inverse;
//   - Fisher's linear discriminant for two classes;
//   - logistic regression (the probabilistic counterpart of least squares: g(x) as log-odds,
//     P(+1 | x) = Sigmoid(g(x))), by Newton's method, with an optional penalty on the weights;
//   - many classes by one-vs-rest, one-vs-one voting, or K discriminants with argmax;
//   - the quantities of the perceptron convergence theorem (Novikoff 1962): the radius R of
//     the samples, the margin gamma of a separating solution, and the bound R^2/gamma^2 on the
//     number of corrections.
//
// # Conventions
//
// A sample x has d features; its augmented form is (x, 1), and a two-class discriminant is
// g(x) = w.x + w0, held as a Linear whose weights W = (w, w0) put the bias last, as mark1's
// racks put their bias pot after the A-units' pots. A two-class problem labels its samples
// y = +1 or -1; g(x) > 0 answers +1, anything else -1 (the Mark I's R-unit is on when its sum
// is positive). A sample counts as misclassified by the perceptron rules when y g(x) <= b (b = 0
// for the plain perceptron), so every sample is corrected at zero weights.
//
// Data with K classes numbers them 0..K-1. With two classes every strategy trains a single
// discriminant, positive for class 1.
//
// # Determinism
//
// Every random choice (the order of presentation) comes from Rule.Seed through math/rand/v2's
// PCG. The perceptron rules round every product before adding it (float64(a*b) + c), so they
// give the same weights on every architecture; the closed forms use gonum's linear algebra,
// the same from run to run on one machine (and in the last bits only may differ across
// architectures).
package learn
