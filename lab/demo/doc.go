// Package demo holds the lab's demonstrations (the registry All): the Mark I's own (compare,
// novikoff, nonseparable, outliers, flaws, forget, aunits, fields) and the course's other half:
// the rules worked by hand and their geometry, the four criteria of a linear discriminant (the
// 0-1 loss, the perceptron criterion, E_Q and the relaxation criterion), many classes read by
// sign and by vote, least squares masking a class, Boolean functions of one threshold unit and
// of two layers, the pocket algorithm on real digits, least squares alone with a ridge term,
// least squares as Fisher's discriminant, and a feature map made by hand beside random
// threshold units. Each returns a report (package lab/report) with its tables and figures; the
// mark1 command runs them as "mark1 lab NAME".
//
// The demonstrations whose textbook arithmetic is exact compute exactly (package lab/exact):
// the traces, the loss view, the Boolean functions, the digits' features (integer sums of
// pixels), least squares and Fisher on integer data, and the circle's feature maps. Only the
// figures and the distances (square roots) are floating point.
package demo
