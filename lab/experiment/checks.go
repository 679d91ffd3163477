package experiment

import "github.com/mark1-perceptron/mark1/lab/report"

// check is one figure of a quick run and the band a working machine keeps it in (see
// report.Check); broken says what a broken machine gives instead.
func check(what string, value, lo, hi float64, broken string) report.Check {
	return report.Check{What: what, Value: value, Min: lo, Max: hi, Broken: broken}
}
