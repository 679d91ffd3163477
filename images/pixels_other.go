//go:build !linux

package images

// pixelBuffer returns a new buffer of n bytes for an IDX file's pixels.
func pixelBuffer(n int) []byte { return make([]byte, n) }
