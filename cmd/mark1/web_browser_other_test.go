//go:build !unix

package main

import "testing"

// browserLab drives Chromium over a pipe it hands as file 3 and 4, which only unix does here.
func browserLab(t *testing.T, _, _ string) { t.Skip("Chromium's pipe is driven on unix only") }
