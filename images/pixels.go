package images

import "github.com/mark1-perceptron/mark1/internal/hugepage"

// pixelBuffer returns a new buffer of n bytes for an IDX file's pixels, a large one advised
// for huge pages before it is touched (see internal/hugepage): reading MNIST's 47 MB of
// training digits into 4 KiB pages takes 11,500 page faults, which a virtual machine makes
// slow; 2 MiB pages take about 23.
func pixelBuffer(n int) []byte { return hugepage.Make[byte](n) }
