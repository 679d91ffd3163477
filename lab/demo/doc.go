// Package course holds the lab's demonstrations of the course's other half: the rules worked
// by hand and their geometry, the perceptron criterion as a loss, many classes read by sign
// and by vote, least squares masking a class, Boolean functions of one threshold unit, the
// pocket algorithm on real digits, and least squares as Fisher's discriminant. Each returns a
// report (package lab/report) with its tables and figures; the mark1 command runs them as
// "mark1 lab NAME".
//
// The demonstrations whose textbook arithmetic is exact compute exactly (package lab/exact):
// the traces, the loss view, the Boolean functions, the digits' features (integer sums of
// pixels) and least squares against Fisher on integer data. Only the figures and the
// distances (square roots) are floating point.
package demo
