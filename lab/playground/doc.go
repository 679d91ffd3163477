// Package playground is everything the browser lab computes, as Go functions with JSON-friendly
// types: cmd/mark1-lab binds them to JavaScript (the global mark1lab object) in the browser's
// WebAssembly build, and the tests run them natively. The page draws; every number it shows is
// this package's.
//
// Demos lists the lab's registry (lab/demo's demonstrations, then lab/experiment's
// experiments) with their parameters; RunDemo runs one from a URL query whose parameters are
// the command's flags and returns its report as JSON, the figures' data included, with the
// equivalent command line.
package playground
