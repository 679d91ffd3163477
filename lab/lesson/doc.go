// Package lesson holds the lab's demonstrations of the lecture notes' ideas, on the emulator
// and on plain data: the perceptron convergence theorem and Novikoff's bound (Novikoff), the
// perceptron cycling on data no line separates while the pocket keeps its best
// (NonSeparable), least squares and Fisher pulled by outliers (Outliers), the analog
// machine's flaws one at a time (Flaws) and its forgetting (Forget), why random A-units help
// (AUnits), what each R-unit has learned (Fields), and the comparison of methods on one
// problem (CompareReport). The historical experiments are package lab/experiment.
//
// Each returns a report.Report; with Quick set it carries checks whose bands a working
// machine keeps (a machine that never learns falls outside them).
package lesson
